// The outside probe's findings 3–7 of issue 21, one test each (each failed before the fix):
//   3. inviting answers alike for any email (no cross-tenant email enumeration);
//   4. forms posted by another site (another port of the same host) are refused, sign-in included;
//   5. one per-address limit shared by sign-in, sign-up and invitations; per-email backoff;
//      limits on webhook test events and redeliveries;
//   6. a non-ASCII `next` neither fails sign-in nor leaves an orphan session;
//   7. a typed webhook secret is never echoed back into the form.
// (Findings 1, 2 and 8: team-offboarding, team-roles, team-passwords.)
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp } from '../helpers/app.ts';
import type { TestAccount, TestApp } from '../helpers/app.ts';
import { cookiesOf, csrfOf, postSignedOutForm, signInAs } from '../helpers/web-forms.ts';
import type { Browser, Res } from '../helpers/web-forms.ts';

const FORM = 'application/x-www-form-urlencoded';

/** The sign-in page's form token and the cookie it set (what a page on another port can also fetch and plant). */
async function loginForm(t: TestApp, query = ''): Promise<{ cookie: string; csrf: string }> {
  const page = await t.app.inject({ url: `/login${query}` });
  return { cookie: `vouch_login_csrf=${cookiesOf(page).vouch_login_csrf}`, csrf: csrfOf(page.body) };
}

/** A browser's own form post: Fetch metadata says same-origin (tests of cross-site posts give their own headers). */
const OWN = { 'sec-fetch-site': 'same-origin' };

async function postLogin(t: TestApp, fields: Record<string, string>, headers: Record<string, string> = OWN, remoteAddress = '127.0.0.1'): Promise<Res> {
  const { cookie, csrf } = await loginForm(t);
  return t.app.inject({ method: 'POST', url: '/login', remoteAddress, headers: { 'content-type': FORM, cookie, ...headers }, payload: new URLSearchParams({ _csrf: csrf, next: '/', ...fields }).toString() });
}

