// Issue 26: access that ends when it should. One test (at least) per finding, each failing on the
// code before the fix: 3 demotion, 4 cookies planted from another port, 5 invitations as a relay,
// 6 claiming an email without owning it, 7 the smaller ones. (1, scoped keys, and the role ×
// scope × route matrix are in team-roles.test.ts; 2, transfers, in team-offboarding.test.ts.)
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, multipart, uploadForm } from '../helpers/app.ts';
import type { TestAccount, TestApp } from '../helpers/app.ts';
import { cookiesOf, csrfOf, postSignedOutForm, signInAs } from '../helpers/web-forms.ts';
import type { Browser, Res } from '../helpers/web-forms.ts';
import { addMember, auditRows, signedInMember } from '../helpers/teams.ts';
import { decoded, smtpServer } from '../helpers/smtp.ts';

const keyOf = (html: string) => /id="new-key"[^>]*value="(vk_[^"]+)"/.exec(html)?.[1] as string;
const inviteLinkOf = (html: string) => new URL(/id="invite-link"[^>]*value="([^"]+)"/.exec(html)?.[1] as string).pathname;
const auth = (key: string) => ({ authorization: `Bearer ${key}` });
const OWN = { 'sec-fetch-site': 'same-origin' };

describe('3. a demoted admin keeps none of an admin\'s powers', () => {
  let t: TestApp;
  let alice: TestAccount;
  let owner: Browser;
  before(async () => {
    t = await buildTestApp({ VOUCH_WEBHOOK_ALLOW_CIDRS: '127.0.0.0/8', VOUCH_LOGIN_RATE_LIMIT_MAX: '100000' });
    alice = await t.account();
    owner = await signInAs(t, alice);
  });
  after(() => t.close());

  test('admin → member: their key reads and uploads only; their invitations and webhooks stop', async () => {
    const admin = await signedInMember(t, alice.accountId, 'admin');
    const key = keyOf((await admin.browser.post('/settings/api-keys', { name: 'admin era' })).body);
    const hook = await admin.browser.post('/settings/webhooks', { url: 'http://127.0.0.1:9/admin-era', secret_mode: 'none', shape: 'A' });
    const hookId = String(hook.headers.location).split('/')[3].split('?')[0];
    const invitePath = inviteLinkOf((await admin.browser.post('/settings/members/invite', { email: 'friend-of-admin@example.test' })).body);
    const id = (await t.upload(alice.apiKey)).json().id as string;
    await t.analyzeAll();

    assert.equal((await owner.post(`/settings/members/${admin.userId}/role`, { role: 'member' })).statusCode, 303);

    assert.equal((await t.app.inject({ method: 'POST', url: `/v1/sessions/${id}/log/redact`, headers: auth(key) })).statusCode, 403, 'no redaction');
    assert.equal((await t.app.inject({ url: '/v1/audit-events', headers: auth(key) })).statusCode, 403, 'no audit log');
    assert.equal((await t.app.inject({ method: 'DELETE', url: `/v1/sessions/${id}`, headers: auth(key) })).statusCode, 403, 'no deletion');
    assert.equal((await t.app.inject({ url: `/v1/sessions/${id}`, headers: auth(key) })).statusCode, 200, 'a member still reads');
    assert.equal((await t.upload(key)).statusCode, 202, 'and uploads');
    assert.equal((await t.app.inject({ url: invitePath })).statusCode, 404, 'their invitation is withdrawn (members cannot invite)');
    const w = await t.db.kysely.selectFrom('webhooks').selectAll().where('id', '=', hookId).executeTakeFirstOrThrow();
    assert.equal(w.enabled, 0, 'their webhook is disabled (members cannot manage webhooks)');
    const keysPage = await owner.get('/settings/api-keys');
    const shown = /admin era<\/td>.*?data-label="Scopes">(.*?)<\/td>/.exec(keysPage.body)?.[1] ?? '';
    assert.deepEqual([...shown.matchAll(/>([a-z]+:[a-z]+)<\/code>/g)].map((m) => m[1]), ['sessions:read', 'sessions:write'], 'the keys page shows the narrowed scopes');
  });

  test('owner → admin: their pending admin invitations and their reset links are withdrawn; member invitations stay', async () => {
    const second = await signedInMember(t, alice.accountId, 'owner');
    const target = await addMember(t, alice.accountId, 'member');
    const adminInvite = inviteLinkOf((await second.browser.post('/settings/members/invite', { email: 'future-admin@example.test', role: 'admin' })).body);
    const memberInvite = inviteLinkOf((await second.browser.post('/settings/members/invite', { email: 'future-member@example.test', role: 'member' })).body);
    const reset = await second.browser.post(`/settings/members/${target.userId}/reset-link`);
    const resetPath = new URL(/id="reset-link"[^>]*value="([^"]+)"/.exec(reset.body)?.[1] as string).pathname;
    assert.equal((await owner.post(`/settings/members/${second.userId}/role`, { role: 'admin' })).statusCode, 303);
    assert.equal((await t.app.inject({ url: adminInvite })).statusCode, 404);
    assert.equal((await t.app.inject({ url: memberInvite })).statusCode, 200);
    assert.equal((await t.app.inject({ url: resetPath })).statusCode, 404);
    const [changed] = (await auditRows(t, alice.accountId, 'member.role_changed')).slice(-1);
    assert.equal(JSON.parse(changed.details).invitations_withdrawn, 1);
    assert.equal(JSON.parse(changed.details).reset_links_withdrawn, 1);
  });
});

