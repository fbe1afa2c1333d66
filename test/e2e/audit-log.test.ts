// The audit log and team pages in a real browser (Chromium via playwright-core): an owner signs
// up, creates and revokes a key and invites an admin through the pages; Settings → Audit log
// shows those events with the owner, the address and the target, filters them, and exports
// JSONL; a member sees neither the page nor its navigation entry. Screenshots (1280 and 390 px)
// go to test-artifacts/. Without Chromium the tests are skipped locally, and fail under CI=true.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { buildTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { BROWSER_TEST_TIMEOUT_MS, browserSkip, launchChromium, screenshots, signInAs } from '../helpers/browser.ts';
import { addMember } from '../helpers/teams.ts';

const ARTIFACTS = new URL('../../test-artifacts/', import.meta.url);
const skip = browserSkip();

let t: TestApp;
let base: string;
let browser: Browser;

before(async () => {
  if (skip) return;
  t = await buildTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  browser = await launchChromium();
  await mkdir(ARTIFACTS, { recursive: true });
});
after(async () => {
  await browser?.close();
  await t?.close();
});

async function newPage(): Promise<{ page: Page; violations: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  const violations: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text());
  });
  return { page, violations };
}


test('an owner\'s actions appear in Settings → Audit log, filtered and exported; a member cannot open it', { skip, timeout: BROWSER_TEST_TIMEOUT_MS }, async () => {
  const { page, violations } = await newPage();
  const email = `e2e-audit-${Date.now()}@example.test`;
  await page.goto(`${base}/signup`);
  await page.fill('input[name=email]', email);
  await page.fill('input[name=password]', 'an end-to-end password');
  await Promise.all([page.waitForURL(`${base}/settings/api-keys?done=welcome`), page.click('main button[type=submit]')]);

  await page.fill('input[name=name]', 'Audited CI key');
  await page.click('button:has-text("Create key")');
  const key = await page.inputValue('#new-key');
  await page.goto(`${base}/settings/api-keys`);
  await page.click('a[aria-label="Revoke the key Audited CI key"]');
  await Promise.all([page.waitForURL(/done=revoked/), page.click('button:has-text("Revoke key")')]);

  await page.goto(`${base}/settings/members`);
  await page.fill('input[name=email]', 'teammate@example.test');
  await page.selectOption('select[name=role]', 'admin');
  await page.click('button:has-text("Create invitation link")');
  assert.match(await page.inputValue('#invite-link'), /\/invite\//);

  await page.click('nav a:has-text("Audit log")');
  await page.waitForURL(`${base}/settings/audit-log`);
  const rows = await page.locator('table.audit tbody tr').allTextContents();
  const text = rows.join('\n');
  for (const what of ['Account created', 'API key created', 'API key revoked', 'Member invited']) assert.ok(text.includes(what), `${what} is listed`);
  assert.ok(text.includes(email), 'with the owner as the actor');
  assert.ok(text.includes('127.0.0.1'), 'and the source address');
  assert.ok(text.includes('teammate@example.test'), 'and the target');
  assert.ok(!(await page.content()).includes(key), 'never the key');
  await screenshots(page, 'audit-log', ARTIFACTS);

  await page.selectOption('select[name=action]', 'key.revoked');
  await Promise.all([page.waitForURL(/action=key\.revoked/), page.click('form.filters button[type=submit]')]);
  const filtered = await page.locator('table.audit tbody tr').allTextContents();
  assert.equal(filtered.length, 1);
  assert.match(filtered[0], /API key revoked/);

  const [download] = await Promise.all([page.waitForEvent('download'), page.click('a:has-text("Export JSONL")')]);
  assert.match(download.suggestedFilename(), /^vouch-audit-\d{4}-\d{2}-\d{2}\.jsonl$/);
  const path = await download.path();
  const { readFile } = await import('node:fs/promises');
  const lines = (await readFile(path, 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
  assert.equal(lines.length, 1);
  assert.equal(lines[0].action, 'key.revoked');
  assert.deepEqual(violations, [], 'no Content-Security-Policy violation');

  const accountId = (await t.db.kysely.selectFrom('users').select('account_id').where('email', '=', email).executeTakeFirstOrThrow()).account_id;
  const member = await addMember(t, accountId, 'member');
  const other = await newPage();
  await signInAs(other.page, base, member);
  assert.equal(await other.page.locator('nav a:has-text("Audit log")').count(), 0, 'no navigation entry for a member');
  const refused = await other.page.goto(`${base}/settings/audit-log`);
  assert.equal(refused?.status(), 403);
  assert.match((await other.page.textContent('h1')) ?? '', /Your role does not allow this/);
});

test('the removal page shows what a member\'s removal will revoke before it is confirmed', { skip, timeout: BROWSER_TEST_TIMEOUT_MS }, async () => {
  const owner = await t.account();
  const admin = await addMember(t, owner.accountId, 'admin');
  const { page } = await newPage();
  await signInAs(page, base, admin, '/settings/api-keys');
  await page.fill('input[name=name]', 'Admin laptop');
  await page.click('button:has-text("Create key")');
  const ownerPage = (await newPage()).page;
  await signInAs(ownerPage, base, owner, '/settings/members');
  await ownerPage.click(`a[aria-label="Remove ${admin.email}"]`);
  assert.match((await ownerPage.textContent('main')) ?? '', /1 API key they created: Admin laptop/);
  await screenshots(ownerPage, 'remove-member', ARTIFACTS);
  await Promise.all([ownerPage.waitForURL(/done=removed/), ownerPage.click('button:has-text("Remove, revoke their keys")')]);
  assert.match((await ownerPage.textContent('main')) ?? '', /The member was removed/);
});
