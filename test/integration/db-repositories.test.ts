// Repositories: tenant scoping, list ordering/paging/filters/total, API keys, idempotency keys,
// web sessions, webhooks/deliveries/attempts. Runs on SQLite and PostgreSQL (VOUCH_TEST_DB).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createTestDb } from '../helpers/db.ts';
import type { TestDb } from '../helpers/db.ts';
import type { NewSession } from '../../src/adapters/db/schema.ts';
import { createAccountWithUser, findUserByEmail, isUniqueViolation } from '../../src/adapters/db/repositories/accounts.ts';
import {
  findActiveApiKeyByHash, hashApiKey, insertApiKey, listApiKeys, revokeApiKey, revokeApiKeyByHash, touchApiKey,
} from '../../src/adapters/db/repositories/api-keys.ts';
import {
  countSessions, deleteSession, findSessionReport, getSession, insertSession, listSessions, markSessionComplete, markSessionFailed,
} from '../../src/adapters/db/repositories/sessions.ts';
import { insertReport } from '../../src/adapters/db/repositories/reports.ts';
import type { SessionFilters } from '../../src/adapters/db/repositories/sessions.ts';
import { findIdempotencyKey, insertIdempotencyKey } from '../../src/adapters/db/repositories/idempotency.ts';
import { createWebSession, deleteWebSession, findValidWebSession } from '../../src/adapters/db/repositories/web-sessions.ts';
import {
  getDelivery, insertDelivery, insertWebhook, listAttempts, listDeliveries, listEnabledWebhooks, recordAttemptEnd,
  recordAttemptStart, updateDelivery, updateWebhook,
} from '../../src/adapters/db/repositories/webhooks.ts';
import { isoAfter, newId, nowIso } from '../../src/kernel/ids.ts';

let t: TestDb;
before(async () => {
  t = await createTestDb();
});
after(async () => {
  await t.cleanup();
});

async function account(email: string): Promise<string> {
  const { account } = await createAccountWithUser(t.db.kysely, { name: email, email, passwordHash: 'argon2-hash' });
  return account.id;
}

/** A page of the account's sessions with the total, as the list endpoint composes them. */
async function page(accountId: string, filters: SessionFilters, at: { limit: number; offset: number }) {
  return { rows: await listSessions(t.db.kysely, accountId, filters, at), total: await countSessions(t.db.kysely, accountId, filters) };
}

function sessionRow(accountId: string, over: Partial<NewSession> = {}): NewSession {
  return {
    id: newId('ses'),
    account_id: accountId,
    status: 'analyzing',
    agent_hint: null,
    agent: null,
    repo: null,
    branch: null,
    filename: 'log.jsonl',
    size_bytes: 10,
    sha256: 'ab'.repeat(32),
    created_at: nowIso(),
    completed_at: null,
    trust_score: null,
    outcome: null,
    findings_critical: null,
    findings_warning: null,
    findings_info: null,
    report_id: null,
    failure_reason: null,
    idempotency_key: null,
    ...over,
  };
}

test('accounts: users are found by email case-insensitively, emails are unique', async () => {
  await account('Alice@Example.TEST');
  const user = await findUserByEmail(t.db.kysely, '  alice@example.test ');
  assert.equal(user?.email, 'alice@example.test');
  await assert.rejects(account('ALICE@example.test'), (e) => isUniqueViolation(e));
  assert.equal(await findUserByEmail(t.db.kysely, 'nobody@example.test'), undefined);
});

test('account creation in a failed transaction leaves nothing', async () => {
  await assert.rejects(
    t.db.kysely.transaction().execute(async (trx) => {
      await createAccountWithUser(trx, { name: 'x', email: 'rollback@example.test', passwordHash: 'h' });
      throw new Error('boom');
    }),
    /boom/,
  );
  assert.equal(await findUserByEmail(t.db.kysely, 'rollback@example.test'), undefined);
});

test('sessions: another account\'s session is not found, updated or deleted', async () => {
  const a = await account('scope-a@example.test');
  const b = await account('scope-b@example.test');
  const row = sessionRow(a);
  await insertSession(t.db.kysely, row);
  assert.equal((await getSession(t.db.kysely, a, row.id))?.id, row.id);
  assert.equal(await getSession(t.db.kysely, b, row.id), undefined);
  const completion = {
    accountId: b, sessionId: row.id, reportId: newId('rep'), agent: 'codex', branch: null, trustScore: 90, outcome: 'Clear',
    findings: { critical: 0, warning: 0, info: 1 },
  };
  assert.equal(await markSessionComplete(t.db.kysely, completion), false);
  assert.equal(await markSessionFailed(t.db.kysely, { accountId: b, sessionId: row.id, reason: 'x' }), false);
  assert.equal(await deleteSession(t.db.kysely, b, row.id), false);
  assert.equal((await page(b, {}, { limit: 10, offset: 0 })).total, 0);
  assert.equal((await getSession(t.db.kysely, a, row.id))?.status, 'analyzing');
});

