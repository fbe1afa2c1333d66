// Single sign-on through the real app and database against a hand-made provider whose ID tokens
// the tests shape (test/helpers/crafted-idp.ts): the checks of state, nonce, audience, expiry,
// issuer and signature each refuse; the account's provider never signs anybody into another
// account; SSO-required domains refuse password sign-in (owners excepted), invitations and reset
// links; the settings page is for owners. The whole flow in Chromium against oidc-provider is in
// test/e2e/sso.test.ts.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { buildTestApp } from '../helpers/app.ts';
import type { TestAccount, TestApp } from '../helpers/app.ts';
import { startCraftedIdp } from '../helpers/crafted-idp.ts';
import type { CraftedIdp, Defect } from '../helpers/crafted-idp.ts';
import { auditRows, addMember, signedInMember } from '../helpers/teams.ts';
import { cookiesOf, csrfOf, postSignedOutForm } from '../helpers/web-forms.ts';
import { txtRecords } from '../helpers/txt-records.ts';
import type { Res } from '../helpers/web-forms.ts';
import { inviteMember, issuePasswordReset, MemberInputError } from '../../src/services/members.ts';
import type { ActingMember } from '../../src/services/members.ts';
import { SsoInputError } from '../../src/services/sso/index.ts';
import type { SsoSettingsInput } from '../../src/services/sso/index.ts';

