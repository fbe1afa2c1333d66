// Offboarding: keys and webhooks record who created them; removing a member revokes their keys
// (the API refuses them at once), disables their webhooks (the next analysis delivers nothing to
// them), withdraws their pending invitations (the links stop working) and ends their sessions —
// after a page that says what will happen. A transfer (owners) ends in the same state for the
// removed person; the heir gets new keys and the webhooks (disabled) as far as their role allows.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp } from '../helpers/app.ts';
import type { TestAccount, TestApp } from '../helpers/app.ts';
import { postSignedOutForm, signInAs } from '../helpers/web-forms.ts';
import type { Browser } from '../helpers/web-forms.ts';
import { auditRows, signedInMember } from '../helpers/teams.ts';
import type { TestMember } from '../helpers/teams.ts';

let t: TestApp;
let alice: TestAccount;
let owner: Browser;
let n = 0;

before(async () => {
  t = await buildTestApp({ VOUCH_WEBHOOK_ALLOW_CIDRS: '127.0.0.0/8', VOUCH_LOGIN_RATE_LIMIT_MAX: '100000' });
  alice = await t.account();
  owner = await signInAs(t, alice);
});
after(() => t.close());

const keyOf = (html: string) => /id="new-key"[^>]*value="(vk_[^"]+)"/.exec(html)?.[1] as string;
const inviteLinkOf = (html: string) => new URL(/id="invite-link"[^>]*value="([^"]+)"/.exec(html)?.[1] as string).pathname;

/** An admin who creates a key, a webhook and an invitation from the dashboard. */
async function busyAdmin(): Promise<TestMember & { browser: Browser; key: string; hookId: string; invitePath: string }> {
  const admin = await signedInMember(t, alice.accountId, 'admin');
  const created = await admin.browser.post('/settings/api-keys', { name: `laptop ${++n}` });
  const key = keyOf(created.body);
  assert.match(key, /^vk_/);
  const hook = await admin.browser.post('/settings/webhooks', { url: `http://127.0.0.1:9/hook-${n}`, secret_mode: 'none', shape: 'A' });
  assert.equal(hook.statusCode, 303, hook.body.slice(0, 300));
  const hookId = String(hook.headers.location).split('/')[3].split('?')[0];
  const invited = await admin.browser.post('/settings/members/invite', { email: `friend${n}@example.test` });
  return { ...admin, key, hookId, invitePath: inviteLinkOf(invited.body) };
}

test('keys and webhooks record their creator, shown on the pages', async () => {
  const admin = await busyAdmin();
  const key = await t.db.kysely.selectFrom('api_keys').selectAll().where('created_by', '=', admin.userId).executeTakeFirstOrThrow();
  assert.equal(key.created_by_email, admin.email);
  const hook = await t.db.kysely.selectFrom('webhooks').selectAll().where('id', '=', admin.hookId).executeTakeFirstOrThrow();
  assert.equal(hook.created_by, admin.userId);
  assert.ok((await owner.get('/settings/api-keys')).body.includes(admin.email));
  assert.ok((await owner.get('/settings/webhooks')).body.includes(admin.email));
  // The operator's key (vouch admin create-account) has no recorded creator: "unknown".
  assert.match((await owner.get('/settings/api-keys')).body, />unknown</);
});

test('the removal page says what will be revoked, disabled and withdrawn before anything happens', async () => {
  const admin = await busyAdmin();
  const page = await owner.get(`/settings/members/${admin.userId}/remove`);
  assert.equal(page.statusCode, 200);
  assert.match(page.body, /1 API key<\/strong> they created/);
  assert.match(page.body, /1 webhook<\/strong> they added/);
  assert.match(page.body, /1 pending invitation<\/strong> they sent/);
  assert.match(page.body, /Transfer and remove/);
  const res = await t.app.inject({ url: '/v1/sessions', headers: { authorization: `Bearer ${admin.key}` } });
  assert.equal(res.statusCode, 200, 'nothing happened yet');
});

