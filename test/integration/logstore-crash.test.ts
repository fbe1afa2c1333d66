// Consistency of the S3 log store without a distributed transaction: a process is SIGKILLed at
// each step of storing, replacing and deleting a log. After every crash: no object in the bucket
// without a bookkeeping row, and no session whose log is missing or incomplete. After the sweep:
// the bucket holds exactly the committed logs (the interrupted upload left nothing; a committed
// one is intact; a replaced log reads the new bytes and its old object is gone; a deleted log is
// gone). Real S3 server (s3rver), real database of VOUCH_TEST_DB.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { createTestDb } from '../helpers/db.ts';
import type { TestDb } from '../helpers/db.ts';
import { logKeyOf, startTestS3, S3_TEST_CREDENTIALS } from '../helpers/s3.ts';
import type { TestS3 } from '../helpers/s3.ts';
import { createLogStore, LogNotFoundError } from '../../src/adapters/logstore/index.ts';
import { segmentKey } from '../../src/adapters/logstore/s3-store.ts';
import type { LogStore } from '../../src/adapters/logstore/index.ts';
import { createAccountWithUser } from '../../src/adapters/db/repositories/accounts.ts';
import { insertSession } from '../../src/adapters/db/repositories/sessions.ts';
import { newId, nowIso } from '../../src/kernel/ids.ts';

const CHILD = fileURLToPath(new URL('./logstore-crash-child.ts', import.meta.url));
const PREFIX = 'crash/';
let s3: TestS3;
let t: TestDb;
let store: LogStore;
let accountId: string;
const children: ChildProcess[] = [];

before(async () => {
  s3 = await startTestS3();
  t = await createTestDb();
  store = await createLogStore(t.db, t.dataDir, s3.storeConfig(PREFIX), { credentials: S3_TEST_CREDENTIALS });
  accountId = (await createAccountWithUser(t.db.kysely, { name: 'crash', email: 'crash@example.test', passwordHash: 'h' })).account.id;
});
after(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await t.cleanup();
  await s3.stop();
});

/** Runs the child until it reports `step`, then SIGKILLs it; returns the session id it named. */
async function crashAt(mode: string, step: string, sessionId?: string): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
    env: {
      ...process.env, ...s3.env(PREFIX), VOUCH_DATA_DIR: t.dataDir, ...(t.databaseUrl ? { DATABASE_URL: t.databaseUrl } : {}),
      MODE: mode, STOP_AT: step, ACCOUNT_ID: accountId, ...(sessionId ? { SESSION_ID: sessionId } : {}),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  let out = '';
  const reached = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /^at (\S+) (\S+)$/m.exec(out);
      if (m) resolve(`${m[1]} ${m[2]}`);
    });
    child.once('exit', (code) => reject(new Error(`child exited (${code}) before reaching ${step}: ${out}`)));
  });
  child.kill('SIGKILL');
  if (child.exitCode === null && child.signalCode === null) await once(child, 'exit');
  const [at, id] = reached.split(' ');
  assert.equal(at, step, `the child stopped at ${step}`);
  return id;
}

/** The invariants that must hold at every instant, crash or not. */
async function assertConsistent(): Promise<void> {
  const rows = await t.db.kysely.selectFrom('log_objects').selectAll().execute();
  const known = new Set(rows.map((r) => r.object_key));
  const objects = await s3.keys(PREFIX);
  assert.deepEqual(objects.filter((k) => !known.has(logKeyOf(k))), [], 'no object without a row');
  const sessions = await t.db.kysely.selectFrom('sessions').select(['id', 'size_bytes', 'sha256']).execute();
  for (const s of sessions) {
    const row = rows.find((r) => r.session_id === s.id && r.state === 'committed');
    assert.ok(row, `session ${s.id} has a committed log`);
    const segments = Array.from({ length: row.segments ?? 1 }, (_, i) => segmentKey(row.object_key, i + 1));
    assert.deepEqual(objects.filter((k) => logKeyOf(k) === row.object_key), segments, `every segment of the log of session ${s.id} exists, and no other`);
    let n = 0;
    for await (const c of await store.open(s.id)) n += c.byteLength; // size and sha256 are verified by the read
    assert.ok(n > 0);
  }
}

/** After the sweep: exactly the objects of the committed rows, nothing else. */
async function assertSwept(): Promise<void> {
  await store.sweepOrphans(0);
  const rows = await t.db.kysely.selectFrom('log_objects').selectAll().execute();
  assert.deepEqual(rows.filter((r) => r.state !== 'committed').map((r) => r.state), [], 'no pending or removing row left');
  assert.deepEqual(await s3.logKeys(PREFIX), rows.map((r) => r.object_key).sort(), 'the bucket holds exactly the committed logs');
  await assertConsistent();
}

async function sessionExists(id: string): Promise<boolean> {
  return (await t.db.kysely.selectFrom('sessions').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}

for (const step of ['begun', 'writing', 'finished', 'in-transaction']) {
  test(`killed at upload step "${step}": no session, and the sweep leaves no object`, async () => {
    const id = await crashAt('upload', step);
    await assertConsistent();
    assert.equal(await sessionExists(id), false);
    await assertSwept();
    await assert.rejects(store.open(id), LogNotFoundError);
  });
}

test('killed right after the session transaction committed: the session has its whole log', async () => {
  const id = await crashAt('upload', 'committed');
  assert.equal(await sessionExists(id), true);
  await assertConsistent();
  await assertSwept();
  let n = 0;
  for await (const c of await store.open(id)) n += c.byteLength;
  assert.equal(n, 11 * 1024 * 1024);
  const row = await t.db.kysely.selectFrom('log_objects').select('segments').where('session_id', '=', id).executeTakeFirstOrThrow();
  assert.equal(row.segments, 3, '11 MiB in 5 MiB segments');
});

async function committedSession(content: string): Promise<string> {
  const sink = await store.beginUpload();
  await sink.write(Buffer.from(content));
  const id = newId('ses');
  await t.db.kysely.transaction().execute(async (trx) => {
    await insertSession(trx, {
      id, account_id: accountId, status: 'complete', agent_hint: null, agent: null, repo: null, branch: null,
      filename: 'x.jsonl', size_bytes: sink.size, sha256: sink.sha256Hex(), created_at: nowIso(), completed_at: null,
      trust_score: null, outcome: null, findings_critical: null, findings_warning: null, findings_info: null,
      report_id: null, failure_reason: null, idempotency_key: null,
    });
    await sink.commit(trx, id);
  });
  return id;
}

async function readText(id: string): Promise<string> {
  const parts: Buffer[] = [];
  for await (const c of await store.open(id)) parts.push(Buffer.from(c));
  return Buffer.concat(parts).toString();
}

test('killed between the redaction commit and the removal of the old object: the new log is served, the sweep removes the old object', async () => {
  const id = await committedSession('secret\n');
  await crashAt('replace', 'replace-committed', id);
  await assertConsistent();
  assert.equal(await readText(id), 'redacted\n');
  assert.equal((await t.db.kysely.selectFrom('log_objects').select('state').where('state', '=', 'removing').execute()).length, 1);
  await assertSwept();
  assert.equal(await readText(id), 'redacted\n');
});

test('killed between marking a log deleted and deleting its object: the log is gone at once, the sweep removes the object', async () => {
  const id = await committedSession('to be deleted\n');
  await crashAt('delete', 'delete-marked', id);
  await assert.rejects(store.open(id), LogNotFoundError);
  // (The session row stays in this test: the store's delete alone was interrupted.)
  await t.db.kysely.deleteFrom('sessions').where('id', '=', id).execute();
  await assertConsistent();
  await assertSwept();
});
