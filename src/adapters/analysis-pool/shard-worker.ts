// The shard worker (shard.ts): runs RuleShard over the slices the analysing thread posts, one at
// a time in order, and sends its progress after each.
import { parentPort, type MessagePort } from 'node:worker_threads';
import { RuleShard } from '../../domain/analyze.ts';
import type { FromShard, ToShard } from './shard.ts';

if (!parentPort) throw new Error('shard worker started outside a worker thread');
const parent = parentPort;

let shard: RuleShard | null = null;
let out: MessagePort | null = null;
let chain: Promise<void> = Promise.resolve();
let failed = false;

function send(m: FromShard): void {
  out?.postMessage(m);
}

function then(work: () => Promise<void>): void {
  chain = chain.then(async () => {
    if (failed) return;
    try {
      await work();
    } catch (e) {
      failed = true;
      send({ type: 'failed', message: e instanceof Error ? e.message : String(e) });
    }
  });
}

parent.on('message', (m: ToShard) => {
  if (m.type === 'start') {
    out = m.port;
    const rules = new Set(m.rules);
    then(async () => void (shard = new RuleShard(m.opts, rules)));
  } else if (m.type === 'chunk') {
    then(async () => send({ type: 'progress', progress: await shard!.push(m.data) }));
  } else {
    then(async () => send({ type: 'progress', progress: await shard!.finish() }));
  }
});
