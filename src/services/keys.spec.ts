import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { recordingLog, serviceFixture } from '../../test/helpers/services.ts';
import type { ServiceFixture } from '../../test/helpers/services.ts';
import { hashApiKey, keyNameProblem } from './keys.ts';

const log = recordingLog();
let f: ServiceFixture;
before(async () => (f = await serviceFixture({ log })));
after(() => f.close());

test('an issued key authenticates until it is revoked; the list shows it masked', async () => {
  const a = await f.account();
  const issued = await f.services.keys.issueApiKey(a.accountId, 'ci');
  const owner = await f.services.keys.authenticateKeyHash(hashApiKey(issued.key), '203.0.113.9');
  assert.equal(owner?.accountId, a.accountId);
  const listed = await f.services.keys.listKeys(a.accountId);
  const view = listed.find((k) => k.name === 'ci');
  assert.ok(view, 'the new key is listed');
  assert.ok(!JSON.stringify(listed).includes(issued.key), 'never the key itself');
  assert.equal(await f.services.keys.revokeApiKeyValue(issued.key), true);
  assert.equal(await f.services.keys.revokeApiKeyValue(issued.key), false, 'already revoked');
  assert.equal(await f.services.keys.authenticateKeyHash(hashApiKey(issued.key)), null);
});

test('a key of another account is not found there; names are checked', async () => {
  const a = await f.account();
  const b = await f.account();
  const k = await f.services.keys.issueApiKey(a.accountId, 'mine');
  assert.equal(await f.services.keys.findKey(b.accountId, k.id), undefined);
  assert.equal(await f.services.keys.revokeKeyById(b.accountId, k.id), false);
  assert.ok(await f.services.keys.findKey(a.accountId, k.id));
  assert.equal(keyNameProblem('ok name'), null);
  assert.notEqual(keyNameProblem(''), null);
});

test('a key carries the scopes it was given (the operator\'s: every scope); the owner of a presented key includes them', async () => {
  const a = await f.account();
  const operator = await f.services.keys.issueApiKey(a.accountId, 'operator');
  assert.deepEqual(operator.scopes, ['sessions:read', 'sessions:write', 'sessions:delete', 'logs:redact', 'audit:read']);
  const reader = await f.services.keys.issueApiKey(a.accountId, 'reader', undefined, ['sessions:read', 'sessions:read']);
  assert.deepEqual(reader.scopes, ['sessions:read']);
  assert.deepEqual((await f.services.keys.authenticateKeyHash(hashApiKey(reader.key)))?.scopes, ['sessions:read']);
  assert.deepEqual((await f.services.keys.findKey(a.accountId, reader.id))?.scopes, ['sessions:read']);
});

test('a failure to record a key\'s use is logged at debug level and does not refuse the key', async () => {
  const a = await f.account();
  const k = await f.services.keys.issueApiKey(a.accountId, 'touch');
  await f.db.kysely.schema.dropTable('audit_events').execute(); // the first use's audit event cannot be written now
  const before = log.lines.length;
  await f.services.keys.noteKeyUse(k.id, '203.0.113.9');
  const line = log.lines.slice(before).find((l) => l.level === 'debug');
  assert.ok(line, 'a debug line for the dropped error');
  assert.match(line.msg ?? '', /could not record the use of an API key/);
  assert.equal((line.obj as { key_id?: string }).key_id, k.id);
});
