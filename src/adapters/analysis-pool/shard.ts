// The second thread of a two-thread analysis (domain/analyze.ts, "Two threads"): a worker that
// runs part of the rule catalogue over the same bytes and sends back its drafts. The analysing
// thread posts each slice of the log as it reads it (a copy: 256 KiB at a time) and takes the
// worker's progress messages as they come, or waits for them when it is too far ahead.
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { RemoteRules, ShardProgress } from '../../domain/shard-types.ts';
import type { AnalysisOptions } from './protocol.ts';

/** Analysing thread → shard worker. */
export type ToShard =
  | { type: 'start'; opts: AnalysisOptions; rules: number[]; port: MessagePort }
  | { type: 'chunk'; data: Uint8Array }
  | { type: 'end' };

/** Shard worker → analysing thread (on the dedicated port). */
export type FromShard = { type: 'progress'; progress: ShardProgress } | { type: 'failed'; message: string };

export interface ShardThread extends RemoteRules {
  /** Stops the worker (after the analysis, or when it failed). */
  close(): Promise<void>;
}

// Compiled (dist/): plain JavaScript. From source (tests under tsx): a small .mjs registers tsx first.
const ENTRY = import.meta.url.endsWith('.ts') ? new URL('./shard-worker-entry.mjs', import.meta.url) : new URL('./shard-worker.js', import.meta.url);

// The worker's young generation, in MB: V8's default for a worker thread let the shard's peak RSS
// reach ~195 MB on a 20 MB log; 4 MB keeps it at ~165 MB for the same CPU time (docs/performance.md).
const SHARD_YOUNG_MB = 4;

export function startShardThread(opts: AnalysisOptions, rules: ReadonlySet<number>): ShardThread {
  const worker = new Worker(ENTRY, { execArgv: [], resourceLimits: { maxYoungGenerationSizeMb: SHARD_YOUNG_MB } });
  const { port1, port2 } = new MessageChannel();
  const ready: FromShard[] = [];
  let waiter: { resolve: (m: FromShard) => void; reject: (e: Error) => void } | null = null;
  let dead: Error | null = null;
  const deliver = (m: FromShard) => {
    if (waiter) {
      const w = waiter;
      waiter = null;
      w.resolve(m);
    } else ready.push(m);
  };
  const die = (e: Error) => {
    dead ??= e;
    if (waiter) {
      const w = waiter;
      waiter = null;
      w.reject(dead);
    }
  };
  port1.on('message', deliver);
  worker.on('error', (e) => die(new Error(`the second analysis thread crashed: ${e.message}`)));
  worker.on('exit', () => die(new Error('the second analysis thread exited before the end of the log')));
  const post = (m: ToShard, transfer?: MessagePort[]) => worker.postMessage(m, transfer);
  post({ type: 'start', opts, rules: [...rules], port: port2 }, [port2]);

  const unwrap = (m: FromShard): ShardProgress => {
    if (m.type === 'failed') throw new Error(`the second analysis thread failed: ${m.message}`);
    return m.progress;
  };
  /** A message already queued on the port (not yet dispatched to the listener), in order. */
  const take = (): FromShard | undefined => ready.shift() ?? (receiveMessageOnPort(port1)?.message as FromShard | undefined);
  return {
    rules,
    push(chunk) {
      // A copy, not a transfer: the chunk is still being analysed on this thread.
      post({ type: 'chunk', data: chunk });
    },
    end() {
      post({ type: 'end' });
    },
    poll() {
      const m = take();
      return m && unwrap(m);
    },
    async next() {
      const m = take();
      if (m) return unwrap(m);
      if (dead) throw dead;
      return unwrap(await new Promise<FromShard>((resolve, reject) => (waiter = { resolve, reject })));
    },
    async close() {
      port1.close();
      worker.removeAllListeners('exit');
      worker.removeAllListeners('error');
      worker.on('error', () => {});
      await worker.terminate();
    },
  };
}
