// Object-storage mode (VOUCH_LOG_STORE=s3://bucket/prefix): each stored log is a run of segment
// objects in an S3-compatible bucket, its bookkeeping a `log_objects` row in the database.
//
// Segments, not a multipart upload: a log is cut into parts of `partSize` (8 MiB) as it arrives,
// and each part is its own object, PUT while the next one fills: `<prefix><upload id>.log`, then
// `….log.000002`, `….log.000003`, … A log under one part is one object, as it always was.
//   - Every byte in the bucket is a listable object under the log's key, so the sweeper finds
//     what a crash left by listing that prefix. The parts of an unfinished multipart upload are
//     invisible to listing (and s3rver, like several S3-compatible servers, cannot list uploads).
//   - No completion step: servers that assemble the parts into one object on completion (s3rver
//     rewrites the whole log) make the upload wait as long again; AWS S3 does not, so there the
//     two cost the same (one request per 8 MiB either way).
//   - No 10,000-part limit, no Content-MD5 / checksum headers needed from the server.
//
// Consistency without a distributed transaction — the row always outlives its objects:
//   1. beginUpload() inserts the row as `pending` BEFORE any byte goes to the bucket;
//   2. the segments stream to the bucket while the bytes arrive (memory stays at a few parts,
//      whatever the size of the log); finish() waits for the last one;
//   3. commit() marks the row `committed` for the session, with its segment count, INSIDE the
//      session's transaction, so the session row and "its log exists" appear together or not at all;
//   4. removal marks the row `removing` (the session no longer sees a log), deletes every object
//      under the log's key, and only then deletes the row.
// A crash anywhere leaves a row that says what to do: `pending` older than the sweep threshold
// (never committed: its objects, if any, are removed), `committed` without a session (the session
// was deleted: removed), or `removing` (finish the removal). The sweeper does exactly that, so no
// object is ever left without a row, and no session ever points at a log that is not complete.
//
// Checksums: each request is covered in transit by TLS (or SigV4's payload hash over plain HTTP);
// we record the sha256, size and segment count of the whole log on the row and check all three
// on every read.
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, HeadBucketCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { Db } from '../db/database.ts';
import type { DbExecutor } from '../db/schema.ts';
import { newId, nowIso } from '../../kernel/ids.ts';
import { LogIntegrityError, LogNotFoundError, LogStoreUnavailableError } from './types.ts';
import type { LogStore, UploadSink } from './types.ts';
import { CountingSink } from './counting-sink.ts';

export interface S3StoreOptions {
  bucket: string;
  /** '' or ending in '/'. */
  prefix: string;
  endpoint: string | null;
  region: string | null;
  forcePathStyle: boolean;
  /** Segment size; the buffers of one upload are at most partSize × (queueSize + 1). */
  partSize?: number;
  queueSize?: number;
  /** Explicit credentials (tests); else the SDK's chain: AWS_ACCESS_KEY_ID…, profiles, instance roles. */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Where a removal the store refused is noted (pino's shape); the sweeper retries it either way. */
  log?: { debug(obj: object, msg?: string): void };
}

// 8 MiB segments, 4 in flight: a pool of 5 part buffers, 40 MiB per upload however large the log
// (bench:logstore: a 1 GB upload adds 76–80 MB to the API's RSS).
export const PART_BYTES = 8 * 1024 * 1024;
export const QUEUE_SIZE = 4;
const CONTENT_TYPE = 'application/octet-stream';
/** The first buffer of an upload, grown as the log turns out larger. */
const FIRST_BUFFER_BYTES = 256 * 1024;
/** How many removals one sweep does at most (the next sweep goes on). */
const SWEEP_BATCH = 1000;
/** How much of a segment is left to read when the next one is asked for. */
const PREFETCH_BYTES = 1024 * 1024;
/** Segment objects deleted at once when a log is removed. */
const DELETE_CONCURRENCY = 8;

/**
 * The key of segment `n` (from 1) of the log stored at `objectKey`: the first is the log's own
 * key, the others follow it with a zero-padded number, so all of them, and only them, are listed
 * under the prefix `objectKey` (upload ids are unique and of one length).
 */
export function segmentKey(objectKey: string, n: number): string {
  return n === 1 ? objectKey : `${objectKey}.${String(n).padStart(6, '0')}`;
}

const NOT_FOUND = new Set(['NoSuchKey', 'NotFound']);

function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } } | null;
  return NOT_FOUND.has(e?.name ?? '') || e?.$metadata?.httpStatusCode === 404;
}