// A browser's form post carries Fetch metadata (the dashboard refuses one without it: issue 26).
const FORM = { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html', 'sec-fetch-site': 'same-origin' };
const SSO_TTL_MS = 3_600_000;

let t: TestApp;
let idp: CraftedIdp;
let acme: TestAccount; // its owner is owner@crafted.test; its provider covers crafted.test
let other: TestAccount; // another account
let owner: ActingMember;
const dns = txtRecords();

/** Publishes the TXT record of each listed domain of the account, and verifies them. */
async function verifyDomains(accountId: string, ctx: ActingMember['ctx']): Promise<void> {
  const view = await t.services.sso.getSettings(accountId);
  for (const d of view?.domains ?? []) {
    if (d.verified) continue;
    dns.publish(d.record.name, d.record.value);
    await t.services.sso.verifyDomain(accountId, d.domain, ctx);
  }
}

const settings = (over: Partial<SsoSettingsInput> = {}): SsoSettingsInput => ({
  issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret, domains: 'crafted.test', required: false, defaultRole: 'member',
  groupsClaim: '', groupRoles: '', requireGroup: false, ...over,
});

before(async () => {
  t = await buildTestApp({
    VOUCH_SSO_SECRET_KEY: randomBytes(32).toString('hex'), VOUCH_SSO_ALLOW_CIDRS: '127.0.0.0/8', VOUCH_SSO_ALLOW_HTTP_LOOPBACK: 'true',
    VOUCH_SSO_SESSION_TTL_MS: String(SSO_TTL_MS), VOUCH_LOGIN_RATE_LIMIT_MAX: '100000',
  }, { resolveTxt: dns.resolve });
  idp = await startCraftedIdp();
  acme = await t.account('owner@crafted.test');
  other = await t.account();
  const founder = await t.db.kysely.selectFrom('users').select(['id', 'email']).where('account_id', '=', acme.accountId).executeTakeFirstOrThrow();
  owner = { userId: founder.id, role: 'owner', ctx: { actor: { type: 'user', id: founder.id, label: founder.email }, ip: null } };
  await t.services.sso.saveSettings(acme.accountId, owner.ctx, settings());
  await verifyDomains(acme.accountId, owner.ctx);
});
after(async () => {
  await t?.close();
  await idp?.close();
});

interface Flow {
  /** The answer of the email step. */
  start: Res;
  /** The callback's answer. */
  done: Res;
}

/** Email step → provider → callback, as a browser would (the callback URL and cookie may be altered). */
async function ssoFlow(email: string, alter: { callback?: (u: URL) => void; stateCookie?: (s: string) => string | null } = {}): Promise<Flow> {
  const page = await t.app.inject({ url: '/login' });
  const start = await t.app.inject({
    method: 'POST', url: '/login', headers: { ...FORM, cookie: `vouch_login_csrf=${cookiesOf(page).vouch_login_csrf}` },
    payload: new URLSearchParams({ _csrf: csrfOf(page.body), email, next: '/settings/account' }).toString(),
  });
  assert.equal(start.statusCode, 200, `the email step sends a covered domain to its provider: ${start.body.slice(0, 300)}`);
  const location = String(start.headers.refresh).replace(/^0;url=/, '');
  assert.ok(start.body.includes(`href="${location.replaceAll('&', '&amp;')}"`), 'the page links to the provider too');
  assert.ok(location.startsWith(`${idp.issuer}/authorize?`), location);
  const authorize = new URL(location);
  assert.equal(authorize.searchParams.get('code_challenge_method'), 'S256');
  assert.ok(authorize.searchParams.get('nonce') && authorize.searchParams.get('state'));
  const back = await fetch(location, { redirect: 'manual' });
  const callback = new URL(String(back.headers.get('location')));
  alter.callback?.(callback);
  const state = cookiesOf(start).vouch_sso_state;
  const cookie = alter.stateCookie ? alter.stateCookie(state) : state;
  const done = await t.app.inject({ url: `${callback.pathname}${callback.search}`, headers: cookie === null ? {} : { cookie: `vouch_sso_state=${cookie}` } });
  return { start, done };
}

const lastEvent = async (action: string) => (await auditRows(t, acme.accountId, action)).at(-1);

describe('signing in', () => {
  test('a covered email signs in: code + PKCE, member created just in time with the default role, session bounded, audited', async () => {
    idp.defect = 'none';
    idp.person = { sub: 'sub-ann', email: 'Ann@Crafted.test' };
    const { done } = await ssoFlow('ann@crafted.test');
    assert.equal(done.statusCode, 303, done.body.slice(0, 300));
    assert.equal(done.headers.location, '/settings/account');
    const session = done.cookies.find((c) => c.name === 'vouch_session');
    assert.ok(session, 'a session cookie');
    assert.equal(session.maxAge, SSO_TTL_MS / 1000, 'the cookie lasts the SSO session bound');
    const user = await t.db.kysely.selectFrom('users').selectAll().where('email', '=', 'ann@crafted.test').executeTakeFirstOrThrow();
    assert.equal(user.account_id, acme.accountId);
    assert.equal(user.role, 'member');
    const row = await t.db.kysely.selectFrom('web_sessions').selectAll().where('user_id', '=', user.id).executeTakeFirstOrThrow();
    assert.ok(Date.parse(row.expires_at) - Date.parse(row.created_at) <= SSO_TTL_MS, 'the web session ends within the SSO bound');
    assert.ok(idp.tokenRequests.at(-1)?.get('code_verifier'), 'the PKCE verifier was sent');
    const signIn = await lastEvent('auth.sso_sign_in');
    assert.equal(signIn?.target_id, user.id);
    assert.deepEqual(JSON.parse(signIn?.details ?? '{}'), { provider: idp.issuer, subject: 'sub-ann', role: 'member' });
    const joined = await lastEvent('member.joined');
    assert.equal(JSON.parse(joined?.details ?? '{}').via, 'sso');
    // The page opens with that cookie.
    const page = await t.app.inject({ url: '/settings/account', headers: { cookie: `vouch_session=${session.value}` } });
    assert.equal(page.statusCode, 200);
    // The next sign-in finds the same member by subject.
    const again = await ssoFlow('ann@crafted.test');
    // A subject shaped like a token (Entra ID's: 43 base64url characters) is recorded as it is.
    const entraLike = 'AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ';
    idp.person = { sub: entraLike, email: 'erin@crafted.test' };
    assert.equal((await ssoFlow('erin@crafted.test')).done.statusCode, 303);
    assert.equal(JSON.parse((await lastEvent('auth.sso_sign_in'))?.details ?? '{}').subject, entraLike);
    assert.equal(again.done.statusCode, 303);
    assert.equal(Number((await t.db.kysely.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).where('email', '=', 'ann@crafted.test').executeTakeFirstOrThrow()).n), 1);
  });

  const defects: [Defect, RegExp][] = [
    ['audience', /aud/], ['expired', /exp/], ['signature', /signature/i], ['nonce', /nonce/], ['issuer', /iss/],
  ];
  for (const [defect, detail] of defects) {
    test(`an ID token with a wrong ${defect} is refused (401, no session, audited)`, async () => {
      idp.defect = defect;
      idp.person = { sub: `sub-${defect}`, email: `${defect}@crafted.test` };
      try {
        const { done } = await ssoFlow(`${defect}@crafted.test`);
        assert.equal(done.statusCode, 401);
        assert.match(done.body, /did not sign you in/);
        assert.ok(!done.cookies.some((c) => c.name === 'vouch_session' && c.value), 'no session');
        assert.equal(await t.db.kysely.selectFrom('users').select('id').where('email', '=', `${defect}@crafted.test`).executeTakeFirst(), undefined, 'nobody was created');
        const failed = JSON.parse((await lastEvent('auth.sso_sign_in_failed'))?.details ?? '{}');
        assert.equal(failed.reason, 'id_token');
        assert.match(failed.detail, detail);
      } finally {
        idp.defect = 'none';
      }
    });
  }

  test('a wrong state, a missing state cookie, or a replayed callback is refused', async () => {
    idp.person = { sub: 'sub-state', email: 'state@crafted.test' };
    const tampered = await ssoFlow('state@crafted.test', { callback: (u) => u.searchParams.set('state', 'x'.repeat(43)) });
    assert.equal(tampered.done.statusCode, 401);
    assert.match(tampered.done.body, /another browser|expired|already used/);
    const noCookie = await ssoFlow('state@crafted.test', { stateCookie: () => null });
    assert.equal(noCookie.done.statusCode, 401);
    const otherBrowser = await ssoFlow('state@crafted.test', { stateCookie: () => 'y'.repeat(43) });
    assert.equal(otherBrowser.done.statusCode, 401);
    // Both the cookie and the query altered alike: no sign-in row has that state.
    const forged = await ssoFlow('state@crafted.test', { callback: (u) => u.searchParams.set('state', 'z'.repeat(43)), stateCookie: () => 'z'.repeat(43) });
    assert.equal(forged.done.statusCode, 401);
    assert.equal(await t.db.kysely.selectFrom('users').select('id').where('email', '=', 'state@crafted.test').executeTakeFirst(), undefined);
    // A good one completes once; the same callback again is refused.
    let replay = '';
    let cookie = '';
    const ok = await ssoFlow('state@crafted.test', { callback: (u) => { replay = `${u.pathname}${u.search}`; }, stateCookie: (s) => (cookie = s) });
    assert.equal(ok.done.statusCode, 303);
    const again = await t.app.inject({ url: replay, headers: { cookie: `vouch_sso_state=${cookie}` } });
    assert.equal(again.statusCode, 401);
  });
});

