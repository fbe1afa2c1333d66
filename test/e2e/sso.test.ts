// Single sign-on in Chromium against a real OpenID provider in process (oidc-provider on a
// loopback port, test/helpers/oidc-provider.ts): an owner configures it in Settings → Single
// sign-on; a new person of the covered domain types their email, signs in at the provider and
// lands in Vouch as a member (just in time); a change of groups at the provider changes the role
// at the next sign-in; a person removed from the groups, or from the provider, is refused; a
// password member of the SSO-required domain is refused password sign-in.
// Without Chromium the tests are skipped locally, and fail under CI=true.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { buildTestApp } from '../helpers/app.ts';
import type { TestAccount, TestApp } from '../helpers/app.ts';
import { mkdir } from 'node:fs/promises';
import { BROWSER_TEST_TIMEOUT_MS, browserSkip, launchChromium, screenshots, signInAs } from '../helpers/browser.ts';
import { startTestProvider } from '../helpers/oidc-provider.ts';
import type { TestProvider } from '../helpers/oidc-provider.ts';
import { addMember, auditRows } from '../helpers/teams.ts';
import { txtRecords } from '../helpers/txt-records.ts';

const skip = browserSkip();
const ARTIFACTS = new URL('../../test-artifacts/', import.meta.url);

let t: TestApp;
let base: string;
let idp: TestProvider;
let browser: Browser;
let acme: TestAccount;
const dns = txtRecords();

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

before(async () => {
  if (skip) return;
  // The redirect URI is built from the public URL: the app must know its own address first.
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  t = await buildTestApp({
    VOUCH_PUBLIC_URL: base, VOUCH_SSO_SECRET_KEY: randomBytes(32).toString('base64'), VOUCH_SSO_ALLOW_CIDRS: '127.0.0.0/8',
    VOUCH_SSO_ALLOW_HTTP_LOOPBACK: 'true', VOUCH_LOGIN_RATE_LIMIT_MAX: '100000',
  }, { resolveTxt: dns.resolve });
  await t.app.listen({ port, host: '127.0.0.1' });
  idp = await startTestProvider({ redirectUri: `${base}/sso/callback` });
  acme = await t.account('founder@acme.test');
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await idp?.close();
  await t?.close();
});

