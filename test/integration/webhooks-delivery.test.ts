// Webhook delivery end to end on a real database (VOUCH_TEST_DB=sqlite|postgres): the outbox,
// the job runner with the `deliver` processor, the SSRF-guarded client, and a receiver on
// loopback (allowed by CIDR). The retry schedule is shortened to 150/250/350 ms.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { createJobRunner, countJobs } from '../../src/adapters/jobs/index.ts';
import type { JobRunner } from '../../src/adapters/jobs/index.ts';
import { createOutboundClient, createSsrfPolicy } from '../../src/adapters/outbound/index.ts';
import type { OutboundClient } from '../../src/adapters/outbound/index.ts';
import * as hooks from '../../src/services/webhooks/index.ts';
import { createDeliverProcessor } from '../helpers/processors.ts';
import { verifyServiceSignature, verifyStandardWebhook, parseAnalysisComplete } from '../../src/webhooks-receiver/index.ts';
import { createTestDb } from '../helpers/db.ts';
import type { TestDb } from '../helpers/db.ts';
import { completion, newAccount, Receiver, until } from './webhooks-helpers.ts';

const DELAYS = [150, 250, 350];
/** The receiver timeout of the hanging-receiver test; the other tests' client only guards against a hang. */
const TIMEOUT_MS = 600;
const GUARD_TIMEOUT_MS = 30_000;

let t: TestDb;
let runner: JobRunner;
let client: OutboundClient;
const receivers: Receiver[] = [];
const policy = createSsrfPolicy('127.0.0.0/8');

before(async () => {
  t = await createTestDb();
  client = createOutboundClient({ policy, timeoutMs: GUARD_TIMEOUT_MS });
  runner = createJobRunner({
    db: t.db,
    owner: 'test-worker',
    processors: { deliver: createDeliverProcessor({ db: t.db, client, retryDelaysMs: DELAYS, leaseMs: 5_000, version: '9.9.9' }) },
    concurrency: 4,
    pollMs: 20,
  });
  runner.start();
});

after(async () => {
  await runner.stop();
  await client.close();
  for (const r of receivers) await r.close();
  await t.cleanup();
});

async function receiver(respond?: ConstructorParameters<typeof Receiver>[0]): Promise<Receiver> {
  const r = await new Receiver(respond).start();
  receivers.push(r);
  return r;
}

async function register(accountId: string, url: string, shape = 'A', secret?: string): Promise<string> {
  return (await hooks.addWebhook(t.db.kysely, { accountId, url, shape, secret }, { policy })).id;
}

async function complete(accountId: string, sessionId?: string): Promise<string[]> {
  const ids = await t.db.kysely.transaction().execute((trx) => hooks.enqueueAnalysisComplete(trx, completion(accountId, sessionId)));
  runner.nudge();
  return ids;
}

async function delivery(accountId: string, id: string) {
  return hooks.getDelivery(t.db.kysely, accountId, id);
}

async function settled(accountId: string, id: string): Promise<void> {
  await until(async () => (await delivery(accountId, id)).status !== 'pending', 15_000, `delivery ${id} settled`);
}

