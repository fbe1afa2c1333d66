// The log store contract on an S3 bucket (a real s3rver over HTTP), with the database of
// VOUCH_TEST_DB for the bookkeeping; then what only the object store does: every object has a
// row, a large log is a run of segment objects, checksums verified on read, redaction writes a
// new object, small parts bound memory.
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DeleteObjectCommand, HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { createTestDb } from '../helpers/db.ts';
import type { TestDb } from '../helpers/db.ts';
import { logKeyOf, startTestS3, S3_TEST_CREDENTIALS } from '../helpers/s3.ts';
import type { TestS3 } from '../helpers/s3.ts';
import { createLogStore, LogIntegrityError } from '../../src/adapters/logstore/index.ts';
import { segmentKey } from '../../src/adapters/logstore/s3-store.ts';
import type { S3LogStore } from '../../src/adapters/logstore/s3-store.ts';
import type { LogStore } from '../../src/adapters/logstore/index.ts';
import { createAccountWithUser } from '../../src/adapters/db/repositories/accounts.ts';
import { insertSession } from '../../src/adapters/db/repositories/sessions.ts';
import { newId, nowIso } from '../../src/kernel/ids.ts';
import { logStoreContract } from './logstore-contract.ts';

let s3: TestS3;
let t: TestDb;
let store: LogStore;
const PREFIX = 'contract/';

/** Objects in the bucket that no log_objects row knows of: must always be none. */
async function orphanObjects(): Promise<string[]> {
  const rows = new Set((await t.db.kysely.selectFrom('log_objects').select('object_key').execute()).map((r) => r.object_key));
  return (await s3.keys(PREFIX)).filter((k) => !rows.has(logKeyOf(k)));
}

logStoreContract(async () => {
  s3 = await startTestS3();
  t = await createTestDb();
  // 5 MiB segments, so the multi-MiB contract uploads are stored as several objects.
  store = await createLogStore(t.db, t.dataDir, s3.storeConfig(PREFIX), { credentials: S3_TEST_CREDENTIALS, partSize: 5 * 1024 * 1024 });
  return {
    t,
    store,
    async leftovers() {
      const rows = await t.db.kysely.selectFrom('log_objects').select('id').where('state', '!=', 'committed').execute();
      const committed = await t.db.kysely.selectFrom('log_objects').select('id').where('state', '=', 'committed').execute();
      return rows.length + (await orphanObjects()).length + Math.max(0, (await s3.logKeys(PREFIX)).length - committed.length);
    },
    async storedLogCount() {
      const logs = (await s3.logKeys(PREFIX)).length;
      const rows = (await t.db.kysely.selectFrom('log_objects').select('id').execute()).length;
      assert.equal(logs, rows, 'the objects of one log per row');
      return logs;
    },
    async ageEverythingExcept(fresh) {
      const freshId = (fresh as unknown as { uploadId: string }).uploadId;
      await t.db.kysely.updateTable('log_objects').set({ created_at: new Date(Date.now() - 2 * 3600_000).toISOString() }).where('id', '!=', freshId).execute();
    },
    async cleanup() {
      await t.cleanup();
      await s3.stop();
    },
  };
});

async function committedUpload(bytes: Buffer, into: LogStore = store, writeSize = bytes.length): Promise<string> {
  const accountId = (await createAccountWithUser(t.db.kysely, { name: 's3', email: `s3-${newId('usr')}@example.test`, passwordHash: 'h' })).account.id;
  const sink = await into.beginUpload();
  for (let at = 0; at < bytes.length; at += writeSize) await sink.write(bytes.subarray(at, at + writeSize));
  const id = newId('ses');
  await t.db.kysely.transaction().execute(async (trx) => {
    await insertSession(trx, {
      id, account_id: accountId, status: 'analyzing', agent_hint: null, agent: null, repo: null, branch: null,
      filename: 'x.jsonl', size_bytes: sink.size, sha256: sink.sha256Hex(), created_at: nowIso(), completed_at: null,
      trust_score: null, outcome: null, findings_critical: null, findings_warning: null, findings_info: null,
      report_id: null, failure_reason: null, idempotency_key: null,
    });
    await sink.commit(trx, id);
  });
  return id;
}

async function readAll(id: string): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of await store.open(id)) parts.push(Buffer.from(c));
  return Buffer.concat(parts);
}

