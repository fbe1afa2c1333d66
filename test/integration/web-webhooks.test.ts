// Settings → Webhooks through the pages, with real deliveries: the job runner with the
// `deliver` processor sends to a receiver on 127.0.0.1 (allowed by VOUCH_WEBHOOK_ALLOW_CIDRS).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createJobRunner } from '../../src/adapters/jobs/index.ts';
import type { JobRunner } from '../../src/adapters/jobs/index.ts';
import { createWebhookDelivery } from '../helpers/processors.ts';
import type { WebhookDelivery } from '../helpers/processors.ts';
import { buildTestApp } from '../helpers/app.ts';
import type { TestAccount, TestApp } from '../helpers/app.ts';
import { signInAs } from '../helpers/web-forms.ts';
import type { Browser, Res } from '../helpers/web-forms.ts';
import { Receiver, until } from './webhooks-helpers.ts';

let t: TestApp;
let alice: TestAccount;
let bob: TestAccount;
let a: Browser;
let b: Browser;
let runner: JobRunner;
let delivery: WebhookDelivery;
const receivers: Receiver[] = [];

before(async () => {
  t = await buildTestApp({ VOUCH_WEBHOOK_ALLOW_CIDRS: '127.0.0.0/8', VOUCH_WEBHOOK_RETRY_DELAYS_MS: '50', VOUCH_WEBHOOK_TIMEOUT_MS: '3000' });
  alice = await t.account();
  bob = await t.account();
  a = await signInAs(t, alice);
  b = await signInAs(t, bob);
  delivery = createWebhookDelivery(t.db, t.config, { version: '0.0.0-test' });
  runner = createJobRunner({ db: t.db, owner: 'web-webhooks-test', processors: { deliver: delivery.processor }, pollMs: 20, leaseMs: 5000 });
  runner.start();
});
after(async () => {
  await runner.stop();
  await delivery.close();
  for (const r of receivers) await r.close();
  await t.close();
});

async function receiver(respond?: ConstructorParameters<typeof Receiver>[0]): Promise<Receiver> {
  const r = await new Receiver(respond).start();
  receivers.push(r);
  return r;
}

const hookIdOf = (res: Res) => /\/settings\/webhooks\/(wh_[0-9A-Z]+)/.exec(String(res.headers.location ?? res.body))?.[1] as string;
const secretOf = (html: string) => /id="new-secret"[^>]*value="(whsec_[^"]+)"/.exec(html)?.[1];

async function addHook(who: Browser, fields: Record<string, string>): Promise<{ id: string; res: Res }> {
  const res = await who.post('/settings/webhooks', { shape: 'A', secret_mode: 'none', ...fields });
  assert.ok(res.statusCode === 303 || res.statusCode === 200, `added (${res.statusCode}): ${res.body.slice(0, 200)}`);
  return { id: hookIdOf(res), res };
}

async function settled(id: string): Promise<void> {
  await until(async () => {
    const rows = await t.db.kysely.selectFrom('deliveries').select('status').where('webhook_id', '=', id).execute();
    return rows.length > 0 && rows.every((r) => r.status !== 'pending');
  }, 15_000, `deliveries of ${id} settled`);
}

test('the add form previews the body of each shape', async () => {
  const page = await a.get('/settings/webhooks');
  assert.equal(page.statusCode, 200);
  assert.match(page.body, /No webhooks yet/);
  for (const field of ['&quot;session_id&quot;', '&quot;findings_count&quot;', '&quot;orgId&quot;', '&quot;headline&quot;', '&quot;trustScore&quot;', '&quot;summary&quot;']) {
    assert.ok(page.body.includes(field), `preview shows ${field}`);
  }
});

