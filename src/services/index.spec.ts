import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { serviceFixture } from '../../test/helpers/services.ts';
import type { ServiceFixture } from '../../test/helpers/services.ts';
import { hashApiKey } from './keys.ts';

let f: ServiceFixture;
before(async () => (f = await serviceFixture()));
after(() => f.close());

test('createServices gives every use case one calling style: service objects whose methods take plain arguments', () => {
  const expected = ['accounts', 'analysis', 'audit', 'deliveries', 'health', 'keys', 'maintenance', 'members', 'notifications', 'rateLimits', 'retention', 'sessions', 'webAuth', 'webhooks'];
  for (const name of expected) assert.equal(typeof (f.services as unknown as Record<string, unknown>)[name], 'object', name);
  for (const name of ['createAccount', 'accountExists']) assert.equal(typeof (f.services.accounts as Record<string, unknown>)[name], 'function');
  assert.equal(f.services.config.publicUrl, 'http://vouch.test');
});

test('a use case end to end through the services, without HTTP: account → upload → analysis → report for the key', async () => {
  const a = await f.account();
  const up = await f.upload(a.accountId);
  if (up.kind !== 'created') return assert.fail('created');
  await f.analyzeAll();
  const read = await f.services.sessions.report({ keyHash: hashApiKey(a.apiKey) }, up.session.id);
  assert.equal(read.state?.state, 'complete');
  assert.equal(await f.services.health.databaseReachable(), true);
  assert.equal(await f.services.health.logStoreReachable(), true);
  assert.equal(f.services.health.logStoreKind, f.db.dialect === 'postgres' ? 'database' : 'file');
});

test('the maintenance sweep runs over the same services and removes nothing that is still live', async () => {
  const r = await f.services.maintenance.sweep();
  assert.equal(r.expiredLogs, 0);
  assert.equal(r.orphanUploads, 0);
  const reclaimed = await f.services.maintenance.reclaimDeadProcesses('no-such-host');
  assert.deepEqual(reclaimed, { jobs: 0, uploads: 0 });
});
