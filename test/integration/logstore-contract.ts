// The log store contract: every store (files, database chunks, S3 objects) passes the same tests.
// Streamed writes with size and sha256, commit inside the session transaction, abort and
// rollback leave nothing, replace swaps in one step, orphan sweep, streamed reads.
// logstore-default.test.ts runs it on the database mode's own store (files with SQLite, chunks
// with PostgreSQL), logstore-s3.test.ts on an S3 bucket, with either database.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import type { TestDb } from '../helpers/db.ts';
import { LogNotFoundError } from '../../src/adapters/logstore/index.ts';
import type { LogStore, UploadSink } from '../../src/adapters/logstore/index.ts';
import { createAccountWithUser } from '../../src/adapters/db/repositories/accounts.ts';
import { deleteSession, insertSession } from '../../src/adapters/db/repositories/sessions.ts';
import type { DbExecutor } from '../../src/adapters/db/repositories/executor.ts';
import { newId, nowIso } from '../../src/kernel/ids.ts';

/** One store under test and what only it can tell about its insides. */
export interface StoreHarness {
  t: TestDb;
  store: LogStore;
  /** What the store holds besides committed logs (temp files, pending rows, unreferenced objects). */
  leftovers(): Promise<number>;
  /** How many logs it holds. */
  storedLogCount(): Promise<number>;
  /** Makes every stored upload look two hours old, except `fresh`. */
  ageEverythingExcept(fresh: UploadSink): Promise<void>;
  cleanup(): Promise<void>;
}

