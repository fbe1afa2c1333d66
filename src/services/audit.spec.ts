import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { serviceFixture } from '../../test/helpers/services.ts';
import type { ServiceFixture } from '../../test/helpers/services.ts';
import { isAuditAction, OPERATOR, webhookLabel } from './audit.ts';

let f: ServiceFixture;
before(async () => (f = await serviceFixture()));
after(() => f.close());

test('every change is in the account\'s audit log, newest first, and exports as JSON lines', async () => {
  const a = await f.account();
  await f.services.keys.issueApiKey(a.accountId, 'audited', OPERATOR);
  await f.services.retention.setLogRetention(a.accountId, 30, OPERATOR);
  const page = await f.services.audit.listAuditPage(a.accountId, { limit: 10, page: 1 });
  const actions = page.rows.map((r) => r.action);
  assert.deepEqual(actions.slice(0, 2), ['retention.changed', 'key.created']);
  assert.ok(actions.includes('account.created'));
  assert.equal(page.total, page.rows.length);
  let text = '';
  for await (const chunk of f.services.audit.exportAuditJsonl(a.accountId, {})) text += chunk;
  const lines = text.trimEnd().split('\n');
  assert.equal(lines.length, page.total);
  assert.equal(JSON.parse(lines[0]).action, 'retention.changed');
});

test('one account never sees another\'s events; the filters narrow the page', async () => {
  const a = await f.account();
  const b = await f.account();
  await f.services.keys.issueApiKey(b.accountId, 'b-key', OPERATOR);
  const mine = await f.services.audit.listAuditPage(a.accountId, { limit: 50, page: 1 });
  assert.ok(mine.rows.every((r) => r.target?.label !== 'b-key'));
  const created = await f.services.audit.listAuditPage(b.accountId, { limit: 50, page: 1, action: 'key.created' });
  assert.ok(created.rows.length >= 1);
  assert.ok(created.rows.every((r) => r.action === 'key.created'));
  assert.equal(isAuditAction('key.created'), true);
  assert.equal(isAuditAction('key.eaten'), false);
  assert.equal(webhookLabel('https://hooks.example.test/T000/B000/secret-path'), 'https://hooks.example.test');
});