test('sessions: list is newest first with stable ties, pages and counts the total', async () => {
  const a = await account('list@example.test');
  const sameMs = nowIso();
  const ids: string[] = [];
  // Five in the same millisecond (ids decide), then three later ones.
  for (let i = 0; i < 5; i++) {
    const row = sessionRow(a, { created_at: sameMs, repo: i % 2 ? 'acme/api' : 'acme/web' });
    ids.push(row.id);
    await insertSession(t.db.kysely, row);
  }
  for (let i = 0; i < 3; i++) {
    const row = sessionRow(a, { created_at: isoAfter(1000 * (i + 1)), repo: 'acme/api' });
    ids.push(row.id);
    await insertSession(t.db.kysely, row);
  }
  const expected = [...ids].reverse();
  const all = await page(a, {}, { limit: 100, offset: 0 });
  assert.equal(all.total, 8);
  assert.deepEqual(all.rows.map((r) => r.id), expected);
  const pages: string[] = [];
  for (let offset = 0; offset < 8; offset += 3) {
    const one = await page(a, {}, { limit: 3, offset });
    assert.equal(one.total, 8);
    pages.push(...one.rows.map((r) => r.id));
  }
  assert.deepEqual(pages, expected, 'pages concatenate to the full list');
  const past = await page(a, {}, { limit: 3, offset: 30 });
  assert.deepEqual(past, { rows: [], total: 8 });
  const api = await page(a, { repo: 'acme/api' }, { limit: 2, offset: 0 });
  assert.equal(api.total, 5);
  assert.deepEqual(api.rows.map((r) => r.id), expected.slice(0, 2));
  assert.ok(api.rows.every((r) => r.repo === 'acme/api'));
});

test('sessions: filters by agent, outcome, status and date range', async () => {
  const a = await account('filters@example.test');
  const t0 = Date.now() + 10_000_000;
  const rows = [
    sessionRow(a, { agent: 'codex', created_at: nowIso(t0) }),
    sessionRow(a, { agent: 'claude-code', created_at: nowIso(t0 + 1000) }),
    sessionRow(a, { agent: 'codex', created_at: nowIso(t0 + 2000) }),
  ];
  for (const r of rows) await insertSession(t.db.kysely, r);
  assert.equal(
    await markSessionComplete(t.db.kysely, {
      accountId: a, sessionId: rows[0].id, reportId: newId('rep'), agent: 'codex', branch: 'main', trustScore: 40, outcome: 'Blocked',
      findings: { critical: 2, warning: 1, info: 0 },
    }),
    true,
  );
  assert.equal(await markSessionFailed(t.db.kysely, { accountId: a, sessionId: rows[1].id, reason: 'analysis timed out' }), true);
  const ids = async (f: SessionFilters) => (await page(a, f, { limit: 50, offset: 0 })).rows.map((r) => r.id);
  assert.deepEqual(await ids({ agent: 'codex' }), [rows[2].id, rows[0].id]);
  assert.deepEqual(await ids({ outcome: 'Blocked' }), [rows[0].id]);
  assert.deepEqual(await ids({ status: 'failed' }), [rows[1].id]);
  assert.deepEqual(await ids({ status: 'analyzing' }), [rows[2].id]);
  assert.deepEqual(await ids({ createdAfter: nowIso(t0 + 1000), createdBefore: nowIso(t0 + 2000) }), [rows[1].id]);
  assert.deepEqual(await ids({ agent: 'codex', status: 'complete' }), [rows[0].id]);
  const done = await getSession(t.db.kysely, a, rows[0].id);
  assert.equal(done?.trust_score, 40);
  assert.equal(done?.findings_critical, 2);
  assert.equal(done?.branch, 'main');
  assert.ok(done?.completed_at);
  assert.equal((await getSession(t.db.kysely, a, rows[1].id))?.failure_reason, 'analysis timed out');
  // Final states are final: a second completion or failure changes nothing.
  assert.equal(await markSessionFailed(t.db.kysely, { accountId: a, sessionId: rows[0].id, reason: 'late' }), false);
  assert.equal((await getSession(t.db.kysely, a, rows[0].id))?.status, 'complete');
});

test('sessions: size_bytes round-trips as a number above 2^31', async () => {
  const a = await account('big@example.test');
  const row = sessionRow(a, { size_bytes: 5_000_000_000 });
  await insertSession(t.db.kysely, row);
  assert.strictEqual((await getSession(t.db.kysely, a, row.id))?.size_bytes, 5_000_000_000);
});

