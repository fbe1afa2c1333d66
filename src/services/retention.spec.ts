import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { serviceFixture } from '../../test/helpers/services.ts';
import type { ServiceFixture } from '../../test/helpers/services.ts';
import { OPERATOR } from './audit.ts';
import { describeRetention, expireLogs, parseRetention, retentionProblem } from './retention.ts';

let f: ServiceFixture;
before(async () => (f = await serviceFixture()));
after(() => f.close());

test('the retention period is kept for ever by default, set in days, and refused out of range', async () => {
  const a = await f.account();
  assert.equal(await f.services.retention.getLogRetention(a.accountId), null);
  assert.equal(await f.services.retention.setLogRetention(a.accountId, 30, OPERATOR), true);
  assert.equal(await f.services.retention.getLogRetention(a.accountId), 30);
  assert.equal(await f.services.retention.setLogRetention('acc_00000000000000000000000000', 30, OPERATOR), false, 'no such account');
  await assert.rejects(f.services.retention.setLogRetention(a.accountId, 0, OPERATOR), RangeError);
  assert.equal(parseRetention('forever'), null);
  assert.equal(parseRetention(' 90 '), 90);
  assert.ok(Number.isNaN(parseRetention('ninety') as number));
  assert.notEqual(retentionProblem(Number.NaN), null);
  assert.match(describeRetention(null), /forever|ever/i);
});

test('logs older than the period are deleted and the session says so; younger ones and other accounts keep theirs', async () => {
  const a = await f.account();
  const b = await f.account();
  const old = await f.upload(a.accountId);
  const kept = await f.upload(b.accountId);
  assert.equal(old.kind, 'created');
  assert.equal(kept.kind, 'created');
  await f.analyzeAll(); // a log under analysis is never expired
  await f.services.retention.setLogRetention(a.accountId, 1, OPERATOR);
  const twoDaysOn = Date.now() + 2 * 86_400_000;
  assert.equal(await expireLogs(f.db, f.logStore, twoDaysOn), 1);
  if (old.kind !== 'created' || kept.kind !== 'created') return;
  assert.equal(await f.services.sessions.openStoredLog(old.session.id), null, 'the log is gone');
  assert.ok((await f.services.sessions.findSession(a.accountId, old.session.id))?.log_expired_at, 'the session records when');
  assert.ok(await f.services.sessions.openStoredLog(kept.session.id), 'another account (no period) keeps its log');
  assert.equal(await expireLogs(f.db, f.logStore, twoDaysOn), 0, 'nothing twice');
});