describe('domains', () => {
  test('a listed domain is used only once its DNS record is verified, and by one account only', async () => {
    const otherOwner = { actor: { type: 'user' as const, id: 'x', label: other.email }, ip: null };
    // A domain verified by acme cannot even be listed by another account.
    await assert.rejects(t.services.sso.saveSettings(other.accountId, otherOwner, settings()), (e: unknown) => e instanceof SsoInputError && /another Vouch account/.test(e.errors.domains ?? ''));
    // Both list shared.test; until verified, its emails get the password step.
    await t.services.sso.saveSettings(other.accountId, otherOwner, settings({ domains: 'shared.test' }));
    await t.services.sso.saveSettings(acme.accountId, owner.ctx, settings({ clientSecret: '', domains: 'crafted.test, shared.test' }));
    const page = await t.app.inject({ url: '/login' });
    const step = await t.app.inject({
      method: 'POST', url: '/login', headers: { ...FORM, cookie: `vouch_login_csrf=${cookiesOf(page).vouch_login_csrf}` },
      payload: new URLSearchParams({ _csrf: csrfOf(page.body), email: 'someone@shared.test', next: '/' }).toString(),
    });
    assert.equal(step.statusCode, 200);
    assert.equal(step.headers.refresh, undefined, 'not sent to any provider');
    assert.match(step.body, /name="password"/, 'the password step');
    // Without the record: refused, with the record to publish in the message.
    await assert.rejects(t.services.sso.verifyDomain(other.accountId, 'shared.test', otherOwner), (e: unknown) => e instanceof SsoInputError && /_vouch-challenge\.shared\.test/.test(e.errors.verify ?? ''));
    // The other account publishes its record first and wins; acme's own record then cannot take it.
    const theirs = (await t.services.sso.getSettings(other.accountId))?.domains.find((d) => d.domain === 'shared.test');
    dns.publish(theirs?.record.name ?? '', theirs?.record.value ?? '');
    await t.services.sso.verifyDomain(other.accountId, 'shared.test', otherOwner);
    const ours = (await t.services.sso.getSettings(acme.accountId))?.domains.find((d) => d.domain === 'shared.test');
    assert.notEqual(ours?.record.value, theirs?.record.value, 'each account has its own token');
    dns.publish(ours?.record.name ?? '', ours?.record.value ?? '');
    await assert.rejects(t.services.sso.verifyDomain(acme.accountId, 'shared.test', owner.ctx), (e: unknown) => e instanceof SsoInputError && /already verified by another/.test(e.errors.verify ?? ''));
    const verified = await auditRows(t, other.accountId, 'sso.domain_verified');
    assert.equal(JSON.parse(verified.at(-1)?.details ?? '{}').domain, 'shared.test');
    assert.ok((await auditRows(t, acme.accountId, 'sso.updated')).length > 0, 'the change of domains is audited');
    await t.services.sso.saveSettings(acme.accountId, owner.ctx, settings({ clientSecret: '' }));
    assert.deepEqual((await t.services.sso.getSettings(acme.accountId))?.domains.map((d) => [d.domain, d.verified]), [['crafted.test', true]], 'a kept domain stays verified');
  });
});