/** Any failure of the bucket (network, 5xx, throttling, credentials, missing bucket) is the store being unavailable. */
export function storeFault(error: unknown, doing: string): LogStoreUnavailableError {
  if (error instanceof LogStoreUnavailableError) return error;
  const e = error as { name?: string; code?: string; message?: string } | null;
  const what = [e?.name, e?.code].filter((x) => x && x !== 'Error').join('/') || 'error';
  return new LogStoreUnavailableError(`the log store (object storage) failed while ${doing}: ${what}: ${e?.message ?? String(error)}`, { cause: error });
}

export function createS3Client(o: S3StoreOptions): S3Client {
  return new S3Client({
    endpoint: o.endpoint ?? undefined,
    // A self-hosted endpoint usually ignores the region, but the SDK needs one to sign.
    region: o.region ?? (o.endpoint ? 'us-east-1' : undefined),
    forcePathStyle: o.forcePathStyle,
    credentials: o.credentials,
    maxAttempts: 3,
    // No extra CRC32 per request (the SDK's default): each part is already covered by TLS, or by
    // the SigV4 payload hash over plain HTTP, and the whole log by our sha256, checked on every
    // read. The CRC32 is computed in JavaScript and doubled the API's CPU per uploaded GB.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // Fail fast when the store is unreachable (the upload answers 503); an idle socket mid-transfer is a fault too.
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 120_000 },
  });
}

interface ObjectRow {
  id: string;
  object_key: string;
}

/**
 * An upload of segments fed by write(): the bytes are copied once, straight into a part buffer;
 * a full part is PUT as the next segment while the next one fills, up to `queueSize` in flight.
 * The buffers are a fixed pool of queueSize + 1 parts, reused, so memory is bounded and the
 * garbage collector has nothing to do per part (lib-storage's Upload, used before, re-gathered a
 * stream into a new Buffer per part: two copies and a part's worth of garbage each time).
 */
class S3UploadSink extends CountingSink implements UploadSink {
  #state: 'open' | 'finishing' | 'finished' | 'committed' | 'aborted' = 'open';
  #free: Buffer[] = [];
  #buffers = 0;
  #part: Buffer | undefined;
  #fill = 0;
  /** Segments started so far (the last one is number #segments). */
  #segments = 0;
  #inFlight = new Set<Promise<void>>();
  /** The first failure of a segment upload: every later write() or finish() throws it. */
  #failure: LogStoreUnavailableError | undefined;
  #finishing: Promise<void> | undefined;

  constructor(
    private readonly store: S3LogStore,
    readonly uploadId: string,
    readonly objectKey: string,
  ) {
    super();
  }

