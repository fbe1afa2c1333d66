// Settings → Members through the pages: the list, invitations (link shown once, stored as a
// hash, one-time, expiring, withdrawable), removal (the member's sessions end at once), CSRF,
// escaping and tenant isolation.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp } from '../helpers/app.ts';
import type { TestAccount, TestApp } from '../helpers/app.ts';
import { browserFromAnswer, cookiesOf, csrfOf, postSignedOutForm, signInAs } from '../helpers/web-forms.ts';
import type { Browser, Res } from '../helpers/web-forms.ts';

let t: TestApp;
let alice: TestAccount;
let bob: TestAccount;
let a: Browser;
let b: Browser;
let n = 0;

before(async () => {
  t = await buildTestApp();
  alice = await t.account();
  bob = await t.account();
  a = await signInAs(t, alice);
  b = await signInAs(t, bob);
});
after(() => t.close());

const NEW_PASSWORD = 'a teammate password';
const linkOf = (html: string) => /id="invite-link"[^>]*value="([^"]+)"/.exec(html)?.[1] ?? /value="(http[^"]+\/invite\/[^"]+)"/.exec(html)?.[1];
const freshEmail = () => `mate${++n}-${Date.now()}@example.test`;

async function invite(who: Browser, email = freshEmail()): Promise<{ email: string; path: string }> {
  const res = await who.post('/settings/members/invite', { email });
  assert.equal(res.statusCode, 200, res.body.slice(0, 300));
  const link = linkOf(res.body);
  assert.ok(link?.startsWith('http://vouch.test/invite/'), 'the link is shown, under the public URL');
  return { email, path: new URL(link as string).pathname };
}

async function accept(path: string, password = NEW_PASSWORD) {
  return postSignedOutForm(t, path, path, { password });
}

/** Opens the invitation page now (while the link is valid) and returns its form, to submit later. */
async function openForm(path: string): Promise<(password?: string) => Promise<Res>> {
  const page = await t.app.inject({ url: path });
  assert.equal(page.statusCode, 200);
  const cookie = `vouch_login_csrf=${cookiesOf(page).vouch_login_csrf}`;
  return (password = NEW_PASSWORD) =>
    t.app.inject({
      method: 'POST', url: path, headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin', cookie },
      payload: new URLSearchParams({ _csrf: csrfOf(page.body), password }).toString(),
    });
}

test('the list shows the account\'s members only, with the signed-in one marked', async () => {
  const page = await a.get('/settings/members');
  assert.equal(page.statusCode, 200);
  assert.ok(page.body.includes(alice.email));
  assert.match(page.body, /\(you\)/);
  assert.ok(!page.body.includes(bob.email));
});

test('an invitation link is shown once, stored only as a hash, and lets the teammate join and sign in', async () => {
  const { email, path } = await invite(a);
  const token = path.split('/').pop() as string;
  const rows = await t.db.kysely.selectFrom('invitations').selectAll().where('email', '=', email).execute();
  assert.equal(rows.length, 1);
  assert.notEqual(rows[0].token_hash, token);
  assert.match(rows[0].token_hash, /^[0-9a-f]{64}$/);
  const list = await a.get('/settings/members');
  assert.ok(list.body.includes(email), 'listed as pending');
  assert.ok(!list.body.includes(token), 'the link is not shown again');

  const open = await t.app.inject({ url: path });
  assert.equal(open.statusCode, 200);
  assert.ok(open.body.includes(email));
  const joined = await accept(path);
  assert.equal(joined.statusCode, 303);
  assert.equal(joined.headers.location, '/');
  const mate = await browserFromAnswer(t, joined);
  const theirs = await mate.get('/settings/members');
  assert.ok(theirs.body.includes(alice.email), 'the new member sees the account');
  // Invited as a member (the default role): API keys are for owners and admins (docs/security.md).
  const keys = await mate.get('/settings/api-keys');
  assert.equal(keys.statusCode, 403);
  assert.match(keys.body, /Your role does not allow this/);
  assert.ok((await signInAs(t, { email, password: NEW_PASSWORD })).csrf, 'signs in with the chosen password');
});

test('an invitation link works once', async () => {
  const { path } = await invite(a);
  const [first, second] = [await openForm(path), await openForm(path)];
  assert.equal((await first()).statusCode, 303);
  const again = await t.app.inject({ url: path });
  assert.equal(again.statusCode, 404);
  assert.match(again.body, /cannot be used/);
  const reuse = await second('another password 2');
  assert.equal(reuse.statusCode, 404, 'a form opened before the use is refused too');
  assert.match(reuse.body, /cannot be used/);
});