/** A fresh browser (no provider session either): the email step, then the provider's login form. */
async function ssoSignIn(login: string, email: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${base}/login`);
  await page.fill('input[name=email]', email);
  await Promise.all([page.waitForURL((u) => u.origin === idp.issuer), page.click('main button[type=submit]')]);
  await page.fill('input[name=login]', login);
  await page.fill('input[name=password]', 'anything');
  await Promise.all([page.waitForURL((u) => u.origin === base), page.click('button[type=submit]')]);
  return page;
}

const roleOf = async (email: string) => (await t.db.kysely.selectFrom('users').select(['role', 'account_id']).where('email', '=', email).executeTakeFirst());

test('an owner configures single sign-on; a new person signs in through the provider and becomes a member; roles follow groups', { skip, timeout: BROWSER_TEST_TIMEOUT_MS }, async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInAs(page, base, acme, '/settings/sso');
  assert.match((await page.textContent('#redirect-uri')) ?? '', new RegExp(`^${base}/sso/callback$`));
  await page.fill('input[name=issuer]', idp.issuer);
  await page.fill('input[name=client_id]', idp.clientId);
  await page.fill('input[name=client_secret]', idp.clientSecret);
  await page.fill('input[name=domains]', 'acme.test');
  await page.check('input[name=required]');
  await page.fill('input[name=groups_claim]', 'groups');
  await page.fill('textarea[name=group_roles]', 'vouch-admins = admin\nvouch-users = member');
  await page.check('input[name=require_group]');
  await Promise.all([page.waitForURL(`${base}/settings/sso?done=saved`), page.click('main form[action="/settings/sso"] button[type=submit]')]);
  assert.match((await page.textContent('main')) ?? '', /Single sign-on was saved/);
  assert.ok(!((await page.content()).includes(idp.clientSecret)), 'the secret is not shown again');
  // The domain is used once verified: publish the TXT record the page shows, then Verify.
  const [name, value] = await page.locator('.sso-domains code').allTextContents();
  assert.equal(name, '_vouch-challenge.acme.test');
  await mkdir(ARTIFACTS, { recursive: true });
  await screenshots(page, 'settings-sso', ARTIFACTS); // also: neither width scrolls sideways
  dns.publish(name, value);
  await Promise.all([page.waitForURL(`${base}/settings/sso?done=verified`), page.click('form[action="/settings/sso/verify"] button')]);
  assert.match((await page.textContent('main')) ?? '', /The domain is verified/);
  await context.close();

  idp.people.set('ann', { email: 'ann@acme.test', groups: ['vouch-users'] });
  const ann = await ssoSignIn('ann', 'ann@acme.test');
  assert.equal(new URL(ann.url()).pathname, '/');
  assert.deepEqual(await roleOf('ann@acme.test'), { role: 'member', account_id: acme.accountId });
  const signIns = await auditRows(t, acme.accountId, 'auth.sso_sign_in');
  assert.equal(JSON.parse(signIns.at(-1)?.details ?? '{}').subject, 'ann');
  // A member's navigation has no Single sign-on entry (owners only).
  assert.equal(await ann.locator('a[href="/settings/sso"]').count(), 0);
  await ann.context().close();

  // The provider now puts Ann in the admins' group: her next sign-in makes her an admin.
  idp.people.set('ann', { email: 'ann@acme.test', groups: ['vouch-admins'] });
  const again = await ssoSignIn('ann', 'ann@acme.test');
  assert.equal(new URL(again.url()).pathname, '/');
  assert.equal((await roleOf('ann@acme.test'))?.role, 'admin');
  const open = await again.context().newPage();
  // Ann's session from this sign-in, kept to see it end below.
  await open.goto(`${base}/settings/api-keys`);
  assert.equal(new URL(open.url()).pathname, '/settings/api-keys', 'an admin opens the API keys page');

  // Removed from every mapped group at the provider: refused, and her open session ends.
  idp.people.set('ann', { email: 'ann@acme.test', groups: ['sales'] });
  const refused = await ssoSignIn('ann', 'ann@acme.test');
  assert.equal(new URL(refused.url()).pathname, '/sso/callback');
  assert.match((await refused.textContent('main')) ?? '', /does not place you in a group/);
  await open.goto(`${base}/settings/api-keys`);
  assert.equal(new URL(open.url()).pathname, '/login', 'her earlier session no longer works');
  await refused.context().close();
  await again.context().close();
});

test('a person removed at the provider cannot sign in; password sign-in is refused for the SSO-required domain', { skip, timeout: BROWSER_TEST_TIMEOUT_MS }, async () => {
  idp.people.delete('ann');
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${base}/login`);
  await page.fill('input[name=email]', 'ann@acme.test');
  await Promise.all([page.waitForURL((u) => u.origin === idp.issuer), page.click('main button[type=submit]')]);
  await page.fill('input[name=login]', 'ann');
  await page.fill('input[name=password]', 'anything');
  await page.click('button[type=submit]');
  await page.waitForLoadState('load');
  // The provider does not send an unknown person back signed in: no Vouch session exists.
  const cookies = await context.cookies(base);
  assert.ok(!cookies.some((c) => c.name === 'vouch_session'), 'no Vouch session for a person the provider no longer has');
  await context.close();

  const pat = await addMember(t, acme.accountId, 'member', 'pat@acme.test');
  const pwd = await (await browser.newContext()).newPage();
  await pwd.goto(`${base}/login?method=password`);
  await pwd.fill('input[name=email]', pat.email);
  await pwd.fill('input[name=password]', pat.password);
  await pwd.click('main button[type=submit]');
  await pwd.waitForLoadState('load');
  assert.equal(new URL(pwd.url()).pathname, '/login');
  assert.match((await pwd.textContent('main')) ?? '', /requires single sign-on/);
  await pwd.context().close();
});
