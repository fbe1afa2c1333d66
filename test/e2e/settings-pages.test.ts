// The settings pages in a real browser (Chromium via playwright-core): sign up → create an API
// key (copy button) → upload with it over HTTP → revoke it → the API refuses it; add a webhook
// pointing at a local receiver → send a test event → see the delivery in the log → redeliver.
// Screenshots of the API keys and webhooks pages at 1280 and 390 px go to test-artifacts/.
// Without Chromium the tests are skipped locally, and fail under CI=true.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { createJobRunner } from '../../src/adapters/jobs/index.ts';
import type { JobRunner } from '../../src/adapters/jobs/index.ts';
import { createWebhookDelivery } from '../helpers/processors.ts';
import type { WebhookDelivery } from '../helpers/processors.ts';
import { buildTestApp } from '../helpers/app.ts';
import { BROWSER_TEST_TIMEOUT_MS, browserSkip, launchChromium, screenshots } from '../helpers/browser.ts';
import type { TestApp } from '../helpers/app.ts';
import { Receiver, until } from '../integration/webhooks-helpers.ts';

const ARTIFACTS = new URL('../../test-artifacts/', import.meta.url);
// A missing Chromium skips locally and throws under CI=true: never a silent skip in CI.
const skip = browserSkip();

let t: TestApp;
let base: string;
let browser: Browser;
let runner: JobRunner;
let delivery: WebhookDelivery;
const receivers: Receiver[] = [];

before(async () => {
  if (skip) return;
  t = await buildTestApp({ VOUCH_WEBHOOK_ALLOW_CIDRS: '127.0.0.0/8', VOUCH_WEBHOOK_RETRY_DELAYS_MS: '50' });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  delivery = createWebhookDelivery(t.db, t.config, { version: '0.0.0-e2e' });
  runner = createJobRunner({ db: t.db, owner: 'e2e', processors: { deliver: delivery.processor }, pollMs: 20, leaseMs: 5000 });
  runner.start();
  browser = await launchChromium();
  await mkdir(ARTIFACTS, { recursive: true });
});
after(async () => {
  await browser?.close();
  await runner?.stop();
  await delivery?.close();
  for (const r of receivers) await r.close();
  await t?.close();
});

/** A fresh browser context with CSP violations collected. */
async function newPage(): Promise<{ page: Page; violations: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
  const page = await context.newPage();
  const violations: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text());
  });
  return { page, violations };
}

async function signUp(page: Page, email: string): Promise<void> {
  await page.goto(`${base}/signup`);
  await page.fill('input[name=name]', 'E2E Team');
  await page.fill('input[name=email]', email);
  await page.fill('input[name=password]', 'an end-to-end password');
  await Promise.all([page.waitForURL(`${base}/settings/api-keys?done=welcome`), page.click('main button[type=submit]')]);
}


async function apiList(key: string): Promise<number> {
  return (await fetch(`${base}/v1/sessions`, { headers: { authorization: `Bearer ${key}` } })).status;
}

// The browser's DOM, as far as page.evaluate() uses it (the project compiles without lib.dom).
declare const document: { documentElement: { scrollWidth: number; clientWidth: number; scrollHeight: number }; querySelector(s: string): { textContent: string | null } | null };
declare const navigator: { clipboard: { readText(): Promise<string> } };

test('sign up, create a key and copy it, upload with it, revoke it: the API refuses it', { skip, timeout: BROWSER_TEST_TIMEOUT_MS }, async () => {
  const { page, violations } = await newPage();
  await signUp(page, `e2e-keys-${Date.now()}@example.test`);
  assert.match((await page.textContent('main')) ?? '', /Your account is ready/);

  await page.fill('input[name=name]', 'GitHub Actions');
  await page.click('button:has-text("Create key")');
  const key = await page.inputValue('#new-key');
  assert.match(key, /^vk_/);
  const copy = page.locator('button[data-copy-target="new-key"]');
  assert.ok(await copy.isVisible(), 'the copy button appears with JavaScript');
  await copy.click();
  await page.waitForFunction(() => document.querySelector('button[data-copy-target="new-key"]')?.textContent === 'Copied');
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), key, 'the clipboard holds the key');

  const form = new FormData();
  form.append('repo', 'acme/e2e');
  form.append('file', new Blob(['{"type":"user","message":{"role":"user","content":"hello"}}\n']), 'session.jsonl');
  const upload = await fetch(`${base}/v1/sessions`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
  assert.equal(upload.status, 202, await upload.clone().text());
  assert.equal(await apiList(key), 200);

  await page.goto(`${base}/settings/api-keys`);
  assert.ok(!((await page.content()).includes(key)), 'the key is not shown again');
  await screenshots(page, 'api-keys', ARTIFACTS);

  await page.click('a[aria-label="Revoke the key GitHub Actions"]');
  assert.match((await page.textContent('h1')) ?? '', /Revoke this API key\?/);
  await Promise.all([page.waitForURL(`${base}/settings/api-keys?done=revoked`), page.click('button:has-text("Revoke key")')]);
  assert.equal(await apiList(key), 401, 'refused on the next request');

  const missing = await page.goto(`${base}/no/such/page`);
  assert.equal(missing?.status(), 404);
  assert.match((await page.textContent('h1')) ?? '', /Page not found/);
  assert.equal(await page.locator('nav a:has-text("API keys")').count(), 1, 'the error page keeps the navigation');
  await screenshots(page, 'not-found', ARTIFACTS);

  await Promise.all([page.waitForURL(`${base}/login`), page.click('.account button:has-text("Sign out")')]);
  await page.goto(`${base}/settings/api-keys`);
  assert.equal(new URL(page.url()).pathname, '/login', 'signed out');
  assert.deepEqual(violations, []);
  await page.context().close();
});