describe('one account\'s provider', () => {

  test('never signs in an email of another domain, nor a person of another account', async () => {
    idp.person = { sub: 'sub-outsider', email: 'mallory@elsewhere.test' };
    const outsider = await ssoFlow('x@crafted.test');
    assert.equal(outsider.done.statusCode, 401);
    assert.equal(JSON.parse((await lastEvent('auth.sso_sign_in_failed'))?.details ?? '{}').reason, 'domain');
    assert.equal(await t.db.kysely.selectFrom('users').select('id').where('email', '=', 'mallory@elsewhere.test').executeTakeFirst(), undefined);
    // A person of the other account whose email happens to be in this provider's domain.
    const theirs = await addMember(t, other.accountId, 'admin', 'bob@crafted.test');
    idp.person = { sub: 'sub-bob', email: 'bob@crafted.test' };
    const crossing = await ssoFlow('bob@crafted.test');
    assert.equal(crossing.done.statusCode, 401);
    assert.match(crossing.done.body, /another Vouch account/);
    const bob = await t.db.kysely.selectFrom('users').selectAll().where('id', '=', theirs.userId).executeTakeFirstOrThrow();
    assert.equal(bob.account_id, other.accountId, 'still a member of their own account only');
    assert.equal(await t.db.kysely.selectFrom('web_sessions').select('id').where('user_id', '=', theirs.userId).executeTakeFirst(), undefined, 'no session for them');
  });

  test('sign-up with an email of a verified domain is refused: its people join through the provider', async () => {
    const res = await postSignedOutForm(t, '/signup', '/signup', { name: 'Side project', email: 'dev@crafted.test', password: 'a long enough password' });
    assert.equal(res.statusCode, 422);
    assert.match(res.body, /signs in to Vouch with single sign-on/);
    assert.equal(await t.db.kysely.selectFrom('users').select('id').where('email', '=', 'dev@crafted.test').executeTakeFirst(), undefined);
  });

  test('the client secret is sealed at rest and never shown', async () => {
    const row = await t.db.kysely.selectFrom('sso_providers').selectAll().where('account_id', '=', acme.accountId).executeTakeFirstOrThrow();
    assert.ok(!row.client_secret_sealed.includes(idp.clientSecret));
    const ownerBrowser = await postSignedOutForm(t, '/login', '/login', { email: acme.email, password: acme.password });
    const page = await t.app.inject({ url: '/settings/sso', headers: { cookie: `vouch_session=${cookiesOf(ownerBrowser).vouch_session}` } });
    assert.equal(page.statusCode, 200);
    assert.ok(!page.body.includes(idp.clientSecret));
    assert.match(page.body, /http:\/\/vouch\.test\/sso\/callback/, 'the redirect URI to register');
    const events = JSON.stringify(await auditRows(t, acme.accountId));
    assert.ok(!events.includes(idp.clientSecret), 'the audit log does not hold the secret');
    assert.ok(events.includes('sso.configured'));
  });
});