export function logStoreContract(setup: () => Promise<StoreHarness>): void {
  let h: StoreHarness;
  let t: TestDb;
  let store: LogStore;
  let accountId: string;

  before(async () => {
    h = await setup();
    t = h.t;
    store = h.store;
    accountId = (await createAccountWithUser(t.db.kysely, { name: 'logs', email: 'logs@example.test', passwordHash: 'h' })).account.id;
  });
  after(async () => {
    await h.cleanup();
  });

  async function insertSessionRow(trx: DbExecutor, id: string, sink: UploadSink): Promise<void> {
    await insertSession(trx, {
      id, account_id: accountId, status: 'analyzing', agent_hint: null, agent: null, repo: null, branch: null,
      filename: 'x.jsonl', size_bytes: sink.size, sha256: sink.sha256Hex(), created_at: nowIso(), completed_at: null,
      trust_score: null, outcome: null, findings_critical: null, findings_warning: null, findings_info: null,
      report_id: null, failure_reason: null, idempotency_key: null,
    });
  }

  async function upload(parts: Uint8Array[]): Promise<{ id: string; sink: UploadSink }> {
    const sink = await store.beginUpload();
    for (const p of parts) await sink.write(p);
    const id = newId('ses');
    await t.db.kysely.transaction().execute(async (trx) => {
      await insertSessionRow(trx, id, sink);
      await sink.commit(trx, id);
    });
    return { id, sink };
  }

  async function readBack(id: string): Promise<{ bytes: Buffer; maxChunk: number }> {
    const parts: Buffer[] = [];
    let maxChunk = 0;
    for await (const chunk of await store.open(id)) {
      parts.push(Buffer.from(chunk));
      maxChunk = Math.max(maxChunk, chunk.byteLength);
    }
    return { bytes: Buffer.concat(parts), maxChunk };
  }

  const leftovers = () => h.leftovers();
  const storedLogCount = () => h.storedLogCount();
  const ageEverythingExcept = (fresh: UploadSink) => h.ageEverythingExcept(fresh);

  test('a streamed upload is stored whole, with its size and sha256, and read back in bounded chunks', async () => {
    // 3.5 MiB in uneven pieces, so chunk boundaries fall inside writes.
    const parts = Array.from({ length: 7 }, (_, i) => randomBytes(512 * 1024 + (i % 3) * 1234));
    const whole = Buffer.concat(parts);
    const { id, sink } = await upload(parts);
    assert.equal(sink.size, whole.length);
    assert.equal(sink.sha256Hex(), createHash('sha256').update(whole).digest('hex'));
    const { bytes, maxChunk } = await readBack(id);
    assert.ok(bytes.equals(whole), 'read back byte for byte');
    assert.ok(maxChunk <= 1024 * 1024, `chunks stay ≤ 1 MiB (got ${maxChunk})`);
    assert.equal(await leftovers(), 0);
  });

  test('an empty upload and a one-byte upload round-trip', async () => {
    const empty = await upload([]);
    assert.equal(empty.sink.size, 0);
    assert.equal(empty.sink.sha256Hex(), createHash('sha256').digest('hex'));
    assert.equal((await readBack(empty.id)).bytes.length, 0);
    const one = await upload([Buffer.from('x')]);
    assert.equal((await readBack(one.id)).bytes.toString(), 'x');
  });

  test('a caller reusing its buffer after write() does not change what was stored', async () => {
    const buf = Buffer.alloc(300 * 1024, 'a');
    const sink = await store.beginUpload();
    await sink.write(buf);
    buf.fill('b');
    await sink.write(buf);
    buf.fill('c'); // after the last write: must not leak into the stored bytes
    const id = newId('ses');
    await t.db.kysely.transaction().execute(async (trx) => {
      await insertSessionRow(trx, id, sink);
      await sink.commit(trx, id);
    });
    const expected = Buffer.concat([Buffer.alloc(300 * 1024, 'a'), Buffer.alloc(300 * 1024, 'b')]);
    assert.ok((await readBack(id)).bytes.equals(expected));
    assert.equal(sink.sha256Hex(), createHash('sha256').update(expected).digest('hex'));
  });

  test('abort before commit leaves nothing behind', async () => {
    const before = await storedLogCount();
    const sink = await store.beginUpload();
    await sink.write(randomBytes(1536 * 1024));
    await sink.abort();
    assert.equal(await leftovers(), 0);
    assert.equal(await storedLogCount(), before);
  });

  test('a rolled-back session transaction plus abort leaves nothing, and no log for the id', async () => {
    const before = await storedLogCount();
    const sink = await store.beginUpload();
    await sink.write(randomBytes(2 * 1024 * 1024 + 5));
    const id = newId('ses');
    await assert.rejects(
      t.db.kysely.transaction().execute(async (trx) => {
        await insertSessionRow(trx, id, sink);
        await sink.commit(trx, id);
        throw new Error('later step failed');
      }),
      /later step failed/,
    );
    await sink.abort();
    assert.equal(await leftovers(), 0);
    assert.equal(await storedLogCount(), before);
    await assert.rejects(store.open(id), LogNotFoundError);
  });

  test('open of an unknown session fails with LogNotFoundError; delete removes a log', async () => {
    await assert.rejects(store.open(newId('ses')), LogNotFoundError);
    const { id } = await upload([Buffer.from('hello')]);
    await store.delete(id);
    await assert.rejects(store.open(id), LogNotFoundError);
    await store.delete(id); // no error the second time
  });

  test('orphan sweep removes old interrupted uploads and logs without a session, keeps the rest', async () => {
    const kept = await upload([Buffer.from('keep me')]);
    // An upload interrupted mid-way (the process died: neither commit nor abort).
    const interrupted = await store.beginUpload();
    await interrupted.write(randomBytes(1024 * 1024 + 10));
    // A committed log whose session row is then deleted.
    const gone = await upload([Buffer.from('session deleted')]);
    assert.equal(await deleteSession(t.db.kysely, accountId, gone.id), true);
    // A fresh pending upload must survive the sweep.
    const fresh = await store.beginUpload();
    await fresh.write(Buffer.from('still uploading'));

    assert.equal(await store.sweepOrphans(60_000), 0, 'nothing is old enough yet');
    await ageEverythingExcept(fresh);
    const removed = await store.sweepOrphans(60_000);
    assert.equal(removed, 2);
    assert.equal((await readBack(kept.id)).bytes.toString(), 'keep me');
    await assert.rejects(store.open(gone.id), LogNotFoundError);
    // The fresh upload still commits.
    const id = newId('ses');
    await t.db.kysely.transaction().execute(async (trx) => {
      await insertSessionRow(trx, id, fresh);
      await fresh.commit(trx, id);
    });
    assert.equal((await readBack(id)).bytes.toString(), 'still uploading');
    assert.equal(await leftovers(), 0);
  });

  test('replace swaps the log in one step and runs `alongside` in the same transaction; a failing alongside keeps the old log', async () => {
    const { id } = await upload([Buffer.from('original line\n')]);
    const before = await storedLogCount();
    const failing = await store.beginUpload();
    await failing.write(Buffer.from('never visible\n'));
    await assert.rejects(store.replace(id, failing, async () => {
      throw new Error('audit insert failed');
    }), /audit insert failed/);
    await failing.abort();
    assert.equal((await readBack(id)).bytes.toString(), 'original line\n', 'the old log is intact');

    const sink = await store.beginUpload();
    await sink.write(Buffer.from('redacted line\n'));
    let ranInside = false;
    await store.replace(id, sink, async (trx) => {
      await trx.selectFrom('sessions').select('id').where('id', '=', id).executeTakeFirstOrThrow();
      ranInside = true;
    });
    assert.equal(ranInside, true);
    assert.equal((await readBack(id)).bytes.toString(), 'redacted line\n');
    assert.equal(await storedLogCount(), before, 'the old log is gone, not kept beside the new one');
    assert.equal(await leftovers(), 0);
  });

  test('the store answers its readiness check', async () => {
    assert.equal(await store.ping(), true);
  });
}
