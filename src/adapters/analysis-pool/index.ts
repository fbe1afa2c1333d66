// A small worker_threads pool running the analyser off the event loop, so a long analysis never
// stalls HTTP requests. Each analysis has a deadline: a worker that passes it (or crashes, or
// runs out of memory) is terminated and replaced, and the analysis fails with a reason the job
// can record. Workers pull the log chunk by chunk (see protocol.ts).
import { Worker } from 'node:worker_threads';
import type { Report } from '../../domain/model/report.ts';
import type { AnalysisOptions, FromWorker, ToWorker } from './protocol.ts';

export type { AnalysisOptions } from './protocol.ts';

export type AnalysisFailureKind = 'timeout' | 'crash' | 'failed' | 'aborted';

export class AnalysisError extends Error {
  constructor(
    readonly kind: AnalysisFailureKind,
    message: string,
  ) {
    super(message);
    this.name = 'AnalysisError';
  }
}

export interface Analyzer {
  analyze(source: AsyncIterable<Uint8Array>, opts: AnalysisOptions, signal?: AbortSignal): Promise<Report>;
  close(): Promise<void>;
}

export interface PoolOptions {
  size: number;
  timeoutMs: number;
  /** V8 old-space cap per worker; an analysis past it fails instead of taking the process down. */
  maxMemoryMb?: number;
  /**
   * The workers run at the lowest CPU priority (priority.ts): for a server, whose HTTP thread
   * must answer first. A CLI run leaves it off (the analysis is what its user waits for).
   */
  background?: boolean;
  onEvent?: (event: string, detail: Record<string, unknown>) => void;
}

interface Task {
  id: number;
  source: AsyncIterator<Uint8Array>;
  opts: AnalysisOptions;
  resolve: (r: Report) => void;
  reject: (e: Error) => void;
  signal?: AbortSignal;
  timer?: NodeJS.Timeout;
  sourceError?: Error;
}

// Compiled (dist/): the worker is plain JavaScript. From source (tests under tsx): a worker thread
// does not inherit the tsx loader of the main thread, so a small .mjs registers it first.
const ENTRY = import.meta.url.endsWith('.ts') ? new URL('./worker-entry.mjs', import.meta.url) : new URL('./worker.js', import.meta.url);

const RESPAWN_MAX_DELAY_MS = 30_000;
const LOAD_TIMEOUT_MS = 60_000;

class Slot {
  worker!: Worker;
  task: Task | null = null;
  /** Workers that died before loading the analyser in a row: backs off respawning (a broken install must not spin). */
  private failedStarts = 0;
  private ready = false;
  private respawnTimer: NodeJS.Timeout | undefined;

  constructor(private readonly pool: Pool) {
    this.spawn();
  }

  spawn(): void {
    this.ready = false;
    const worker = new Worker(ENTRY, {
      execArgv: [],
      workerData: { background: this.pool.opts.background === true },
      resourceLimits: this.pool.opts.maxMemoryMb ? { maxOldGenerationSizeMb: this.pool.opts.maxMemoryMb } : undefined,
    });
    worker.unref(); // an idle pool must not keep a CLI process alive
    worker.on('message', (msg: FromWorker) => this.onMessage(msg));
    // Either event means this worker is gone or going; replace it before anything is dispatched.
    worker.on('error', (err) => this.replace(worker, new AnalysisError('crash', `the analysis worker crashed: ${err.message}`)));
    worker.on('exit', () => this.replace(worker, new AnalysisError('crash', 'the analysis worker exited unexpectedly')));
    this.worker = worker;
  }

  run(task: Task): void {
    this.task = task;
    this.worker.ref();
    if (this.ready) return this.begin(task);
    // A fresh worker is still loading the analyser: the analysis deadline starts once it is
    // ready, but loading itself may not hang for ever either.
    task.timer = setTimeout(() => this.kill(new AnalysisError('crash', `the analysis worker did not start within ${LOAD_TIMEOUT_MS} ms`)), LOAD_TIMEOUT_MS);
  }

  private begin(task: Task): void {
    clearTimeout(task.timer);
    task.timer = setTimeout(() => this.kill(new AnalysisError('timeout', `the analysis took longer than ${this.pool.opts.timeoutMs} ms`)), this.pool.opts.timeoutMs);
    this.post({ type: 'start', id: task.id, opts: task.opts });
  }

  /** Ends the current task with `error` and replaces the worker (it may be stuck). */
  kill(error: AnalysisError): void {
    if (this.task) this.replace(this.worker, error, true);
  }

  /** `deliberate`: we stopped it (deadline, cancel); otherwise it died on its own. */
  private replace(worker: Worker, error: AnalysisError, deliberate = false): void {
    if (this.worker !== worker || this.respawnTimer) return; // already replaced, or about to be
    void worker.terminate();
    this.failedStarts = this.ready || deliberate ? 0 : this.failedStarts + 1;
    if (this.failedStarts === 0) {
      if (!this.pool.closed) this.spawn();
      this.fail(error);
      return;
    }
    // It died while loading the analyser: so will the next one until the install is fixed.
    // Respawn after a growing pause; meanwhile what waits fails now (its job is retried later).
    const delay = Math.min(RESPAWN_MAX_DELAY_MS, 250 * 2 ** this.failedStarts);
    this.respawnTimer = setTimeout(() => {
      this.respawnTimer = undefined;
      if (this.pool.closed) return;
      this.spawn();
      this.pool.dispatch();
    }, delay);
    this.fail(error);
    this.pool.onStartFailure(error);
  }

