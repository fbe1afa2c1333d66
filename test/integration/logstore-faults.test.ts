// The object store down: an upload answers 503 service_unavailable with Retry-After and records
// nothing; /readyz says which dependency is down; an analysis waits for the store (deferred,
// no attempt spent, the session stays `analyzing`) and completes once it is back. Real HTTP
// app, real S3 server (s3rver) taken down and brought back on the same port.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, stubAnalyzer } from '../helpers/app.ts';
import type { TestApp, TestAccount } from '../helpers/app.ts';
import { startTestS3 } from '../helpers/s3.ts';
import type { TestS3 } from '../helpers/s3.ts';
import { waitFor } from '../helpers/wait.ts';
import { createAnalyzeProcessor } from '../helpers/processors.ts';
import { createJobRunner } from '../../src/adapters/jobs/job-runner.ts';
import { ANALYZE_JOB } from '../../src/services/sessions.ts';

let s3: TestS3;
let h: TestApp;
let acct: TestAccount;

before(async () => {
  s3 = await startTestS3();
  h = await buildTestApp(s3.env('faults/'));
  acct = await h.account();
});
after(async () => {
  await h.close();
  await s3.stop();
});

const LOG = '{"type":"user","message":{"role":"user","content":"hi"},"timestamp":"2025-01-01T00:00:00Z","sessionId":"s1"}\n';

test('upload while the store is down: 503 service_unavailable with Retry-After, and nothing is recorded', async () => {
  await s3.pause();
  try {
    const before = await h.stored();
    const res = await h.upload(acct.apiKey, { content: LOG, headers: { 'idempotency-key': 'outage-1' } });
    assert.equal(res.statusCode, 503, res.body);
    assert.equal(res.headers['retry-after'], '5');
    assert.match(String(res.headers['content-type']), /application\/problem\+json/);
    assert.equal(res.json().type.endsWith('/problems/service_unavailable'), true, res.body);
    const after = await h.stored();
    assert.equal(after.sessions, before.sessions, 'no session');
    assert.equal(after.logs, before.logs, 'no log');
    // The bookkeeping row of the object that could not be written stays, marked for removal
    // (the store could not confirm there is nothing to delete), until the sweeper clears it.
    const rows = await h.db.kysely.selectFrom('log_objects').select('state').execute();
    assert.deepEqual(rows.map((r) => r.state), ['removing']);
    assert.equal((await h.db.kysely.selectFrom('idempotency_keys').select('key').execute()).length, 0);
    assert.equal((await h.db.kysely.selectFrom('jobs').select('id').execute()).length, 0);
  } finally {
    await s3.resume();
  }
  assert.equal(await h.logStore.sweepOrphans(60_000), 1, 'the sweeper finishes the removal once the store is back');
  assert.equal((await h.db.kysely.selectFrom('log_objects').select('id').execute()).length, 0);
  // The same upload (same key) once the store is back: accepted, as a first request.
  const res = await h.upload(acct.apiKey, { content: LOG, headers: { 'idempotency-key': 'outage-1' } });
  assert.equal(res.statusCode, 202, res.body);
  await h.analyzeAll();
});

test('/readyz reports the log store: ready with it, 503 not_ready naming it without it; `checks` shows every dependency either way', async () => {
  const up = await h.app.inject({ method: 'GET', url: '/readyz' });
  assert.equal(up.statusCode, 200);
  assert.equal(up.json().status, 'ready');
  const { database, log_store, rate_limit_store } = up.json().checks;
  assert.deepEqual({ database, log_store }, { database: 'ok', log_store: 's3: ok' });
  assert.match(rate_limit_store, /^(memory|database): ok$/);
  await s3.pause();
  try {
    const down = await h.app.inject({ method: 'GET', url: '/readyz' });
    assert.equal(down.statusCode, 503);
    assert.equal(down.headers['retry-after'], '5');
    assert.match(down.json().detail, /The log store \(s3\) is not reachable/);
    assert.equal(down.json().log_store, 's3');
    assert.equal(down.json().checks.log_store, 's3: unreachable');
    assert.equal(down.json().checks.database, 'ok');
  } finally {
    await s3.resume();
  }
});

test('analysis while the store is down is deferred without spending an attempt, then completes', async () => {
  const res = await h.upload(acct.apiKey, { content: LOG });
  assert.equal(res.statusCode, 202, res.body);
  const sessionId = res.json().id as string;
  await s3.pause();
  const processor = createAnalyzeProcessor({ db: h.db, logStore: h.logStore, analyzer: stubAnalyzer, publicUrl: h.config.publicUrl });
  const runner = createJobRunner({ db: h.db, owner: 'faults', processors: { [ANALYZE_JOB]: processor }, pollMs: 10, leaseMs: 5000 });
  runner.start();
  try {
    const deferred = () => h.db.kysely.selectFrom('jobs').selectAll().where('kind', '=', ANALYZE_JOB).where('last_error', 'is not', null).where('lease_owner', 'is', null).executeTakeFirst();
    await waitFor(async () => (await deferred()) !== undefined, 'the analyze job to be deferred');
    const job = (await deferred())!;
    assert.match(job.last_error ?? '', /log store/);
    assert.equal(job.attempts, 0, 'the attempt was not counted');
    assert.equal(job.dead_at, null);
    assert.ok(job.run_at > job.created_at, 'scheduled for later');
    const session = await h.db.kysely.selectFrom('sessions').select(['status']).where('id', '=', sessionId).executeTakeFirstOrThrow();
    assert.equal(session.status, 'analyzing');
  } finally {
    await runner.stop();
    await s3.resume();
  }
  await h.analyzeAll();
  const done = await h.app.inject({ method: 'GET', url: `/v1/sessions/${sessionId}`, headers: { authorization: `Bearer ${acct.apiKey}` } });
  assert.equal(done.json().status, 'complete');
});
