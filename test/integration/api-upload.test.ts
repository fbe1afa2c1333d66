// POST /v1/sessions against hostile and broken input: every refusal is a problem body, nothing
// is stored, no temp file is left, and the service stays up.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { buildTestApp, multipart, uploadForm } from '../helpers/app.ts';
import type { TestAccount, TestApp } from '../helpers/app.ts';
import { countJobs } from '../../src/adapters/jobs/index.ts';
import { waitFor } from '../helpers/wait.ts';

const LIMIT = 4096;
let t: TestApp;
let alice: TestAccount;

before(async () => {
  t = await buildTestApp({ VOUCH_MAX_UPLOAD_BYTES: String(LIMIT) });
  alice = await t.account();
});
after(() => t.close());

const auth = () => ({ authorization: `Bearer ${alice.apiKey}` });

async function post(form: FormData, headers: Record<string, string> = {}) {
  const { payload, headers: h } = await multipart(form);
  return t.app.inject({ method: 'POST', url: '/v1/sessions', payload, headers: { ...auth(), ...h, ...headers } });
}

function problem(res: { statusCode: number; headers: Record<string, unknown>; json(): unknown }, status: number, code: string) {
  assert.equal(res.statusCode, status, JSON.stringify(res.json()));
  assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
  const body = res.json() as { code: string; errors?: { pointer: string; detail: string }[] };
  assert.equal(body.code, code);
  return body;
}

/** Removes accepted sessions (rows, logs, jobs) so the next "nothing stored" check starts clean. */
async function reset() {
  for (const { id } of await t.db.kysely.selectFrom('sessions').select('id').execute()) await t.logStore.delete(id);
  await t.db.kysely.deleteFrom('sessions').execute();
  await t.db.kysely.deleteFrom('jobs').execute();
}

async function assertNothingStored() {
  const s = await t.stored();
  assert.deepEqual(s, { sessions: 0, tempFiles: 0, logs: 0 }, 'no session, no stored log, no temp file');
  assert.equal(await countJobs(t.db, { kind: 'analyze' }), 0, 'no analyze job');
}

