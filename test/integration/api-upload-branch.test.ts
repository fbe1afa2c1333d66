// The optional `branch` field of an upload (sent by `vouch hooks` and the GitHub Action from git
// HEAD): stored on the session at once, kept over the branch the log records, checked like repo.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp } from '../helpers/app.ts';
import type { TestAccount, TestApp } from '../helpers/app.ts';

let t: TestApp;
let alice: TestAccount;
before(async () => {
  t = await buildTestApp();
  alice = await t.account();
});
after(() => t.close());

test('an uploaded branch is on the session at once and stays after analysis (the stub log says main)', async () => {
  const res = await t.upload(alice.apiKey, { fields: { repo: 'acme/api', branch: 'feature/hooks' } });
  assert.equal(res.statusCode, 202, res.body);
  const id = (res.json() as { id: string }).id;
  const read = async () => (await t.app.inject({ method: 'GET', url: `/v1/sessions/${id}`, headers: { authorization: `Bearer ${alice.apiKey}` } })).json() as { branch: string | null; status: string };
  assert.equal((await read()).branch, 'feature/hooks');
  await t.analyzeAll();
  const done = await read();
  assert.equal(done.status, 'complete');
  assert.equal(done.branch, 'feature/hooks');
});

test('without a branch field the branch the log records is used', async () => {
  const id = ((await t.upload(alice.apiKey)).json() as { id: string }).id;
  await t.analyzeAll();
  const s = (await t.app.inject({ method: 'GET', url: `/v1/sessions/${id}`, headers: { authorization: `Bearer ${alice.apiKey}` } })).json() as { branch: string | null };
  assert.equal(s.branch, 'main');
});

test('a bad branch is a 422 naming the field, and nothing is stored', async () => {
  const before = await t.stored();
  const res = await t.upload(alice.apiKey, { fields: { branch: ' spaced ' } });
  assert.equal(res.statusCode, 422);
  const body = res.json() as { errors: Array<{ pointer: string }> };
  assert.equal(body.errors[0].pointer, '/body/branch');
  assert.deepEqual(await t.stored(), before);
});
