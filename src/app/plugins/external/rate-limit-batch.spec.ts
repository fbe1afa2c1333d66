import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BatchedCounter } from './rate-limit-batch.ts';
import type { AddHits, SharedCount } from './rate-limit-batch.ts';

const WINDOW = 60_000;

/** The rate_limits table in miniature, with a clock the test moves, counting the adds it receives. */
function sharedCounter() {
  const clock = { now: 1_000_000 };
  const rows = new Map<string, SharedCount>();
  const calls: number[] = [];
  /** Adds begun, paused or not. */
  const started: number[] = [];
  let failing = false;
  let paused: Promise<void> | null = null;
  let resume = () => {};
  const add: AddHits = async (key, n, windowMs) => {
    started.push(n);
    if (paused) await paused;
    if (failing) throw new Error('database unreachable');
    calls.push(n);
    const row = rows.get(key);
    const next = !row || row.resetAtMs <= clock.now ? { hits: n, resetAtMs: clock.now + windowMs } : { hits: row.hits + n, resetAtMs: row.resetAtMs };
    rows.set(key, next);
    return { ...next };
  };
  return {
    clock, rows, calls, started, add,
    fail(on: boolean) {
      failing = on;
    },
    /** Adds wait until resume() (an add in flight, as on a slow database). */
    pause() {
      paused = new Promise((r) => (resume = r));
    },
    resume() {
      paused = null;
      resume();
    },
    process(syncMs = 100, onError?: (e: Error) => void) {
      // No background timer: what is added, and when, follows the test's clock alone.
      return new BatchedCounter({ add, syncMs, flushIntervalMs: 0, now: () => clock.now, onError });
    },
  };
}

test('the first hit of a key is added to the shared counter and answered with its count', async () => {
  const shared = sharedCounter();
  const p = shared.process();
  shared.rows.set('k', { hits: 7, resetAtMs: shared.clock.now + 1000 });
  assert.deepEqual(await p.hit('k', WINDOW, 100), { hits: 8, resetAtMs: shared.clock.now + 1000 });
  assert.deepEqual(shared.calls, [1]);
});

test('far below half the limit and within syncMs of the last read, hits are answered without a write', async () => {
  const shared = sharedCounter();
  const p = shared.process();
  await p.hit('k', WINDOW, 100);
  const counts: number[] = [];
  for (let i = 0; i < 10; i++) counts.push((await p.hit('k', WINDOW, 100)).hits);
  assert.deepEqual(counts, [2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  assert.deepEqual(shared.calls, [1], 'only the first hit was written');
  assert.equal(shared.rows.get('k')?.hits, 1);
  await p.close();
  assert.equal(shared.rows.get('k')?.hits, 11, 'close adds what was pending');
});

test('from half the limit on, every hit is added: two processes refuse exactly at the limit', async () => {
  const shared = sharedCounter();
  const a = shared.process();
  const b = shared.process();
  const max = 3;
  const seen: number[] = [];
  for (let i = 0; i < 5; i++) seen.push((await (i % 2 === 0 ? a : b).hit('k', WINDOW, max)).hits);
  assert.deepEqual(seen, [1, 2, 3, 4, 5], 'each process sees the other\'s hits: the 4th is over the limit wherever it lands');
  assert.deepEqual(shared.calls, [1, 1, 1, 1, 1]);
});

test('a read older than syncMs is refreshed by the next hit, which adds the pending hits with it', async () => {
  const shared = sharedCounter();
  const a = shared.process(100);
  const b = shared.process(100);
  await a.hit('k', WINDOW, 1000);
  await a.hit('k', WINDOW, 1000);
  await a.hit('k', WINDOW, 1000);
  await b.hit('k', WINDOW, 1000); // b's first hit: 1 (a's first) + 1
  shared.clock.now += 100;
  assert.equal((await a.hit('k', WINDOW, 1000)).hits, 5, 'a adds its 2 pending hits and this one, and learns of b\'s');
  assert.deepEqual(shared.calls, [1, 1, 3]);
});

test('the timer adds pending hits every flushIntervalMs (default syncMs), so other processes see them', async () => {
  const shared = sharedCounter();
  shared.clock.now = Date.now(); // this counter runs on the real clock, like its timer
  const p = new BatchedCounter({ add: shared.add, syncMs: 60_000, flushIntervalMs: 5 });
  await p.hit('k', WINDOW, 1000);
  await p.hit('k', WINDOW, 1000);
  await p.hit('k', WINDOW, 1000);
  while ((shared.rows.get('k')?.hits ?? 0) < 3) await new Promise((r) => setTimeout(r, 5));
  assert.deepEqual(shared.calls, [1, 2]);
  await p.close();
});

test('when the window ends, the next hit starts a new one and pending hits of the old one are dropped', async () => {
  const shared = sharedCounter();
  const p = shared.process(60_000);
  await p.hit('k', 1000, 1000);
  await p.hit('k', 1000, 1000);
  shared.clock.now += 1000;
  const r = await p.hit('k', 1000, 1000);
  assert.deepEqual(r, { hits: 1, resetAtMs: shared.clock.now + 1000 });
  await p.flush();
  assert.equal(shared.rows.get('k')?.hits, 1);
});

test('a failed add fails that hit (the caller lets it through); the pending hits are added by the next success', async () => {
  const shared = sharedCounter();
  const errors: string[] = [];
  const p = shared.process(100, (e) => errors.push(e.message));
  await p.hit('k', WINDOW, 1000);
  await p.hit('k', WINDOW, 1000);
  shared.clock.now += 100;
  shared.fail(true);
  await assert.rejects(p.hit('k', WINDOW, 1000), /unreachable/);
  await p.flush();
  assert.deepEqual(errors, ['database unreachable'], 'a failed background add is reported');
  shared.fail(false);
  assert.equal((await p.hit('k', WINDOW, 1000)).hits, 3, 'the earlier pending hit and this one; the failed one was let through uncounted');
});

test('while an add is in flight, hits answered here still count it: the count never goes down', async () => {
  const shared = sharedCounter();
  const p = shared.process(60_000);
  const seen: number[] = [];
  for (let i = 0; i < 4; i++) seen.push((await p.hit('k', WINDOW, 1000)).hits);
  shared.pause();
  const flushing = p.flush(); // sends the 3 pending hits, and waits
  seen.push((await p.hit('k', WINDOW, 1000)).hits);
  shared.resume();
  await flushing;
  seen.push((await p.hit('k', WINDOW, 1000)).hits);
  assert.deepEqual(seen, [1, 2, 3, 4, 5, 6]);
  assert.deepEqual(shared.calls, [1, 3]);
  await p.close();
  assert.equal(shared.rows.get('k')?.hits, 6);
});

test('a hit that must be added waits for the add in flight, so adds of one key answer in order', async () => {
  const shared = sharedCounter();
  const p = shared.process(100);
  await p.hit('k', WINDOW, 1000);
  await p.hit('k', WINDOW, 1000);
  shared.pause();
  const flushing = p.flush();
  shared.clock.now += 100; // the read is now stale: the next hit must be added
  const next = p.hit('k', WINDOW, 1000);
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(shared.started, [1, 1], 'the first hit and the flush; the new hit waits for the flush');
  shared.resume();
  await flushing;
  assert.deepEqual(await next, { hits: 3, resetAtMs: shared.rows.get('k')?.resetAtMs });
  assert.deepEqual(shared.calls, [1, 1, 1]);
});
