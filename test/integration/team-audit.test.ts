// The audit log: one test per event (each through the real app, checking actor, time, source
// address and target), GET /v1/audit-events (paging, filters, problems, the OpenAPI document),
// the JSONL export, the page, and that no event ever holds a secret used during the run.
import { after, before, describe, test } from 'node:test';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { buildTestApp } from '../helpers/app.ts';
import type { TestAccount, TestApp } from '../helpers/app.ts';
import { cookiesOf, csrfOf, postSignedOutForm, signInAs } from '../helpers/web-forms.ts';
import type { Browser } from '../helpers/web-forms.ts';
import { auditRows, signedInMember } from '../helpers/teams.ts';
import { AUDIT_ACTIONS } from '../../src/services/audit.ts';
import type { AuditAction } from '../../src/services/audit.ts';

let t: TestApp;
let alice: TestAccount;
let owner: Browser;
let ownerId: string;
const secrets: string[] = [];

before(async () => {
  t = await buildTestApp({ VOUCH_WEBHOOK_ALLOW_CIDRS: '127.0.0.0/8', VOUCH_LOGIN_RATE_LIMIT_MAX: '100000' });
  alice = await t.account();
  secrets.push(alice.apiKey, alice.password);
  owner = await signInAs(t, alice);
  ownerId = (await t.db.kysely.selectFrom('users').select('id').where('email', '=', alice.email).executeTakeFirstOrThrow()).id;
});
after(() => t.close());

type Row = Awaited<ReturnType<typeof auditRows>>[number];

/** The newest event of `action` in the account, checked for the common fields. */
async function lastEvent(action: AuditAction, accountId = alice.accountId): Promise<Row> {
  const rows = await auditRows(t, accountId, action);
  const e = rows.at(-1);
  assert.ok(e, `an ${action} event was recorded`);
  assert.ok(Date.now() - Date.parse(e.occurred_at) < 60_000, 'with the time it happened');
  return e;
}

function byMember(e: Row, userId = ownerId, ip = '127.0.0.1') {
  assert.equal(e.actor_type, 'user');
  assert.equal(e.actor_id, userId);
  assert.equal(e.source_ip, ip);
}

const keyOf = (html: string) => /id="new-key"[^>]*value="(vk_[^"]+)"/.exec(html)?.[1] as string;

