// The raw-log endpoints on the S3 log store, with a log of several segment objects (20 MiB in
// 8 MiB segments): GET /log returns the uploaded bytes; redaction writes a new log and removes
// every segment of the old one; DELETE removes every segment. Real HTTP app (inject), real S3
// server (s3rver), database of VOUCH_TEST_DB.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp } from '../helpers/app.ts';
import type { TestAccount, TestApp } from '../helpers/app.ts';
import { logKeyOf, startTestS3 } from '../helpers/s3.ts';
import type { TestS3 } from '../helpers/s3.ts';
import { FAKE_GITHUB_TOKEN, claudeLog } from '../helpers/claude-log.ts';
import { PART_BYTES } from '../../src/adapters/logstore/s3-store.ts';

const PREFIX = 'api-logs/';
let s3: TestS3;
let t: TestApp;
let alice: TestAccount;

before(async () => {
  s3 = await startTestS3();
  t = await buildTestApp(s3.env(PREFIX));
  alice = await t.account();
});
after(async () => {
  await t.close();
  await s3.stop();
});

const auth = { get authorization() { return `Bearer ${alice.apiKey}`; } };

/** A Claude Code log of about `mb` MiB: many ordinary steps, one leaked token in the middle. */
function bigLeakyLog(mb: number): string {
  const filler = 'x'.repeat(1000);
  const steps = [];
  const count = Math.ceil((mb * 1024 * 1024) / 2600);
  for (let i = 0; i < count; i++) {
    steps.push(i === Math.floor(count / 2) ? { bash: `GITHUB_TOKEN=${FAKE_GITHUB_TOKEN} git push`, output: 'pushed' } : { bash: `echo step ${i}`, output: filler });
  }
  return claudeLog([{ prompt: 'Run the steps' }, ...steps, { say: 'Done.' }]);
}

async function objectsOf(sessionId: string): Promise<string[]> {
  const row = await t.db.kysely.selectFrom('log_objects').select('object_key').where('session_id', '=', sessionId).executeTakeFirstOrThrow();
  return (await s3.keys(PREFIX)).filter((k) => logKeyOf(k) === row.object_key);
}

test('S3, a log of three segments: GET /log, redaction and DELETE work on every segment', async () => {
  const content = bigLeakyLog(20);
  assert.ok(content.length > 2 * PART_BYTES && content.length < 3 * PART_BYTES, `${content.length} bytes: three segments`);
  const res = await t.upload(alice.apiKey, { content });
  assert.equal(res.statusCode, 202, res.body);
  const id = res.json().id as string;
  await t.analyzeAll();
  const uploaded = await objectsOf(id);
  assert.equal(uploaded.length, 3);

  // GET /log masks secrets: every line is the uploaded one, in order, but the token's.
  const log = await t.app.inject({ url: `/v1/sessions/${id}/log`, headers: auth });
  assert.equal(log.statusCode, 200);
  const sent = content.split('\n');
  const got = log.body.split('\n');
  assert.equal(got.length, sent.length);
  const differing = sent.flatMap((line, i) => (line === got[i] ? [] : [i]));
  assert.ok(differing.length > 0 && differing.every((i) => sent[i].includes(FAKE_GITHUB_TOKEN) && !got[i].includes(FAKE_GITHUB_TOKEN)), `lines that differ: ${differing.join(', ')}`);

  const redacted = await t.app.inject({ method: 'POST', url: `/v1/sessions/${id}/log/redact`, headers: auth });
  assert.equal(redacted.statusCode, 200, redacted.body);
  assert.ok(redacted.json().redacted >= 1);
  const rewritten = await objectsOf(id);
  assert.equal(rewritten.length, 3);
  const all = await s3.keys(PREFIX);
  assert.deepEqual(uploaded.filter((k) => all.includes(k)), [], 'no segment of the old log is left');
  const after = await t.app.inject({ url: `/v1/sessions/${id}/log`, headers: auth });
  assert.equal(after.statusCode, 200);
  assert.ok(!after.body.includes(FAKE_GITHUB_TOKEN));
  assert.equal(after.body.split('\n').length, content.split('\n').length);

  const deleted = await t.app.inject({ method: 'DELETE', url: `/v1/sessions/${id}`, headers: auth });
  assert.equal(deleted.statusCode, 204, deleted.body);
  assert.deepEqual(await s3.keys(PREFIX), [], 'every segment is gone');
  assert.equal((await t.db.kysely.selectFrom('log_objects').select('id').execute()).length, 0);
});
