import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { recordingLog, serviceFixture } from '../../test/helpers/services.ts';
import type { ServiceFixture } from '../../test/helpers/services.ts';
import { hasAcceptedExtension, idempotencyKeyProblem, isAgentId, isSessionId, repoProblem, reportUrl } from './sessions.ts';

// What the sessions service logs (its dropped errors at debug level) is kept for the checks below.
const log = recordingLog();
let f: ServiceFixture;
before(async () => {
  const opened = await serviceFixture({ log });
  f = opened;
});
after(async () => {
  await f.close();
});

test('an upload becomes a session being analysed, with its log stored and an analyze job queued', async () => {
  const a = await f.account();
  const r = await f.upload(a.accountId, '{"type":"user"}\n', { repo: 'acme/api' });
  assert.equal(r.kind, 'created');
  if (r.kind !== 'created') return;
  assert.equal(r.session.status, 'analyzing');
  assert.equal(r.session.repo, 'acme/api');
  assert.ok(await f.services.sessions.openStoredLog(r.session.id));
  assert.equal((await f.services.sessions.findSession(a.accountId, r.session.id))?.id, r.session.id);
  const jobs = await f.db.kysely.selectFrom('jobs').select(['kind', 'payload']).where('kind', '=', 'analyze').execute();
  assert.ok(jobs.some((j) => JSON.parse(j.payload).sessionId === r.session.id));
});

test('an idempotency key replays the same upload and refuses a different one', async () => {
  const a = await f.account();
  const first = await f.upload(a.accountId, 'line one\n', { idempotencyKey: 'retry-1' });
  const again = await f.upload(a.accountId, 'line one\n', { idempotencyKey: 'retry-1' });
  const other = await f.upload(a.accountId, 'something else\n', { idempotencyKey: 'retry-1' });
  assert.equal(first.kind, 'created');
  assert.equal(again.kind, 'replayed');
  if (first.kind === 'created' && again.kind === 'replayed') assert.equal(again.session.id, first.session.id);
  assert.equal(other.kind, 'key_reused');
});

test('a session is deleted only in its own account; a log the store cannot delete is logged at debug level', async () => {
  const a = await f.account();
  const b = await f.account();
  const r = await f.upload(a.accountId);
  if (r.kind !== 'created') return assert.fail('created');
  assert.equal(await f.services.sessions.removeSession(b.accountId, r.session.id), false);
  const remove = f.logStore.delete;
  f.logStore.delete = async () => {
    throw new Error('disk went away');
  };
  try {
    assert.equal(await f.services.sessions.removeSession(a.accountId, r.session.id), true);
  } finally {
    f.logStore.delete = remove;
  }
  assert.equal(await f.services.sessions.findSession(a.accountId, r.session.id), null);
  const line = log.lines.find((l) => l.level === 'debug' && /stored log of a deleted session/.test(l.msg ?? ''));
  assert.ok(line, 'the dropped error has its debug line');
  assert.match(String((line.obj as { err?: string }).err), /disk went away/);
});

test('the upload checks', () => {
  assert.equal(hasAcceptedExtension('x.jsonl'), true);
  assert.equal(hasAcceptedExtension('x.exe'), false);
  assert.equal(isAgentId('claude-code'), true);
  assert.equal(isAgentId('clippy'), false);
  assert.equal(isSessionId('ses_nope'), false);
  assert.equal(repoProblem('acme/api'), null);
  assert.notEqual(idempotencyKeyProblem(''), null);
  assert.equal(reportUrl('http://vouch.test', 'ses_1'), 'http://vouch.test/r/ses_1');
});