test('S3: a committed log under one segment is one object under the prefix, recorded with its size and sha256; no object without a row', async () => {
  const id = await committedUpload(Buffer.from('{"a":1}\n'));
  const row = await t.db.kysely.selectFrom('log_objects').selectAll().where('session_id', '=', id).executeTakeFirstOrThrow();
  assert.equal(row.state, 'committed');
  assert.equal(row.segments, 1);
  assert.equal(Number(row.size_bytes), 8);
  assert.match(row.sha256 ?? '', /^[0-9a-f]{64}$/);
  assert.ok(row.object_key.startsWith(PREFIX), row.object_key);
  assert.ok((await s3.keys(PREFIX)).includes(row.object_key));
  assert.deepEqual(await orphanObjects(), []);
});

test('S3: an object changed behind our back fails the read with LogIntegrityError (size, then sha256)', async () => {
  const id = await committedUpload(Buffer.from('original content\n'));
  const { object_key: key } = await t.db.kysely.selectFrom('log_objects').select('object_key').where('session_id', '=', id).executeTakeFirstOrThrow();
  await s3.client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: key, Body: 'shorter\n' }));
  await assert.rejects(readAll(id), LogIntegrityError);
  await s3.client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: key, Body: 'ORIGINAL CONTENT\n' })); // same size
  await assert.rejects(readAll(id), (e: unknown) => e instanceof LogIntegrityError && /sha256/.test(e.message));
});

test('S3: replacing a log (redaction) writes a new object and removes the old one', async () => {
  const id = await committedUpload(Buffer.from('secret line\n'));
  const oldKey = (await t.db.kysely.selectFrom('log_objects').select('object_key').where('session_id', '=', id).executeTakeFirstOrThrow()).object_key;
  const sink = await store.beginUpload();
  await sink.write(Buffer.from('[redacted]\n'));
  await store.replace(id, sink);
  const newKey = (await t.db.kysely.selectFrom('log_objects').select('object_key').where('session_id', '=', id).executeTakeFirstOrThrow()).object_key;
  assert.notEqual(newKey, oldKey);
  const keys = await s3.keys(PREFIX);
  assert.ok(keys.includes(newKey) && !keys.includes(oldKey));
  assert.equal((await readAll(id)).toString(), '[redacted]\n');
});

// 5 MiB parts, one in flight: a pool of two part buffers, so 4 parts reuse each buffer while
// the other is being sent; writes of 3 MiB + 1 byte straddle every part boundary.
const PART = 5 * 1024 * 1024;
function smallPoolStore(): Promise<LogStore> {
  return createLogStore(t.db, t.dataDir, s3.storeConfig(PREFIX), { credentials: S3_TEST_CREDENTIALS, partSize: PART, queueSize: 1 });
}

test('S3: a log of several parts is that many segment objects, written through a reused pool of part buffers, and reads back byte for byte', async () => {
  const bytes = randomBytes(3 * PART + 12345);
  const id = await committedUpload(bytes, await smallPoolStore(), 3 * 1024 * 1024 + 1);
  const row = await t.db.kysely.selectFrom('log_objects').select(['object_key', 'segments']).where('session_id', '=', id).executeTakeFirstOrThrow();
  assert.equal(row.segments, 4);
  const segments = [1, 2, 3, 4].map((n) => segmentKey(row.object_key, n));
  assert.deepEqual((await s3.keys(PREFIX)).filter((k) => logKeyOf(k) === row.object_key), segments);
  const sizes = await Promise.all(segments.map(async (Key) => (await s3.client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key }))).ContentLength));
  assert.deepEqual(sizes, [PART, PART, PART, 12345]);
  assert.ok((await readAll(id)).equals(bytes));
  assert.deepEqual(await orphanObjects(), []);
});

test('S3: a log of exactly two parts is two segments, and an empty log is one empty object', async () => {
  const two = await committedUpload(randomBytes(2 * PART), await smallPoolStore(), PART);
  const twoRow = await t.db.kysely.selectFrom('log_objects').select('segments').where('session_id', '=', two).executeTakeFirstOrThrow();
  assert.equal(twoRow.segments, 2);
  assert.equal((await readAll(two)).length, 2 * PART);
  const empty = await committedUpload(Buffer.alloc(0));
  const emptyRow = await t.db.kysely.selectFrom('log_objects').select(['object_key', 'segments']).where('session_id', '=', empty).executeTakeFirstOrThrow();
  assert.equal(emptyRow.segments, 1);
  assert.ok((await s3.keys(PREFIX)).includes(emptyRow.object_key));
  assert.equal((await readAll(empty)).length, 0);
});

