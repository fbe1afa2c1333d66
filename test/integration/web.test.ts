// The server-rendered part: sign-in with CSRF, cookie attributes, the report page for members
// only (visitors → sign-in, other accounts → 404), progress page, CSP, sign-out.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, stubAnalyzer, stubReport } from '../helpers/app.ts';
import type { TestAccount, TestApp } from '../helpers/app.ts';
import type { Analyzer } from '../../src/adapters/analysis-pool/index.ts';

let t: TestApp;
let alice: TestAccount;
let bob: TestAccount;

before(async () => {
  t = await buildTestApp();
  alice = await t.account();
  bob = await t.account();
});
after(() => t.close());

type Res = Awaited<ReturnType<TestApp['app']['inject']>>;

function cookiesOf(res: Res): Record<string, string> {
  const out: Record<string, string> = {};
  for (const c of res.cookies as { name: string; value: string }[]) out[c.name] = c.value;
  return out;
}

const csrfOf = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

async function signIn(who: TestAccount, next = '/'): Promise<{ cookie: string; res: Res }> {
  const page = await t.app.inject({ url: `/login?next=${encodeURIComponent(next)}` });
  const csrfCookie = cookiesOf(page).vouch_login_csrf;
  const res = await t.app.inject({
    method: 'POST',
    url: '/login',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin', cookie: `vouch_login_csrf=${csrfCookie}` },
    payload: form({ email: who.email.toUpperCase(), password: who.password, _csrf: csrfOf(page.body), next }),
  });
  return { cookie: `vouch_session=${cookiesOf(res).vouch_session}`, res };
}

async function completedSession(owner: TestAccount, analyzer: Analyzer = stubAnalyzer): Promise<string> {
  const id = (await t.upload(owner.apiKey, { fields: { repo: 'acme/web' } })).json().id;
  await t.analyzeAll(analyzer);
  return id;
}

