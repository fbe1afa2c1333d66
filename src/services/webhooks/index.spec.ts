import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as webhooks from './index.ts';
import { deliveryService } from './delivery.ts';

test('the webhooks module answers for registration, shapes, signing, the outbox and the operations in one import', () => {
  for (const name of ['addWebhook', 'listWebhooks', 'enqueueAnalysisComplete', 'redeliver', 'sendTestEvent', 'serializePayload', 'attemptHeaders', 'parseRetryDelays', 'generateWhsecSecret']) {
    assert.equal(typeof (webhooks as Record<string, unknown>)[name], 'function', name);
  }
  assert.equal(webhooks.DELIVER_JOB_KIND, 'deliver');
  assert.deepEqual([...webhooks.SHAPES].sort(), ['A', 'B', 'C']);
});

test('a generated secret is a Standard Webhooks secret, shown masked afterwards', () => {
  const secret = webhooks.generateWhsecSecret();
  assert.match(secret, /^whsec_[A-Za-z0-9+/=]+$/);
  const masked = webhooks.maskSecret(secret);
  assert.ok(masked && masked !== secret && !masked.includes(secret.slice(6)));
});

test('the delivery service (sending) is its own module: it closes the outbound client it was given', async () => {
  let closed = 0;
  const service = deliveryService({ db: {} as never, client: { post: async () => assert.fail('not sent'), close: async () => void closed++ }, retryDelaysMs: [], leaseMs: 1000 });
  await service.close();
  assert.equal(closed, 1);
});