describe('when single sign-on is required', () => {
  before(async () => {
    await t.services.sso.saveSettings(acme.accountId, owner.ctx, settings({ clientSecret: '', required: true }));
  });
  after(async () => {
    await t.services.sso.saveSettings(acme.accountId, owner.ctx, settings({ clientSecret: '', required: false }));
  });

  test('password sign-in is refused for the domain\'s members, with a clear message; owners keep it (break-glass, audited)', async () => {
    const pat = await addMember(t, acme.accountId, 'admin', 'pat@crafted.test');
    const refused = await postSignedOutForm(t, '/login', '/login', { email: pat.email, password: pat.password });
    assert.equal(refused.statusCode, 403);
    assert.match(refused.body, /requires single sign-on/);
    assert.ok(!cookiesOf(refused).vouch_session);
    const wrong = await postSignedOutForm(t, '/login', '/login', { email: pat.email, password: 'not the password' });
    assert.equal(wrong.statusCode, 401, 'a wrong password learns nothing about SSO');
    const breakGlass = await postSignedOutForm(t, '/login', '/login', { email: acme.email, password: acme.password });
    assert.equal(breakGlass.statusCode, 303);
    const e = await lastEvent('auth.sign_in');
    assert.equal(JSON.parse(e?.details ?? '{}').break_glass, true);
    // Another account's member at another domain is not affected.
    const elsewhere = await postSignedOutForm(t, '/login', '/login', { email: other.email, password: other.password });
    assert.equal(elsewhere.statusCode, 303);
  });

  test('invitations and password-reset links for the domain are refused', async () => {
    await assert.rejects(inviteMember(t.db, acme.accountId, owner, 'newbie@crafted.test'), (e: unknown) => e instanceof MemberInputError && /single sign-on/.test(e.message));
    const pat = await addMember(t, acme.accountId, 'member', 'quinn@crafted.test');
    await assert.rejects(issuePasswordReset(t.db, acme.accountId, owner, pat.userId), (e: unknown) => e instanceof MemberInputError && /identity provider/.test(e.message));
    // Other domains are invited as before.
    assert.equal((await inviteMember(t.db, acme.accountId, owner, 'contractor@freelance.test')).email, 'contractor@freelance.test');
  });
});