describe('sign-in', () => {
  test('the login form sets an HttpOnly SameSite=Lax CSRF cookie and carries the token', async () => {
    const res = await t.app.inject({ url: '/login' });
    assert.equal(res.statusCode, 200);
    const c = (res.cookies as { name: string; httpOnly?: boolean; sameSite?: string }[]).find((x) => x.name === 'vouch_login_csrf');
    assert.ok(c?.httpOnly);
    assert.equal(c?.sameSite, 'Lax');
    assert.ok(csrfOf(res.body).length >= 32);
    assert.match(String(res.headers['content-security-policy']), /default-src 'none'; style-src 'nonce-[^']+'/);
  });

  test('correct credentials: 303 to next with an HttpOnly session cookie; only its hash is stored', async () => {
    const { res } = await signIn(alice, '/r/ses_x?tab=1');
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, '/r/ses_x?tab=1');
    const c = (res.cookies as { name: string; value: string; httpOnly?: boolean; sameSite?: string; secure?: boolean }[]).find((x) => x.name === 'vouch_session');
    assert.ok(c?.httpOnly);
    assert.equal(c?.sameSite, 'Lax');
    assert.ok(!c?.secure, 'not Secure on http');
    const rows = await t.db.kysely.selectFrom('web_sessions').select('id').execute();
    assert.ok(rows.length > 0 && rows.every((r) => r.id !== c?.value && /^[0-9a-f]{64}$/.test(r.id)));
  });

  test('a missing or wrong CSRF token is refused, even with the right password', async () => {
    const page = await t.app.inject({ url: '/login' });
    const cookie = `vouch_login_csrf=${cookiesOf(page).vouch_login_csrf}`;
    const post = (csrf: string, c = cookie) =>
      t.app.inject({ method: 'POST', url: '/login', headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin', cookie: c }, payload: form({ email: alice.email, password: alice.password, _csrf: csrf }) });
    assert.equal((await post('forged')).statusCode, 403);
    assert.equal((await post(csrfOf(page.body), '')).statusCode, 403, 'the cookie half is required');
    const missing = await t.app.inject({ method: 'POST', url: '/login', headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin', cookie }, payload: form({ email: alice.email, password: alice.password }) });
    assert.equal(missing.statusCode, 403, 'a missing token is refused like a wrong one');
    for (const r of [await post('forged')]) assert.equal(cookiesOf(r).vouch_session, undefined);
  });

  test('a wrong password or unknown email gives the same 401 answer', async () => {
    const attempt = async (email: string, password: string) => {
      const page = await t.app.inject({ url: '/login' });
      return t.app.inject({
        method: 'POST', url: '/login',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin', cookie: `vouch_login_csrf=${cookiesOf(page).vouch_login_csrf}` },
        payload: form({ email, password, _csrf: csrfOf(page.body) }),
      });
    };
    const wrong = await attempt(alice.email, 'not the password');
    const unknown = await attempt('nobody@example.test', 'whatever12');
    assert.equal(wrong.statusCode, 401);
    assert.equal(unknown.statusCode, 401);
    assert.match(wrong.body, /email or the password is not correct/);
    assert.match(unknown.body, /email or the password is not correct/);
    assert.ok(unknown.body.includes('nobody@example.test'), 'the email is kept in the form');
    assert.ok(!wrong.body.includes('not the password'), 'the password is not echoed');
  });

  test('next is only ever a local path (no open redirect)', async () => {
    for (const next of ['https://evil.test/', '//evil.test', '/\\evil.test', 'javascript:alert(1)']) {
      const { res } = await signIn(alice, next);
      assert.equal(res.headers.location, '/', next);
    }
  });

  test('sign-out needs the session CSRF token, then the cookie no longer works', async () => {
    const { cookie } = await signIn(alice);
    const home = await t.app.inject({ url: '/', headers: { cookie } });
    assert.equal(home.statusCode, 200);
    const forged = await t.app.inject({ method: 'POST', url: '/logout', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' }, payload: form({ _csrf: 'nope' }) });
    assert.equal(forged.statusCode, 403, 'refused with an HTML page (web-auth.test.ts checks it)');
    assert.equal((await t.app.inject({ url: '/', headers: { cookie } })).statusCode, 200, 'still signed in');
    const out = await t.app.inject({ method: 'POST', url: '/logout', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' }, payload: form({ _csrf: csrfOf(home.body) }) });
    assert.equal(out.statusCode, 303);
    assert.equal(out.headers.location, '/login');
    const after = await t.app.inject({ url: '/', headers: { cookie } });
    assert.equal(after.statusCode, 303, 'the old cookie is dead');
  });
});

describe('the report page', () => {
  test('a visitor is sent to sign in (303) and sees nothing of the report', async () => {
    const id = await completedSession(alice);
    const res = await t.app.inject({ url: `/r/${id}` });
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, `/login?next=${encodeURIComponent(`/r/${id}`)}`);
    assert.ok(!res.body.includes('acme/web'));
    const forged = await t.app.inject({ url: `/r/${id}`, headers: { cookie: 'vouch_session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' } });
    assert.equal(forged.statusCode, 303, 'an unknown cookie is no session');
  });

  test('a member sees the rendered report, escaped, under a nonce CSP', async () => {
    const id = await completedSession(alice);
    const { cookie } = await signIn(alice);
    const res = await t.app.inject({ url: `/r/${id}`, headers: { cookie } });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/html/);
    assert.equal(res.headers['cache-control'], 'no-store');
    const csp = String(res.headers['content-security-policy']);
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    assert.ok(nonce);
    assert.ok(res.body.includes(`nonce="${nonce}"`), 'the inline style carries the nonce');
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.ok(res.body.includes(stubReport().headline));
    assert.ok(/hello &lt;b(&gt;|>)world&lt;\/b/.test(res.body), 'log content is escaped');
    assert.ok(!res.body.includes('<b>world</b>'));
    assert.ok(res.body.includes(alice.email), 'the signed-in navigation');
    const again = await t.app.inject({ url: `/r/${id}`, headers: { cookie } });
    assert.notEqual(/'nonce-([^']+)'/.exec(String(again.headers['content-security-policy']))?.[1], nonce, 'a fresh nonce per response');
  });

  test('a member of another account gets a 404, like an id that does not exist', async () => {
    const id = await completedSession(alice);
    const { cookie } = await signIn(bob);
    const theirs = await t.app.inject({ url: `/r/${id}`, headers: { cookie } });
    const missing = await t.app.inject({ url: '/r/ses_01ZZZZZZZZZZZZZZZZZZZZZZZZ', headers: { cookie } });
    assert.equal(theirs.statusCode, 404);
    assert.equal(missing.statusCode, 404);
    assert.ok(!theirs.body.includes('acme/web') && !theirs.body.includes(stubReport().headline));
  });

  test('while analysing: a progress notice that refreshes itself; a failure shows the reason', async () => {
    const { cookie } = await signIn(alice);
    const id = (await t.upload(alice.apiKey, { filename: '<script>x</script>.jsonl' })).json().id;
    const res = await t.app.inject({ url: `/r/${id}`, headers: { cookie } });
    assert.equal(res.statusCode, 200);
    assert.match(res.body, /<meta http-equiv="refresh" content="2"\/?>/);
    assert.match(res.body, /Analysing/);
    assert.ok(!res.body.includes('<script>x'), 'the file name is escaped');
    await t.analyzeAll({ analyze: async () => Promise.reject(new Error('stuck parser')), close: async () => {} });
    const failed = await t.app.inject({ url: `/r/${id}`, headers: { cookie } });
    assert.match(failed.body, /stuck parser/);
    assert.ok(!failed.body.includes('http-equiv="refresh"'));
  });

  test('unknown pages answer 404 as HTML to a browser and as a problem to an API client', async () => {
    const html = await t.app.inject({ url: '/nowhere', headers: { accept: 'text/html' } });
    assert.equal(html.statusCode, 404);
    assert.match(String(html.headers['content-type']), /^text\/html/);
    const json = await t.app.inject({ url: '/nowhere' });
    assert.equal(json.statusCode, 404);
    assert.equal(json.json().code, 'not_found');
  });
});

describe('cookies behind https', () => {
  test('Secure and __Host- prefixed when VOUCH_PUBLIC_URL is https', async () => {
    const s = await buildTestApp({ VOUCH_PUBLIC_URL: 'https://vouch.example' });
    try {
      const res = await s.app.inject({ url: '/login' });
      const c = (res.cookies as { name: string; secure?: boolean; path?: string }[]).find((x) => x.name === '__Host-vouch_login_csrf');
      assert.ok(c?.secure);
      assert.equal(c?.path, '/');
      assert.match(String(res.headers['strict-transport-security']), /max-age=/);
    } finally {
      await s.close();
    }
  });
});

describe('sign-in attempts are limited', () => {
  test('past VOUCH_LOGIN_RATE_LIMIT_MAX per window: 429 with Retry-After', async () => {
    const s = await buildTestApp({ VOUCH_LOGIN_RATE_LIMIT_MAX: '2' });
    try {
      const attempt = () =>
        s.app.inject({ method: 'POST', url: '/login', headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' }, payload: form({ email: 'x@example.test', password: 'guess-guess', _csrf: 'x' }) });
      assert.equal((await attempt()).statusCode, 403);
      assert.equal((await attempt()).statusCode, 403);
      const limited = await attempt();
      assert.equal(limited.statusCode, 429);
      assert.match(String(limited.headers['retry-after']), /^\d+$/);
      assert.equal(limited.json().code, 'rate_limited');
    } finally {
      await s.close();
    }
  });
});
