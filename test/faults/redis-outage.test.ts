// Redis (the shared rate-limit counters) goes away and comes back under a running `vouch serve`:
// a redis-server of the test's own on its own port, killed with SIGKILL and started again.
// Checked: the process does not exit; requests keep being answered normally meanwhile (the
// limit lets them through rather than failing them: never a 500); the outage is logged at
// error level once, not per request or per reconnection try; once Redis is back, the limit is
// enforced again (429 past the quota).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../src/adapters/db/database.ts';
import { createAccount } from '../../src/services/accounts.ts';
import { RedisServer, errorLines, sleep, startVouch, waitFor } from './harness.ts';
import type { VouchProcess } from './harness.ts';

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
  serve = await startVouch('serve', 'serve', { VOUCH_DATA_DIR: dir, DATABASE_URL: '', VOUCH_REDIS_URL: redis.url, VOUCH_RATE_LIMIT_MAX: String(QUOTA), VOUCH_RATE_LIMIT_WINDOW_MS: '60000', VOUCH_ANALYSIS_POOL_SIZE: '1' });
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