test('removing a member leaves them no working key, webhook, invitation or session', async () => {
  const admin = await busyAdmin();
  assert.equal((await t.app.inject({ url: '/v1/sessions', headers: { authorization: `Bearer ${admin.key}` } })).statusCode, 200);
  const removed = await owner.post(`/settings/members/${admin.userId}/remove`);
  assert.equal(removed.statusCode, 303);
  assert.equal(removed.headers.location, '/settings/members?done=removed');

  assert.equal((await t.app.inject({ url: '/v1/sessions', headers: { authorization: `Bearer ${admin.key}` } })).statusCode, 401, 'their key is revoked');
  assert.equal((await t.upload(admin.key)).statusCode, 401);
  const hook = await t.db.kysely.selectFrom('webhooks').selectAll().where('id', '=', admin.hookId).executeTakeFirstOrThrow();
  assert.equal(hook.enabled, 0, 'their webhook is disabled');
  assert.match(hook.disabled_reason ?? '', /was removed/);
  assert.equal((await t.app.inject({ url: admin.invitePath })).statusCode, 404, 'their invitation link no longer works');
  const joined = await postSignedOutForm(t, '/login', admin.invitePath, { password: 'a new member password' });
  assert.equal(joined.statusCode, 404, 'and cannot be used');
  assert.match(joined.body, /cannot be used/);
  const signedOut = await admin.browser.get('/settings/members');
  assert.equal(signedOut.statusCode, 303, 'their session ended');

  // The next analysis delivers nothing to their webhook.
  const up = await t.upload(alice.apiKey);
  assert.equal(up.statusCode, 202);
  await t.analyzeAll();
  const deliveries = await t.db.kysely.selectFrom('deliveries').select('id').where('webhook_id', '=', admin.hookId).execute();
  assert.equal(deliveries.length, 0);

  const [event] = await auditRows(t, alice.accountId, 'member.removed');
  assert.ok(event);
  assert.deepEqual(JSON.parse(event.details), { role: 'admin', keys_revoked: 1, webhooks_disabled: 1, invitations_withdrawn: 1, reset_links_withdrawn: 0, transferred_to: null });
  const revoked = (await auditRows(t, alice.accountId, 'key.revoked')).at(-1);
  assert.match(revoked?.details ?? '', /removed/);
});

