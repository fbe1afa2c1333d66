import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { serviceFixture } from '../../../test/helpers/services.ts';
import type { ServiceFixture } from '../../../test/helpers/services.ts';
import { enqueueAnalysisComplete } from './outbox.ts';
import { testEvent } from './operations.ts';

let f: ServiceFixture;
before(async () => (f = await serviceFixture()));
after(() => f.close());

test('one delivery and one deliver job per enabled webhook, each body in its webhook\'s shape, in the caller\'s transaction', async () => {
  const a = await f.account();
  const hookA = await f.services.webhooks.addWebhook({ accountId: a.accountId, url: 'http://127.0.0.1:9/a', shape: 'A' });
  const hookC = await f.services.webhooks.addWebhook({ accountId: a.accountId, url: 'http://127.0.0.1:9/c', shape: 'C' });
  const off = await f.services.webhooks.addWebhook({ accountId: a.accountId, url: 'http://127.0.0.1:9/off' });
  await f.services.webhooks.setWebhookEnabled(a.accountId, off.id, false);
  const event = testEvent(a.accountId, 'http://vouch.test');
  const ids = await f.db.kysely.transaction().execute((trx) => enqueueAnalysisComplete(trx, event));
  assert.equal(ids.length, 2);
  const rows = await f.db.kysely.selectFrom('deliveries').select(['id', 'webhook_id', 'body']).where('id', 'in', ids).execute();
  const bodyOf = (hook: string) => JSON.parse(rows.find((r) => r.webhook_id === hook)!.body);
  assert.notDeepEqual(Object.keys(bodyOf(hookA.id)).sort(), Object.keys(bodyOf(hookC.id)).sort(), 'shapes A and C differ');
  const jobs = await f.db.kysely.selectFrom('jobs').select('payload').where('kind', '=', 'deliver').execute();
  for (const id of ids) assert.ok(jobs.some((j) => JSON.parse(j.payload).delivery_id === id));
});

test('a rolled-back transaction leaves no delivery and no job', async () => {
  const a = await f.account();
  await f.services.webhooks.addWebhook({ accountId: a.accountId, url: 'http://127.0.0.1:9/a' });
  const before = (await f.db.kysely.selectFrom('deliveries').select('id').execute()).length;
  await assert.rejects(f.db.kysely.transaction().execute(async (trx) => {
    await enqueueAnalysisComplete(trx, testEvent(a.accountId, 'http://vouch.test'));
    throw new Error('the analysis transaction failed');
  }));
  assert.equal((await f.db.kysely.selectFrom('deliveries').select('id').execute()).length, before);
  assert.equal(await enqueueAnalysisComplete(f.db.kysely, testEvent((await f.account()).accountId, 'http://vouch.test')).then((ids) => ids.length), 0, 'no webhook: nothing');
});