describe('4. cookies planted from another port', () => {
  let t: TestApp;
  let victim: TestAccount;
  let attacker: TestAccount;
  let victimBrowser: Browser;
  let attackerBrowser: Browser;
  before(async () => {
    t = await buildTestApp({ VOUCH_LOGIN_RATE_LIMIT_MAX: '100000' });
    victim = await t.account();
    attacker = await t.account();
    victimBrowser = await signInAs(t, victim);
    attackerBrowser = await signInAs(t, attacker);
  });
  after(() => t.close());

  const uploadWith = async (cookie: string, csrf: string) => {
    const { payload, headers } = await multipart(uploadForm({ fields: { _csrf: csrf } }));
    return t.app.inject({ method: 'POST', url: '/sessions', payload, headers: { ...headers, ...OWN, cookie } });
  };
  const sessionsOf = async (accountId: string) => (await t.db.kysely.selectFrom('sessions').select('id').where('account_id', '=', accountId).execute()).length;

  test('Path=/sessions: two session cookies are refused (the upload lands nowhere) and the planted one is deleted', async () => {
    // What the browser sends to /sessions: the planted cookie (longer path) first, then hers.
    const both = `${attackerBrowser.cookie}; ${victimBrowser.cookie}`;
    const before = [await sessionsOf(victim.accountId), await sessionsOf(attacker.accountId)];
    for (const csrf of [victimBrowser.csrf, attackerBrowser.csrf]) {
      const res = await uploadWith(both, csrf);
      assert.equal(res.statusCode, 400);
      assert.match(res.body, /two Vouch sign-in cookies/);
      assert.doesNotMatch(res.body, /name="_csrf"/, 'no form to retry');
      const cleared = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
      assert.ok(cleared.some((c) => /^vouch_session=;/.test(c) && /Path=\/sessions(;|$)/.test(c)), `the Path=/sessions cookie is deleted: ${cleared.join(' | ')}`);
      assert.ok(!cleared.some((c) => /Path=\/(;|$)/.test(c) && !/Domain=/.test(c)), 'Vouch\'s own cookie (Path=/) is left alone');
    }
    assert.deepEqual([await sessionsOf(victim.accountId), await sessionsOf(attacker.accountId)], before, 'nothing was uploaded to either account');
    assert.equal((await t.app.inject({ url: '/', headers: { cookie: both } })).statusCode, 400, 'pages too');
    assert.equal((await victimBrowser.get('/')).statusCode, 200, 'her own cookie alone still works');
  });

  test('Path=/ (the whole session swapped after her page loaded): the upload is refused, offers no new form, and signs the planted cookie out', async () => {
    const page = await victimBrowser.get('/');
    const res = await uploadWith(attackerBrowser.cookie, csrfOf(page.body));
    assert.equal(res.statusCode, 403);
    assert.doesNotMatch(res.body, /name="_csrf"/, 'the retry cannot land in the planter\'s account');
    assert.doesNotMatch(res.body, new RegExp(attacker.email), 'the planter\'s account is not shown');
    assert.equal((await attackerBrowser.get('/')).statusCode, 303, 'the planted session is ended');
    assert.equal(await sessionsOf(attacker.accountId), 0);
  });

  test('the login form\'s cookie planted twice is refused the same way', async () => {
    const res = await t.app.inject({ url: '/login', headers: { cookie: 'vouch_login_csrf=a; vouch_login_csrf=b' } });
    assert.equal(res.statusCode, 400);
  });
});