test('an expired invitation cannot be used', async () => {
  const { email, path } = await invite(a);
  const submit = await openForm(path);
  await t.db.kysely.updateTable('invitations').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('email', '=', email).execute();
  assert.equal((await t.app.inject({ url: path })).statusCode, 404);
  assert.equal((await submit()).statusCode, 404);
  assert.ok(!(await a.get('/settings/members')).body.includes(email), 'no longer listed as pending');
  const users = await t.db.kysely.selectFrom('users').select('id').where('email', '=', email).execute();
  assert.equal(users.length, 0);
});

test('a withdrawn invitation cannot be used; a re-invitation replaces the older link', async () => {
  const email = freshEmail();
  const first = await invite(a, email);
  const second = await invite(a, email);
  const submitSecond = await openForm(second.path);
  assert.equal((await t.app.inject({ url: first.path })).statusCode, 404, 'the older link stopped working');
  const id = (await t.db.kysely.selectFrom('invitations').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
  assert.equal((await b.post(`/settings/members/invitations/${id}/withdraw`)).statusCode, 404, "another account cannot withdraw it");
  const res = await a.post(`/settings/members/invitations/${id}/withdraw`);
  assert.equal(res.statusCode, 303);
  assert.equal((await submitSecond()).statusCode, 404);
});

test('a weak password on the invitation page re-renders it with the message; the link still works after', async () => {
  const { path } = await invite(a);
  const weak = await accept(path, 'short');
  assert.equal(weak.statusCode, 422);
  assert.match(weak.body, /at least 8 characters/);
  assert.equal((await accept(path)).statusCode, 303);
});

test('invitation form errors: an invalid email or a member of this account (422)', async () => {
  for (const [email, message] of [['not-an-email', /not a valid email/i], [alice.email, /already a member/]] as const) {
    const res = await a.post('/settings/members/invite', { email });
    assert.equal(res.statusCode, 422, email);
    assert.match(res.body, message);
    assert.ok(!linkOf(res.body));
  }
  const evil = await a.post('/settings/members/invite', { email: '"><script>alert(1)</script>@x.test' });
  assert.ok(!evil.body.includes('<script>alert(1)'), 'the echoed email is escaped');
  assert.ok(!(await a.get('/settings/members')).body.includes('<script>alert(1)'), 'and escaped in the pending list');
});

test('without the CSRF token nothing is invited or removed (403 page)', async () => {
  const email = freshEmail();
  const res = await a.post('/settings/members/invite', { email, _csrf: '' });
  assert.equal(res.statusCode, 403);
  assert.match(res.body, /This form has expired/);
  assert.equal((await t.db.kysely.selectFrom('invitations').select('id').where('email', '=', email).execute()).length, 0);
});

test('removing a member needs confirmation and ends their web sessions at once', async () => {
  const { email, path } = await invite(a);
  const mate = await browserFromAnswer(t, await accept(path));
  assert.equal((await mate.get('/settings/members')).statusCode, 200);
  const id = (await t.db.kysely.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
  const confirm = await a.get(`/settings/members/${id}/remove`);
  assert.equal(confirm.statusCode, 200);
  assert.match(confirm.body, /Remove this member\?/);
  assert.equal((await mate.get('/settings/members')).statusCode, 200, 'the confirmation page alone removes nothing');
  const done = await a.post(`/settings/members/${id}/remove`);
  assert.equal(done.statusCode, 303);
  assert.equal(done.headers.location, '/settings/members?done=removed');
  const after = await mate.get('/settings/members');
  assert.equal(after.statusCode, 303, 'their cookie is dead');
  assert.match(String(after.headers.location), /^\/login/);
  assert.equal((await t.db.kysely.selectFrom('web_sessions').select('id').where('user_id', '=', id).execute()).length, 0);
  const login = await postSignedOutForm(t, '/login', '/login', { email, password: NEW_PASSWORD });
  assert.equal(login.statusCode, 401, 'and they cannot sign in again');
});

test('a member cannot remove themselves, and another account cannot remove anyone here (404)', async () => {
  const self = await t.db.kysely.selectFrom('users').select('id').where('email', '=', alice.email).executeTakeFirstOrThrow();
  const res = await a.post(`/settings/members/${self.id}/remove`);
  assert.equal(res.statusCode, 409);
  assert.match(res.body, /cannot remove yourself/);
  assert.equal((await b.get(`/settings/members/${self.id}/remove`)).statusCode, 404);
  assert.equal((await b.post(`/settings/members/${self.id}/remove`)).statusCode, 404);
  assert.equal((await a.get('/settings/members')).statusCode, 200, 'alice is still signed in');
});