test('adding with a generated secret shows the whsec_ secret once; afterwards only masked', async () => {
  const rx = await receiver();
  const { id, res } = await addHook(a, { url: rx.url, shape: 'B', secret_mode: 'generate' });
  assert.equal(res.statusCode, 200);
  const secret = secretOf(res.body);
  assert.ok(secret, 'the secret is shown');
  const row = await t.db.kysely.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  assert.equal(row.secret, secret);
  assert.equal(row.shape, 'B');
  assert.equal(row.account_id, alice.accountId);
  const page = await a.get(`/settings/webhooks/${id}`);
  assert.ok(!page.body.includes(secret), 'never shown again');
  assert.ok(!(await a.get('/settings/webhooks')).body.includes(secret));
});

test('adding with an own secret or none redirects to the webhook page (no re-post on reload)', async () => {
  const rx = await receiver();
  const own = await addHook(a, { url: rx.url, secret_mode: 'custom', secret: 'my own secret value' });
  assert.equal(own.res.statusCode, 303);
  assert.equal(own.res.headers.location, `/settings/webhooks/${own.id}?done=created`);
  const page = await a.get(own.res.headers.location as string);
  assert.match(page.body, /Webhook added/);
  assert.ok(!page.body.includes('my own secret value'));
});

test('form errors re-render the form with messages and the values kept (422)', async () => {
  const empty = await a.post('/settings/webhooks', { url: '', shape: 'A', secret_mode: 'none' });
  assert.equal(empty.statusCode, 422);
  assert.match(empty.body, /Enter the URL/);
  const noSecret = await a.post('/settings/webhooks', { url: 'http://127.0.0.1:9/x', shape: 'C', secret_mode: 'custom', secret: '' });
  assert.equal(noSecret.statusCode, 422);
  assert.match(noSecret.body, /Type the secret/);
  assert.match(noSecret.body, /value="C" checked/, 'the chosen shape stays chosen');
  const badShape = await a.post('/settings/webhooks', { url: 'http://127.0.0.1:9/x', shape: 'Z', secret_mode: 'none' });
  assert.equal(badShape.statusCode, 422);
  assert.match(badShape.body, /Choose shape A, B or C/);
  const scheme = await a.post('/settings/webhooks', { url: 'ftp://127.0.0.1/x', shape: 'A', secret_mode: 'none' });
  assert.equal(scheme.statusCode, 422);
  assert.match(scheme.body, /only http and https/);
  const evil = await a.post('/settings/webhooks', { url: 'http://"><script>alert(1)</script>', shape: 'A', secret_mode: 'none' });
  assert.equal(evil.statusCode, 422);
  assert.ok(!evil.body.includes('<script>alert(1)'), 'the echoed URL is escaped');
});

test('an SSRF refusal is explained in words', async () => {
  const res = await a.post('/settings/webhooks', { url: 'http://10.0.0.7/hook', shape: 'A', secret_mode: 'none' });
  assert.equal(res.statusCode, 422);
  assert.match(res.body, /only sends webhooks to public internet addresses/);
  assert.match(res.body, /10\.0\.0\.7 is a private address/);
  assert.match(res.body, /value="http:\/\/10\.0\.0\.7\/hook"/, 'the URL is kept for correction');
});

test('a test event is delivered and shows in the log with its attempt; redeliver sends the same bytes again', async () => {
  const rx = await receiver(() => ({ status: 200, body: 'thanks <b>from</b> the receiver' }));
  const { id } = await addHook(a, { url: rx.url, shape: 'A', secret_mode: 'custom', secret: 'shh-secret' });
  const sent = await a.post(`/settings/webhooks/${id}/test`);
  assert.equal(sent.statusCode, 303);
  assert.equal(sent.headers.location, `/settings/webhooks/${id}?done=tested`);
  await settled(id);
  const page = await a.get(`/settings/webhooks/${id}`);
  assert.match(page.body, /badge-delivered/);
  assert.match(page.body, /test event/);
  assert.match(page.body, /Accepted: the receiver answered HTTP 200/);
  assert.ok(page.body.includes('thanks &lt;b>from&lt;/b> the receiver'), 'the response excerpt, escaped');
  assert.match(page.body, /data-label="Latency">\d+ ms</);
  const dlv = /\/deliveries\/(dlv_[0-9A-Z]+)\/redeliver/.exec(page.body)?.[1];
  assert.ok(dlv, 'a redeliver button');
  const again = await a.post(`/settings/webhooks/${id}/deliveries/${dlv}/redeliver`);
  assert.equal(again.statusCode, 303);
  await until(() => rx.hits.length === 2, 15_000, 'second delivery');
  await settled(id);
  assert.deepEqual(rx.hits[1].raw, rx.hits[0].raw, 'the same bytes');
  assert.equal(rx.hits[1].headers['x-service-delivery'], rx.hits[0].headers['x-service-delivery']);
  assert.equal(rx.hits[1].headers['x-service-attempt'], '2');
  const log = await a.get(`/settings/webhooks/${id}`);
  assert.match(log.body, /2 attempts/);
});

