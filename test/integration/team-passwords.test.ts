// Finding 8 of issue 21: changing the password ends the member's other sessions; "sign out
// everywhere"; an owner-issued one-time reset link; with VOUCH_SMTP_URL, invitations and reset
// links are also emailed (checked against a real SMTP server, smtp-server from npm, on a free
// port), and without it the links are only shown to copy.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp } from '../helpers/app.ts';
import type { TestAccount, TestApp } from '../helpers/app.ts';
import { postSignedOutForm, signInAs } from '../helpers/web-forms.ts';
import type { Browser } from '../helpers/web-forms.ts';
import { addMember, signedInMember } from '../helpers/teams.ts';
import { decoded, smtpServer } from '../helpers/smtp.ts';
import type { Received } from '../helpers/smtp.ts';

const shownLink = (html: string, id: string) => new RegExp(`id="${id}"[^>]*value="([^"]+)"`).exec(html)?.[1];
const signedIn = async (b: Browser) => (await b.get('/settings/account')).statusCode === 200;

describe('passwords and sessions', () => {
  let t: TestApp;
  let alice: TestAccount;
  let owner: Browser;
  before(async () => {
    t = await buildTestApp({ VOUCH_LOGIN_RATE_LIMIT_MAX: '10000' });
    alice = await t.account();
    owner = await signInAs(t, alice);
  });
  after(() => t.close());

  test('changing the password ends every other session of the member; this one stays', async () => {
    const m = await addMember(t, alice.accountId, 'member');
    const [here, laptop, phone] = [await signInAs(t, m), await signInAs(t, m), await signInAs(t, m)];
    const wrong = await here.post('/settings/account/password', { current: 'not my password', password: 'a brand new password' });
    assert.equal(wrong.statusCode, 422);
    assert.match(wrong.body, /not your current password/);
    const weak = await here.post('/settings/account/password', { current: m.password, password: 'short' });
    assert.equal(weak.statusCode, 422);
    const res = await here.post('/settings/account/password', { current: m.password, password: 'a brand new password' });
    assert.equal(res.statusCode, 200);
    assert.match(res.body, /2 other sessions ended/);
    assert.ok(await signedIn(here));
    assert.ok(!(await signedIn(laptop)) && !(await signedIn(phone)), 'the other sessions ended');
    assert.equal((await postSignedOutForm(t, '/login', '/login', { email: m.email, password: m.password })).statusCode, 401, 'the old password no longer works');
    assert.equal((await postSignedOutForm(t, '/login', '/login', { email: m.email, password: 'a brand new password' })).statusCode, 303);
  });

  test('sign out everywhere ends every session of the member, this one included, and no one else\'s', async () => {
    const m = await addMember(t, alice.accountId, 'admin');
    const [a, b] = [await signInAs(t, m), await signInAs(t, m)];
    const res = await a.post('/settings/account/sign-out-everywhere');
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, '/login');
    assert.ok(!(await signedIn(a)) && !(await signedIn(b)));
    assert.ok(await signedIn(owner), 'other members stay signed in');
  });

  test('an owner issues a one-time reset link: it sets a new password, ends the member\'s sessions, and works once', async () => {
    const m = await signedInMember(t, alice.accountId, 'member');
    const issued = await owner.post(`/settings/members/${m.userId}/reset-link`);
    assert.equal(issued.statusCode, 200);
    const link = shownLink(issued.body, 'reset-link') as string;
    assert.match(link, /^http:\/\/vouch\.test\/reset\/[A-Za-z0-9_-]{43}$/);
    assert.doesNotMatch(issued.body, /It was also emailed|could not be sent/, 'without SMTP the link is only shown');
    const token = link.split('/').pop() as string;
    const stored = await t.db.kysely.selectFrom('password_resets').selectAll().where('user_id', '=', m.userId).executeTakeFirstOrThrow();
    assert.notEqual(stored.token_hash, token, 'only a hash is stored');
    assert.ok(await signedIn(m.browser), 'nothing changes until the link is used');
    const path = new URL(link).pathname;
    const page = await t.app.inject({ url: path });
    assert.equal(page.statusCode, 200);
    assert.ok(page.body.includes(m.email));
    const used = await postSignedOutForm(t, path, path, { password: 'reset to this password' });
    assert.equal(used.statusCode, 303);
    assert.ok(!(await signedIn(m.browser)), 'the old session ended');
    assert.equal((await postSignedOutForm(t, '/login', '/login', { email: m.email, password: 'reset to this password' })).statusCode, 303);
    assert.equal((await t.app.inject({ url: path })).statusCode, 404, 'the link works once');
    const second = await owner.post(`/settings/members/${m.userId}/reset-link`);
    const again = new URL(shownLink(second.body, 'reset-link') as string).pathname;
    const third = await owner.post(`/settings/members/${m.userId}/reset-link`);
    assert.equal((await t.app.inject({ url: again })).statusCode, 404, 'a newer link replaces an older one');
    assert.ok(shownLink(third.body, 'reset-link'));
  });

  test('reset links: owners only, never for oneself, expired links refused', async () => {
    const admin = await signedInMember(t, alice.accountId, 'admin');
    const m = await addMember(t, alice.accountId, 'member');
    assert.equal((await admin.browser.post(`/settings/members/${m.userId}/reset-link`)).statusCode, 403);
    const self = await owner.post(`/settings/members/${(await t.db.kysely.selectFrom('users').select('id').where('email', '=', alice.email).executeTakeFirstOrThrow()).id}/reset-link`);
    assert.equal(self.statusCode, 409);
    assert.match(self.body, /Account page/);
    const issued = await owner.post(`/settings/members/${m.userId}/reset-link`);
    const path = new URL(shownLink(issued.body, 'reset-link') as string).pathname;
    await t.db.kysely.updateTable('password_resets').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('user_id', '=', m.userId).execute();
    assert.equal((await t.app.inject({ url: path })).statusCode, 404);
    assert.equal((await postSignedOutForm(t, '/login', path, { password: 'too late password' })).statusCode, 404);
  });
});