test('success: one POST with the stored bytes, both signatures, and the headers of the spec', async () => {
  const acc = await newAccount(t.db.kysely);
  const secret = hooks.generateWhsecSecret();
  const rx = await receiver(() => 200);
  await register(acc, rx.url, 'A', secret);
  const [id] = await complete(acc, 'ses_success');
  await settled(acc, id);
  const d = await delivery(acc, id);
  assert.equal(d.status, 'delivered');
  assert.equal(d.attempt_count, 1);
  assert.equal(rx.hits.length, 1);
  const hit = rx.hits[0];
  assert.equal(hit.raw.toString('utf8'), d.body, 'the exact stored bytes');
  assert.equal(hit.headers['content-type'], 'application/json');
  assert.equal(hit.headers['user-agent'], 'Vouch-Webhooks/9.9.9');
  assert.equal(hit.headers['x-service-event'], 'analysis.complete');
  assert.equal(hit.headers['x-service-delivery'], id);
  assert.equal(hit.headers['x-service-attempt'], '1');
  assert.equal(hit.headers['webhook-id'], id);
  assert.equal(hit.headers['x-service-signature'], 'sha256=' + createHmac('sha256', secret).update(hit.raw).digest('hex'));
  assert.ok(verifyServiceSignature(secret, hit.raw, hit.headers['x-service-signature']));
  assert.ok(verifyStandardWebhook(secret, hit.raw, hit.headers), 'Standard Webhooks signature verifies');
  const ev = parseAnalysisComplete(hit.raw);
  assert.equal(ev.shape, 'A');
  assert.equal(ev.sessionId, 'ses_success');
  assert.deepEqual(Object.keys(JSON.parse(d.body)).sort(), ['agent', 'event', 'findings_count', 'repo', 'report_url', 'session_id', 'trust_score']);

  const [attempt] = await hooks.listAttempts(t.db.kysely, acc, id);
  assert.equal(attempt.attempt_no, 1);
  assert.equal(attempt.status_code, 200);
  assert.equal(attempt.error_class, null);
  assert.equal(attempt.response_excerpt, 'answer 200');
  assert.ok(attempt.finished_at && attempt.finished_at >= attempt.started_at);
  assert.ok((attempt.latency_ms ?? -1) >= 0);
  assert.equal(await countJobs(t.db, { kind: 'deliver' }), 0, 'the job is gone');
});

test('one delivery per ENABLED webhook of the account, each in its shape; no secret → no signature', async () => {
  const acc = await newAccount(t.db.kysely);
  const other = await newAccount(t.db.kysely);
  const rb = await receiver();
  const rc = await receiver();
  const off = await receiver();
  const foreign = await receiver();
  await register(acc, rb.url, 'B', 'b-secret');
  await register(acc, rc.url, 'C');
  const offId = await register(acc, off.url, 'A');
  await hooks.setWebhookEnabled(t.db.kysely, acc, offId, false);
  await register(other, foreign.url, 'A');
  const ids = await complete(acc);
  assert.equal(ids.length, 2);
  for (const id of ids) await settled(acc, id);
  await sleep(200);
  assert.equal(off.hits.length, 0, 'disabled webhook gets nothing');
  assert.equal(foreign.hits.length, 0, "another account's webhook gets nothing");
  assert.deepEqual(Object.keys(JSON.parse(rb.hits[0].raw.toString())).sort(), ['agent', 'branch', 'event', 'headline', 'orgId', 'outcome', 'reason', 'reportId', 'reportUrl']);
  assert.deepEqual(Object.keys(JSON.parse(rc.hits[0].raw.toString())).sort(), ['agent', 'branch', 'event', 'orgId', 'reportId', 'reportUrl', 'summary', 'trustScore']);
  assert.equal(JSON.parse(rc.hits[0].raw.toString()).branch, '', 'unknown branch is ""');
  assert.equal(rc.hits[0].headers['x-service-signature'], undefined);
  assert.equal(rc.hits[0].headers['webhook-signature'], undefined);
  assert.equal(rc.hits[0].headers['webhook-id'], undefined);
  assert.ok(verifyServiceSignature('b-secret', rb.hits[0].raw, rb.hits[0].headers['x-service-signature']));
});

test('failures are retried on the schedule with the same id and bytes, then succeed', async () => {
  const acc = await newAccount(t.db.kysely);
  const rx = await receiver((n) => (n <= 2 ? 500 : 200));
  await register(acc, rx.url, 'C', 'k');
  const [id] = await complete(acc);
  await settled(acc, id);
  await sleep(500);
  assert.equal(rx.hits.length, 3, 'two failures, one success, nothing after');
  assert.deepEqual(rx.hits.map((h) => h.headers['x-service-attempt']), ['1', '2', '3']);
  for (const h of rx.hits) {
    assert.equal(h.headers['x-service-delivery'], id);
    assert.ok(h.raw.equals(rx.hits[0].raw));
  }
  const gap1 = rx.hits[1].at - rx.hits[0].at;
  const gap2 = rx.hits[2].at - rx.hits[1].at;
  assert.ok(gap1 >= DELAYS[0] - 10, `first gap ${gap1} ms ≥ ${DELAYS[0]}`);
  assert.ok(gap2 >= DELAYS[1] - 10, `second gap ${gap2} ms ≥ ${DELAYS[1]}`);
  const attempts = await hooks.listAttempts(t.db.kysely, acc, id);
  assert.deepEqual(attempts.map((a) => [a.attempt_no, a.status_code, a.error_class]), [[1, 500, 'http_status'], [2, 500, 'http_status'], [3, 200, null]]);
  assert.equal((await delivery(acc, id)).status, 'delivered');
});

