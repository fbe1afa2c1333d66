// A real browser (Chromium via playwright-core) signs in and sees a report: the redirect to the
// sign-in form, the CSRF-protected form post, the cookie, and a page that renders under the
// strict CSP (the stylesheet applies, no CSP violation is reported, no script runs).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import type { Browser } from 'playwright-core';
import { buildTestApp, stubReport } from '../helpers/app.ts';
import { BROWSER_TEST_TIMEOUT_MS, browserSkip, launchChromium } from '../helpers/browser.ts';
import { inProcessAnalyzer } from '../../src/adapters/analysis-pool/index.ts';
import type { TestAccount, TestApp } from '../helpers/app.ts';

// The bits of the browser's DOM used inside page.evaluate() (the project compiles without lib.dom).
declare const document: { styleSheets: Iterable<{ cssRules: { length: number } }>; cookie: string };

const skip = browserSkip();

let t: TestApp;
let alice: TestAccount;
let base: string;
let browser: Browser;

before(async () => {
  if (skip) return;
  t = await buildTestApp();
  alice = await t.account();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await t?.close();
});

test('sign in from the report link and see the report', { skip, timeout: BROWSER_TEST_TIMEOUT_MS }, async () => {
  const id = (await t.upload(alice.apiKey, { fields: { repo: 'acme/e2e' } })).json().id;
  await t.analyzeAll();
  const stub = stubReport();
  const context = await browser.newContext();
  const page = await context.newPage();
  const cspViolations: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) cspViolations.push(m.text());
  });

  await page.goto(`${base}/r/${id}`);
  assert.match(new URL(page.url()).pathname, /^\/login$/, 'a visitor lands on the sign-in form');
  await page.fill('input[name=email]', alice.email);
  await page.click('button[type=submit]'); // the email step (no single sign-on for this domain) leads to the password step
  await page.fill('input[name=password]', alice.password);
  await Promise.all([page.waitForURL(`${base}/r/${id}`), page.click('button[type=submit]')]);

  const text = await page.textContent('body');
  assert.ok(text?.includes(stub.headline), 'the headline is shown');
  assert.ok(text?.includes(String(stub.trust_score)), 'the score is shown');
  assert.ok(text?.includes('hello <b>world</b>'), 'log content shown as text, not markup');
  assert.equal(await page.locator('main b').count(), 0, 'no markup from the log was interpreted');
  const styled = await page.evaluate(() => [...document.styleSheets].reduce((n, s) => n + s.cssRules.length, 0));
  assert.ok(styled > 0, 'the nonce-carrying stylesheet applies');
  assert.deepEqual(cspViolations, []);

  const cookies = await context.cookies();
  const session = cookies.find((c) => c.name === 'vouch_session');
  assert.ok(session?.httpOnly);
  assert.equal(session?.sameSite, 'Lax');
  assert.equal(await page.evaluate(() => document.cookie.includes('vouch_session')), false, 'not readable by scripts');

  await Promise.all([page.waitForURL(`${base}/login`), page.click('nav button[type=submit]')]);
  await page.goto(`${base}/r/${id}`);
  assert.match(new URL(page.url()).pathname, /^\/login$/, 'signed out: back to the form');
  await context.close();
});

test('a real analysis renders under the CSP without violations', { skip, timeout: BROWSER_TEST_TIMEOUT_MS }, async () => {
  const log = await readFile(new URL('../../../shared/conformance/fixtures/claude-code.jsonl', import.meta.url));
  const id = (await t.upload(alice.apiKey, { content: log, fields: { agent: 'claude-code' } })).json().id;
  await t.analyzeAll(inProcessAnalyzer());
  const report = (await t.app.inject({ url: `/v1/sessions/${id}/report`, headers: { authorization: `Bearer ${alice.apiKey}` } })).json();
  const context = await browser.newContext();
  const page = await context.newPage();
  const violations: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
  });
  await page.goto(`${base}/login?next=${encodeURIComponent(`/r/${id}`)}`);
  await page.fill('input[name=email]', alice.email);
  await page.click('button[type=submit]'); // the email step (no single sign-on for this domain) leads to the password step
  await page.fill('input[name=password]', alice.password);
  await Promise.all([page.waitForURL(`${base}/r/${id}`), page.click('button[type=submit]')]);
  const text = (await page.textContent('body')) ?? '';
  assert.ok(text.includes(report.headline), 'the headline of the stored report');
  assert.ok(text.includes(report.outcome));
  assert.deepEqual(violations, []);
  await context.close();
});

test('a member of another account gets a 404 page', { skip, timeout: BROWSER_TEST_TIMEOUT_MS }, async () => {
  const id = (await t.upload(alice.apiKey)).json().id;
  const bob = await t.account();
  const page = await browser.newPage();
  await page.goto(`${base}/login`);
  await page.fill('input[name=email]', bob.email);
  await page.click('button[type=submit]'); // the email step (no single sign-on for this domain) leads to the password step
  await page.fill('input[name=password]', bob.password);
  await Promise.all([page.waitForURL(`${base}/`), page.click('button[type=submit]')]);
  const res = await page.goto(`${base}/r/${id}`);
  assert.equal(res?.status(), 404);
  assert.match((await page.textContent('h1')) ?? '', /Not found/);
  await page.close();
});