describe('sign-in and passwords', () => {
  test('account.created: sign-up records the founder, their address and the account', async () => {
    const email = `founder-${Date.now()}@example.test`;
    const res = await postSignedOutForm(t, '/signup', '/signup', { email, password: 'founder password 1', name: 'Acme' });
    assert.equal(res.statusCode, 303);
    const user = await t.db.kysely.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
    const e = await lastEvent('account.created', user.account_id);
    byMember(e, user.id);
    assert.equal(e.target_type, 'account');
    assert.equal(e.target_label, 'Acme');
    secrets.push('founder password 1');
  });

  test('auth.sign_in and auth.sign_in_failed: with the client address; a failure names the user, not the password', async () => {
    const page = await t.app.inject({ url: '/login' });
    const cookie = `vouch_login_csrf=${cookiesOf(page).vouch_login_csrf}`;
    const form = (password: string) => new URLSearchParams({ _csrf: csrfOf(page.body), email: alice.email, password, next: '/' }).toString();
    const failed = await t.app.inject({ method: 'POST', url: '/login', remoteAddress: '203.0.113.7', headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin', cookie }, payload: form('a wrong guess 1') });
    assert.equal(failed.statusCode, 401);
    const f = await lastEvent('auth.sign_in_failed');
    assert.equal(f.actor_type, 'anonymous');
    assert.equal(f.source_ip, '203.0.113.7');
    assert.equal(f.target_id, ownerId);
    assert.equal(f.target_label, alice.email);
    assert.ok(!JSON.stringify(f).includes('a wrong guess'), 'the tried password is not kept');
    const ok = await t.app.inject({ method: 'POST', url: '/login', remoteAddress: '203.0.113.8', headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin', cookie }, payload: form(alice.password) });
    assert.equal(ok.statusCode, 303);
    byMember(await lastEvent('auth.sign_in'), ownerId, '203.0.113.8');
  });

  test('auth.sign_out', async () => {
    const b = await signInAs(t, alice);
    assert.equal((await b.post('/logout')).statusCode, 303);
    byMember(await lastEvent('auth.sign_out'));
  });

  test('auth.password_changed and auth.signed_out_everywhere', async () => {
    const m = await signedInMember(t, alice.accountId, 'member');
    assert.equal((await m.browser.post('/settings/account/password', { current: m.password, password: 'changed password 2' })).statusCode, 200);
    secrets.push('changed password 2');
    const e = await lastEvent('auth.password_changed');
    byMember(e, m.userId);
    assert.equal(e.target_id, m.userId);
    assert.equal((await m.browser.post('/settings/account/sign-out-everywhere')).statusCode, 303);
    byMember(await lastEvent('auth.signed_out_everywhere'), m.userId);
  });

  test('auth.password_reset_issued and auth.password_reset_used', async () => {
    const m = await signedInMember(t, alice.accountId, 'member');
    const issued = await owner.post(`/settings/members/${m.userId}/reset-link`);
    const link = /id="reset-link"[^>]*value="([^"]+)"/.exec(issued.body)?.[1] as string;
    secrets.push(link.split('/').pop() as string);
    const e = await lastEvent('auth.password_reset_issued');
    byMember(e);
    assert.equal(e.target_id, m.userId);
    const path = new URL(link).pathname;
    assert.equal((await postSignedOutForm(t, path, path, { password: 'reset password 3' })).statusCode, 303);
    secrets.push('reset password 3');
    byMember(await lastEvent('auth.password_reset_used'), m.userId);
  });
});

describe('API keys', () => {
  test('key.created, key.first_used (by the key, from its address), key.revoked', async () => {
    const created = await owner.post('/settings/api-keys', { name: 'audited key' });
    const key = keyOf(created.body);
    secrets.push(key);
    const c = await lastEvent('key.created');
    byMember(c);
    assert.equal(c.target_type, 'key');
    assert.match(c.target_label ?? '', /^vk_.+….{4}$/);
    const res = await t.app.inject({ url: '/v1/sessions', remoteAddress: '198.51.100.4', headers: { authorization: `Bearer ${key}` } });
    assert.equal(res.statusCode, 200);
    await t.app.inject({ url: '/v1/sessions', headers: { authorization: `Bearer ${key}` } });
    const used = await auditRows(t, alice.accountId, 'key.first_used');
    assert.equal(used.filter((u) => u.target_id === c.target_id).length, 1, 'recorded once, at the first use only');
    const u = await lastEvent('key.first_used');
    assert.equal(u.actor_type, 'key');
    assert.equal(u.actor_id, c.target_id);
    assert.equal(u.source_ip, '198.51.100.4');
    assert.equal((await owner.post(`/settings/api-keys/${c.target_id}/revoke`)).statusCode, 303);
    const r = await lastEvent('key.revoked');
    byMember(r);
    assert.equal(r.target_id, c.target_id);
  });
});

describe('webhooks', () => {
  let hookId: string;

  test('webhook.created: the webhook is named by its origin only (a chat webhook\'s path is its secret)', async () => {
    const res = await owner.post('/settings/webhooks', { url: 'http://127.0.0.1:9/services/T000/B000/XXXXsecretpath', secret_mode: 'custom', secret: 'my custom signing secret', shape: 'A' });
    assert.equal(res.statusCode, 303, res.body.slice(0, 300));
    secrets.push('XXXXsecretpath', 'my custom signing secret');
    hookId = String(res.headers.location).split('/')[3].split('?')[0];
    const e = await lastEvent('webhook.created');
    byMember(e);
    assert.equal(e.target_id, hookId);
    assert.equal(e.target_label, 'http://127.0.0.1:9');
    assert.deepEqual(JSON.parse(e.details), { shape: 'A', signed: true });
  });

  test('webhook.updated says what changed, never the values of secrets', async () => {
    const res = await owner.post(`/settings/webhooks/${hookId}`, { url: 'http://127.0.0.1:9/other', secret_mode: 'custom', secret: 'a second secret value', shape: 'B' });
    assert.equal(res.statusCode, 303);
    secrets.push('a second secret value');
    const e = await lastEvent('webhook.updated');
    byMember(e);
    assert.deepEqual(JSON.parse(e.details), { url_changed: true, shape_from: 'A', shape_to: 'B', secret: 'replaced', previous_origin: 'http://127.0.0.1:9' });
  });

  test('webhook.disabled and webhook.enabled', async () => {
    assert.equal((await owner.post(`/settings/webhooks/${hookId}/disable`)).statusCode, 303);
    byMember(await lastEvent('webhook.disabled'));
    assert.equal((await owner.post(`/settings/webhooks/${hookId}/enable`)).statusCode, 303);
    byMember(await lastEvent('webhook.enabled'));
  });

  test('webhook.test_sent and webhook.redelivered', async () => {
    assert.equal((await owner.post(`/settings/webhooks/${hookId}/test`)).statusCode, 303);
    const e = await lastEvent('webhook.test_sent');
    byMember(e);
    const delivery = JSON.parse(e.details).delivery as string;
    await t.db.kysely.updateTable('deliveries').set({ status: 'failed' }).where('id', '=', delivery).execute();
    await t.db.kysely.deleteFrom('jobs').execute();
    assert.equal((await owner.post(`/settings/webhooks/${hookId}/deliveries/${delivery}/redeliver`)).statusCode, 303);
    const r = await lastEvent('webhook.redelivered');
    byMember(r);
    assert.equal(JSON.parse(r.details).delivery, delivery);
  });

  test('webhook.deleted', async () => {
    assert.equal((await owner.post(`/settings/webhooks/${hookId}/delete`)).statusCode, 303);
    const e = await lastEvent('webhook.deleted');
    byMember(e);
    assert.equal(e.target_id, hookId);
  });
});

describe('members', () => {
  test('member.invited, member.joined, member.invitation_withdrawn', async () => {
    const email = `joiner-${Date.now()}@example.test`;
    const res = await owner.post('/settings/members/invite', { email, role: 'admin' });
    const link = /id="invite-link"[^>]*value="([^"]+)"/.exec(res.body)?.[1] as string;
    secrets.push(link.split('/').pop() as string);
    const e = await lastEvent('member.invited');
    byMember(e);
    assert.equal(e.target_label, email);
    assert.deepEqual(JSON.parse(e.details), { role: 'admin' });
    const path = new URL(link).pathname;
    assert.equal((await postSignedOutForm(t, path, path, { password: 'joiner password 4' })).statusCode, 303);
    secrets.push('joiner password 4');
    const j = await lastEvent('member.joined');
    assert.equal(j.actor_type, 'user');
    assert.equal(j.target_label, email);
    assert.equal(JSON.parse(j.details).role, 'admin');
    const second = await owner.post('/settings/members/invite', { email: `withdrawn-${Date.now()}@example.test` });
    assert.equal(second.statusCode, 200);
    const inv = (await auditRows(t, alice.accountId, 'member.invited')).at(-1)?.target_id as string;
    assert.equal((await owner.post(`/settings/members/invitations/${inv}/withdraw`)).statusCode, 303);
    const w = await lastEvent('member.invitation_withdrawn');
    byMember(w);
    assert.equal(w.target_id, inv);
  });

  test('member.role_changed, member.resources_transferred, member.removed', async () => {
    const m = await signedInMember(t, alice.accountId, 'member');
    const heir = await signedInMember(t, alice.accountId, 'admin');
    assert.equal((await owner.post(`/settings/members/${m.userId}/role`, { role: 'admin' })).statusCode, 303);
    const r = await lastEvent('member.role_changed');
    byMember(r);
    assert.deepEqual(JSON.parse(r.details), { from: 'member', to: 'admin', keys_narrowed: 0, keys_revoked: 0, webhooks_disabled: 0, invitations_withdrawn: 0, reset_links_withdrawn: 0 });
    // As an admin they make a key with every scope; back to member, it keeps what a member may give.
    const key = await signInAs(t, m).then((b) => b.post('/settings/api-keys', { name: 'admin-era key' }));
    assert.equal(key.statusCode, 200);
    assert.equal((await owner.post(`/settings/members/${m.userId}/role`, { role: 'member' })).statusCode, 303);
    const narrowed = await lastEvent('key.scopes_narrowed');
    byMember(narrowed);
    assert.deepEqual(JSON.parse(narrowed.details), {
      name: 'admin-era key', from: 'sessions:read sessions:write sessions:delete logs:redact audit:read', to: 'sessions:read sessions:write', reason: `${m.email} became a member`,
    });
    assert.equal((await owner.post(`/settings/members/${m.userId}/remove`, { transfer_to: heir.userId })).statusCode, 200, 'the replacement key is shown');
    byMember(await lastEvent('member.resources_transferred'));
    const e = await lastEvent('member.removed');
    byMember(e);
    assert.equal(e.target_id, m.userId);
  });
});