test('a target that keeps failing gets exactly 1 + 3 attempts, then the delivery is failed', async () => {
  const acc = await newAccount(t.db.kysely);
  const rx = await receiver(() => 503);
  const wh = await register(acc, rx.url, 'B');
  const [id] = await complete(acc);
  await settled(acc, id);
  await sleep(800);
  assert.equal(rx.hits.length, 4);
  const d = await delivery(acc, id);
  assert.equal(d.status, 'failed');
  assert.equal(d.attempt_count, 4);
  assert.equal(await countJobs(t.db, { kind: 'deliver' }), 0);
  const [listed] = await hooks.listDeliveries(t.db.kysely, acc, wh);
  assert.equal(listed.id, id);
  assert.equal(listed.status, 'failed');
  assert.equal((await hooks.getWebhook(t.db.kysely, acc, wh)).enabled, 1, 'not disabled after minutes: the window is 24 h');
});

test('a hanging receiver is given up after the timeout and retried', async () => {
  const acc = await newAccount(t.db.kysely);
  const rx = await receiver((n) => (n === 1 ? 'hang' : 200));
  await register(acc, rx.url, 'A');
  const shortClient = createOutboundClient({ policy, timeoutMs: TIMEOUT_MS });
  const shortRunner = createJobRunner({
    db: t.db,
    owner: 'short-timeout',
    processors: { deliver: createDeliverProcessor({ db: t.db, client: shortClient, retryDelaysMs: DELAYS, leaseMs: 5_000, version: 't' }) },
    pollMs: 20,
  });
  await runner.stop(); // only the short-timeout worker runs
  shortRunner.start();
  try {
    const [id] = await complete(acc);
    shortRunner.nudge();
    await settled(acc, id);
    assert.equal(rx.hits.length, 2);
    // Measured between the attempts' own start times, written by the worker before each POST: the
    // receiver's arrival times also hold how late a loaded event loop took the first request in.
    const [first, second] = await hooks.listAttempts(t.db.kysely, acc, id);
    const gap = Date.parse(second.started_at) - Date.parse(first.started_at);
    assert.ok(gap >= TIMEOUT_MS + DELAYS[0] - 50, `retry after the timeout plus the first delay: ${gap} ms`);
    assert.equal(first.error_class, 'timeout');
    assert.equal(first.status_code, null);
    assert.ok((first.latency_ms ?? 0) >= TIMEOUT_MS - 50);
  } finally {
    await shortRunner.stop();
    await shortClient.close();
    runner.start();
  }
});

test('a redirect is a failed attempt and is never followed', async () => {
  const acc = await newAccount(t.db.kysely);
  const rx = await receiver((n) => (n === 1 ? { status: 302, headers: { location: '/elsewhere' } } : 200));
  await register(acc, rx.url, 'A');
  const [id] = await complete(acc);
  await settled(acc, id);
  assert.deepEqual(rx.hits.map((h) => h.url), ['/hook', '/hook']);
  const attempts = await hooks.listAttempts(t.db.kysely, acc, id);
  assert.deepEqual(attempts.map((a) => [a.status_code, a.error_class]), [[302, 'redirect'], [200, null]]);
});

