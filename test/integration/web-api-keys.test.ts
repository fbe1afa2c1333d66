// Settings → API keys through the pages: create (shown once), list, revoke with confirmation,
// CSRF refusal, validation, escaping, tenant isolation, and the API refusing a revoked key.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp } from '../helpers/app.ts';
import type { TestAccount, TestApp } from '../helpers/app.ts';
import { signInAs } from '../helpers/web-forms.ts';
import type { Browser } from '../helpers/web-forms.ts';

let t: TestApp;
let alice: TestAccount;
let bob: TestAccount;
let a: Browser;
let b: Browser;

before(async () => {
  t = await buildTestApp();
  alice = await t.account();
  bob = await t.account();
  a = await signInAs(t, alice);
  b = await signInAs(t, bob);
});
after(() => t.close());

const newKeyOf = (html: string) => /id="new-key"[^>]*value="(vk_[^"]+)"/.exec(html)?.[1] ?? /value="(vk_[^"]+)"[^>]*id="new-key"/.exec(html)?.[1];

/** The table row that contains `text`. */
function rowOf(html: string, text: string): string {
  return html.split('<tr>').find((r) => r.includes(text))?.split('</tr>')[0] ?? '';
}

async function createKey(who: Browser, name: string): Promise<{ key: string; id: string }> {
  const res = await who.post('/settings/api-keys', { name });
  assert.equal(res.statusCode, 200);
  const key = newKeyOf(res.body);
  assert.ok(key, 'the new key is in the page');
  const id = /href="\/settings\/api-keys\/(key_[^/]+)\/revoke"/.exec(res.body)?.[1] as string;
  return { key, id };
}

test('a visitor is sent to sign in, coming back to the keys page', async () => {
  const res = await t.app.inject({ url: '/settings/api-keys' });
  assert.equal(res.statusCode, 303);
  assert.equal(res.headers.location, `/login?next=${encodeURIComponent('/settings/api-keys')}`);
});

test('creating a key shows it once, then only its prefix and last 4; the API accepts it', async () => {
  const { key } = await createKey(a, 'CI runner');
  const list = await a.get('/settings/api-keys');
  assert.equal(list.statusCode, 200);
  assert.ok(!list.body.includes(key), 'the full key is never shown again');
  assert.match(rowOf(list.body, 'CI runner'), new RegExp(`<code>${key.slice(0, 7)}…${key.slice(-4)}</code>`), 'prefix and last 4 are listed');
  assert.ok(list.body.includes('CI runner'));
  const api = await t.app.inject({ url: '/v1/sessions', headers: { authorization: `Bearer ${key}` } });
  assert.equal(api.statusCode, 200);
  const row = rowOf((await a.get('/settings/api-keys')).body, 'CI runner');
  assert.ok(!row.includes('never'), 'last used is recorded');
  assert.match(row, /data-label="Last used"><time datetime=/);
});

test('an empty or over-long name re-renders the form with a message (422), keeping the value', async () => {
  const empty = await a.post('/settings/api-keys', { name: '   ' });
  assert.equal(empty.statusCode, 422);
  assert.match(empty.body, /Give the key a name/);
  const long = await a.post('/settings/api-keys', { name: 'x'.repeat(150) });
  assert.equal(long.statusCode, 422);
  assert.match(long.body, /at most 100 characters/);
  assert.ok(!newKeyOf(long.body), 'no key was made');
});

test('names are escaped on the page', async () => {
  await createKey(a, '<script>alert(1)</script>"><img src=x onerror=alert(2)>');
  const list = await a.get('/settings/api-keys');
  assert.ok(!list.body.includes('<script>alert(1)'));
  assert.ok(!list.body.includes('<img src=x'));
  assert.ok(list.body.includes('&lt;script>alert(1)&lt;/script>&quot;>&lt;img'), 'shown as text');
});

test('a form without the CSRF token is refused with the HTML 403 page and creates nothing', async () => {
  const before = (await a.get('/settings/api-keys')).body.match(/\/revoke"/g)?.length ?? 0;
  const res = await a.post('/settings/api-keys', { name: 'forged', _csrf: 'not-the-token' });
  assert.equal(res.statusCode, 403);
  assert.match(String(res.headers['content-type']), /^text\/html/);
  assert.match(res.body, /This form has expired/);
  assert.match(String(res.headers['content-security-policy']), /default-src 'none'/);
  const after = (await a.get('/settings/api-keys')).body.match(/\/revoke"/g)?.length ?? 0;
  assert.equal(after, before);
});

test('revoking asks for confirmation, then the API refuses the key on its next request', async () => {
  const { key, id } = await createKey(a, 'to revoke');
  const confirm = await a.get(`/settings/api-keys/${id}/revoke`);
  assert.equal(confirm.statusCode, 200);
  assert.match(confirm.body, /Revoke this API key\?/);
  assert.match(confirm.body, new RegExp(`action="/settings/api-keys/${id}/revoke"`));
  assert.equal((await t.app.inject({ url: '/v1/sessions', headers: { authorization: `Bearer ${key}` } })).statusCode, 200, 'the confirmation page alone revokes nothing');
  const done = await a.post(`/settings/api-keys/${id}/revoke`);
  assert.equal(done.statusCode, 303);
  assert.equal(done.headers.location, '/settings/api-keys?done=revoked');
  assert.equal((await t.app.inject({ url: '/v1/sessions', headers: { authorization: `Bearer ${key}` } })).statusCode, 401);
  const list = await a.get(done.headers.location as string);
  assert.match(list.body, /The key was revoked/);
  assert.ok(!list.body.includes(`/settings/api-keys/${id}/revoke"`), 'no revoke action left for it');
  const again = await a.post(`/settings/api-keys/${id}/revoke`);
  assert.equal(again.headers.location, '/settings/api-keys?done=already-revoked');
});

test("another account's key id answers 404 and stays valid", async () => {
  const { key, id } = await createKey(a, 'alice only');
  const page = await b.get(`/settings/api-keys/${id}/revoke`);
  assert.equal(page.statusCode, 404);
  assert.match(String(page.headers['content-type']), /^text\/html/);
  assert.ok(!page.body.includes('alice only'));
  assert.equal((await b.post(`/settings/api-keys/${id}/revoke`)).statusCode, 404);
  assert.equal((await t.app.inject({ url: '/v1/sessions', headers: { authorization: `Bearer ${key}` } })).statusCode, 200);
  assert.ok(!(await b.get('/settings/api-keys')).body.includes('alice only'), "bob's list does not show alice's keys");
});