test('reports: found by session within the account only; deleting the session removes it', async () => {
  const a = await account('reports@example.test');
  const b = await account('reports-b@example.test');
  const row = sessionRow(a);
  await insertSession(t.db.kysely, row);
  const reportId = newId('rep');
  await insertReport(t.db.kysely, { id: reportId, session_id: row.id, account_id: a, analyzer_version: '1', body: '{"x":1}', created_at: nowIso() });
  assert.equal((await findSessionReport(t.db.kysely, a, row.id))?.body, '{"x":1}');
  assert.equal(await findSessionReport(t.db.kysely, b, row.id), undefined);
  assert.equal(await deleteSession(t.db.kysely, a, row.id), true);
  assert.equal(await findSessionReport(t.db.kysely, a, row.id), undefined);
  const reports = await t.db.kysely.selectFrom('reports').select('id').where('id', '=', reportId).execute();
  assert.deepEqual(reports, [], 'the report went with its session');
});

test('api keys: found by hash while active, revoked by hash or by id within the account', async () => {
  const a = await account('keys@example.test');
  const b = await account('keys-b@example.test');
  const mk = async (key: string) => {
    const id = newId('key');
    await insertApiKey(t.db.kysely, { id, account_id: a, name: key, prefix: key.slice(0, 8), last4: key.slice(-4), hash: hashApiKey(key), created_at: nowIso(), last_used_at: null, revoked_at: null });
    return id;
  };
  const k1 = await mk('vk_test_first_key_1111');
  await mk('vk_test_second_key_2222');
  assert.equal((await findActiveApiKeyByHash(t.db.kysely, hashApiKey('vk_test_first_key_1111')))?.id, k1);
  assert.equal(await findActiveApiKeyByHash(t.db.kysely, hashApiKey('vk_test_unknown')), undefined);
  assert.equal((await listApiKeys(t.db.kysely, a)).length, 2);
  assert.equal((await listApiKeys(t.db.kysely, b)).length, 0);

  assert.equal(await revokeApiKeyByHash(t.db.kysely, hashApiKey('vk_test_first_key_1111')), true);
  assert.equal(await findActiveApiKeyByHash(t.db.kysely, hashApiKey('vk_test_first_key_1111')), undefined);
  assert.equal(await revokeApiKeyByHash(t.db.kysely, hashApiKey('vk_test_first_key_1111')), false, 'already revoked');

  const k2 = (await findActiveApiKeyByHash(t.db.kysely, hashApiKey('vk_test_second_key_2222')))!.id;
  assert.equal(await revokeApiKey(t.db.kysely, b, k2), false, 'another account cannot revoke it');
  assert.ok(await findActiveApiKeyByHash(t.db.kysely, hashApiKey('vk_test_second_key_2222')));
  assert.equal(await revokeApiKey(t.db.kysely, a, k2), true);
  assert.equal(await findActiveApiKeyByHash(t.db.kysely, hashApiKey('vk_test_second_key_2222')), undefined);
});

test('api keys: last_used_at is written at most once a minute per key', async () => {
  const a = await account('touch@example.test');
  const id = newId('key');
  await insertApiKey(t.db.kysely, { id, account_id: a, name: 'k', prefix: 'vk', last4: '0000', hash: hashApiKey(id), created_at: nowIso(), last_used_at: null, revoked_at: null });
  const t0 = Date.now();
  assert.equal(await touchApiKey(t.db.kysely, id, t0), true);
  assert.equal(await touchApiKey(t.db.kysely, id, t0 + 30_000), false);
  assert.equal((await listApiKeys(t.db.kysely, a))[0].last_used_at, nowIso(t0));
  assert.equal(await touchApiKey(t.db.kysely, id, t0 + 61_000), true);
  assert.equal((await listApiKeys(t.db.kysely, a))[0].last_used_at, nowIso(t0 + 61_000));
});

test('idempotency keys: the first insert wins, a second is refused without error', async () => {
  const a = await account('idem@example.test');
  const s1 = sessionRow(a);
  const s2 = sessionRow(a);
  await insertSession(t.db.kysely, s1);
  await insertSession(t.db.kysely, s2);
  const row = { account_id: a, key: 'retry-1', request_hash: 'h1', session_id: s1.id, created_at: nowIso() };
  assert.equal(await insertIdempotencyKey(t.db.kysely, row), true);
  assert.equal(await insertIdempotencyKey(t.db.kysely, { ...row, session_id: s2.id }), false);
  assert.equal((await findIdempotencyKey(t.db.kysely, a, 'retry-1'))?.session_id, s1.id);
  const other = await account('idem-b@example.test');
  assert.equal(await findIdempotencyKey(t.db.kysely, other, 'retry-1'), undefined);
});