  get available(): boolean {
    return !this.task && !this.respawnTimer;
  }

  stopRespawning(): void {
    clearTimeout(this.respawnTimer);
    this.respawnTimer = undefined;
  }

  private post(msg: ToWorker): void {
    this.worker.postMessage(msg, msg.type === 'chunk' ? [msg.data.buffer as ArrayBuffer] : []);
  }

  private onMessage(msg: FromWorker): void {
    if (msg.type === 'ready') {
      this.ready = true;
      this.failedStarts = 0;
      if (this.task) this.begin(this.task);
      return;
    }
    const task = this.task;
    if (!task || msg.id !== task.id) return;
    if (msg.type === 'pull') void this.feed(task);
    else if (msg.type === 'done') this.finish(() => task.resolve(msg.report));
    else this.finish(() => task.reject(task.sourceError ?? new AnalysisError('failed', msg.message)));
  }

  private async feed(task: Task): Promise<void> {
    try {
      const next = await task.source.next();
      if (this.task !== task) return;
      // A private copy: transferring the reader's buffer could detach memory it still uses.
      this.post(next.done ? { type: 'end', id: task.id } : { type: 'chunk', id: task.id, data: new Uint8Array(next.value) });
    } catch (error) {
      if (this.task !== task) return;
      task.sourceError = error instanceof Error ? error : new Error(String(error));
      this.post({ type: 'abort', id: task.id, message: task.sourceError.message });
    }
  }

  private finish(settle: () => void): void {
    const task = this.task;
    if (!task) return;
    clearTimeout(task.timer);
    this.task = null;
    this.worker.unref();
    void task.source.return?.();
    settle();
    this.pool.dispatch();
  }

  fail(error: Error): void {
    const task = this.task;
    if (task) this.finish(() => task.reject(error));
  }
}

class Pool implements Analyzer {
  readonly slots: Slot[];
  readonly queue: Task[] = [];
  closed = false;
  private nextId = 1;

  constructor(readonly opts: PoolOptions) {
    this.slots = Array.from({ length: Math.max(1, opts.size) }, () => new Slot(this));
  }

  analyze(source: AsyncIterable<Uint8Array>, opts: AnalysisOptions, signal?: AbortSignal): Promise<Report> {
    if (this.closed) return Promise.reject(new AnalysisError('aborted', 'the analysis pool is closed'));
    if (signal?.aborted) return Promise.reject(new AnalysisError('aborted', 'the analysis was cancelled'));
    return new Promise<Report>((resolve, reject) => {
      const task: Task = { id: this.nextId++, source: source[Symbol.asyncIterator](), opts, resolve, reject, signal };
      signal?.addEventListener('abort', () => this.cancel(task), { once: true });
      this.queue.push(task);
      this.dispatch();
    });
  }

  private cancel(task: Task): void {
    const error = new AnalysisError('aborted', 'the analysis was cancelled');
    const queued = this.queue.indexOf(task);
    if (queued >= 0) {
      this.queue.splice(queued, 1);
      void task.source.return?.();
      task.reject(error);
      return;
    }
    this.slots.find((s) => s.task === task)?.kill(error);
  }

  dispatch(): void {
    for (const slot of this.slots) {
      if (this.queue.length === 0) return;
      if (slot.available) slot.run(this.queue.shift() as Task);
    }
  }

  /** No worker can start: queued analyses fail now rather than wait for a fix. */
  onStartFailure(error: AnalysisError): void {
    this.opts.onEvent?.('worker_start_failed', { error: error.message });
    if (this.slots.some((s) => s.available)) return;
    for (const task of this.queue.splice(0)) {
      void task.source.return?.();
      task.reject(error);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const task of this.queue.splice(0)) task.reject(new AnalysisError('aborted', 'the analysis pool is closed'));
    await Promise.all(
      this.slots.map(async (slot) => {
        slot.stopRespawning();
        slot.fail(new AnalysisError('aborted', 'the analysis pool is closed'));
        await slot.worker.terminate();
      }),
    );
  }
}

export function createAnalysisPool(opts: PoolOptions): Analyzer {
  return new Pool(opts);
}

/**
 * The same contract on the calling thread (tests, one-shot CLI use). The deadline rejects the
 * promise but cannot stop the work: use the pool wherever that matters.
 */
export function inProcessAnalyzer(opts: { timeoutMs?: number } = {}): Analyzer {
  return {
    analyze(source, analysisOpts, signal) {
      return new Promise<Report>((resolve, reject) => {
        const timer = opts.timeoutMs ? setTimeout(() => reject(new AnalysisError('timeout', `the analysis took longer than ${opts.timeoutMs} ms`)), opts.timeoutMs) : undefined;
        signal?.addEventListener('abort', () => reject(new AnalysisError('aborted', 'the analysis was cancelled')), { once: true });
        // Loaded here, not at the top: the main thread of a server never needs the analyser.
        import('../../domain/analyze.ts')
          .then(({ analyzeStream }) => analyzeStream(source, analysisOpts))
          .then(resolve, (e: unknown) => reject(new AnalysisError('failed', e instanceof Error ? e.message : String(e)))).finally(() => clearTimeout(timer));
      });
    },
    async close() {},
  };
}
