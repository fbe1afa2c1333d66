// Offboarding: keys and webhooks record who created them; removing a member revokes their keys
// (the API refuses them at once), disables their webhooks (the next analysis delivers nothing to
// them), withdraws their pending invitations (the links stop working) and ends their sessions —
// after a page that says what will happen — or an owner transfers all of it to someone else first.
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
  assert.deepEqual(JSON.parse(event.details), { role: 'admin', keys_revoked: 1, webhooks_disabled: 1, invitations_withdrawn: 1, transferred_to: null });
  const revoked = (await auditRows(t, alice.accountId, 'key.revoked')).at(-1);
  assert.match(revoked?.details ?? '', /removed/);
});

test('an owner can transfer a member\'s keys, webhooks and invitations to another member first: they keep working', async () => {
  const admin = await busyAdmin();
  const heir = await signedInMember(t, alice.accountId, 'admin');
  const res = await owner.post(`/settings/members/${admin.userId}/remove`, { transfer_to: heir.userId });
  assert.equal(res.statusCode, 303);
  assert.equal(res.headers.location, '/settings/members?done=transferred');
  assert.equal((await t.app.inject({ url: '/v1/sessions', headers: { authorization: `Bearer ${admin.key}` } })).statusCode, 200, 'the key still works');
  const key = await t.db.kysely.selectFrom('api_keys').selectAll().where('hash', '!=', '').where('created_by', '=', heir.userId).executeTakeFirstOrThrow();
  assert.equal(key.created_by_email, heir.email);
  const hook = await t.db.kysely.selectFrom('webhooks').selectAll().where('id', '=', admin.hookId).executeTakeFirstOrThrow();
  assert.equal(hook.enabled, 1);
  assert.equal(hook.created_by, heir.userId);
  assert.equal((await t.app.inject({ url: admin.invitePath })).statusCode, 200, 'the invitation still works');
  assert.equal((await admin.browser.get('/settings/members')).statusCode, 303, 'the removed member is signed out');
  const [moved] = await auditRows(t, alice.accountId, 'member.resources_transferred');
  assert.deepEqual(JSON.parse(moved.details), { from: admin.email, keys: 1, webhooks: 1, invitations: 1 });
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