test('a failing receiver: each attempt with its status code and the reason in words', async () => {
  const rx = await receiver(() => ({ status: 500, body: 'database down' }));
  const { id } = await addHook(a, { url: rx.url });
  await a.post(`/settings/webhooks/${id}/test`);
  await settled(id);
  const page = await a.get(`/settings/webhooks/${id}`);
  assert.match(page.body, /badge-failed/);
  assert.match(page.body, /Refused: the receiver answered HTTP 500/);
  assert.ok(page.body.includes('database down'));
  assert.equal((page.body.match(/data-label="#">/g) ?? []).length, 2, 'one retry with VOUCH_WEBHOOK_RETRY_DELAYS_MS=50');
});

test('a completed analysis is delivered, and the log links to its session', async () => {
  const rx = await receiver();
  const { id } = await addHook(a, { url: rx.url, shape: 'C' });
  const session = (await t.upload(alice.apiKey)).json().id as string;
  await t.analyzeAll();
  await settled(id);
  const page = await a.get(`/settings/webhooks/${id}`);
  assert.ok(page.body.includes(`href="/r/${session}"`));
  assert.equal(JSON.parse(rx.hits[0].raw.toString()).reportUrl, `http://vouch.test/r/${session}`);
});

test('edit: URL and shape change, the secret is kept, removed or regenerated as chosen', async () => {
  const rx = await receiver();
  const { id } = await addHook(a, { url: rx.url, secret_mode: 'custom', secret: 'keep-me' });
  const secretOfRow = async () => (await t.db.kysely.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirstOrThrow());
  const kept = await a.post(`/settings/webhooks/${id}`, { url: `${rx.url}?v=2`, shape: 'C', secret_mode: 'keep' });
  assert.equal(kept.statusCode, 303);
  let row = await secretOfRow();
  assert.equal(row.url, `${rx.url}?v=2`);
  assert.equal(row.shape, 'C');
  assert.equal(row.secret, 'keep-me');
  const regenerated = await a.post(`/settings/webhooks/${id}`, { url: rx.url, shape: 'C', secret_mode: 'generate' });
  assert.equal(regenerated.statusCode, 200);
  row = await secretOfRow();
  assert.equal(secretOf(regenerated.body), row.secret);
  assert.match(row.secret ?? '', /^whsec_/);
  assert.equal((await a.post(`/settings/webhooks/${id}`, { url: rx.url, shape: 'C', secret_mode: 'none' })).statusCode, 303);
  assert.equal((await secretOfRow()).secret, null);
  const refused = await a.post(`/settings/webhooks/${id}`, { url: 'http://192.168.1.1/', shape: 'A', secret_mode: 'keep' });
  assert.equal(refused.statusCode, 422);
  assert.match(refused.body, /192\.168\.1\.1 is a private address/);
  assert.equal((await secretOfRow()).url, rx.url, 'nothing saved');
});

