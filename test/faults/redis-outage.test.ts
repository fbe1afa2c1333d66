// Redis (the shared rate-limit counters) goes away and comes back under a running `vouch serve`:
// a redis-server of the test's own on its own port, killed with SIGKILL and started again.
// Checked: the process does not exit; requests keep being answered normally meanwhile (the
// limit lets them through rather than failing them: never a 500); the outage is logged at
// error level once, not per request or per reconnection try; once Redis is back, the limit is
// enforced again (429 past the quota).
// Then Redis hangs (SIGSTOP: connections open, nothing answered): requests are answered without
// waiting on it (each one used to take the client's 1 s command timeout), it is logged once at
// error level naming Redis, /readyz (still 200) and /metrics say it is skipped, and after
// SIGCONT the limit is enforced again.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../src/adapters/db/database.ts';
import { createAccount } from '../../src/services/accounts.ts';
import { RedisServer, errorLines, sleep, startVouch, waitFor } from './harness.ts';
import type { VouchProcess } from './harness.ts';

// Longer than the 50 ms default: this machine runs every test tier at once, and a Redis starved
// of CPU for a moment is slow, not hung (the hang below is a SIGSTOP, far past any limit).
const REDIS_TIMEOUT_MS = 500;
const QUOTA = 30;
let dir: string;
let redis: RedisServer;
let serve: VouchProcess;
let apiKey: string;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'vouch-faults-redis-'));
  const db = await openDatabase({ dataDir: dir });
  await db.migrate();
  apiKey = (await createAccount(db, { email: 'redis@example.test', password: 'correct horse battery staple' })).apiKey;
  await db.close();
  redis = await RedisServer.create();
  serve = await startVouch('serve', 'serve', { VOUCH_DATA_DIR: dir, DATABASE_URL: '', VOUCH_REDIS_URL: redis.url, VOUCH_REDIS_TIMEOUT_MS: String(REDIS_TIMEOUT_MS), VOUCH_RATE_LIMIT_MAX: String(QUOTA), VOUCH_RATE_LIMIT_WINDOW_MS: '60000', VOUCH_ANALYSIS_POOL_SIZE: '1' });
});

after(async () => {
  await serve?.kill9();
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function list(): Promise<number> {
  const r = await fetch(`http://127.0.0.1:${serve.port}/v1/sessions`, { headers: { authorization: `Bearer ${apiKey}` }, signal: AbortSignal.timeout(30_000) });
  await r.arrayBuffer();
  return r.status;
}

test('Redis killed and restarted: requests answered meanwhile, one error line, the limit enforced again after', async () => {
  assert.equal(await list(), 200);

  await redis.stop();
  const during: number[] = [];
  // Past the quota on purpose: without its counters the limit cannot refuse, and must not fail.
  for (let i = 0; i < QUOTA + 5; i++) during.push(await list());
  assert.deepEqual([...new Set(during)], [200], 'every request during the outage was answered 200');
  await sleep(3_000); // several reconnection tries of the client, each reported by ioredis
  assert.equal(serve.unexpectedExit, null);

  // The client reconnects on its own backoff (up to 2 s between tries): the limit can only be
  // enforced once it has, which it logs. Counting requests from the restart instead raced it.
  const readyLines = () => serve.output().split('\n').filter((l) => l.includes('redis connection ready')).length;
  const readyBefore = readyLines();
  await redis.start();
  await waitFor(() => readyLines() > readyBefore, 'the Redis client to reconnect', 30_000);
  const afterwards: number[] = [];
  for (let i = 0; i < QUOTA * 3 && !afterwards.includes(429); i++) afterwards.push(await list());
  assert.ok(afterwards.includes(429), `the limit is enforced again once Redis is back: ${afterwards.join(',')}`);
  assert.deepEqual(afterwards.filter((s) => s !== 200 && s !== 429), []);

  const errors = errorLines(serve.output());
  assert.equal(errors.length, 1, `one error-level line for the outage: ${errors.map((e) => e.msg).join(' | ')}`);
  assert.match(String(errors[0].msg), /redis unavailable/);
  assert.equal(serve.unexpectedExit, null);
});

async function timedList(): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const status = await list();
  return { status, ms: performance.now() - started };
}

test('Redis hung (SIGSTOP): requests do not wait on it, it is logged once and shown by /readyz and /metrics; enforced again after SIGCONT', async () => {
  const from = serve.output().length;
  const errorsSince = () => errorLines(serve.output().slice(from));
  // Baseline: the same requests with Redis answering.
  const baseline: number[] = [];
  for (let i = 0; i < 10; i++) baseline.push((await timedList()).ms);

  redis.pause();
  const during: { status: number; ms: number }[] = [];
  try {
    for (let i = 0; i < 20; i++) during.push(await timedList());
    const ready = await fetch(`http://127.0.0.1:${serve.port}/readyz`);
    const readyBody = (await ready.json()) as { checks?: { rate_limit_store?: string } };
    const metrics = await (await fetch(`http://127.0.0.1:${serve.port}/metrics`)).text();
    assert.equal(ready.status, 200, 'an optional store never makes the process unready');
    assert.match(String(readyBody.checks?.rate_limit_store), /^redis: not answering/);
    assert.match(metrics, /^vouch_rate_limit_store_up 0$/m);
  } finally {
    redis.resume();
  }
  assert.deepEqual([...new Set(during.map((d) => d.status))], [200]);
  // Each request used to wait the Redis client's 1 s command timeout; now at most the first waits
  // VOUCH_REDIS_TIMEOUT_MS, then Redis is skipped.
  const slowest = Math.max(...baseline);
  const waited = during.filter((d) => d.ms >= 900);
  assert.ok(waited.length <= 1, `requests that waited on the hung Redis: ${waited.length} of ${during.length} (baseline slowest ${slowest.toFixed(0)} ms; durations ${during.map((d) => d.ms.toFixed(0)).join(', ')})`);
  const errors = errorsSince();
  assert.equal(errors.length, 1, `one error-level line for the hang: ${errors.map((e) => e.msg).join(' | ')}`);
  assert.match(String(errors[0].msg), new RegExp(`redis did not answer within ${REDIS_TIMEOUT_MS} ms`));

  await waitFor(() => serve.output().slice(from).includes('redis answers again'), 'Redis to be used again', 30_000);
  const afterwards: number[] = [];
  for (let i = 0; i < QUOTA * 3 && !afterwards.includes(429); i++) afterwards.push(await list());
  assert.ok(afterwards.includes(429), `the limit is enforced again once Redis answers: ${afterwards.join(',')}`);
  const metrics = await (await fetch(`http://127.0.0.1:${serve.port}/metrics`)).text();
  assert.match(metrics, /^vouch_rate_limit_store_up 1$/m);
  assert.equal(serve.unexpectedExit, null);
});