test('S3: a missing middle segment fails the read with LogIntegrityError naming it; a reader that stops early gets what it read', async () => {
  const bytes = randomBytes(3 * PART);
  const id = await committedUpload(bytes, await smallPoolStore(), PART);
  const { object_key: key } = await t.db.kysely.selectFrom('log_objects').select('object_key').where('session_id', '=', id).executeTakeFirstOrThrow();
  const first: Buffer[] = [];
  for await (const c of await store.open(id)) {
    first.push(Buffer.from(c));
    break; // the next segment, already asked for, is released
  }
  assert.ok(bytes.subarray(0, first[0].length).equals(first[0]));
  await s3.client.send(new DeleteObjectCommand({ Bucket: s3.bucket, Key: segmentKey(key, 2) }));
  await assert.rejects(readAll(id), (e: unknown) => e instanceof LogIntegrityError && e.message.includes('segment 2 of 3'));
});

test('S3: the next segment is asked for once the last MiB of the current one is being read, not before', async () => {
  const bytes = randomBytes(2 * PART);
  const id = await committedUpload(bytes, await smallPoolStore(), PART);
  const client = (store as S3LogStore).client;
  const gets: string[] = [];
  const send = client.send.bind(client);
  client.send = ((command: { constructor: { name: string }; input: { Key?: string } }, ...rest: unknown[]) => {
    if (command.constructor.name === 'GetObjectCommand') gets.push(command.input.Key ?? '');
    return (send as (...a: unknown[]) => unknown)(command, ...rest);
  }) as typeof client.send;
  try {
    let read = 0;
    /** For each chunk: the bytes read with it, and the GETs sent when it arrived. */
    const seenAt: { read: number; gets: number }[] = [];
    for await (const c of await store.open(id)) {
      read += c.byteLength;
      seenAt.push({ read, gets: gets.length });
    }
    assert.equal(read, 2 * PART);
    const { object_key: key } = await t.db.kysely.selectFrom('log_objects').select('object_key').where('session_id', '=', id).executeTakeFirstOrThrow();
    assert.deepEqual(gets, [segmentKey(key, 1), segmentKey(key, 2)]);
    // While more than 1 MiB of segment 1 was left to read, only segment 1 had been asked for;
    assert.ok(seenAt.filter((s) => s.read < PART - 1024 * 1024).every((s) => s.gets === 1));
    // segment 2 was asked for before segment 1 had been read to its end.
    assert.ok(seenAt.some((s) => s.read < PART && s.gets === 2));
  } finally {
    client.send = send;
  }
});

test('S3: a row written before segments (no count: one object at its key) still reads', async () => {
  const id = await committedUpload(Buffer.from('{"legacy":true}\n'));
  await t.db.kysely.updateTable('log_objects').set({ segments: null }).where('session_id', '=', id).execute();
  assert.equal((await readAll(id)).toString(), '{"legacy":true}\n');
});

test('S3: a removal the store refuses keeps the row `removing`, is logged at debug level, and the sweep finishes it', async () => {
  const lines: { obj: object; msg?: string }[] = [];
  const logged = await createLogStore(t.db, t.dataDir, s3.storeConfig(PREFIX), { credentials: S3_TEST_CREDENTIALS, log: { debug: (obj, msg) => void lines.push({ obj, msg }) } });
  const id = await committedUpload(Buffer.from('{"a":1}\n'), logged);
  const { id: uploadId } = await t.db.kysely.selectFrom('log_objects').select('id').where('session_id', '=', id).executeTakeFirstOrThrow();
  await s3.pause();
  try {
    await logged.delete(id);
  } finally {
    await s3.resume();
  }
  const row = await t.db.kysely.selectFrom('log_objects').select('state').where('id', '=', uploadId).executeTakeFirstOrThrow();
  assert.equal(row.state, 'removing');
  assert.equal(lines.length, 1);
  assert.deepEqual(Object.keys(lines[0].obj).sort(), ['err', 'upload_id']);
  assert.equal((lines[0].obj as { upload_id: string }).upload_id, uploadId);
  await logged.sweepOrphans(60_000);
  assert.equal(await t.db.kysely.selectFrom('log_objects').select('id').where('id', '=', uploadId).executeTakeFirst(), undefined);
  assert.deepEqual(await orphanObjects(), []);
});

test('S3: aborting an upload after segments were sent leaves no object and no row', async () => {
  const before = await s3.keys(PREFIX);
  const sink = await (await smallPoolStore()).beginUpload();
  await sink.write(randomBytes(2 * PART + 10));
  await sink.abort();
  assert.deepEqual(await s3.keys(PREFIX), before);
  assert.equal(await t.db.kysely.selectFrom('log_objects').select('id').where('id', '=', (sink as unknown as { uploadId: string }).uploadId).executeTakeFirst(), undefined);
});