const sessionsOf = async (t: TestApp) => Number((await t.db.kysely.selectFrom('web_sessions').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

describe('3. email enumeration through invitations', () => {
  let t: TestApp;
  let alice: TestAccount;
  let bob: TestAccount;
  let a: Browser;
  before(async () => {
    t = await buildTestApp();
    [alice, bob] = [await t.account(), await t.account()];
    a = await signInAs(t, alice);
  });
  after(() => t.close());

  test('inviting an email with an account elsewhere answers exactly like inviting an unknown one', async () => {
    // What the answer says (everything before the members table; the pending list grows by one each time).
    const shape = (res: Res, email: string) => res.body.slice(0, res.body.indexOf('<div class="table-wrap">')).replaceAll(email, 'EMAIL').replace(/\/invite\/[A-Za-z0-9_-]+/g, '/invite/TOKEN').replace(/(nonce|value|datetime)="[^"]*"/g, '$1=""').replace(/\d{4}-\d{2}-\d{2}[ T][\d:.]+Z?( UTC)?/g, 'TIME');
    const unknown = `nobody-${Date.now()}@example.test`;
    const [r1, r2] = [await a.post('/settings/members/invite', { email: unknown }), await a.post('/settings/members/invite', { email: bob.email })];
    assert.equal(r2.statusCode, r1.statusCode);
    assert.equal(r2.statusCode, 200);
    assert.doesNotMatch(r2.body, /already has a Vouch account/);
    assert.equal(shape(r2, bob.email), shape(r1, unknown), 'the same page, whatever the email');
  });
});

describe('4. forms posted from another site', () => {
  let t: TestApp;
  let alice: TestAccount;
  before(async () => {
    t = await buildTestApp({ VOUCH_LOGIN_RATE_LIMIT_MAX: '1000' });
    alice = await t.account();
  });
  after(() => t.close());

  test('login CSRF: a page on another port plants the cookie and posts valid credentials: refused, no session', async () => {
    const before = await sessionsOf(t);
    const attempts: Record<string, string>[] = [
      { origin: 'http://vouch.test:8081' }, { origin: 'null' }, { 'sec-fetch-site': 'same-site' }, { 'sec-fetch-site': 'none' },
      { 'sec-fetch-site': 'cross-site', origin: 'http://evil.example' }, { 'sec-fetch-site': 'same-site', origin: 'http://vouch.test' },
    ];
    for (const headers of attempts) {
      const res = await postLogin(t, { email: alice.email, password: alice.password }, headers);
      assert.equal(res.statusCode, 403, JSON.stringify(headers));
      assert.equal(cookiesOf(res).vouch_session, undefined, 'no session cookie');
    }
    assert.equal(await sessionsOf(t), before, 'no session row');
  });

  test('the same form from Vouch\'s own pages works (Origin of the public URL or of the Host, Sec-Fetch-Site same-origin)', async () => {
    const own: Record<string, string>[] = [
      { origin: 'http://vouch.test' }, { origin: 'http://localhost:3000', host: 'localhost:3000' }, { 'sec-fetch-site': 'same-origin' },
      { 'sec-fetch-site': 'same-origin', origin: 'null' },
    ];
    for (const headers of own) {
      const res = await postLogin(t, { email: alice.email, password: alice.password }, headers);
      assert.equal(res.statusCode, 303, JSON.stringify(headers));
    }
  });

  test('every signed-in form checks it too (a settings form with a valid token, posted cross-site)', async () => {
    const b = await signInAs(t, alice);
    const res = await t.app.inject({
      method: 'POST', url: '/settings/api-keys', headers: { 'content-type': FORM, cookie: b.cookie, origin: 'http://vouch.test:8081' },
      payload: new URLSearchParams({ _csrf: b.csrf, name: 'planted' }).toString(),
    });
    assert.equal(res.statusCode, 403);
    const keys = await t.db.kysely.selectFrom('api_keys').select('id').where('name', '=', 'planted').execute();
    assert.equal(keys.length, 0);
  });
});

describe('5. rate limits', () => {
  let t: TestApp;
  let alice: TestAccount;
  before(async () => {
    t = await buildTestApp({ VOUCH_LOGIN_RATE_LIMIT_MAX: '3', VOUCH_WEBHOOK_ACTION_RATE_LIMIT_MAX: '3', VOUCH_WEBHOOK_ALLOW_CIDRS: '127.0.0.0/8' });
    alice = await t.account();
  });
  after(() => t.close());

  test('sign-in, sign-up and invitation acceptance share one limit per address', async () => {
    const ip = '198.51.100.20';
    const headers = { 'content-type': FORM, ...OWN };
    assert.equal((await postLogin(t, { email: 'x@example.test', password: 'wrong password' }, OWN, ip)).statusCode, 401);
    assert.equal((await t.app.inject({ method: 'POST', url: '/signup', remoteAddress: ip, headers, payload: 'email=y' })).statusCode, 403);
    assert.equal((await t.app.inject({ method: 'POST', url: '/invite/AAAAAAAAAAAAAAAAAAAAAAAAAAAA', remoteAddress: ip, headers, payload: 'password=x' })).statusCode, 403);
    const fourth = await t.app.inject({ method: 'POST', url: '/signup', remoteAddress: ip, headers: { ...headers, accept: 'text/html' }, payload: 'email=z' });
    assert.equal(fourth.statusCode, 429, 'the fourth attempt from this address, on any of the three forms');
    assert.ok(Number(fourth.headers['retry-after']) >= 1);
    assert.equal((await postLogin(t, { email: 'x@example.test', password: 'wrong password' }, OWN, '198.51.100.21')).statusCode, 401, 'another address is not limited');
  });

  test('after 5 failed sign-ins for one email, even the right password waits (per-email backoff), and an unknown email alike', async () => {
    for (const email of [alice.email, `unknown-${Date.now()}@example.test`]) {
      for (let i = 0; i < 5; i++) assert.equal((await postLogin(t, { email, password: `wrong ${i}` }, OWN, `203.0.113.${i + 1}`)).statusCode, 401);
      const res = await postLogin(t, { email, password: alice.password }, OWN, '203.0.113.99');
      assert.equal(res.statusCode, 429, email);
      assert.match(res.body, /Too many failed sign-ins with this email/);
      assert.ok(Number(res.headers['retry-after']) >= 25);
    }
    await t.db.kysely.updateTable('sign_in_throttle').set({ blocked_until: new Date(Date.now() - 1000).toISOString() }).execute();
    assert.equal((await postLogin(t, { email: alice.email, password: alice.password }, OWN, '203.0.113.98')).statusCode, 303, 'after the wait the right password works');
  });

  test('webhook test events and redeliveries are limited per account', async () => {
    const b = await signInAs(t, alice);
    const hook = await b.post('/settings/webhooks', { url: 'http://127.0.0.1:9/limited', secret_mode: 'none', shape: 'A' });
    const id = String(hook.headers.location).split('/')[3].split('?')[0];
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push((await b.post(`/settings/webhooks/${id}/test`)).statusCode);
    assert.deepEqual(answers, [303, 303, 303, 429]);
    const deliveries = await t.db.kysely.selectFrom('deliveries').select('id').where('webhook_id', '=', id).execute();
    assert.equal(deliveries.length, 3, 'the refused one queued nothing');
  });
});

describe('6. a non-ASCII next', () => {
  let t: TestApp;
  let alice: TestAccount;
  before(async () => {
    t = await buildTestApp();
    alice = await t.account();
  });
  after(() => t.close());

  test('sign-in with next=/%E3%80%82evil signs in to / and leaves exactly one session', async () => {
    const before = await sessionsOf(t);
    const res = await postLogin(t, { email: alice.email, password: alice.password, next: '/\u3002evil' });
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, '/');
    assert.equal(await sessionsOf(t), before + 1, 'one session, used by the cookie it set');
    const page = await t.app.inject({ url: '/login?next=/%E3%80%82evil' });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /name="next" value="\/"/, 'the sign-in page does not carry it either');
    for (const next of ['/caf\u00e9', '/\u0000x', '//evil.example', '/\\evil.example', 'https://evil.example/']) {
      assert.equal((await postLogin(t, { email: alice.email, password: alice.password, next })).headers.location, '/', JSON.stringify(next));
    }
    assert.equal((await postLogin(t, { email: alice.email, password: alice.password, next: '/r/ses_1?tl_page=2' })).headers.location, '/r/ses_1?tl_page=2', 'an ASCII path is kept');
  });
});

describe('7. a typed webhook secret is not echoed', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  test('after a validation error the page does not contain the secret that was typed', async () => {
    const b = await signInAs(t, await t.account());
    const secret = 'typed-secret-4f9a8b7c6d';
    const res = await b.post('/settings/webhooks', { url: 'http://10.0.0.1/private', secret_mode: 'custom', secret, shape: 'A' });
    assert.equal(res.statusCode, 422);
    assert.ok(!res.body.includes(secret), 'the secret is not in the page');
    assert.match(res.body, /type it again/);
  });
});

void postSignedOutForm;
