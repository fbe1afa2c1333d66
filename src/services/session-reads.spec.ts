import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { serviceFixture } from '../../test/helpers/services.ts';
import type { ServiceFixture } from '../../test/helpers/services.ts';
import { hashApiKey } from './keys.ts';
import { totalFromPage, totalWithPage } from './session-reads.ts';

let f: ServiceFixture;
before(async () => (f = await serviceFixture()));
after(() => f.close());

test('one list path: a member\'s account and the holder of its key read the same page and total', async () => {
  const a = await f.account();
  for (let i = 0; i < 3; i++) await f.upload(a.accountId, `log ${i}\n`, { repo: 'acme/reads' });
  await f.upload(a.accountId, 'elsewhere\n', { repo: 'acme/other' });
  const q = { repo: 'acme/reads', limit: 2, page: 1 };
  const byAccount = await f.services.sessions.list({ accountId: a.accountId }, q);
  const byKey = await f.services.sessions.list({ keyHash: hashApiKey(a.apiKey) }, q);
  assert.equal(byAccount.total, 3);
  assert.deepEqual(byKey.holder?.accountId, a.accountId);
  assert.equal(byKey.total, 3);
  assert.deepEqual(byKey.rows.map((r) => r.id), byAccount.rows.map((r) => r.id));
  assert.ok(byAccount.rows.every((r) => r.repo === 'acme/reads'));
  const page2 = await f.services.sessions.list({ keyHash: hashApiKey(a.apiKey) }, { ...q, page: 2 });
  assert.equal(page2.rows.length, 1);
});

test('an unknown or revoked key reads nothing: no holder, no rows', async () => {
  const a = await f.account();
  await f.upload(a.accountId);
  const listed = await f.services.sessions.list({ keyHash: hashApiKey('vk_not_issued') }, { limit: 20, page: 1 });
  assert.deepEqual(listed, { holder: null, rows: [], total: 0 });
  await f.services.keys.revokeApiKeyValue(a.apiKey);
  assert.equal((await f.services.sessions.list({ keyHash: hashApiKey(a.apiKey) }, { limit: 20, page: 1 })).holder, null);
});

test('one report path: analysing, then the stored JSON, for the account and for its key; another account sees no session', async () => {
  const a = await f.account();
  const b = await f.account();
  const r = await f.upload(a.accountId);
  if (r.kind !== 'created') return assert.fail('created');
  const id = r.session.id;
  assert.deepEqual(await f.services.sessions.report({ accountId: a.accountId }, id), { state: 'analyzing' });
  await f.analyzeAll();
  const mine = await f.services.sessions.report({ accountId: a.accountId }, id);
  assert.equal(mine?.state, 'complete');
  const keyed = await f.services.sessions.report({ keyHash: hashApiKey(a.apiKey) }, id);
  assert.equal(keyed.holder?.accountId, a.accountId);
  assert.deepEqual(keyed.state, mine);
  if (mine?.state === 'complete') assert.equal(JSON.parse(mine.json).session_id, id);
  assert.equal(await f.services.sessions.report({ accountId: b.accountId }, id), null);
  const theirs = await f.services.sessions.report({ keyHash: hashApiKey(b.apiKey) }, id);
  assert.deepEqual(theirs, { holder: theirs.holder, state: null });
  assert.equal(theirs.holder?.accountId, b.accountId);
});

test('a page proves its total when it is not full; a counted total never contradicts the page', () => {
  assert.equal(totalFromPage(3, 0, 20), 3);
  assert.equal(totalFromPage(0, 0, 20), 0);
  assert.equal(totalFromPage(20, 0, 20), undefined);
  assert.equal(totalFromPage(0, 40, 20), undefined);
  assert.equal(totalWithPage(10, 5, 20), 25);
  assert.equal(totalWithPage(10, 0, 40), 10);
});