test('a connect-time SSRF refusal fails the delivery at once: one attempt with its reason, no retries', async () => {
  // Registered while loopback was allowed; the worker's policy is strict.
  const acc = await newAccount(t.db.kysely);
  const rx = await receiver();
  await register(acc, rx.url, 'A');
  const strictClient = createOutboundClient({ policy: createSsrfPolicy(''), timeoutMs: TIMEOUT_MS });
  const strictRunner = createJobRunner({
    db: t.db,
    owner: 'strict',
    processors: { deliver: createDeliverProcessor({ db: t.db, client: strictClient, retryDelaysMs: [50, 50, 50], leaseMs: 5_000, version: 't' }) },
    pollMs: 20,
  });
  await runner.stop(); // only the strict worker runs
  strictRunner.start();
  try {
    const [id] = await complete(acc);
    strictRunner.nudge();
    await settled(acc, id);
    assert.equal(rx.hits.length, 0, 'nothing reached the receiver');
    const attempts = await hooks.listAttempts(t.db.kysely, acc, id);
    assert.deepEqual(attempts.map((a) => a.error_class), ['ssrf_refused'], 'one attempt although three retries were scheduled');
    assert.match(attempts[0].error ?? '', /^refused by the SSRF policy: .*loopback/);
    assert.equal((await delivery(acc, id)).status, 'failed');
    const waiting = await t.db.kysely.selectFrom('jobs').select('id').where('payload', 'like', `%${id}%`).where('dead_at', 'is', null).execute();
    assert.deepEqual(waiting, [], 'no retry is waiting');
  } finally {
    await strictRunner.stop();
    await strictClient.close();
    runner.start();
  }
});

test('redeliver: same id and bytes, a new series whose attempt numbers continue; refused while pending', async () => {
  const acc = await newAccount(t.db.kysely);
  let fail = true;
  const rx = await receiver(() => (fail ? 500 : 200));
  await register(acc, rx.url, 'A', 's');
  const [id] = await complete(acc);
  await settled(acc, id);
  assert.equal((await delivery(acc, id)).status, 'failed');
  fail = false;
  const r = await hooks.redeliver(t.db.kysely, acc, id);
  assert.deepEqual(r, { delivery_id: id, next_attempt: 5 });
  await assert.rejects(hooks.redeliver(t.db.kysely, acc, id), hooks.WebhookConflictError, 'a pending delivery cannot be redelivered');
  runner.nudge();
  await settled(acc, id);
  assert.equal((await delivery(acc, id)).status, 'delivered');
  assert.equal(rx.hits.length, 5);
  assert.equal(rx.hits[4].headers['x-service-attempt'], '5');
  assert.equal(rx.hits[4].headers['x-service-delivery'], id);
  assert.ok(rx.hits[4].raw.equals(rx.hits[0].raw));
  const other = await newAccount(t.db.kysely);
  await assert.rejects(hooks.redeliver(t.db.kysely, other, id), hooks.WebhookNotFoundError, 'tenant-scoped');
});

test('a redelivered series gets the full retry budget again', async () => {
  const acc = await newAccount(t.db.kysely);
  const rx = await receiver(() => 500);
  await register(acc, rx.url, 'A');
  const [id] = await complete(acc);
  await settled(acc, id);
  await hooks.redeliver(t.db.kysely, acc, id);
  runner.nudge();
  await settled(acc, id);
  await sleep(600);
  assert.equal(rx.hits.length, 8, '4 + 4 attempts');
  assert.deepEqual(rx.hits.map((h) => h.headers['x-service-attempt']), ['1', '2', '3', '4', '5', '6', '7', '8']);
});

test('test events go through the same path and are listed', async () => {
  const acc = await newAccount(t.db.kysely);
  const rx = await receiver(() => 204);
  const wh = await register(acc, rx.url, 'B', 'k');
  const { delivery_id } = await hooks.sendTestEvent(t.db.kysely, acc, wh, { publicUrl: 'https://vouch.example' });
  runner.nudge();
  await settled(acc, delivery_id);
  const ev = parseAnalysisComplete(rx.hits[0].raw);
  assert.equal(ev.shape, 'B');
  assert.equal(ev.reportId, 'rep_test');
  assert.equal(ev.orgId, acc);
  const [d] = await hooks.listDeliveries(t.db.kysely, acc, wh);
  assert.equal(d.session_id, null);
  assert.equal(d.status, 'delivered');
  const other = await newAccount(t.db.kysely);
  await assert.rejects(hooks.sendTestEvent(t.db.kysely, other, wh), hooks.WebhookNotFoundError);
  await assert.rejects(hooks.listDeliveries(t.db.kysely, other, wh), hooks.WebhookNotFoundError);
  await assert.rejects(hooks.listAttempts(t.db.kysely, other, delivery_id), hooks.WebhookNotFoundError);
});