test('web sessions: valid until expiry, gone after delete', async () => {
  const a = await account('web@example.test');
  const user = (await findUserByEmail(t.db.kysely, 'web@example.test'))!;
  const id = 'f'.repeat(64);
  await createWebSession(t.db.kysely, { id, user_id: user.id, account_id: a, csrf_token: 'csrf', created_at: nowIso(), expires_at: isoAfter(60_000) });
  assert.equal((await findValidWebSession(t.db.kysely, id))?.account_id, a);
  assert.equal(await findValidWebSession(t.db.kysely, id, isoAfter(120_000)), undefined, 'expired');
  await deleteWebSession(t.db.kysely, id);
  assert.equal(await findValidWebSession(t.db.kysely, id), undefined);
});

test('webhooks: enabled ones listed per account; deliveries and attempts recorded in order', async () => {
  const a = await account('hooks@example.test');
  const b = await account('hooks-b@example.test');
  const mk = async (accountId: string, enabled: number) => {
    const id = newId('wh');
    await insertWebhook(t.db.kysely, { id, account_id: accountId, url: 'https://example.test/h', secret: null, shape: 'A', enabled, disabled_reason: null, created_at: nowIso() });
    return id;
  };
  const w1 = await mk(a, 1);
  const w2 = await mk(a, 1);
  await mk(a, 0);
  await mk(b, 1);
  assert.deepEqual((await listEnabledWebhooks(t.db.kysely, a)).map((w) => w.id), [w1, w2]);
  assert.equal(await updateWebhook(t.db.kysely, b, w2, { enabled: 0 }), false, 'other account');
  assert.equal(await updateWebhook(t.db.kysely, a, w2, { enabled: 0, disabled_reason: 'by user' }), true);
  assert.deepEqual((await listEnabledWebhooks(t.db.kysely, a)).map((w) => w.id), [w1]);

  const d1 = newId('dlv');
  const d2 = newId('dlv');
  for (const id of [d1, d2]) {
    await insertDelivery(t.db.kysely, { id, webhook_id: w1, account_id: a, session_id: null, event: 'analysis.complete', body: '{"event":"analysis.complete"}', status: 'pending', attempt_count: 0, created_at: nowIso(), updated_at: nowIso() });
  }
  assert.equal((await getDelivery(t.db.kysely, d1))?.body, '{"event":"analysis.complete"}');
  assert.equal(await getDelivery(t.db.kysely, d1, b), undefined);
  assert.deepEqual((await listDeliveries(t.db.kysely, w1, 10)).map((d) => d.id), [d2, d1]);
  assert.deepEqual(await listDeliveries(t.db.kysely, w1, 10, b), []);

  const att1 = await recordAttemptStart(t.db.kysely, { deliveryId: d1, attemptNo: 1, startedAt: nowIso() });
  await recordAttemptEnd(t.db.kysely, att1, { finishedAt: nowIso(), statusCode: 500, latencyMs: 12, errorClass: 'http_status', error: 'HTTP 500', responseExcerpt: 'oops' });
  const att2 = await recordAttemptStart(t.db.kysely, { deliveryId: d1, attemptNo: 2, startedAt: nowIso() });
  await updateDelivery(t.db.kysely, d1, { status: 'pending', attempt_count: 2, updated_at: nowIso() });
  const attempts = await listAttempts(t.db.kysely, d1);
  assert.deepEqual(attempts.map((x) => [x.id, x.attempt_no, x.status_code]), [[att1, 1, 500], [att2, 2, null]]);
  assert.equal(attempts[1].finished_at, null, 'an attempt in flight is visible before it ends');
  assert.equal((await getDelivery(t.db.kysely, d1))?.attempt_count, 2);
});

test('rows come back as objects keyed by column name (aliases, NULLs, numbers), also after a column is added under a cached select *', async () => {
  await sql`create table row_shape (a text, b integer)`.execute(t.db.kysely);
  try {
    await sql`insert into row_shape (a, b) values ('x', 1), (null, 2)`.execute(t.db.kysely);
    const aliased = await sql<{ first: string | null; n: number }>`select a as first, b as n from row_shape order by b`.execute(t.db.kysely);
    assert.deepEqual(aliased.rows, [{ first: 'x', n: 1 }, { first: null, n: 2 }]);
    const all = sql<Record<string, unknown>>`select * from row_shape order by b`;
    assert.deepEqual((await all.execute(t.db.kysely)).rows, [{ a: 'x', b: 1 }, { a: null, b: 2 }]);
    await sql`alter table row_shape add column c text`.execute(t.db.kysely);
    assert.deepEqual((await all.execute(t.db.kysely)).rows, [{ a: 'x', b: 1, c: null }, { a: null, b: 2, c: null }], 'the same statement text sees the new column');
    assert.deepEqual((await sql`select * from row_shape where b > 5`.execute(t.db.kysely)).rows, [], 'no rows: an empty list');
  } finally {
    await sql`drop table row_shape`.execute(t.db.kysely);
  }
});
