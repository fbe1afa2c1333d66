// Sign-up, sign-in, sign-out and the HTML error pages, through inject(): forms with their CSRF
// tokens, generic answers, the server-side session ended by sign-out, and browsers getting
// pages in the layout where /v1 keeps problem+json.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { buildTestApp } from '../helpers/app.ts';
import type { TestAccount, TestApp } from '../helpers/app.ts';
import { browserFromAnswer, browserFor, cookiesOf, postSignedOutForm, signInAs } from '../helpers/web-forms.ts';

let t: TestApp;
let alice: TestAccount;
let n = 0;

before(async () => {
  t = await buildTestApp();
  alice = await t.account();
});
after(() => t.close());

const PASSWORD = 'a long sign-up password';
const freshEmail = () => `signup${++n}-${Date.now()}@example.test`;
const signUp = (fields: Record<string, string>) => postSignedOutForm(t, '/signup', '/signup', fields);

function assertPageHeaders(res: { headers: Record<string, unknown> }): void {
  assert.match(String(res.headers['content-type']), /^text\/html/);
  assert.match(String(res.headers['content-security-policy']), /default-src 'none'; style-src 'nonce-/);
  assert.equal(res.headers['x-content-type-options'], 'nosniff');
  assert.equal(res.headers['x-frame-options'], 'DENY');
  assert.equal(res.headers['referrer-policy'], 'no-referrer');
}

describe('sign-up', () => {
  test('creates an account and its first user, signs them in, and sends them to create a key', async () => {
    const email = freshEmail();
    const res = await signUp({ name: 'Acme <Robotics>', email: email.toUpperCase(), password: PASSWORD });
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, '/settings/api-keys?done=welcome');
    const session = (res.cookies as { name: string; httpOnly?: boolean; sameSite?: string }[]).find((c) => c.name === 'vouch_session');
    assert.ok(session?.httpOnly);
    assert.equal(session?.sameSite, 'Lax');
    const user = await t.db.kysely.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
    assert.match(user.password_hash, /^\$argon2id\$/);
    const account = await t.db.kysely.selectFrom('accounts').selectAll().where('id', '=', user.account_id).executeTakeFirstOrThrow();
    assert.equal(account.name, 'Acme <Robotics>');
    assert.equal((await t.db.kysely.selectFrom('api_keys').select('id').where('account_id', '=', account.id).execute()).length, 0, 'no key nobody saw');
    const me = await browserFromAnswer(t, res);
    const welcome = await me.get('/settings/api-keys?done=welcome');
    assert.match(welcome.body, /Your account is ready/);
  });

  test('invalid input re-renders the form with messages per field, keeping what was typed (422)', async () => {
    const res = await signUp({ name: '"><script>alert(1)</script>', email: 'not-an-email', password: 'short' });
    assert.equal(res.statusCode, 422);
    assertPageHeaders(res);
    assert.match(res.body, /Enter a valid email address/);
    assert.match(res.body, /at least 8 characters/);
    assert.match(res.body, /value="not-an-email"/);
    assert.ok(!res.body.includes('<script>alert(1)'), 'escaped');
    assert.ok(!res.body.includes('value="short"'), 'the password is never echoed');
    assert.equal(cookiesOf(res).vouch_session, undefined);
  });

  test('an email in use is refused without saying whose it is, and nothing is created', async () => {
    const accounts = async () => Number((await t.db.kysely.selectFrom('accounts').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const before = await accounts();
    const res = await signUp({ name: '', email: alice.email, password: PASSWORD });
    assert.equal(res.statusCode, 422);
    assert.match(res.body, /This email cannot be used for a new account\. If it is yours, sign in instead/);
    assert.ok(!res.body.includes('already exists'));
    assert.equal(await accounts(), before);
    assert.equal(cookiesOf(res).vouch_session, undefined);
    const login = await postSignedOutForm(t, '/login', '/login', { email: alice.email, password: PASSWORD });
    assert.equal(login.statusCode, 401, 'the existing password was not replaced');
  });

  test('without the double-submit token nothing is created (403)', async () => {
    const email = freshEmail();
    const res = await t.app.inject({
      method: 'POST', url: '/signup', headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin', accept: 'text/html' },
      payload: new URLSearchParams({ email, password: PASSWORD, _csrf: 'forged' }).toString(),
    });
    assert.equal(res.statusCode, 403);
    assert.match(res.body, /The form expired/);
    assert.equal((await t.db.kysely.selectFrom('users').select('id').where('email', '=', email).execute()).length, 0);
  });

  test('VOUCH_SIGNUP=closed: the page and the form answer 404 and create nothing', async () => {
    const closed = await buildTestApp({ VOUCH_SIGNUP: 'closed' });
    try {
      const page = await closed.app.inject({ url: '/signup', headers: { accept: 'text/html' } });
      assert.equal(page.statusCode, 404);
      assert.match(page.body, /Sign-up is closed/);
      const post = await closed.app.inject({ method: 'POST', url: '/signup', headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' }, payload: `email=x%40example.test&password=${encodeURIComponent(PASSWORD)}` });
      assert.equal(post.statusCode, 404);
      assert.ok(!(await closed.app.inject({ url: '/login' })).body.includes('href="/signup"'), 'the sign-in page does not offer it');
    } finally {
      await closed.close();
    }
  });

  test('the sign-in page links to sign-up while it is open', async () => {
    const page = await t.app.inject({ url: '/login' });
    assert.match(page.body, /href="\/signup"/);
    assertPageHeaders(page);
  });
});

describe('sign-out', () => {
  test('without its CSRF token: an HTML 403 page in the layout, and the session lives on', async () => {
    const me = await signInAs(t, alice);
    for (const fields of [{ _csrf: 'forged' }, { _csrf: '' }]) {
      const res = await me.post('/logout', fields);
      assert.equal(res.statusCode, 403);
      assertPageHeaders(res);
      assert.match(res.body, /This form has expired/);
      assert.match(res.body, /class="topbar"/, 'in the layout');
    }
    const bare = await t.app.inject({ method: 'POST', url: '/logout', headers: { cookie: me.cookie, accept: 'text/html' } });
    assert.equal(bare.statusCode, 403, 'no body at all');
    assert.equal((await me.get('/settings/members')).statusCode, 200, 'still signed in');
  });

  test('deletes the server-side session: the old cookie is refused afterwards', async () => {
    const me = await signInAs(t, alice);
    const before = await t.db.kysely.selectFrom('web_sessions').select('id').execute();
    const out = await me.post('/logout');
    assert.equal(out.statusCode, 303);
    assert.equal(out.headers.location, '/login');
    assert.equal((await t.db.kysely.selectFrom('web_sessions').select('id').execute()).length, before.length - 1);
    const replay = await me.get('/settings/api-keys');
    assert.equal(replay.statusCode, 303);
    assert.match(String(replay.headers.location), /^\/login/);
    const replayPost = await browserFor(t, me.cookie, me.csrf).post('/settings/api-keys', { name: 'after sign-out' });
    assert.equal(replayPost.statusCode, 303, 'a replayed form is sent to sign in, not obeyed');
    assert.equal((await t.db.kysely.selectFrom('api_keys').select('id').where('name', '=', 'after sign-out').execute()).length, 0);
  });
});

describe('error pages', () => {
  test('an unknown page: an HTML 404 in the layout for a browser, problem+json otherwise and always under /v1', async () => {
    const html = await t.app.inject({ url: '/no/such/page', headers: { accept: 'text/html,application/xhtml+xml' } });
    assert.equal(html.statusCode, 404);
    assertPageHeaders(html);
    assert.match(html.body, /Page not found/);
    const me = await signInAs(t, alice);
    const signedIn = await me.get('/no/such/page');
    assert.match(signedIn.body, /aria-label="Main"/, 'a signed-in member keeps the navigation');
    const api = await t.app.inject({ url: '/v1/nothing', headers: { accept: 'text/html' } });
    assert.equal(api.statusCode, 404);
    assert.match(String(api.headers['content-type']), /^application\/problem\+json/);
    const json = await t.app.inject({ url: '/no/such/page', headers: { accept: 'application/json' } });
    assert.match(String(json.headers['content-type']), /^application\/problem\+json/);
  });

  test('the sign-in limit: an HTML 429 page for a browser, with Retry-After', async () => {
    const s = await buildTestApp({ VOUCH_LOGIN_RATE_LIMIT_MAX: '1' });
    try {
      const attempt = () => s.app.inject({ method: 'POST', url: '/login', headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin', accept: 'text/html' }, payload: 'email=x%40example.test&password=guessing1&_csrf=x' });
      assert.equal((await attempt()).statusCode, 403);
      const limited = await attempt();
      assert.equal(limited.statusCode, 429);
      assertPageHeaders(limited);
      assert.match(limited.body, /Too many attempts/);
      assert.match(limited.body, /Try again in \d+ seconds?/);
      assert.match(String(limited.headers['retry-after']), /^\d+$/);
    } finally {
      await s.close();
    }
  });

  test('a server fault: an HTML 500 page with the request id and no internals', async () => {
    const s = await buildTestApp();
    try {
      const who = await s.account();
      const me = await signInAs(s, who);
      await sql`drop table invitations`.execute(s.db.kysely);
      const res = await me.get('/settings/members');
      assert.equal(res.statusCode, 500);
      assertPageHeaders(res);
      assert.match(res.body, /Something went wrong/);
      assert.ok(res.body.includes(String(res.headers['request-id'])), 'the request id, to report');
      assert.ok(!/invitations|SQLITE|relation/i.test(res.body), 'no database detail leaks');
    } finally {
      await s.close();
    }
  });

  test('a favicon at /favicon.ico', async () => {
    const res = await t.app.inject({ url: '/favicon.ico' });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^image\/svg\+xml/);
    assert.match(res.body, /<svg/);
  });
});
