import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { serviceFixture } from '../../../test/helpers/services.ts';
import type { ServiceFixture } from '../../../test/helpers/services.ts';
import { WebhookConflictError, WebhookNotFoundError } from './errors.ts';
import { testEvent } from './operations.ts';

let f: ServiceFixture;
before(async () => (f = await serviceFixture()));
after(() => f.close());

test('a test event queues one delivery of the webhook\'s shape; it is listed with its attempts, in its account only', async () => {
  const a = await f.account();
  const b = await f.account();
  const hook = await f.services.webhooks.addWebhook({ accountId: a.accountId, url: 'http://127.0.0.1:9/hook', shape: 'A' });
  await f.services.webhooks.sendTestEvent(a.accountId, hook.id);
  const [d] = await f.services.webhooks.listDeliveries(a.accountId, hook.id);
  assert.equal(d.status, 'pending');
  assert.equal(d.attempt_count, 0);
  assert.equal(JSON.parse(d.body).session_id !== undefined || JSON.parse(d.body).data !== undefined, true);
  assert.deepEqual(await f.services.webhooks.listAttempts(a.accountId, d.id), []);
  assert.deepEqual([...(await f.services.webhooks.listAttemptsOf(a.accountId, [d.id])).values()].flat(), []);
  await assert.rejects(f.services.webhooks.getDelivery(b.accountId, d.id), WebhookNotFoundError);
  const jobs = await f.db.kysely.selectFrom('jobs').select('payload').where('kind', '=', 'deliver').execute();
  assert.ok(jobs.some((j) => JSON.parse(j.payload).delivery_id === d.id));
});

test('redelivery starts a new series only once the last one ended; a disabled webhook takes no test event', async () => {
  const a = await f.account();
  const hook = await f.services.webhooks.addWebhook({ accountId: a.accountId, url: 'http://127.0.0.1:9/hook' });
  await f.services.webhooks.sendTestEvent(a.accountId, hook.id);
  const [d] = await f.services.webhooks.listDeliveries(a.accountId, hook.id);
  await assert.rejects(f.services.webhooks.redeliver(a.accountId, d.id), WebhookConflictError, 'still pending');
  await f.db.kysely.updateTable('deliveries').set({ status: 'failed', attempt_count: 4 }).where('id', '=', d.id).execute();
  await f.db.kysely.deleteFrom('jobs').where('kind', '=', 'deliver').execute();
  const again = await f.services.webhooks.redeliver(a.accountId, d.id);
  assert.deepEqual(again, { delivery_id: d.id, next_attempt: 5 });
  assert.equal((await f.services.webhooks.getDelivery(a.accountId, d.id)).status, 'pending');
  await f.services.webhooks.setWebhookEnabled(a.accountId, hook.id, false);
  await assert.rejects(f.services.webhooks.sendTestEvent(a.accountId, hook.id), WebhookConflictError);
  assert.equal(testEvent(a.accountId, 'http://vouch.test').accountId, a.accountId);
});