test('add a webhook, send a test event, see the delivery in the log, redeliver it', { skip, timeout: BROWSER_TEST_TIMEOUT_MS }, async () => {
  const rx = await new Receiver(() => ({ status: 200, body: 'ok from the e2e receiver' })).start();
  receivers.push(rx);
  const { page, violations } = await newPage();
  await signUp(page, `e2e-hooks-${Date.now()}@example.test`);
  await page.click('nav a:has-text("Webhooks")');
  await page.fill('input[name=url]', rx.url);
  await page.check('input[name=shape][value=B]');
  await page.check('input[name=secret_mode][value=generate]');
  await page.click('button:has-text("Add webhook")');
  assert.match(await page.inputValue('#new-secret'), /^whsec_/);

  await page.click('button:has-text("Send test event")');
  await until(() => rx.hits.length === 1, 15_000, 'the test event reached the receiver');
  const hookUrl = page.url().split('?')[0];
  await until(async () => {
    await page.goto(hookUrl);
    return (await page.locator('.delivery .badge-delivered').count()) === 1;
  }, 15_000, 'the delivery shows as delivered');
  await page.click('.delivery > summary');
  assert.match((await page.textContent('.delivery')) ?? '', /Accepted: the receiver answered HTTP 200/);
  assert.match((await page.textContent('.delivery')) ?? '', /ok from the e2e receiver/);
  await screenshots(page, 'webhook', ARTIFACTS);

  await page.click('.delivery button:has-text("Redeliver")');
  await until(() => rx.hits.length === 2, 15_000, 'the redelivery reached the receiver');
  assert.equal(rx.hits[1].headers['x-service-delivery'], rx.hits[0].headers['x-service-delivery'], 'same delivery id');
  await until(async () => {
    await page.goto(hookUrl);
    return /2 attempts/.test((await page.textContent('.delivery')) ?? '');
  }, 15_000, 'the log shows the second attempt');

  await page.click('nav a:has-text("Webhooks")');
  await screenshots(page, 'webhooks', ARTIFACTS);
  assert.deepEqual(violations, []);
  await page.context().close();
});

test('invite a teammate: the link sets their password; removing them signs them out', { skip, timeout: BROWSER_TEST_TIMEOUT_MS }, async () => {
  const owner = await newPage();
  await signUp(owner.page, `e2e-owner-${Date.now()}@example.test`);
  await owner.page.click('nav a:has-text("Members")');
  const mateEmail = `e2e-mate-${Date.now()}@example.test`;
  await owner.page.fill('input[name=email]', mateEmail);
  await owner.page.click('button:has-text("Create invitation link")');
  const link = await owner.page.inputValue('#invite-link');
  assert.match(link, /\/invite\/[A-Za-z0-9_-]{40,}$/);
  await screenshots(owner.page, 'members', ARTIFACTS);

  // The public URL of the test app is http://vouch.test: open the same path on the test server.
  const mate = await newPage();
  await mate.page.goto(`${base}${new URL(link).pathname}`);
  assert.match((await mate.page.textContent('main')) ?? '', new RegExp(mateEmail.replace(/[.]/g, '\\.')));
  await mate.page.fill('input[name=password]', 'the teammate password');
  await Promise.all([mate.page.waitForURL(`${base}/`), mate.page.click('main button[type=submit]')]);
  await mate.page.goto(`${base}/settings/account`);
  assert.equal(new URL(mate.page.url()).pathname, '/settings/account', 'the teammate is in');

  await owner.page.reload();
  await owner.page.click(`a[aria-label="Remove ${mateEmail}"]`);
  await Promise.all([owner.page.waitForURL(`${base}/settings/members?done=removed`), owner.page.click('button:has-text("Remove, revoke their keys")')]);
  await mate.page.goto(`${base}/settings/account`);
  assert.equal(new URL(mate.page.url()).pathname, '/login', 'their session ended at once');
  assert.deepEqual([...owner.violations, ...mate.violations], []);
  await owner.page.context().close();
  await mate.page.context().close();
});