test('registration refuses what the SSRF policy refuses, with the reason, and masks secrets', async () => {
  const acc = await newAccount(t.db.kysely);
  const strict = { policy: createSsrfPolicy('') };
  for (const [url, reason] of [
    ['http://127.0.0.1:8080/x', /loopback/],
    ['http://2130706433/x', /127\.0\.0\.1 is a loopback/],
    ['http://[::ffff:127.0.0.1]/x', /IPv4-mapped/],
    ['http://169.254.169.254/latest/meta-data/', /linkLocal/],
    ['ftp://example.com/', /scheme ftp/],
  ] as const) {
    await assert.rejects(hooks.addWebhook(t.db.kysely, { accountId: acc, url }, strict), (e: Error) => e instanceof hooks.WebhookValidationError && reason.test(e.message), url);
  }
  await assert.rejects(hooks.addWebhook(t.db.kysely, { accountId: acc, url: 'https://example.com/', shape: 'D' }, strict), /shape must be A, B or C/);
  const view = await hooks.addWebhook(t.db.kysely, { accountId: acc, url: 'http://127.0.0.1:9/x', secret: 'whsec_' + Buffer.alloc(32, 9).toString('base64') }, { policy });
  assert.equal(view.shape, 'A', 'A by default');
  assert.match(view.secret_masked ?? '', /^whsec_….{4}$/);
  const [listed] = await hooks.listWebhooks(t.db.kysely, acc);
  assert.equal(JSON.stringify(listed).includes(Buffer.alloc(32, 9).toString('base64')), false, 'no full secret in listings');
});

test('a webhook whose deliveries all failed for the window is disabled with a reason', async () => {
  const acc = await newAccount(t.db.kysely);
  const rx = await receiver(() => 500);
  const wh = await register(acc, rx.url, 'A');
  // An old failure (25 h ago) and nothing delivered since.
  const old = new Date(Date.now() - 25 * 3600_000).toISOString();
  await t.db.kysely
    .insertInto('deliveries')
    .values({ id: 'dlv_OLDFAILURE', webhook_id: wh, account_id: acc, session_id: null, event: 'analysis.complete', body: '{}', status: 'failed', attempt_count: 4, created_at: old, updated_at: old })
    .execute();
  assert.equal(await hooks.autoDisableIfFailing(t.db.kysely, wh), true);
  const w = await hooks.getWebhook(t.db.kysely, acc, wh);
  assert.equal(w.enabled, 0);
  assert.match(w.disabled_reason ?? '', /every delivery failed for 24 h/);
  assert.equal((await complete(acc)).length, 0, 'a disabled webhook gets no new deliveries');
  const back = await hooks.setWebhookEnabled(t.db.kysely, acc, wh, true);
  assert.equal(back.enabled, true);
  assert.equal(back.disabled_reason, null);
  // A success after the old failure resets the clock.
  await t.db.kysely
    .insertInto('deliveries')
    .values({ id: 'dlv_NEWSUCCESS', webhook_id: wh, account_id: acc, session_id: null, event: 'analysis.complete', body: '{}', status: 'delivered', attempt_count: 1, created_at: new Date().toISOString(), updated_at: new Date().toISOString() })
    .execute();
  assert.equal(await hooks.autoDisableIfFailing(t.db.kysely, wh), false);
});

test('pending deliveries of a disabled webhook are settled failed without being sent', async () => {
  const acc = await newAccount(t.db.kysely);
  const rx = await receiver(() => 500);
  const wh = await register(acc, rx.url, 'A');
  await runner.stop();
  try {
    const [id] = await complete(acc);
    await hooks.setWebhookEnabled(t.db.kysely, acc, wh, false);
    runner.start();
    await settled(acc, id);
    assert.equal((await delivery(acc, id)).status, 'failed');
    assert.equal(rx.hits.length, 0);
  } finally {
    runner.start();
  }
});