describe('emails with VOUCH_SMTP_URL', () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof smtpServer>>;
  let alice: TestAccount;
  let owner: Browser;
  before(async () => {
    smtp = await smtpServer();
    t = await buildTestApp({ VOUCH_SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, VOUCH_SMTP_FROM: 'Vouch <vouch@vouch.test>' });
    alice = await t.account();
    owner = await signInAs(t, alice);
  });
  after(async () => {
    await t.close();
    await smtp.close();
  });

  test('an invitation is emailed with its link (and still shown)', async () => {
    const email = `mailed-${Date.now()}@example.test`;
    const res = await owner.post('/settings/members/invite', { email });
    assert.equal(res.statusCode, 200);
    const link = shownLink(res.body, 'invite-link') as string;
    assert.match(res.body, new RegExp(`It was also emailed to ${email.replace(/\./g, '\\.')}`));
    const mail = smtp.mails.find((m) => m.to.includes(email));
    assert.ok(mail, 'the SMTP server received it');
    assert.equal(mail.from, 'vouch@vouch.test');
    const text = decoded(mail.body);
    assert.ok(text.includes(link), 'with the link');
    assert.match(text, /Subject: Invitation to a Vouch account/);
  });

  test('an invitation to an email with an account elsewhere: the same page for the inviter; the email tells its owner', async () => {
    const bob = await t.account();
    const res = await owner.post('/settings/members/invite', { email: bob.email });
    assert.equal(res.statusCode, 200);
    assert.match(res.body, /It was also emailed to/);
    const text = decoded((smtp.mails.find((m) => m.to.includes(bob.email)) as Received).body);
    assert.match(text, /already has a Vouch account/);
    assert.ok(!text.includes('/invite/'), 'no link that cannot work');
  });

  test('a reset link is emailed to the member', async () => {
    const m = await addMember(t, alice.accountId, 'member');
    const res = await owner.post(`/settings/members/${m.userId}/reset-link`);
    const link = shownLink(res.body, 'reset-link') as string;
    const text = decoded((smtp.mails.find((x) => x.to.includes(m.email)) as Received).body);
    assert.ok(text.includes(link));
    assert.match(text, /new password/);
  });

  test('when the SMTP server cannot be reached, the page says so and the link is still shown to copy', async () => {
    const down = await smtpServer();
    await down.close();
    const t2 = await buildTestApp({ VOUCH_SMTP_URL: `smtp://127.0.0.1:${down.port}` });
    try {
      const b = await signInAs(t2, await t2.account());
      const res = await b.post('/settings/members/invite', { email: 'unsent@example.test' });
      assert.equal(res.statusCode, 200);
      assert.match(res.body, /could not be sent<\/strong>: copy the link/);
      assert.ok(shownLink(res.body, 'invite-link'));
    } finally {
      await t2.close();
    }
  });
});