describe('5. invitations are no open relay', () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof smtpServer>>;
  before(async () => {
    smtp = await smtpServer();
    t = await buildTestApp({ VOUCH_SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, VOUCH_INVITATION_RATE_LIMIT_MAX: '5', VOUCH_LOGIN_RATE_LIMIT_MAX: '100000' });
  });
  after(async () => {
    await t.close();
    await smtp.close();
  });

  test('per account: the sixth invitation within the window is 429, whoever sends it and from wherever', async () => {
    const acc = await t.account();
    const owner = await signInAs(t, acc);
    const admin = await signedInMember(t, acc.accountId, 'admin');
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const who = i % 2 ? owner : admin.browser;
      const res = await t.app.inject({
        method: 'POST', url: '/settings/members/invite', remoteAddress: `192.0.2.${i + 1}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...OWN, cookie: who.cookie, accept: 'text/html' },
        payload: new URLSearchParams({ _csrf: who.csrf, email: `relay${i}-${acc.accountId}@example.test` }).toString(),
      });
      statuses.push(res.statusCode);
    }
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429]);
  });

  test('per address: one address cannot spread invitations over many accounts', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const acc = await t.account();
      const b = await signInAs(t, acc);
      const res = await t.app.inject({
        method: 'POST', url: '/settings/members/invite', remoteAddress: '198.51.100.77',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...OWN, cookie: b.cookie, accept: 'text/html' },
        payload: new URLSearchParams({ _csrf: b.csrf, email: `spread${i}@example.test` }).toString(),
      });
      statuses.push(res.statusCode);
    }
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429]);
  });

  test('an account named like a phishing lure: the name is in no subject, and quoted on one line in the body', async () => {
    const acc = await t.account();
    await t.db.kysely.updateTable('accounts').set({ name: 'Security alert: verify at https://evil.example now' }).where('id', '=', acc.accountId).execute();
    const b = await signInAs(t, acc);
    assert.equal((await b.post('/settings/members/invite', { email: 'lured@example.test' })).statusCode, 200);
    const mail = smtp.mails.find((m) => m.to.includes('lured@example.test'));
    assert.ok(mail);
    const text = decoded(mail.body);
    assert.match(text, /Subject: Invitation to a Vouch account\r?\n/);
    assert.doesNotMatch(/Subject: .*/.exec(text)?.[0] ?? '', /Security alert/);
    assert.match(text, /join the Vouch account named "Security alert: verify at https:\/\/evil\.example now"\./);
  });
});

describe('5. the number of invitations waiting is bounded', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ VOUCH_INVITATION_RATE_LIMIT_MAX: '100000' });
  });
  after(() => t.close());

  test('the 51st pending invitation is refused until some are used, withdrawn or expire', async () => {
    const acc = await t.account();
    const b = await signInAs(t, acc);
    for (let i = 0; i < 50; i++) assert.equal((await b.post('/settings/members/invite', { email: `w${i}@example.test` })).statusCode, 200);
    const refused = await b.post('/settings/members/invite', { email: 'w50@example.test' });
    assert.equal(refused.statusCode, 422);
    assert.match(refused.body, /already has 50 invitations waiting/);
  });
});

describe('6. an email cannot be claimed without owning it (SMTP set)', () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof smtpServer>>;
  let alice: TestAccount;
  let owner: Browser;
  before(async () => {
    smtp = await smtpServer();
    t = await buildTestApp({ VOUCH_SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, VOUCH_LOGIN_RATE_LIMIT_MAX: '100000' });
    alice = await t.account();
    owner = await signInAs(t, alice);
  });
  after(async () => {
    await t.close();
    await smtp.close();
  });

  const invite = async (email: string) => inviteLinkOf((await owner.post('/settings/members/invite', { email })).body);
  const userOf = (email: string) => t.db.kysely.selectFrom('users').select(['id', 'account_id']).where('email', '=', email).executeTakeFirst();
  const mailTo = (email: string) => smtp.mails.filter((m) => m.to.includes(email)).map((m) => decoded(m.body)).at(-1) as string;

  test('accepting an invitation yourself creates nothing: the real owner\'s sign-up still works', async () => {
    const path = await invite('ceo@company.test');
    const accepted = await postSignedOutForm(t, path, path, { password: 'the inviter chose this' });
    assert.equal(accepted.statusCode, 202);
    assert.match(accepted.body, /Check your email/);
    assert.equal(cookiesOf(accepted).vouch_session, undefined, 'nobody is signed in');
    assert.equal(await userOf('ceo@company.test'), undefined, 'the email is not claimed');
    const signUp = await postSignedOutForm(t, '/signup', '/signup', { email: 'ceo@company.test', password: 'the real ceo password', name: 'Company' });
    assert.equal(signUp.statusCode, 303, 'the owner of the address signs up');
    assert.equal((await userOf('ceo@company.test'))?.account_id !== alice.accountId, true);
  });

  test('the link emailed to the address is what joins: the password chosen on the invitation page, signed in', async () => {
    const path = await invite('teammate@company.test');
    await postSignedOutForm(t, path, path, { password: 'teammate password 1' });
    const link = /http:\/\/vouch\.test(\/join\/[A-Za-z0-9_-]+)/.exec(mailTo('teammate@company.test'))?.[1] as string;
    assert.ok(link, 'a confirmation link was emailed');
    const page = await t.app.inject({ url: link });
    assert.equal(page.statusCode, 200, 'opening it (a mail scanner, say) joins nobody');
    assert.equal(await userOf('teammate@company.test'), undefined);
    const joined = await postSignedOutForm(t, link, link, {});
    assert.equal(joined.statusCode, 303);
    assert.equal((await userOf('teammate@company.test'))?.account_id, alice.accountId);
    assert.equal((await t.app.inject({ url: link })).statusCode, 404, 'the link works once');
    assert.equal((await signInAs(t, { email: 'teammate@company.test', password: 'teammate password 1' })).cookie.length > 20, true);
  });

  test('the invitation page answers a registered email exactly as a new one', async () => {
    const bob = await t.account();
    const answers: Res[] = [];
    for (const email of [bob.email, `new-${Date.now()}@example.test`]) {
      const path = await invite(email);
      answers.push(await postSignedOutForm(t, path, path, { password: 'same password for both' }));
    }
    const [registered, fresh] = answers;
    assert.equal(registered.statusCode, fresh.statusCode);
    const strip = (r: Res, email: string) => r.body.replaceAll(email, 'EMAIL').replace(/nonce-[^'"]+/g, '').replace(/nonce="[^"]+"/g, '');
    assert.equal(strip(registered, bob.email), strip(fresh, /<strong>([^<]+)<\/strong>/.exec(fresh.body)?.[1] as string));
    assert.match(mailTo(bob.email), /already has a Vouch account/, 'only the email tells its owner');
  });
});

describe('7. the smaller findings', () => {
  let t: TestApp;
  let alice: TestAccount;
  let owner: Browser;
  before(async () => {
    t = await buildTestApp({ VOUCH_LOGIN_RATE_LIMIT_MAX: '100000' });
    alice = await t.account();
    owner = await signInAs(t, alice);
  });
  after(() => t.close());

  test('the change-password form backs off after 5 wrong current passwords (429), also for the right one', async () => {
    const m = await signedInMember(t, alice.accountId, 'member');
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await m.browser.post('/settings/account/password', { current: `wrong ${i} guess`, password: 'a brand new password' })).statusCode);
    assert.deepEqual(statuses, [422, 422, 422, 422, 422, 429]);
    const right = await m.browser.post('/settings/account/password', { current: m.password, password: 'a brand new password' });
    assert.equal(right.statusCode, 429);
    assert.ok(Number(right.headers['retry-after']) >= 1);
  });

  test('audit labels withhold a secret inside a longer name (a key name, an uploaded file name)', async () => {
    const stripe = `sk_live_${'4eC39HqLyjWDarjtT1zdp7dc'}`;
    const gh = `ghp_${'wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx'}`;
    assert.equal((await owner.post('/settings/api-keys', { name: `deploy ${stripe} prod` })).statusCode, 200);
    const up = await t.upload(alice.apiKey, { filename: `${gh}.jsonl` });
    await t.analyzeAll();
    assert.equal((await t.app.inject({ method: 'DELETE', url: `/v1/sessions/${up.json().id}`, headers: auth(alice.apiKey) })).statusCode, 204);
    const all = JSON.stringify(await auditRows(t, alice.accountId));
    assert.ok(!all.includes(stripe) && !all.includes(gh), 'no secret in any event');
    assert.match(all, /deploy \[withheld\] prod/);
    assert.match(all, /\[withheld\]\.jsonl/);
  });

  test('a form post with neither Origin nor Sec-Fetch-Site is refused, as docs/security.md says', async () => {
    const res = await t.app.inject({
      method: 'POST', url: '/settings/api-keys', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: owner.cookie },
      payload: new URLSearchParams({ _csrf: owner.csrf, name: 'headerless' }).toString(),
    });
    assert.equal(res.statusCode, 403);
    assert.equal((await t.db.kysely.selectFrom('api_keys').select('id').where('name', '=', 'headerless').execute()).length, 0);
  });

  test('with an https public URL, an http:// Origin of the same host is another site', async () => {
    const s = await buildTestApp({ VOUCH_PUBLIC_URL: 'https://vouch.test' });
    try {
      const acc = await s.account();
      const page = await s.app.inject({ url: '/login' });
      const cookie = Object.entries(cookiesOf(page)).map(([k, v]) => `${k}=${v}`).join('; ');
      const post = (origin: string) => s.app.inject({
        method: 'POST', url: '/login', headers: { 'content-type': 'application/x-www-form-urlencoded', host: 'vouch.test', origin, cookie },
        payload: new URLSearchParams({ _csrf: csrfOf(page.body), email: acc.email, password: acc.password }).toString(),
      });
      assert.equal((await post('http://vouch.test')).statusCode, 403);
      assert.equal((await post('https://vouch.test')).statusCode, 303);
    } finally {
      await s.close();
    }
  });

  test('a pending reset link dies when the member changes their own password', async () => {
    const m = await signedInMember(t, alice.accountId, 'member');
    const issued = await owner.post(`/settings/members/${m.userId}/reset-link`);
    const path = new URL(/id="reset-link"[^>]*value="([^"]+)"/.exec(issued.body)?.[1] as string).pathname;
    assert.equal((await m.browser.post('/settings/account/password', { current: m.password, password: 'my own new password' })).statusCode, 200);
    assert.equal((await t.app.inject({ url: path })).statusCode, 404);
  });

  test('an admin cannot withdraw an owner\'s admin invitation (and still withdraws member invitations)', async () => {
    const admin = await signedInMember(t, alice.accountId, 'admin');
    await owner.post('/settings/members/invite', { email: 'owners-admin@example.test', role: 'admin' });
    await owner.post('/settings/members/invite', { email: 'owners-member@example.test', role: 'member' });
    const idOf = async (email: string) => (await t.db.kysely.selectFrom('invitations').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
    const refused = await admin.browser.post(`/settings/members/invitations/${await idOf('owners-admin@example.test')}/withdraw`);
    assert.equal(refused.statusCode, 403);
    assert.ok(await t.db.kysely.selectFrom('invitations').select('id').where('email', '=', 'owners-admin@example.test').executeTakeFirst());
    assert.equal((await admin.browser.post(`/settings/members/invitations/${await idOf('owners-member@example.test')}/withdraw`)).statusCode, 303);
  });
});
