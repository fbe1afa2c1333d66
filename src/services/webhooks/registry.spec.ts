import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { serviceFixture } from '../../../test/helpers/services.ts';
import type { ServiceFixture } from '../../../test/helpers/services.ts';
import { WebhookNotFoundError, WebhookValidationError } from './errors.ts';
import { validateWebhookUrl } from './registry.ts';

let f: ServiceFixture;
before(async () => {
  f = await serviceFixture({
    // hooks.example.test is public; everything else resolves to loopback (allowed by the fixture's policy) …
    resolver: async (host) => (host === 'internal.example.test' ? [{ address: '10.0.0.8', family: 4 }] : [{ address: '127.0.0.1', family: 4 }]),
  });
});
after(() => f.close());

test('a webhook is added with its secret masked, listed, edited, disabled and removed — in its account only', async () => {
  const a = await f.account();
  const b = await f.account();
  const hook = await f.services.webhooks.addWebhook({ accountId: a.accountId, url: 'http://hooks.example.test/in', secret: 'whsec_' + 'b'.repeat(43), shape: 'B' });
  assert.equal(hook.shape, 'B');
  assert.equal(hook.enabled, true);
  assert.equal(hook.has_secret, true);
  assert.ok(hook.secret_masked && !hook.secret_masked.includes('b'.repeat(43)));
  assert.deepEqual((await f.services.webhooks.listWebhooks(a.accountId)).map((w) => w.id), [hook.id]);
  assert.deepEqual(await f.services.webhooks.listWebhooks(b.accountId), []);
  await assert.rejects(f.services.webhooks.getWebhook(b.accountId, hook.id), WebhookNotFoundError);
  const edited = await f.services.webhooks.editWebhook(a.accountId, hook.id, { url: 'http://hooks.example.test/other', shape: 'C', secret: { keep: true } });
  assert.equal(edited.url, 'http://hooks.example.test/other');
  assert.equal(edited.shape, 'C');
  await f.services.webhooks.setWebhookEnabled(a.accountId, hook.id, false);
  assert.equal((await f.services.webhooks.getWebhook(a.accountId, hook.id)).enabled, 0);
  await f.services.webhooks.removeWebhook(a.accountId, hook.id);
  assert.deepEqual(await f.services.webhooks.listWebhooks(a.accountId), []);
});

test('a URL the SSRF policy refuses, a bad scheme or a bad shape is refused with the reason', async () => {
  const a = await f.account();
  await assert.rejects(f.services.webhooks.addWebhook({ accountId: a.accountId, url: 'http://internal.example.test/' }), (e) => e instanceof WebhookValidationError && /SSRF policy/.test(e.reason));
  await assert.rejects(f.services.webhooks.addWebhook({ accountId: a.accountId, url: 'ftp://hooks.example.test/' }), WebhookValidationError);
  await assert.rejects(f.services.webhooks.addWebhook({ accountId: a.accountId, url: 'http://hooks.example.test/', shape: 'Z' }), /shape must be A, B or C/);
  await assert.rejects(validateWebhookUrl('http://127.0.0.1/'), WebhookValidationError, 'without a policy: strict, loopback refused');
});
