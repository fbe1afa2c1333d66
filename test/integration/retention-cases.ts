// Log retention, the same cases on any log store (retention.test.ts: the database mode's own
// store; retention-s3.test.ts: an S3 bucket): the setting from the dashboard and its audit
// event, then the sweep deleting old logs while sessions and reports stay and say so.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp } from '../helpers/app.ts';
import type { TestApp, TestAccount } from '../helpers/app.ts';
import { signInAs } from '../helpers/web-forms.ts';
import { auditRows, signedInMember } from '../helpers/teams.ts';
import { sweepOnce } from '../../src/services/maintenance.ts';
import { LogNotFoundError } from '../../src/adapters/logstore/index.ts';

const LOG = '{"type":"user","message":{"role":"user","content":"hi"},"timestamp":"2025-01-01T00:00:00Z","sessionId":"s1"}\n';
const DAY = 86_400_000;

export function retentionCases(setup: () => Promise<{ env: Record<string, string>; stop(): Promise<void> }>): void {
  let t: TestApp;
  let acct: TestAccount;
  let stop: () => Promise<void>;
  const auth = () => ({ authorization: `Bearer ${acct.apiKey}` });

  before(async () => {
    const s = await setup();
    stop = s.stop;
    t = await buildTestApp(s.env);
    acct = await t.account();
  });
  after(async () => {
    await t.close();
    await stop();
  });

  async function uploadedDaysAgo(days: number): Promise<string> {
    const res = await t.upload(acct.apiKey, { content: LOG });
    assert.equal(res.statusCode, 202, res.body);
    const id = res.json().id as string;
    await t.db.kysely.updateTable('sessions').set({ created_at: new Date(Date.now() - days * DAY).toISOString() }).where('id', '=', id).execute();
    return id;
  }

  test('retention: default keeps for ever; owners and admins set it on Settings → Retention (audited), members may not', async () => {
    const owner = await signInAs(t, acct);
    const page = await owner.get('/settings/retention');
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /kept for ever/);
    const saved = await owner.post('/settings/retention', { days: '30' });
    assert.equal(saved.statusCode, 303);
    assert.match((await owner.get('/settings/retention?done=saved')).body, /deleted 30 days after upload/);
    const events = await auditRows(t, acct.accountId, 'retention.changed');
    assert.equal(events.length, 1);
    assert.deepEqual(JSON.parse(events[0].details), { from_days: null, to_days: 30 });
    const bad = await owner.post('/settings/retention', { days: '0' });
    assert.equal(bad.statusCode, 422);
    assert.match(bad.body, /whole number of days from 1 to 3650/);
    const member = await signedInMember(t, acct.accountId, 'member');
    assert.equal((await member.browser.post('/settings/retention', { days: 'forever' })).statusCode, 403);
    assert.equal((await t.db.kysely.selectFrom('accounts').select('log_retention_days').where('id', '=', acct.accountId).executeTakeFirstOrThrow()).log_retention_days, 30);
  });

  test('retention: the sweep deletes logs older than the period; sessions and reports stay and say the log was deleted', async () => {
    await t.db.kysely.updateTable('accounts').set({ log_retention_days: 30 }).where('id', '=', acct.accountId).execute();
    const old = await uploadedDaysAgo(31);
    const recent = await uploadedDaysAgo(29);
    await t.analyzeAll();
    const before = await t.stored();

    const swept = await sweepOnce({ db: t.db, logStore: t.logStore, idempotencyRetentionMs: DAY });
    assert.equal(swept.expiredLogs, 1);

    await assert.rejects(t.logStore.open(old), LogNotFoundError);
    const log = await t.app.inject({ url: `/v1/sessions/${old}/log`, headers: auth() });
    assert.equal(log.statusCode, 404);
    assert.match(log.json().detail, /deleted by the account's retention setting/);
    const redact = await t.app.inject({ method: 'POST', url: `/v1/sessions/${old}/log/redact`, headers: auth() });
    assert.equal(redact.statusCode, 404);
    assert.match(redact.json().detail, /deleted by the account's retention setting at \d{4}-/, 'redacting a log retention deleted says why it is not found');
    assert.equal((await t.app.inject({ url: `/v1/sessions/${old}/report`, headers: auth() })).statusCode, 200, 'the report is kept');
    assert.equal((await t.app.inject({ url: `/v1/sessions/${old}`, headers: auth() })).json().status, 'complete', 'the session is kept');
    const page = await (await signInAs(t, acct)).get(`/r/${old}`);
    assert.match(page.body, /The stored log was deleted by this account(&#x27;|')s retention setting/);
    assert.doesNotMatch(page.body, new RegExp(`/r/${old}/log`), 'no download link for a deleted log');

    assert.equal((await t.app.inject({ url: `/v1/sessions/${recent}/log`, headers: auth() })).statusCode, 200, 'a recent log stays');
    const after = await t.stored();
    assert.equal(after.sessions, before.sessions);
    assert.equal(after.logs, before.logs - 1);
    assert.equal(after.tempFiles, 0);
    assert.equal((await sweepOnce({ db: t.db, logStore: t.logStore, idempotencyRetentionMs: DAY })).expiredLogs, 0, 'nothing twice');
  });

  test('retention: two sweeps at the same time report an expired log once, not once each', async () => {
    await t.db.kysely.updateTable('accounts').set({ log_retention_days: 30 }).where('id', '=', acct.accountId).execute();
    const old = await uploadedDaysAgo(45);
    await t.analyzeAll();
    const deps = { db: t.db, logStore: t.logStore, idempotencyRetentionMs: DAY };
    const [a, b] = await Promise.all([sweepOnce(deps), sweepOnce(deps)]);
    assert.equal(a.expiredLogs + b.expiredLogs, 1, `reported by both sweeps: ${a.expiredLogs} + ${b.expiredLogs}`);
    await assert.rejects(t.logStore.open(old), LogNotFoundError);
  });

  test('retention: "keep for ever" deletes nothing, however old', async () => {
    await t.db.kysely.updateTable('accounts').set({ log_retention_days: null }).where('id', '=', acct.accountId).execute();
    const ancient = await uploadedDaysAgo(4000);
    await t.analyzeAll();
    assert.equal((await sweepOnce({ db: t.db, logStore: t.logStore, idempotencyRetentionMs: DAY })).expiredLogs, 0);
    assert.equal((await t.app.inject({ url: `/v1/sessions/${ancient}/log`, headers: auth() })).statusCode, 200);
  });
}
