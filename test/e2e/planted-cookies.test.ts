// Issue 26, finding 4, in a real Chromium over plain HTTP: a page on another port of the same
// host plants the attacker's session cookie for Vouch (cookies do not isolate ports). With
// `Path=/sessions` the victim's upload carries two session cookies: refused, the planted one
// deleted, and the retry lands in her own account. With `Path=/` after her page loaded, the
// upload is refused without a new form and that cookie signed out; nothing reaches the
// attacker's account either way.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { buildTestApp } from '../helpers/app.ts';
import type { TestAccount, TestApp } from '../helpers/app.ts';
import { BROWSER_TEST_TIMEOUT_MS, browserSkip, launchChromium, signInAs } from '../helpers/browser.ts';
import { signInAs as signInByForm } from '../helpers/web-forms.ts';
import { claudeLog } from '../helpers/claude-log.ts';

const skip = browserSkip();

let t: TestApp;
let victim: TestAccount;
let attacker: TestAccount;
let base: string;
let browser: Browser;
let evil: Server;
let evilBase: string;
/** The attacker's own session token (they signed in to their own account). */
let attackerToken: string;

before(async () => {
  if (skip) return;
  t = await buildTestApp({ VOUCH_LOGIN_RATE_LIMIT_MAX: '100000' });
  victim = await t.account();
  attacker = await t.account();
  attackerToken = (await signInByForm(t, attacker)).cookie.split('=')[1];
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  // Another service on another port of the same host: it sets a cookie for the host.
  evil = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').searchParams.get('path');
    if (!path) return void res.writeHead(404).end(); // (the favicon, say: plants nothing)
    res.writeHead(200, { 'content-type': 'text/html', 'set-cookie': `vouch_session=${attackerToken}; Path=${path}; HttpOnly; SameSite=Lax` });
    res.end('<p>nothing to see</p>');
  });
  await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
  evilBase = `http://127.0.0.1:${(evil.address() as AddressInfo).port}`;
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => (evil ? evil.close(() => resolve()) : resolve()));
  await t?.close();
});

const sessionsOf = async (accountId: string) => (await t.db.kysely.selectFrom('sessions').select('id').where('account_id', '=', accountId).execute()).length;

async function chooseFile(page: Page): Promise<void> {
  await page.click('summary:has-text("Upload a session log")');
  await page.setInputFiles('input[name=file]', { name: 'mine.jsonl', mimeType: 'application/jsonl', buffer: Buffer.from(claudeLog([{ prompt: 'hi' }, { say: 'Done.' }])) });
}

test('Path=/sessions: the upload is refused, the planted cookie removed, and the retry lands in her own account', { skip, timeout: BROWSER_TEST_TIMEOUT_MS }, async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInAs(page, base, victim);
  await page.goto(`${evilBase}/?path=/sessions`);
  assert.equal((await context.cookies()).filter((c) => c.name === 'vouch_session').length, 2, 'the browser now holds two session cookies for Vouch');

  await page.goto(`${base}/`);
  await chooseFile(page);
  const [answer] = await Promise.all([page.waitForResponse((r) => r.url() === `${base}/sessions`), page.click('button:has-text("Upload and analyse")')]);
  assert.equal(answer.status(), 400);
  assert.match((await page.textContent('main')) ?? '', /two Vouch sign-in cookies/);
  assert.deepEqual((await context.cookies()).filter((c) => c.name === 'vouch_session').map((c) => c.path), ['/'], 'only Vouch\'s own cookie is left');

  await page.goto(`${base}/`);
  assert.match((await page.textContent('header')) ?? '', new RegExp(victim.email.replace(/[.+]/g, '\\$&')), 'she is still herself');
  await chooseFile(page);
  await Promise.all([page.waitForURL(/\/r\/ses_/), page.click('button:has-text("Upload and analyse")')]);
  assert.equal(await sessionsOf(victim.accountId), 1, 'the retry is in her account');
  assert.equal(await sessionsOf(attacker.accountId), 0, 'and nothing in the attacker\'s');
  await context.close();
});

test('Path=/ after her page loaded: the upload is refused with no form to retry, and the planted cookie is signed out', { skip, timeout: BROWSER_TEST_TIMEOUT_MS }, async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInAs(page, base, victim);
  await page.goto(`${base}/`);
  await chooseFile(page);
  const other = await context.newPage();
  await other.goto(`${evilBase}/?path=/`); // replaces her cookie outright (same name, host and path)
  const [answer] = await Promise.all([page.waitForResponse((r) => r.url() === `${base}/sessions`), page.click('button:has-text("Upload and analyse")')]);
  assert.equal(answer.status(), 403);
  assert.match((await page.textContent('main')) ?? '', /belongs to another sign-in/);
  assert.equal(await page.locator('input[name=file]').count(), 0, 'no upload form under the planted cookie');
  assert.equal(await sessionsOf(attacker.accountId), 0);
  const check = await t.app.inject({ url: '/', headers: { cookie: `vouch_session=${attackerToken}` } });
  assert.equal(check.statusCode, 303, 'the planted session was signed out');
  await context.close();
});
