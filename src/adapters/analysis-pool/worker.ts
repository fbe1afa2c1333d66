// One analysis worker thread: runs analyzeStream over chunks pulled from the main thread.
// One analysis at a time; the pool never sends a second `start` before `done`/`failed`.
import { parentPort, workerData } from 'node:worker_threads';
import { analyzeStream } from '../../domain/analyze.ts';
import { yieldCpuToOtherThreads } from './priority.ts';
import type { FromWorker, ToWorker } from './protocol.ts';

if (!parentPort) throw new Error('analysis worker started outside a worker thread');
if ((workerData as { background?: boolean } | null)?.background) yieldCpuToOtherThreads();
const port = parentPort;
const send = (msg: FromWorker) => port.postMessage(msg);

/** Resolvers of the chunk currently awaited by the analysis, keyed by analysis id. */
let waiting: { id: number; resolve: (r: IteratorResult<Uint8Array>) => void; reject: (e: Error) => void } | null = null;

function pulled(id: number): AsyncIterable<Uint8Array> {
  return {
    [Symbol.asyncIterator]: () => ({
      next: () =>
        new Promise<IteratorResult<Uint8Array>>((resolve, reject) => {
          waiting = { id, resolve, reject };
          send({ type: 'pull', id });
        }),
    }),
  };
}

function deliver(msg: ToWorker): void {
  const w = waiting;
  if (!w || w.id !== msg.id) return;
  waiting = null;
  if (msg.type === 'chunk') w.resolve({ value: msg.data, done: false });
  else if (msg.type === 'end') w.resolve({ value: undefined, done: true });
  else if (msg.type === 'abort') w.reject(new Error(msg.message));
}

async function run(id: number, opts: Extract<ToWorker, { type: 'start' }>['opts']): Promise<void> {
  try {
    const report = await analyzeStream(pulled(id), opts);
    send({ type: 'done', id, report });
  } catch (error) {
    send({ type: 'failed', id, message: error instanceof Error ? error.message : String(error) });
  }
}

port.on('message', (msg: ToWorker) => {
  if (msg.type === 'start') void run(msg.id, msg.opts);
  else deliver(msg);
});
send({ type: 'ready' });