describe('refused uploads store nothing', () => {
  test('not multipart: 415 without reading the body', async () => {
    for (const [ct, payload] of [['application/json', '{"file":"x"}'], ['text/plain', 'hello'], ['application/x-www-form-urlencoded', 'file=x']]) {
      const res = await t.app.inject({ method: 'POST', url: '/v1/sessions', payload, headers: { ...auth(), 'content-type': ct } });
      problem(res, 415, 'unsupported_media_type');
    }
    const none = await t.app.inject({ method: 'POST', url: '/v1/sessions', headers: auth() });
    problem(none, 415, 'unsupported_media_type');
    await assertNothingStored();
  });

  test('multipart without a boundary or with a broken body: 400', async () => {
    const nb = await t.app.inject({ method: 'POST', url: '/v1/sessions', payload: 'x', headers: { ...auth(), 'content-type': 'multipart/form-data; foo=bar' } });
    problem(nb, 400, 'malformed_body');
    const broken = await t.app.inject({
      method: 'POST', url: '/v1/sessions', headers: { ...auth(), 'content-type': 'multipart/form-data; boundary=XX' },
      payload: '--XX\r\nContent-Disposition: form-data; name="file"; filename="a.jsonl"\r\n\r\n{"a":1}\n', // never terminated
    });
    assert.ok([400, 422].includes(broken.statusCode), `status ${broken.statusCode}`);
    await assertNothingStored();
  });

  test('unaccepted extensions: 415 unsupported_file_type (extension check is case-insensitive)', async () => {
    for (const name of ['session.json', 'x.exe', 'session', '.jsonl', 'a.jsonl.exe', 'a.jsonl ']) {
      problem(await post(uploadForm({ filename: name })), 415, 'unsupported_file_type');
    }
    await assertNothingStored();
    for (const name of ['UPPER.JSONL', 'x.Log', 'y.TXT']) {
      assert.equal((await post(uploadForm({ filename: name }))).statusCode, 202, name);
    }
    await reset();
  });

  test('agent must be exactly one of the three ids: 422 invalid_agent', async () => {
    for (const agent of ['copilot-x', 'Claude-Code', 'claude-code ', '', 'codex\u0000']) {
      const body = problem(await post(uploadForm({ fields: { agent } })), 422, 'invalid_agent');
      assert.equal(body.errors?.[0].pointer, '/body/agent');
    }
    await assertNothingStored();
  });

  test('repo must be 1-200 printable characters', async () => {
    for (const repo of ['', 'r'.repeat(201), 'a\nb', 'tab\there', ' lead', 'del\u007f', 'nul\u0000']) {
      const body = problem(await post(uploadForm({ fields: { repo } })), 422, 'validation_failed');
      assert.equal(body.errors?.[0].pointer, '/body/repo', JSON.stringify(repo));
    }
    const huge = problem(await post(uploadForm({ fields: { repo: 'r'.repeat(100_000) } })), 422, 'validation_failed');
    assert.match(huge.errors?.[0].detail ?? '', /longer than/);
    await assertNothingStored();
    const ok = await post(uploadForm({ fields: { repo: 'é'.repeat(200) } }));
    assert.equal(ok.statusCode, 202, '200 characters, more bytes: accepted');
    await reset();
  });

  test('invalid UTF-8 in fields is refused, not stored mangled', async () => {
    const boundary = 'B0UNDARY';
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="repo"\r\n\r\n`),
      Buffer.from([0x61, 0xff, 0xfe, 0x62]),
      Buffer.from(`\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.jsonl"\r\n\r\n{"a":1}\n\r\n--${boundary}--\r\n`),
    ]);
    const res = await t.app.inject({ method: 'POST', url: '/v1/sessions', payload, headers: { ...auth(), 'content-type': `multipart/form-data; boundary=${boundary}` } });
    problem(res, 422, 'validation_failed');
    await assertNothingStored();
  });

  test('missing, duplicate, misnamed and empty files: 422', async () => {
    problem(await post(uploadForm({ content: null, fields: { repo: 'acme/x' } })), 422, 'missing_file');
    const two = uploadForm();
    two.append('file', new Blob(['{}\n']), 'b.jsonl');
    problem(await post(two), 422, 'duplicate_file');
    const many = uploadForm();
    for (let i = 0; i < 5; i++) many.append('file', new Blob(['{}\n']), `m${i}.jsonl`);
    assert.ok([413, 422].includes((await post(many)).statusCode));
    const misnamed = new FormData();
    misnamed.append('log', new Blob(['{}\n']), 'a.jsonl');
    problem(await post(misnamed), 422, 'validation_failed');
    const textField = new FormData();
    textField.append('file', '{"not":"a file part"}');
    problem(await post(textField), 422, 'missing_file');
    problem(await post(uploadForm({ content: '' })), 422, 'empty_file');
    const extra = uploadForm({ fields: { colour: 'blue' } });
    problem(await post(extra), 422, 'validation_failed');
    const crowd = new FormData();
    for (let i = 0; i < 50; i++) crowd.append('repo', `r${i}`);
    crowd.append('file', new Blob(['{}\n']), 'a.jsonl');
    problem(await post(crowd), 422, 'validation_failed');
    const dup = uploadForm({ fields: { repo: 'a' } });
    dup.append('repo', 'b');
    problem(await post(dup), 422, 'validation_failed');
    await assertNothingStored();
  });

  test('one byte over the limit: 413 payload_too_large, nothing stored, no temp file', async () => {
    const body = problem(await post(uploadForm({ content: Buffer.alloc(LIMIT + 1, 0x61) })), 413, 'payload_too_large');
    assert.equal((body as unknown as { max_bytes: number }).max_bytes, LIMIT);
    await assertNothingStored();
    const exact = await post(uploadForm({ content: Buffer.alloc(LIMIT, 0x61) }));
    assert.equal(exact.statusCode, 202, 'exactly at the limit is accepted');
    assert.equal(exact.json().size_bytes, LIMIT);
    await reset();
  });

  test('the service is still up after all of that', async () => {
    assert.equal((await t.app.inject({ url: '/healthz' })).statusCode, 200);
  });
});

