// PostgreSQL mode: no local disk. An upload is a log_uploads row plus 1 MiB log_chunks rows,
// written as the bytes arrive (memory stays bounded by one chunk). commit() attaches the upload
// to the session inside the session's transaction, so the log and the row appear together.
import type { Db } from '../db/database.ts';
import type { DbExecutor } from '../db/schema.ts';
import { newId, nowIso } from '../../kernel/ids.ts';
import { LogNotFoundError } from './types.ts';
import type { LogStore, UploadSink } from './types.ts';
import { CountingSink } from './counting-sink.ts';

export const CHUNK_BYTES = 1024 * 1024;

class ChunkUploadSink extends CountingSink implements UploadSink {
  #seq = 0;
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  #state: 'open' | 'committed' | 'aborted' = 'open';

  constructor(
    private readonly db: Db,
    readonly uploadId: string,
  ) {
    super();
  }

  async write(chunk: Uint8Array): Promise<void> {
    if (this.#state !== 'open') throw new Error(`upload already ${this.#state}`);
    this.count(chunk);
    // Copied: the caller may reuse its buffer once write() resolves, and up to a chunk's worth
    // of bytes stays pending here until the next flush.
    this.#pending.push(Buffer.from(chunk));
    this.#pendingBytes += chunk.byteLength;
    while (this.#pendingBytes >= CHUNK_BYTES) await this.#flush(this.db.kysely, CHUNK_BYTES);
  }

  // Stores the first `bytes` pending bytes (all of them when fewer) as the next chunk.
  async #flush(db: DbExecutor, bytes: number): Promise<void> {
    const all = this.#pending.length === 1 ? this.#pending[0] : Buffer.concat(this.#pending);
    const data = all.subarray(0, bytes);
    const rest = all.subarray(bytes);
    await db.insertInto('log_chunks').values({ upload_id: this.uploadId, seq: this.#seq, data }).execute();
    this.#seq++;
    this.#pending = rest.byteLength > 0 ? [rest] : [];
    this.#pendingBytes = rest.byteLength;
  }

  // The last partial chunk is written inside the session transaction, by commit().
  async finish(): Promise<void> {}

  async commit(trx: DbExecutor, sessionId: string): Promise<void> {
    if (this.#state !== 'open') throw new Error(`upload already ${this.#state}`);
    if (this.#pendingBytes > 0) await this.#flush(trx, this.#pendingBytes);
    const r = await trx
      .updateTable('log_uploads')
      .set({ session_id: sessionId, committed_at: nowIso() })
      .where('id', '=', this.uploadId)
      .where('session_id', 'is', null)
      .executeTakeFirst();
    // The row is gone only if the orphan sweep took it: the upload's bytes are lost.
    if (Number(r.numUpdatedRows) !== 1) throw new Error(`upload ${this.uploadId} no longer exists (swept as an orphan?)`);
    this.#state = 'committed';
  }

  async abort(): Promise<void> {
    this.#state = 'aborted';
    this.#pending = [];
    this.#pendingBytes = 0;
    // Chunks go with the upload row (ON DELETE CASCADE).
    await this.db.kysely.deleteFrom('log_uploads').where('id', '=', this.uploadId).execute();
  }
}

export class ChunkLogStore implements LogStore {
  readonly kind = 'database';
  constructor(private readonly db: Db) {}

  /** The chunks live in the database, which readiness checks on its own. */
  async ping(): Promise<boolean> {
    return this.db.ping();
  }

  async beginUpload(): Promise<UploadSink> {
    const id = newId('upl');
    await this.db.kysely.insertInto('log_uploads').values({ id, session_id: null, created_at: nowIso(), committed_at: null }).execute();
    return new ChunkUploadSink(this.db, id);
  }

  async open(sessionId: string): Promise<AsyncIterable<Uint8Array>> {
    const upload = await this.db.kysely.selectFrom('log_uploads').select('id').where('session_id', '=', sessionId).executeTakeFirst();
    if (!upload) throw new LogNotFoundError(sessionId);
    return this.#chunks(upload.id);
  }

  // One chunk per query: memory stays at one chunk whatever the size of the log.
  async *#chunks(uploadId: string): AsyncGenerator<Uint8Array> {
    for (let seq = 0; ; seq++) {
      const row = await this.db.kysely
        .selectFrom('log_chunks')
        .select('data')
        .where('upload_id', '=', uploadId)
        .where('seq', '=', seq)
        .executeTakeFirst();
      if (!row) return;
      yield row.data;
    }
  }

  // The new chunks are all written (under an upload row no session points at) before this
  // transaction; inside it the old upload goes (its chunks cascade) and the new one takes its
  // place. An interruption before the commit leaves the old log and an orphan for the sweep.
  async replace(sessionId: string, sink: UploadSink, alongside?: (trx: DbExecutor) => Promise<void>): Promise<void> {
    await this.db.kysely.transaction().execute(async (trx) => {
      await trx.deleteFrom('log_uploads').where('session_id', '=', sessionId).execute();
      await sink.commit(trx, sessionId);
      await alongside?.(trx);
    });
  }

  async delete(sessionId: string): Promise<void> {
    await this.db.kysely.deleteFrom('log_uploads').where('session_id', '=', sessionId).execute();
  }

  async sweepOrphans(olderThanMs: number): Promise<number> {
    const cutoff = nowIso(Date.now() - olderThanMs);
    const r = await this.db.kysely
      .deleteFrom('log_uploads')
      .where('created_at', '<', cutoff)
      .where((eb) =>
        eb.or([
          eb('session_id', 'is', null),
          eb.not(eb.exists(eb.selectFrom('sessions').select('sessions.id').whereRef('sessions.id', '=', 'log_uploads.session_id'))),
        ]),
      )
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  }
}
