// POST /v1/sessions/{id}/log/redact: the stored log itself is rewritten with the detected
// secrets masked (GET /log and the raw store agree), atomically and idempotently; tenant-scoped.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp } from '../helpers/app.ts';
import type { TestAccount, TestApp } from '../helpers/app.ts';
import { FAKE_GITHUB_TOKEN, claudeLog } from '../helpers/claude-log.ts';

let t: TestApp;
let alice: TestAccount;
let bob: TestAccount;

before(async () => {
  t = await buildTestApp();
  alice = await t.account();
  bob = await t.account();
});
after(() => t.close());

const auth = (who: TestAccount) => ({ authorization: `Bearer ${who.apiKey}` });
const redact = (who: TestAccount, id: string) => t.app.inject({ method: 'POST', url: `/v1/sessions/${id}/log/redact`, headers: auth(who) });

const leaky = () =>
  claudeLog([
    { prompt: 'Push the branch' },
    { bash: `GITHUB_TOKEN=${FAKE_GITHUB_TOKEN} git push origin main`, output: `remote: using token ${FAKE_GITHUB_TOKEN}` },
    { say: 'Pushed.' },
  ]);

async function storedText(id: string): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of await t.logStore.open(id)) chunks.push(Buffer.from(c));
  return Buffer.concat(chunks).toString('utf8');
}

async function analysedSession(owner: TestAccount, content: string): Promise<string> {
  const id = (await t.upload(owner.apiKey, { content })).json().id;
  await t.analyzeAll();
  return id;
}

describe('POST /v1/sessions/{id}/log/redact', () => {
  test('masks every detected secret in the stored log; GET /log and the store agree; lines are kept', async () => {
    const id = await analysedSession(alice, leaky());
    const before = await storedText(id);
    assert.ok(before.includes(FAKE_GITHUB_TOKEN), 'stored as uploaded until redacted');
    const res = await redact(alice, id);
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), { redacted: 2 }, 'one secret per line, on two lines');
    const after = await storedText(id);
    assert.ok(!after.includes(FAKE_GITHUB_TOKEN));
    assert.match(after, /ghp_…/);
    assert.equal(after.split('\n').length, before.split('\n').length);
    for (const line of after.trim().split('\n')) JSON.parse(line); // still one JSON object a line
    const log = await t.app.inject({ url: `/v1/sessions/${id}/log`, headers: auth(alice) });
    assert.equal(log.statusCode, 200);
    assert.equal(log.body, after);
  });

  test('a second call finds nothing left: redacted 0 and the stored log unchanged', async () => {
    const id = await analysedSession(alice, leaky());
    assert.equal((await redact(alice, id)).json().redacted, 2);
    const once = await storedText(id);
    const again = await redact(alice, id);
    assert.equal(again.statusCode, 200);
    assert.deepEqual(again.json(), { redacted: 0 });
    assert.equal(await storedText(id), once);
  });

  test('a log without secrets is left as it is: redacted 0', async () => {
    const content = claudeLog([{ prompt: 'hello' }, { say: 'hi' }]);
    const id = await analysedSession(alice, content);
    assert.deepEqual((await redact(alice, id)).json(), { redacted: 0 });
    assert.equal(await storedText(id), content);
  });

  test('no log store leftovers: exactly one stored log per session afterwards', async () => {
    const id = await analysedSession(alice, leaky());
    const before = await t.stored();
    await redact(alice, id);
    const after = await t.stored();
    assert.equal(after.logs, before.logs);
    assert.equal(after.tempFiles, 0);
  });

  test("another account's session, an unknown id and a malformed id are 404 problems; the log is untouched", async () => {
    const id = await analysedSession(alice, leaky());
    for (const [who, target] of [[bob, id], [alice, 'ses_01ZZZZZZZZZZZZZZZZZZZZZZZZ'], [alice, 'nope']] as const) {
      const res = await redact(who, target);
      assert.equal(res.statusCode, 404);
      assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
      assert.equal(res.json().code, 'not_found');
    }
    assert.ok((await storedText(id)).includes(FAKE_GITHUB_TOKEN));
  });

  test('while the session is analysed: 409 analysis_running, nothing rewritten', async () => {
    const id = (await t.upload(alice.apiKey, { content: leaky() })).json().id;
    const res = await redact(alice, id);
    assert.equal(res.statusCode, 409);
    assert.equal(res.json().code, 'analysis_running');
    assert.ok((await storedText(id)).includes(FAKE_GITHUB_TOKEN));
    await t.analyzeAll();
  });

  test('without a key: 401', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/sessions/ses_01ZZZZZZZZZZZZZZZZZZZZZZZZ/log/redact' });
    assert.equal(res.statusCode, 401);
  });

  test('the endpoint and its answers are in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ url: '/v1/openapi.json' })).json();
    const op = doc.paths['/v1/sessions/{id}/log/redact']?.post;
    assert.ok(op, 'documented');
    for (const status of ['200', '401', '404', '409', '429']) assert.ok(op.responses[status], status);
  });
});