describe('accepted uploads', () => {
  test('202 + Location + session body; session row, stored log and analyze job exist together', async () => {
    const content = '{"type":"user","message":"hi"}\n';
    const res = await t.upload(alice.apiKey, { content, filename: '../../etc/evil.jsonl', fields: { agent: 'codex', repo: 'acme/api' } });
    assert.equal(res.statusCode, 202);
    const body = res.json();
    assert.match(body.id, /^ses_[0-9A-Z]{26}$/);
    assert.equal(res.headers.location, `/v1/sessions/${body.id}`);
    assert.equal(body.status, 'analyzing');
    assert.equal(body.report_url, `http://vouch.test/r/${body.id}`);
    assert.equal(body.filename, 'evil.jsonl', 'directories are stripped from the file name');
    assert.equal(body.size_bytes, Buffer.byteLength(content));
    assert.equal(body.agent, 'codex');
    assert.equal(body.repo, 'acme/api');
    assert.match(String(res.headers['request-id']), /^req_/);
    const chunks: Buffer[] = [];
    for await (const c of await t.logStore.open(body.id)) chunks.push(Buffer.from(c));
    assert.equal(Buffer.concat(chunks).toString(), content, 'the stored log is byte-identical');
    const job = await t.db.kysely.selectFrom('jobs').selectAll().where('kind', '=', 'analyze').executeTakeFirstOrThrow();
    assert.deepEqual(JSON.parse(job.payload), { sessionId: body.id, accountId: alice.accountId });
    assert.equal(job.max_attempts, 3);
  });

  test('Idempotency-Key: a retry with the same content returns the first response', async () => {
    const headers = { 'idempotency-key': 'ci-run-42' };
    const first = await t.upload(alice.apiKey, { content: 'same\n', headers });
    const again = await t.upload(alice.apiKey, { content: 'same\n', headers });
    assert.equal(first.statusCode, 202);
    assert.equal(again.statusCode, 202);
    assert.deepEqual(again.json(), first.json());
    assert.equal(again.headers['idempotent-replayed'], 'true');
    const other = await t.upload(alice.apiKey, { content: 'different\n', headers });
    problem(other, 422, 'idempotency_key_reused');
    const rows = await t.db.kysely.selectFrom('sessions').select('id').where('idempotency_key', '=', 'ci-run-42').execute();
    assert.equal(rows.length, 1);
    const bob = await t.account();
    const bobs = await t.upload(bob.apiKey, { content: 'same\n', headers });
    assert.notEqual(bobs.json().id, first.json().id, 'keys are per account');
    problem(await t.upload(alice.apiKey, { headers: { 'idempotency-key': 'x'.repeat(300) } }), 422, 'validation_failed');
  });

  test('concurrent uploads with the same Idempotency-Key create exactly one session', async () => {
    const before = (await t.stored()).sessions;
    const headers = { 'idempotency-key': `race-${Date.now()}` };
    const results = await Promise.all(Array.from({ length: 8 }, () => t.upload(alice.apiKey, { content: 'race\n'.repeat(200), headers })));
    for (const r of results) assert.equal(r.statusCode, 202, r.body);
    assert.equal(new Set(results.map((r) => r.json().id)).size, 1, 'every response names the same session');
    const after = await t.stored();
    assert.equal(after.sessions, before + 1);
    assert.equal(after.tempFiles, 0, 'the losers removed their temp files');
    assert.equal(after.logs, after.sessions, 'one stored log per session, no orphans');
  });
});

describe('a client that disconnects mid-upload', () => {
  test('leaves no session, no stored log and no temp file', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const before = await t.stored();
    const { port } = new URL(address);
    const boundary = 'XBOUNDARYX';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="cut.jsonl"\r\n\r\n`;
    const socket = net.connect(Number(port), '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    socket.write(
      `POST /v1/sessions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${alice.apiKey}\r\n` +
        `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: 1000000\r\n\r\n${head}`,
    );
    socket.write('x'.repeat(2000));
    // Wait until the server is storing the upload (a temp file, or the PostgreSQL upload row),
    // then vanish; the test fails if storing never starts (it would prove nothing).
    await waitFor(async () => {
      const s = await t.stored();
      return s.tempFiles > before.tempFiles || s.logs > before.logs;
    }, 'the server to start storing the upload');
    socket.destroy();
    await waitFor(async () => {
      const s = await t.stored();
      return s.tempFiles === before.tempFiles && s.logs === before.logs;
    }, 'the aborted upload to be cleaned up');
    const s = await t.stored();
    assert.equal(s.sessions, before.sessions, 'no session');
    assert.equal(s.tempFiles, before.tempFiles, 'no temp file');
    assert.equal(s.logs, before.logs, 'no stored log');
    assert.equal((await t.app.inject({ url: '/healthz' })).statusCode, 200);
  });
});