describe('stored logs', () => {
  test('log.redacted (dashboard, by a member) and log.deleted (API, by a key)', async () => {
    const up = await t.upload(alice.apiKey);
    const id = up.json().id as string;
    await t.analyzeAll();
    const redact = await owner.post(`/r/${id}/redact`, { confirm: 'yes' });
    assert.equal(redact.statusCode, 303);
    const e = await lastEvent('log.redacted');
    byMember(e);
    assert.equal(e.target_id, id);
    const del = await t.app.inject({ method: 'DELETE', url: `/v1/sessions/${id}`, remoteAddress: '192.0.2.9', headers: { authorization: `Bearer ${alice.apiKey}` } });
    assert.equal(del.statusCode, 204);
    const d = await lastEvent('log.deleted');
    assert.equal(d.actor_type, 'key');
    assert.match(d.actor_label ?? '', /^vk_.+…/);
    assert.equal(d.source_ip, '192.0.2.9');
    assert.equal(d.target_id, id);
  });
});

describe('reading the log', () => {
  test('every event of the catalogue has its test in this file (retention.changed: reserved for the retention setting)', () => {
    const source = readFileSync(fileURLToPath(import.meta.url), 'utf8');
    // Single sign-on's events are tested in sso.test.ts, against an identity provider.
    const elsewhere = new Set(['retention.changed', 'sso.configured', 'sso.updated', 'sso.removed', 'sso.domain_verified', 'auth.sso_sign_in', 'auth.sso_sign_in_failed']);
    const expected = (Object.keys(AUDIT_ACTIONS) as AuditAction[]).filter((a) => !elsewhere.has(a));
    assert.deepEqual(expected.filter((a) => !source.includes(`lastEvent('${a}'`)), []);
  });

  test('no event holds a secret (keys, passwords, link tokens, webhook secrets and paths)', async () => {
    // Secret-bearing actions of its own, besides whatever other tests recorded.
    const created = await owner.post('/settings/api-keys', { name: 'secret sweep' });
    secrets.push(keyOf(created.body));
    const hook = await owner.post('/settings/webhooks', { url: 'http://127.0.0.1:9/hooks/sweep-secret-path-0123', secret_mode: 'custom', secret: 'sweep signing secret', shape: 'C' });
    assert.equal(hook.statusCode, 303);
    secrets.push('sweep-secret-path-0123', 'sweep signing secret');
    const invited = await owner.post('/settings/members/invite', { email: `sweep-${Date.now()}@example.test` });
    secrets.push((/id="invite-link"[^>]*value="[^"]+\/invite\/([^"]+)"/.exec(invited.body) as RegExpExecArray)[1]);
    const m = await signedInMember(t, alice.accountId, 'member');
    await m.browser.post('/settings/account/password', { current: m.password, password: 'sweep new password' });
    secrets.push('sweep new password', m.browser.cookie.split('=')[1]);
    const all = JSON.stringify(await t.db.kysely.selectFrom('audit_events').selectAll().execute());
    for (const s of secrets) assert.ok(!all.includes(s), `the audit log does not contain ${s.slice(0, 6)}…`);
    assert.doesNotMatch(all, /vk_[0-9A-Za-z]{49}/);
    assert.doesNotMatch(all, /whsec_/);
  });

  test('GET /v1/audit-events: newest first, paged with Link, filtered, for the key\'s account only', async () => {
    const auth = { authorization: `Bearer ${alice.apiKey}` };
    for (let i = 0; i < 21; i++) assert.equal((await owner.post('/settings/api-keys', { name: `paging ${i}` })).statusCode, 200);
    const first = await t.app.inject({ url: '/v1/audit-events?limit=5', headers: auth });
    assert.equal(first.statusCode, 200);
    const body = first.json();
    assert.equal(body.data.length, 5);
    assert.ok(body.total > 20);
    assert.equal(body.has_more, true);
    assert.match(String(first.headers.link), /rel="next"/);
    const ids = body.data.map((e: { id: string }) => e.id);
    assert.deepEqual([...ids].sort().reverse(), ids, 'newest first');
    const second = (await t.app.inject({ url: '/v1/audit-events?limit=5&page=2', headers: auth })).json();
    assert.ok(second.data.every((e: { id: string }) => e.id < ids[4]), 'page 2 continues page 1');
    const keys = (await t.app.inject({ url: '/v1/audit-events?action=key.created', headers: auth })).json();
    assert.ok(keys.data.length >= 1 && keys.data.every((e: { action: string }) => e.action === 'key.created'));
    const mine = (await t.app.inject({ url: `/v1/audit-events?actor_id=${ownerId}&limit=100`, headers: auth })).json();
    assert.ok(mine.data.every((e: { actor: { id: string } }) => e.actor.id === ownerId));
    const future = (await t.app.inject({ url: '/v1/audit-events?occurred_after=2999-01-01T00:00:00Z', headers: auth })).json();
    assert.equal(future.total, 0);
    const other = await t.account();
    const theirs = (await t.app.inject({ url: '/v1/audit-events?limit=100', headers: { authorization: `Bearer ${other.apiKey}` } })).json();
    assert.ok(theirs.data.every((e: { target: { id: string } | null }) => !ids.includes(e.target?.id ?? '')), 'another account sees only its own events');
    assert.ok(theirs.data.every((e: { action: string }) => e.action === 'account.created' || e.action === 'key.created' || e.action === 'key.first_used'));
  });

  test('GET /v1/audit-events refuses bad input with problem details', async () => {
    const auth = { authorization: `Bearer ${alice.apiKey}` };
    for (const q of ['limit=0', 'limit=0x10', 'page=-1', 'action=key.stolen', 'occurred_after=yesterday', 'actor_id=%00']) {
      const res = await t.app.inject({ url: `/v1/audit-events?${q}`, headers: auth });
      assert.equal(res.statusCode, 422, q);
      assert.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8');
      assert.equal(res.json().code, 'validation_failed');
    }
    assert.equal((await t.app.inject({ url: '/v1/audit-events' })).statusCode, 401);
  });

  test('the OpenAPI document describes GET /v1/audit-events with the shared schemas', async () => {
    const doc = (await t.app.inject({ url: '/v1/openapi.json' })).json();
    const op = doc.paths['/v1/audit-events'].get;
    assert.equal(op.operationId, 'listAuditEvents');
    assert.ok(doc.components.schemas.AuditEvent);
    assert.deepEqual(op.responses['422'].content, { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } });
  });

  test('the page filters and pages; the export is JSONL of what the filters select; members cannot read it', async () => {
    assert.equal((await owner.post('/settings/webhooks', { url: 'http://127.0.0.1:9/export', secret_mode: 'none', shape: 'A' })).statusCode, 303);
    for (let i = 0; i < 51; i++) assert.equal((await owner.post('/settings/api-keys', { name: `page ${i}` })).statusCode, 200);
    const page = await owner.get('/settings/audit-log?action=key.created');
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /API key created/);
    assert.doesNotMatch(page.body, /data-action="member.invited"/);
    const paged = await owner.get('/settings/audit-log?page=2');
    assert.equal(paged.statusCode, 200);
    assert.match(paged.body, /rel="prev"/, 'more than one page of 50');
    const bad = await owner.get('/settings/audit-log?action=nope&from=yesterday');
    assert.equal(bad.statusCode, 422);
    assert.match(bad.body, /Unknown event/);
    const exp = await owner.get('/settings/audit-log/export.jsonl?action=webhook.created');
    assert.equal(exp.statusCode, 200);
    assert.match(String(exp.headers['content-type']), /^application\/x-ndjson/);
    assert.match(String(exp.headers['content-disposition']), /attachment; filename="vouch-audit-\d{4}-\d{2}-\d{2}\.jsonl"/);
    const lines = exp.body.trim().split('\n').map((l) => JSON.parse(l));
    assert.ok(lines.length >= 1 && lines.every((l) => l.action === 'webhook.created'));
    const all = (await owner.get('/settings/audit-log/export.jsonl')).body.trim().split('\n');
    assert.equal(all.length, (await auditRows(t, alice.accountId)).length, 'the whole log, every event once');
    const m = await signedInMember(t, alice.accountId, 'member');
    assert.equal((await m.browser.get('/settings/audit-log')).statusCode, 403);
    assert.equal((await m.browser.get('/settings/audit-log/export.jsonl')).statusCode, 403);
  });
});
