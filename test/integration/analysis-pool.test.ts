// The worker-thread analysis pool: real analyses off the main thread, a deadline that terminates
// a stuck worker (and the pool carries on), cancellation, and source errors.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createAnalysisPool, AnalysisError } from '../../src/adapters/analysis-pool/index.ts';
import type { Analyzer } from '../../src/adapters/analysis-pool/index.ts';

const FIXTURE = new URL('../../../shared/conformance/fixtures/codex.jsonl', import.meta.url);
let pool: Analyzer;

// The shared pool's deadline only guards against a hang: these tests are not about speed.
before(() => {
  pool = createAnalysisPool({ size: 1, timeoutMs: 120_000 });
});
after(() => pool.close());

async function* bytes(data: Buffer, chunk = 1000): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < data.length; i += chunk) yield data.subarray(i, i + chunk);
}

/** A log that never ends: the analysis waits for the next chunk for ever. */
async function* stalled(): AsyncGenerator<Uint8Array> {
  yield Buffer.from('{"type":"user"}\n');
  await new Promise(() => {});
}

async function rejectsWith(p: Promise<unknown>, kind: string): Promise<AnalysisError> {
  const error = await p.then(() => null, (e: unknown) => e);
  assert.ok(error instanceof AnalysisError, `expected an AnalysisError, got ${String(error)}`);
  assert.equal(error.kind, kind, error.message);
  return error;
}

test('analyses a log in a worker thread, in small chunks', async () => {
  const report = await pool.analyze(bytes(await readFile(FIXTURE)), { agentHint: 'codex', filename: 'codex.jsonl' });
  assert.equal(report.agent, 'codex');
  assert.ok(Number.isInteger(report.trust_score));
  assert.ok(report.timeline.length > 0);
});

test('a stuck analysis is terminated at the deadline, and the pool keeps working', async () => {
  const short = createAnalysisPool({ size: 1, timeoutMs: 1500 });
  try {
    // The error kind and message come from the deadline timer, not from the stalled source ending.
    const error = await rejectsWith(short.analyze(stalled(), {}), 'timeout');
    assert.match(error.message, /longer than 1500 ms/);
    // A one-line log: far inside the deadline (it starts once the new worker is ready).
    const report = await short.analyze(bytes(Buffer.from('{"type":"user","message":{"role":"user","content":"hello"}}\n')), {});
    assert.ok(Number.isInteger(report.trust_score), 'a fresh worker took over');
  } finally {
    await short.close();
  }
});

test('an analysis can be cancelled (shutdown), queued or running', async () => {
  const controller = new AbortController();
  const running = pool.analyze(stalled(), {}, controller.signal);
  const queued = pool.analyze(stalled(), {}, controller.signal);
  setTimeout(() => controller.abort(), 100);
  await rejectsWith(running, 'aborted');
  await rejectsWith(queued, 'aborted');
});

test('a source that fails fails the analysis with its own error', async () => {
  async function* broken(): AsyncGenerator<Uint8Array> {
    yield Buffer.from('{"type":"user"}\n');
    throw new Error('disk gone');
  }
  await assert.rejects(pool.analyze(broken(), {}), /disk gone/);
});

test('after close, analyses are refused', async () => {
  const p = createAnalysisPool({ size: 1, timeoutMs: 1000 });
  await p.close();
  await rejectsWith(p.analyze(stalled(), {}), 'aborted');
});

test('a background pool thread lowers its own CPU priority by 10 nice steps (not to 19, which starves it on a busy machine), the calling thread keeps its own (Linux)', { skip: process.platform !== 'linux' ? 'thread priorities are per thread on Linux only' : false }, async () => {
  const { Worker } = await import('node:worker_threads');
  const priority = new URL('../../src/adapters/analysis-pool/priority.ts', import.meta.url).href;
  const niceOf = (stat: string) => Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  const code = `import { register } from 'tsx/esm/api'; register();
    const { readFileSync, readlinkSync } = await import('node:fs');
    const { parentPort } = await import('node:worker_threads');
    const { yieldCpuToOtherThreads } = await import(${JSON.stringify(priority)});
    const lowered = yieldCpuToOtherThreads();
    parentPort.postMessage({ lowered, stat: readFileSync('/proc/' + readlinkSync('/proc/thread-self') + '/stat', 'utf8') });`;
  const mainBefore = niceOf(readFileSync('/proc/thread-self/stat', 'utf8'));
  const worker = new Worker(code, { eval: true });
  const msg = await new Promise<{ lowered: boolean; stat: string }>((resolve, reject) => worker.once('message', resolve).once('error', reject));
  await worker.terminate();
  assert.equal(msg.lowered, true);
  assert.ok(mainBefore <= 9, 'run this test at nice 9 or below, where a step of 10 stays above the floor');
  assert.equal(niceOf(msg.stat), mainBefore + 10);
  assert.equal(niceOf(readFileSync('/proc/thread-self/stat', 'utf8')), mainBefore);
});
