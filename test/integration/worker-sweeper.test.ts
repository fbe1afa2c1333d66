// The worker's sweeper deletes what stopped mattering — expired sign-in sessions, idempotency
// keys past their retention, ended rate-limit windows — and keeps everything else; the workers
// run it on their own at VOUCH_SWEEP_INTERVAL_MS.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, stubAnalyzer } from '../helpers/app.ts';
import type { TestAccount, TestApp } from '../helpers/app.ts';
import { createWebSession } from '../../src/adapters/db/repositories/web-sessions.ts';
import { hitRateLimit } from '../../src/adapters/db/repositories/rate-limits.ts';
import { startWorkers } from '../../src/worker/start-workers.ts';
import { wireServices } from '../../src/root/open.ts';
import { sweepOnce } from '../../src/services/maintenance.ts';
import type { SweepResult } from '../../src/services/maintenance.ts';

const HOUR = 3600_000;
let t: TestApp;

before(async () => {
  t = await buildTestApp({ VOUCH_IDEMPOTENCY_RETENTION_MS: String(24 * HOUR) });
});
after(() => t.close());

async function webSession(who: TestAccount, id: string, expiresAt: Date): Promise<void> {
  const user = await t.db.kysely.selectFrom('users').select('id').where('account_id', '=', who.accountId).executeTakeFirstOrThrow();
  await createWebSession(t.db.kysely, { id, user_id: user.id, account_id: who.accountId, csrf_token: 'c', created_at: new Date(expiresAt.getTime() - HOUR).toISOString(), expires_at: expiresAt.toISOString() });
}

/** An upload with an Idempotency-Key, its key row then dated `ageMs` ago. */
async function idempotentUpload(who: TestAccount, key: string, ageMs: number): Promise<void> {
  const res = await t.upload(who.apiKey, { headers: { 'idempotency-key': key } });
  assert.equal(res.statusCode, 202);
  await t.db.kysely.updateTable('idempotency_keys').set({ created_at: new Date(Date.now() - ageMs).toISOString() }).where('key', '=', key).execute();
}

const webSessions = async (prefix: string) =>
  (await t.db.kysely.selectFrom('web_sessions').select('id').where('id', 'like', `${prefix}%`).orderBy('id').execute()).map((r) => r.id);
const idempotencyKeys = async (prefix: string) =>
  (await t.db.kysely.selectFrom('idempotency_keys').select('key').where('key', 'like', `${prefix}%`).orderBy('key').execute()).map((r) => r.key);
const rateLimitWindows = async (prefix: string) =>
  (await t.db.kysely.selectFrom('rate_limits').select('key').where('key', 'like', `${prefix}%`).orderBy('key').execute()).map((r) => r.key);

test('one sweep removes expired sign-ins, idempotency keys past retention and ended rate-limit windows, and nothing else', async () => {
  const who = await t.account();
  const now = Date.now();
  await webSession(who, 'sweep1-expired', new Date(now - 1000));
  await webSession(who, 'sweep1-valid', new Date(now + HOUR));
  await idempotentUpload(who, 'sweep1-old', 25 * HOUR);
  await idempotentUpload(who, 'sweep1-recent', 23 * HOUR);
  await hitRateLimit(t.db.kysely, 'sweep1-ended', 1000, now - 5000);
  await hitRateLimit(t.db.kysely, 'sweep1-active', 60_000, now);

  const result = await sweepOnce({ db: t.db, logStore: t.logStore, idempotencyRetentionMs: t.config.sweep.idempotencyRetentionMs }, now);

  assert.deepEqual(await webSessions('sweep1-'), ['sweep1-valid']);
  assert.deepEqual(await idempotencyKeys('sweep1-'), ['sweep1-recent']);
  assert.deepEqual(await rateLimitWindows('sweep1-'), ['sweep1-active']);
  assert.ok(result.webSessions >= 1 && result.idempotencyKeys >= 1 && result.rateLimitWindows >= 1, JSON.stringify(result));
  assert.equal((await t.db.kysely.selectFrom('sessions').select('id').where('account_id', '=', who.accountId).execute()).length, 2, 'the sessions themselves stay');
});

test('after its key is swept, a retry with the same Idempotency-Key is a new upload', async () => {
  const who = await t.account();
  await idempotentUpload(who, 'sweep2-key', 25 * HOUR);
  await sweepOnce({ db: t.db, logStore: t.logStore, idempotencyRetentionMs: t.config.sweep.idempotencyRetentionMs });
  const retry = await t.upload(who.apiKey, { headers: { 'idempotency-key': 'sweep2-key' } });
  assert.equal(retry.statusCode, 202);
  assert.equal(retry.headers['idempotent-replayed'], undefined);
});

test('the workers sweep periodically at VOUCH_SWEEP_INTERVAL_MS', async () => {
  const who = await t.account();
  await webSession(who, 'sweep3-expired', new Date(Date.now() - 1000));
  const swept: SweepResult[] = [];
  let wake: () => void = () => {};
  const services = await wireServices({ ...t.config, sweep: { ...t.config.sweep, intervalMs: 20 } }, t.db, { logStore: t.logStore, analyzer: stubAnalyzer, metrics: false });
  const workers = startWorkers(services, {
    log: { debug() {}, info() {}, warn() {}, error() {} },
    onSwept: (r) => {
      swept.push(r);
      wake();
    },
  });
  try {
    // Two sweeps: the first one after start, then at least one more on the interval.
    while (swept.length < 2) await new Promise<void>((resolve) => (wake = resolve));
  } finally {
    await workers.stop();
    await services.close();
  }
  assert.deepEqual(await webSessions('sweep3-'), []);
});

test('the sweep forgets expired reset links and idle sign-in backoff counters, and keeps live ones', async () => {
  const t2 = await buildTestApp();
  try {
    const a = await t2.account();
    const user = await t2.db.kysely.selectFrom('users').select('id').where('account_id', '=', a.accountId).executeTakeFirstOrThrow();
    const now = Date.now();
    const iso = (ms: number) => new Date(ms).toISOString();
    for (const [id, expires] of [['pwr_old', now - 1000], ['pwr_live', now + 3_600_000]] as const) {
      await t2.db.kysely.insertInto('password_resets').values({ id, account_id: a.accountId, user_id: user.id, token_hash: id, created_by: null, created_at: iso(now - 5000), expires_at: iso(expires), used_at: null }).execute();
    }
    await t2.db.kysely.insertInto('sign_in_throttle').values([
      { email_hash: 'idle', failures: 7, blocked_until: iso(now - 2 * 86_400_000), updated_at: iso(now - 2 * 86_400_000) },
      { email_hash: 'recent', failures: 7, blocked_until: iso(now + 60_000), updated_at: iso(now - 1000) },
    ]).execute();
    const r = await sweepOnce({ db: t2.db, logStore: t2.logStore, idempotencyRetentionMs: t2.config.sweep.idempotencyRetentionMs }, now);
    assert.equal(r.passwordResets, 1);
    assert.equal(r.signInThrottles, 1);
    assert.deepEqual((await t2.db.kysely.selectFrom('password_resets').select('id').execute()).map((x) => x.id), ['pwr_live']);
    assert.deepEqual((await t2.db.kysely.selectFrom('sign_in_throttle').select('email_hash').execute()).map((x) => x.email_hash), ['recent']);
  } finally {
    await t2.close();
  }
});