  async write(chunk: Uint8Array): Promise<void> {
    if (this.#state !== 'open') throw new Error(`upload already ${this.#state}`);
    if (this.#failure) throw this.#failure;
    this.count(chunk);
    // Copied (the caller may reuse its buffer once write() resolves) into the part being filled.
    const { partSize } = this.store;
    for (let offset = 0; offset < chunk.byteLength; ) {
      this.#part ??= await this.#takeBuffer();
      const n = Math.min(partSize - this.#fill, chunk.byteLength - offset);
      if (this.#fill + n > this.#part.byteLength) this.#grow(Math.min(partSize, Math.max(2 * this.#part.byteLength, this.#fill + n)));
      this.#part.set(chunk.subarray(offset, offset + n), this.#fill);
      this.#fill += n;
      offset += n;
      if (this.#fill === partSize) this.#sendSegment();
    }
  }

  /**
   * Only the first buffer grows (doubling, up to a part): most logs are a few MB, and many small
   * uploads at once must not each hold a whole part. Once a log fills a part, every buffer is a part.
   */
  #grow(bytes: number): void {
    const bigger = Buffer.allocUnsafeSlow(bytes);
    (this.#part as Buffer).copy(bigger, 0, 0, this.#fill);
    this.#part = bigger;
  }

  /** A free part buffer; waits while `queueSize` parts are in flight and the pool is used up. */
  async #takeBuffer(): Promise<Buffer> {
    for (;;) {
      if (this.#failure) throw this.#failure;
      const free = this.#free.pop();
      if (free) return free;
      if (this.#buffers <= this.store.queueSize) {
        this.#buffers++;
        return Buffer.allocUnsafeSlow(this.#buffers === 1 ? Math.min(FIRST_BUFFER_BYTES, this.store.partSize) : this.store.partSize);
      }
      await Promise.race(this.#inFlight);
    }
  }

  /** Starts uploading the filled part as the next segment; its buffer returns to the pool when the request settled. */
  #sendSegment(): void {
    const buffer = this.#part ?? Buffer.alloc(0);
    const body = buffer.subarray(0, this.#fill);
    const key = segmentKey(this.objectKey, ++this.#segments);
    this.#part = undefined;
    this.#fill = 0;
    const sending = this.store.client
      .send(new PutObjectCommand({ Bucket: this.store.bucket, Key: key, Body: body, ContentLength: body.byteLength, ContentType: CONTENT_TYPE }))
      .then(
        () => {},
        (error: unknown) => void (this.#failure ??= storeFault(error, 'storing an upload')),
      )
      .finally(() => {
        this.#inFlight.delete(sending);
        if (buffer.byteLength > 0) this.#free.push(buffer);
      });
    this.#inFlight.add(sending);
  }

  /** Drops the buffers once no part is in flight any more: the sink may live on until the commit. */
  #release(): void {
    if (this.#inFlight.size > 0) return;
    this.#free = [];
    this.#part = undefined;
    this.#fill = 0;
  }

  /** Waits for every part in flight; throws the first failure. */
  async #settle(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.all(this.#inFlight);
    if (this.#failure) throw this.#failure;
  }

  finish(): Promise<void> {
    if (this.#state === 'aborted') return Promise.reject(new Error('upload already aborted'));
    this.#finishing ??= (async () => {
      this.#state = 'finishing';
      try {
        // The last, partial segment; an empty log is one empty object.
        if (this.#fill > 0 || this.#segments === 0) this.#sendSegment();
        await this.#settle();
      } catch (error) {
        throw storeFault(error, 'storing an upload');
      } finally {
        this.#release();
      }
      this.#state = 'finished';
    })();
    return this.#finishing;
  }

  async commit(trx: DbExecutor, sessionId: string): Promise<void> {
    await this.finish();
    if (this.#state !== 'finished') throw new Error(`upload already ${this.#state}`);
    const r = await trx
      .updateTable('log_objects')
      .set({ state: 'committed', session_id: sessionId, size_bytes: this.size, sha256: this.sha256Hex(), segments: this.#segments, committed_at: nowIso() })
      .where('id', '=', this.uploadId)
      .where('state', '=', 'pending')
      .executeTakeFirst();
    // Not pending any more only if the orphan sweep took it: the object is (being) removed.
    if (Number(r.numUpdatedRows) !== 1) throw new Error(`upload ${this.uploadId} no longer exists (swept as an orphan?)`);
    this.#state = 'committed';
  }

  async abort(): Promise<void> {
    this.#state = 'aborted';
    await this.#finishing?.catch(() => {});
    await this.#settle().catch(() => {}); // settled: no segment is still being written
    this.#release();
    await this.store.remove([{ id: this.uploadId, object_key: this.objectKey }], 'pending');
  }
}

export class S3LogStore implements LogStore {
  readonly kind = 's3';
  readonly client: S3Client;
  readonly bucket: string;
  readonly partSize: number;
  readonly queueSize: number;
  readonly #prefix: string;
  readonly #log: S3StoreOptions['log'];

  constructor(
    private readonly db: Db,
    options: S3StoreOptions,
  ) {
    this.client = createS3Client(options);
    this.bucket = options.bucket;
    this.#prefix = options.prefix;
    this.partSize = options.partSize ?? PART_BYTES;
    this.queueSize = options.queueSize ?? QUEUE_SIZE;
    this.#log = options.log;
  }

  /** Readiness: the bucket answers and these credentials may use it. */
  async ping(): Promise<boolean> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
      return true;
    } catch {
      return false;
    }
  }

  async beginUpload(): Promise<UploadSink> {
    const id = newId('upl');
    const key = `${this.#prefix}${id}.log`;
    // Recorded before any byte is written: whatever happens next, the sweeper knows of the object.
    await this.db.kysely.insertInto('log_objects').values({ id, object_key: key, session_id: null, state: 'pending', size_bytes: null, sha256: null, created_at: nowIso(), committed_at: null }).execute();
    return new S3UploadSink(this, id, key);
  }

  async open(sessionId: string): Promise<AsyncIterable<Uint8Array>> {
    const row = await this.db.kysely
      .selectFrom('log_objects')
      .select(['object_key', 'size_bytes', 'sha256', 'segments'])
      .where('session_id', '=', sessionId)
      .where('state', '=', 'committed')
      .executeTakeFirst();
    if (!row) throw new LogNotFoundError(sessionId);
    const count = row.segments ?? 1;
    const size = Number(row.size_bytes);
    // The first segment is asked for here, so that an unreachable store or a missing object
    // fails open() itself, before the caller has answered anything.
    const first = await this.#segment(sessionId, row.object_key, 1, count);
    if (count === 1 && first.length !== undefined && row.size_bytes !== null && first.length !== size) {
      first.body.destroy();
      throw new LogIntegrityError(sessionId, `the object has ${first.length} bytes, ${size} were stored`);
    }
    const get = (n: number) => this.#segment(sessionId, row.object_key, n, count);
    return verified(segmentBodies(first, count, get), sessionId, size, row.sha256);
  }

  /** GETs segment `n` of `count`; a missing one is an integrity failure (the row says it exists). */
  async #segment(sessionId: string, objectKey: string, n: number, count: number): Promise<Segment> {
    const key = segmentKey(objectKey, n);
    try {
      const r = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return { body: r.Body as Readable, length: r.ContentLength };
    } catch (error) {
      // A committed row whose object is gone: the bucket lost it (or someone deleted it by hand).
      if (isNotFound(error)) throw new LogIntegrityError(sessionId, `object ${key} (segment ${n} of ${count}) is missing from the bucket`);
      throw storeFault(error, 'reading a log');
    }
  }

  // The new log is complete before the transaction; inside it the old row is marked for
  // removal and the new one committed (with `alongside`); after it the old objects go. A crash
  // after the commit leaves the old row `removing`, which the sweeper finishes.
  async replace(sessionId: string, sink: UploadSink, alongside?: (trx: DbExecutor) => Promise<void>): Promise<void> {
    await sink.finish();
    const old = await this.db.kysely.transaction().execute(async (trx) => {
      const rows = await markRemoving(trx, sessionId);
      await sink.commit(trx, sessionId);
      await alongside?.(trx);
      return rows;
    });
    await this.remove(old, 'removing');
  }

  async delete(sessionId: string): Promise<void> {
    const rows = await markRemoving(this.db.kysely, sessionId);
    await this.remove(rows, 'removing');
  }

  /**
   * Deletes the objects of each row (every segment under its key), then the row (marked
   * `removing` first when it is `pending`). A row whose objects the store cannot delete now
   * stays `removing`, for the sweeper; the log is no longer readable either way. Returns how many
   * were removed completely.
   */
  async remove(rows: ObjectRow[], from: 'pending' | 'removing'): Promise<number> {
    let removed = 0;
    for (const row of rows) {
      if (from === 'pending') {
        await this.db.kysely.updateTable('log_objects').set({ state: 'removing' }).where('id', '=', row.id).where('state', '=', 'pending').execute();
      }
      try {
        await this.#deleteObjectsOf(row.object_key);
      } catch (error) {
        this.#log?.debug({ upload_id: row.id, err: error instanceof Error ? error.message : String(error) }, 'log objects not removed now; the sweeper retries');
        continue;
      }
      await this.db.kysely.deleteFrom('log_objects').where('id', '=', row.id).where('state', '=', 'removing').execute();
      removed++;
    }
    return removed;
  }

  /**
   * Deletes every object listed under the log's key: the segments a committed log has, and the
   * ones an interrupted upload got to write (its row does not know how many). One DeleteObject
   * each, some at once: DeleteObjects would need a Content-MD5 or checksum header that
   * S3-compatible servers do not all accept from the current SDK.
   */
  async #deleteObjectsOf(objectKey: string): Promise<void> {
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: objectKey, ContinuationToken: token }));
      const keys = (page.Contents ?? []).map((o) => o.Key as string);
      for (let i = 0; i < keys.length; i += DELETE_CONCURRENCY) {
        await Promise.all(keys.slice(i, i + DELETE_CONCURRENCY).map((key) => this.#deleteObject(key)));
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async #deleteObject(key: string): Promise<void> {
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }

  async sweepOrphans(olderThanMs: number): Promise<number> {
    const cutoff = nowIso(Date.now() - olderThanMs);
    // Never committed (the process died, or the session transaction rolled back), or committed
    // to a session that was deleted since: mark for removal.
    await this.db.kysely
      .updateTable('log_objects')
      .set({ state: 'removing', session_id: null })
      .where('created_at', '<', cutoff)
      .where((eb) =>
        eb.or([
          eb('state', '=', 'pending'),
          eb.and([
            eb('state', '=', 'committed'),
            eb.not(eb.exists(eb.selectFrom('sessions').select('sessions.id').whereRef('sessions.id', '=', 'log_objects.session_id'))),
          ]),
        ]),
      )
      .execute();
    const rows = await this.db.kysely.selectFrom('log_objects').select(['id', 'object_key']).where('state', '=', 'removing').orderBy('id').limit(SWEEP_BATCH).execute();
    return this.remove(rows, 'removing');
  }
}

async function markRemoving(db: DbExecutor, sessionId: string): Promise<ObjectRow[]> {
  return db
    .updateTable('log_objects')
    .set({ state: 'removing', session_id: null })
    .where('session_id', '=', sessionId)
    .returning(['id', 'object_key'])
    .execute();
}

interface Segment {
  body: Readable;
  /** Content-Length, when the store sent one. */
  length: number | undefined;
}

/**
 * The bodies of segments 1..count in order. The next segment is asked for while the last MiB of
 * the current one is read, which hides the store's round trip without leaving a response unread
 * for long: a slow reader (a download to a slow client) would otherwise hold it past the
 * client's idle timeout. A body not read to its end is destroyed.
 */
async function* segmentBodies(first: Segment, count: number, get: (n: number) => Promise<Segment>): AsyncGenerator<Uint8Array> {
  let next: Promise<Segment> | undefined;
  const ask = (n: number) => {
    const asked = get(n);
    asked.catch(() => {}); // awaited below; not an unhandled rejection if the reader stops first
    return asked;
  };
  try {
    let segment = first;
    for (let n = 1; ; n++) {
      let left = segment.length ?? 0;
      try {
        for await (const chunk of segment.body as AsyncIterable<Buffer>) {
          left -= chunk.byteLength;
          if (n < count && !next && left <= PREFETCH_BYTES) next = ask(n + 1);
          yield chunk;
        }
      } finally {
        segment.body.destroy();
      }
      if (n >= count) return;
      const following = next ?? ask(n + 1);
      next = undefined;
      segment = await following;
    }
  } finally {
    void next?.then((s) => s.body.destroy(), () => {});
  }
}

/** The log's bytes as they arrive, checked against the stored size and sha256 at the end. */
async function* verified(bodies: AsyncIterable<Uint8Array>, sessionId: string, size: number, sha256: string | null): AsyncGenerator<Uint8Array> {
  const hash = createHash('sha256');
  let seen = 0;
  try {
    for await (const chunk of bodies) {
      hash.update(chunk);
      seen += chunk.byteLength;
      yield chunk;
    }
  } catch (error) {
    if (error instanceof LogIntegrityError || error instanceof LogStoreUnavailableError) throw error;
    throw storeFault(error, 'reading a log');
  }
  if (seen !== size) throw new LogIntegrityError(sessionId, `read ${seen} bytes, ${size} were stored`);
  const actual = hash.digest('hex');
  if (sha256 !== null && actual !== sha256) throw new LogIntegrityError(sessionId, `sha256 ${actual} differs from the stored ${sha256}`);
}