test('issue 26/2: "transfer and remove" leaves the removed person nothing that works; an admin heir gets new keys and the webhooks, disabled, to review', async () => {
  const admin = await busyAdmin();
  const heir = await signedInMember(t, alice.accountId, 'admin');
  const page = await owner.get(`/settings/members/${admin.userId}/remove`);
  assert.match(page.body, new RegExp(`${heir.email.replace(/[.+]/g, '\\$&')} \\(admin: gets new keys, gets the webhooks disabled\\)`), 'the page says what the transfer does for this heir');
  const res = await owner.post(`/settings/members/${admin.userId}/remove`, { transfer_to: heir.userId });
  assert.equal(res.statusCode, 200, 'the new key is answered in the page, never through a redirect');
  const replacement = /id="key-[^"]+"[^>]*value="(vk_[^"]+)"/.exec(res.body)?.[1] as string;
  assert.match(replacement, /^vk_/);

  const sessionId = (await t.upload(alice.apiKey)).json().id;
  assert.equal((await t.app.inject({ method: 'DELETE', url: `/v1/sessions/${sessionId}`, headers: { authorization: `Bearer ${admin.key}` } })).statusCode, 401, 'the removed person\'s key deletes nothing');
  assert.equal((await t.app.inject({ url: '/v1/sessions', headers: { authorization: `Bearer ${admin.key}` } })).statusCode, 401);
  assert.equal((await t.app.inject({ url: '/v1/sessions', headers: { authorization: `Bearer ${replacement}` } })).statusCode, 200, 'the heir\'s new key works');
  const key = await t.db.kysely.selectFrom('api_keys').selectAll().where('created_by', '=', heir.userId).where('revoked_at', 'is', null).executeTakeFirstOrThrow();
  assert.equal(key.created_by_email, heir.email);
  assert.equal(key.name, `laptop ${n}`);

  const hook = await t.db.kysely.selectFrom('webhooks').selectAll().where('id', '=', admin.hookId).executeTakeFirstOrThrow();
  assert.equal(hook.enabled, 0, 'their webhook receives nothing until the heir reviews it');
  assert.equal(hook.created_by, heir.userId);
  await t.analyzeAll();
  assert.equal((await t.db.kysely.selectFrom('deliveries').select('id').where('webhook_id', '=', admin.hookId).execute()).length, 0);

  assert.equal((await t.app.inject({ url: admin.invitePath })).statusCode, 404, 'the invitation they made cannot bring them back');
  assert.equal((await admin.browser.get('/settings/members')).statusCode, 303, 'the removed member is signed out');
  const [moved] = await auditRows(t, alice.accountId, 'member.resources_transferred');
  assert.deepEqual(JSON.parse(moved.details), { from: admin.email, keys_replaced: 1, webhooks_handed_over: 1 });
});

test('issue 26/2: a transfer to a member (who may neither see nor revoke keys) only revokes the keys and disables the webhooks', async () => {
  const admin = await busyAdmin();
  const heir = await signedInMember(t, alice.accountId, 'member');
  const page = await owner.get(`/settings/members/${admin.userId}/remove`);
  assert.match(page.body, /\(member: keys revoked, webhooks disabled\)/);
  const res = await owner.post(`/settings/members/${admin.userId}/remove`, { transfer_to: heir.userId });
  assert.equal(res.statusCode, 303);
  assert.equal((await t.app.inject({ url: '/v1/sessions', headers: { authorization: `Bearer ${admin.key}` } })).statusCode, 401);
  const held = await t.db.kysely.selectFrom('api_keys').select('id').where('created_by', '=', heir.userId).execute();
  assert.equal(held.length, 0, 'no key is moved to a member');
  const hook = await t.db.kysely.selectFrom('webhooks').selectAll().where('id', '=', admin.hookId).executeTakeFirstOrThrow();
  assert.equal(hook.enabled, 0);
  assert.equal(hook.created_by, admin.userId, 'a member cannot manage webhooks: nothing is handed to them');
});

test('issue 26/2: the reset links a removed owner issued stop working', async () => {
  const leaving = await signedInMember(t, alice.accountId, 'owner');
  const target = await signedInMember(t, alice.accountId, 'member');
  const issued = await leaving.browser.post(`/settings/members/${target.userId}/reset-link`);
  const resetPath = new URL(/id="reset-link"[^>]*value="([^"]+)"/.exec(issued.body)?.[1] as string).pathname;
  assert.equal((await t.app.inject({ url: resetPath })).statusCode, 200);
  assert.equal((await owner.post(`/settings/members/${leaving.userId}/remove`)).statusCode, 303);
  assert.equal((await t.app.inject({ url: resetPath })).statusCode, 404, 'the link they issued is withdrawn with them');
});

test('only an owner may transfer; an admin removing a member revokes', async () => {
  const admin = await signedInMember(t, alice.accountId, 'admin');
  const target = await signedInMember(t, alice.accountId, 'member');
  const page = await admin.browser.get(`/settings/members/${target.userId}/remove`);
  assert.equal(page.statusCode, 200);
  assert.doesNotMatch(page.body, /Transfer and remove/);
  const res = await admin.browser.post(`/settings/members/${target.userId}/remove`, { transfer_to: admin.userId });
  assert.equal(res.statusCode, 403);
  assert.ok(await t.db.kysely.selectFrom('users').select('id').where('id', '=', target.userId).executeTakeFirst(), 'nothing was removed');
});