test('disable/enable; a disabled webhook shows why and refuses test events; the auto-disable reason is shown', async () => {
  const rx = await receiver();
  const { id } = await addHook(a, { url: rx.url });
  assert.equal((await a.post(`/settings/webhooks/${id}/disable`)).headers.location, `/settings/webhooks/${id}?done=disabled`);
  const page = await a.get(`/settings/webhooks/${id}`);
  assert.match(page.body, /badge-disabled/);
  assert.match(page.body, /disabled by a user/);
  assert.equal((await a.post(`/settings/webhooks/${id}/test`)).statusCode, 409);
  assert.equal(rx.hits.length, 0);
  await t.db.kysely.updateTable('webhooks').set({ disabled_reason: 'Disabled automatically at 2026-01-02T00:00:00.000Z: every delivery failed for 24 h.' }).where('id', '=', id).execute();
  assert.match((await a.get('/settings/webhooks')).body, /Disabled automatically at 2026-01-02/);
  assert.equal((await a.post(`/settings/webhooks/${id}/enable`)).statusCode, 303);
  const enabled = await a.get(`/settings/webhooks/${id}`);
  assert.match(enabled.body, /badge-enabled/);
  assert.ok(!enabled.body.includes('Disabled automatically'), 'enabling clears the reason');
});

test('delete needs confirmation and removes the delivery log', async () => {
  const rx = await receiver();
  const { id } = await addHook(a, { url: rx.url });
  await a.post(`/settings/webhooks/${id}/test`);
  await settled(id);
  const confirm = await a.get(`/settings/webhooks/${id}/delete`);
  assert.equal(confirm.statusCode, 200);
  assert.match(confirm.body, /Delete this webhook\?/);
  const done = await a.post(`/settings/webhooks/${id}/delete`);
  assert.equal(done.headers.location, '/settings/webhooks?done=deleted');
  assert.equal((await a.get(`/settings/webhooks/${id}`)).statusCode, 404);
  assert.equal((await t.db.kysely.selectFrom('deliveries').select('id').where('webhook_id', '=', id).execute()).length, 0);
});

test("another account's webhook and delivery ids answer 404 and change nothing", async () => {
  const rx = await receiver();
  const { id } = await addHook(a, { url: rx.url });
  await a.post(`/settings/webhooks/${id}/test`);
  await settled(id);
  const dlv = (await t.db.kysely.selectFrom('deliveries').select('id').where('webhook_id', '=', id).executeTakeFirstOrThrow()).id;
  const theirs = await addHook(b, { url: rx.url });
  for (const [method, url] of [
    ['GET', `/settings/webhooks/${id}`], ['GET', `/settings/webhooks/${id}/delete`], ['POST', `/settings/webhooks/${id}`],
    ['POST', `/settings/webhooks/${id}/disable`], ['POST', `/settings/webhooks/${id}/test`], ['POST', `/settings/webhooks/${id}/delete`],
    ['POST', `/settings/webhooks/${id}/deliveries/${dlv}/redeliver`], ['POST', `/settings/webhooks/${theirs.id}/deliveries/${dlv}/redeliver`],
  ] as const) {
    const res = method === 'GET' ? await b.get(url) : await b.post(url, { url: 'http://127.0.0.1:1/', shape: 'A', secret_mode: 'none' });
    assert.equal(res.statusCode, 404, `${method} ${url}`);
    assert.ok(!res.body.includes(rx.url), 'nothing of it is shown');
  }
  const row = await t.db.kysely.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  assert.equal(row.enabled, 1);
  assert.equal(row.url, rx.url);
  assert.equal(rx.hits.length, 1, 'no extra delivery');
  assert.ok(!(await b.get('/settings/webhooks')).body.includes(id));
});

test('forms without the CSRF token are refused (403 page) and change nothing', async () => {
  const rx = await receiver();
  const res = await a.post('/settings/webhooks', { url: rx.url, shape: 'A', secret_mode: 'none', _csrf: 'wrong' });
  assert.equal(res.statusCode, 403);
  assert.match(res.body, /This form has expired/);
  assert.equal((await t.db.kysely.selectFrom('webhooks').select('id').where('url', '=', rx.url).execute()).length, 0);
});
