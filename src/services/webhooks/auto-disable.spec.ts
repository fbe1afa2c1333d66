import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { serviceFixture } from '../../../test/helpers/services.ts';
import type { ServiceFixture } from '../../../test/helpers/services.ts';
import { autoDisableIfFailing } from './auto-disable.ts';

let f: ServiceFixture;
before(async () => (f = await serviceFixture()));
after(() => f.close());

/** A webhook with one delivery of `status`, last touched at `at`. */
async function hookWith(status: 'failed' | 'delivered', at: string) {
  const a = await f.account();
  const hook = await f.services.webhooks.addWebhook({ accountId: a.accountId, url: 'http://127.0.0.1:9/hook' });
  await f.services.webhooks.sendTestEvent(a.accountId, hook.id);
  await f.db.kysely.updateTable('deliveries').set({ status, created_at: at, updated_at: at }).where('webhook_id', '=', hook.id).execute();
  return { a, hook };
}

test('a webhook whose every delivery failed for the whole window is disabled, with the reason', async () => {
  const { a, hook } = await hookWith('failed', new Date(Date.now() - 2 * 3600_000).toISOString());
  assert.equal(await autoDisableIfFailing(f.db.kysely, hook.id, { windowMs: 3600_000, lastError: 'HTTP 500' }), true);
  const after = await f.services.webhooks.getWebhook(a.accountId, hook.id);
  assert.equal(after.enabled, 0);
  assert.match(after.disabled_reason ?? '', /every delivery failed for 1 h.*Last error: HTTP 500/);
});

test('failures younger than the window, or a delivered one, keep the webhook enabled', async () => {
  const young = await hookWith('failed', new Date(Date.now() - 60_000).toISOString());
  assert.equal(await autoDisableIfFailing(f.db.kysely, young.hook.id, { windowMs: 3600_000 }), false);
  const delivered = await hookWith('delivered', new Date(Date.now() - 2 * 3600_000).toISOString());
  assert.equal(await autoDisableIfFailing(f.db.kysely, delivered.hook.id, { windowMs: 3600_000 }), false);
  assert.equal((await f.services.webhooks.getWebhook(delivered.a.accountId, delivered.hook.id)).enabled, 1);
});