describe('group roles', () => {
  before(async () => {
    await t.services.sso.saveSettings(acme.accountId, owner.ctx, settings({ clientSecret: '', groupsClaim: 'groups', groupRoles: 'vouch-admins = admin\nvouch-users = member', requireGroup: true }));
  });

  test('roles follow the groups at every sign-in; leaving every mapped group refuses the next sign-in and ends the sessions', async () => {
    idp.person = { sub: 'sub-gus', email: 'gus@crafted.test', groups: ['vouch-users'] };
    const first = await ssoFlow('gus@crafted.test');
    assert.equal(first.done.statusCode, 303);
    const role = async () => (await t.db.kysely.selectFrom('users').select('role').where('email', '=', 'gus@crafted.test').executeTakeFirstOrThrow()).role;
    assert.equal(await role(), 'member');
    idp.person.groups = ['vouch-admins', 'vouch-users'];
    assert.equal((await ssoFlow('gus@crafted.test')).done.statusCode, 303);
    assert.equal(await role(), 'admin');
    const changed = JSON.parse((await lastEvent('member.role_changed'))?.details ?? '{}');
    assert.deepEqual(changed, { from: 'member', to: 'admin', via: 'sso_groups' });
    idp.person.groups = ['sales'];
    const refused = await ssoFlow('gus@crafted.test');
    assert.equal(refused.done.statusCode, 401);
    assert.match(refused.done.body, /does not place you in a group/);
    const userId = (await t.db.kysely.selectFrom('users').select('id').where('email', '=', 'gus@crafted.test').executeTakeFirstOrThrow()).id;
    assert.equal(await t.db.kysely.selectFrom('web_sessions').select('id').where('user_id', '=', userId).executeTakeFirst(), undefined, 'their sessions ended');
  });
});

describe('removing single sign-on', () => {
  test('unlinks the provider: its domains route nowhere and the removal is audited', async () => {
    assert.equal(await t.services.sso.removeSettings(acme.accountId, owner.ctx), true);
    assert.equal(await t.services.sso.getSettings(acme.accountId), null);
    assert.equal((await t.db.kysely.selectFrom('sso_identities').selectAll().execute()).length, 0, 'no member is linked to it any more');
    assert.equal(await t.services.sso.isCovered('ann@crafted.test'), false);
    assert.equal(JSON.parse((await lastEvent('sso.removed'))?.details ?? '{}').issuer, idp.issuer);
  });
});

describe('Settings → Single sign-on', () => {
  test('owners only: admins and members get 403, visitors sign in', async () => {
    for (const role of ['admin', 'member'] as const) {
      const m = await signedInMember(t, other.accountId, role);
      assert.equal((await m.browser.get('/settings/sso')).statusCode, 403);
      assert.equal((await m.browser.post('/settings/sso', { issuer: idp.issuer })).statusCode, 403);
      assert.equal((await m.browser.post('/settings/sso/delete')).statusCode, 403);
    }
    const visitor = await t.app.inject({ url: '/settings/sso' });
    assert.equal(visitor.statusCode, 303);
    const o = await signedInMember(t, other.accountId, 'owner');
    assert.equal((await o.browser.get('/settings/sso')).statusCode, 200);
    const bad = await o.browser.post('/settings/sso', { issuer: 'http://example.com', client_id: 'c', client_secret: 's', domains: 'other-co.test', default_role: 'member' });
    assert.equal(bad.statusCode, 422);
    assert.match(bad.body, /must be https/);
  });

  test('the settings are HTML pages for owners, not /v1 routes (API keys have no roles); the OpenAPI lists the SSO audit events', async () => {
    const routes = t.app.registeredRoutes.filter((r) => r.url.includes('sso'));
    assert.ok(routes.length > 0 && routes.every((r) => r.hidden && !r.url.startsWith('/v1')));
    const doc = JSON.stringify((await t.app.inject({ url: '/v1/openapi.json' })).json());
    for (const action of ['sso.configured', 'sso.updated', 'sso.removed', 'sso.domain_verified', 'auth.sso_sign_in', 'auth.sso_sign_in_failed']) assert.ok(doc.includes(`"${action}"`), action);
  });
});
