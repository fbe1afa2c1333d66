// SQLite mode: stored logs are files under the data directory.
//   <dataDir>/uploads/tmp-<random>   an upload in progress
//   <dataDir>/logs/<session id>.log  a committed log
// commit() fsyncs the file, renames it into logs/ and fsyncs the directory, so once the
// session row is committed the log survives a crash too.
import { createHash, randomBytes } from 'node:crypto';
import { access, constants, mkdir, open, readdir, rename, stat, unlink } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import type { Db } from '../db/database.ts';
import type { DbExecutor } from '../db/schema.ts';
import { LogNotFoundError, assertSafeId } from './types.ts';
import type { LogStore, UploadSink } from './types.ts';
import { CountingSink } from './counting-sink.ts';

const READ_CHUNK = 1024 * 1024;
const TEMP_PREFIX = 'tmp-';

// This machine, in temp upload names: a data directory shared by containers (other host names,
// other pid namespaces) must not read another container's pid as one of ours.
const HOST_TAG = createHash('sha256').update(hostname()).digest('hex').slice(0, 8);

/**
 * The pid of the process of this machine that writes a temp upload, from its name
 * (`tmp-<host tag>-<pid>-<random>`), or null (another machine's, or an older name). At start,
 * temp uploads of processes that no longer exist are removed at once (services/maintenance.ts)
 * instead of after the orphan age.
 */
export function tempUploadPid(name: string): number | null {
  const m = /^tmp-([0-9a-f]{8})-(\d+)-[0-9a-f]+$/.exec(name);
  return m && m[1] === HOST_TAG ? Number(m[2]) : null;
}
const LOG_SUFFIX = '.log';

async function unlinkQuietly(path: string): Promise<void> {
  try {
    await unlink(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

async function fsyncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function writeAll(handle: FileHandle, chunk: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < chunk.byteLength) {
    const { bytesWritten } = await handle.write(chunk, offset, chunk.byteLength - offset);
    offset += bytesWritten;
  }
}

class FileUploadSink extends CountingSink implements UploadSink {
  #handle: FileHandle | undefined;
  #finalPath: string | undefined;

  constructor(
    readonly tempPath: string,
    handle: FileHandle,
    private readonly logsDir: string,
  ) {
    super();
    this.#handle = handle;
  }

  async write(chunk: Uint8Array): Promise<void> {
    if (!this.#handle) throw new Error('upload already committed or aborted');
    await writeAll(this.#handle, chunk);
    this.count(chunk);
  }

  // The bytes are on disk already; commit() fsyncs them together with the rename.
  async finish(): Promise<void> {}

  async commit(_trx: unknown, sessionId: string): Promise<void> {
    assertSafeId(sessionId);
    const handle = this.#handle;
    if (!handle) throw new Error('upload already committed or aborted');
    this.#handle = undefined;
    await handle.sync();
    await handle.close();
    const finalPath = join(this.logsDir, sessionId + LOG_SUFFIX);
    await rename(this.tempPath, finalPath);
    this.#finalPath = finalPath;
    await fsyncDir(this.logsDir);
  }

  async abort(): Promise<void> {
    const handle = this.#handle;
    this.#handle = undefined;
    await handle?.close().catch(() => {});
    await unlinkQuietly(this.tempPath);
    if (this.#finalPath) await unlinkQuietly(this.#finalPath);
  }
}

export class FileLogStore implements LogStore {
  readonly kind = 'file';
  readonly uploadsDir: string;
  readonly logsDir: string;

  constructor(
    private readonly db: Db,
    dataDir: string,
  ) {
    this.uploadsDir = join(dataDir, 'uploads');
    this.logsDir = join(dataDir, 'logs');
  }

  /** The data directory is there and writable (a missing uploads/ is made on the first upload). */
  async ping(): Promise<boolean> {
    return access(dirname(this.uploadsDir), constants.W_OK).then(() => true, () => false);
  }

  logPath(sessionId: string): string {
    assertSafeId(sessionId);
    return join(this.logsDir, sessionId + LOG_SUFFIX);
  }

  async beginUpload(): Promise<UploadSink> {
    await mkdir(this.uploadsDir, { recursive: true });
    await mkdir(this.logsDir, { recursive: true });
    const tempPath = join(this.uploadsDir, `${TEMP_PREFIX}${HOST_TAG}-${process.pid}-${randomBytes(12).toString('hex')}`);
    const handle = await open(tempPath, 'wx');
    return new FileUploadSink(tempPath, handle, this.logsDir);
  }

  async open(sessionId: string): Promise<AsyncIterable<Uint8Array>> {
    const path = this.logPath(sessionId);
    // Open now so a missing log is reported here rather than on the first read.
    let handle: FileHandle;
    try {
      handle = await open(path, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new LogNotFoundError(sessionId);
      throw error;
    }
    return handle.createReadStream({ highWaterMark: READ_CHUNK });
  }

  // commit() fsyncs the new file and renames it over the old one: rename(2) replaces atomically,
  // so a reader sees the old log or the new one, never a mix, and an open reader keeps the old.
  async replace(sessionId: string, sink: UploadSink, alongside?: (trx: DbExecutor) => Promise<void>): Promise<void> {
    if (!alongside) return sink.commit(this.db.kysely, sessionId);
    // The rename is the last step of the transaction: if it fails, the rows written alongside roll back.
    await this.db.kysely.transaction().execute(async (trx) => {
      await alongside(trx);
      await sink.commit(trx, sessionId);
    });
  }

  async delete(sessionId: string): Promise<void> {
    await unlinkQuietly(this.logPath(sessionId));
  }

  /** Removes the temp uploads of writers that are gone (`isGone(pid)`); returns how many. */
  async removeTempsOfGoneWriters(isGone: (pid: number) => boolean): Promise<number> {
    let names: string[];
    try {
      names = await readdir(this.uploadsDir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
      throw error;
    }
    let removed = 0;
    for (const name of names) {
      const pid = tempUploadPid(name);
      if (pid === null || pid === process.pid || !isGone(pid)) continue;
      await unlinkQuietly(join(this.uploadsDir, name));
      removed++;
    }
    return removed;
  }

  async sweepOrphans(olderThanMs: number): Promise<number> {
    const cutoff = Date.now() - olderThanMs;
    return (await this.#sweepTemps(cutoff)) + (await this.#sweepLogs(cutoff));
  }

  async #oldFiles(dir: string, cutoff: number, match: (name: string) => boolean): Promise<string[]> {
    let names: string[];
    try {
      names = await readdir(dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const old: string[] = [];
    for (const name of names.filter(match)) {
      const info = await stat(join(dir, name)).catch(() => undefined);
      if (info && info.mtimeMs < cutoff) old.push(name);
    }
    return old;
  }

  async #sweepTemps(cutoff: number): Promise<number> {
    const old = await this.#oldFiles(this.uploadsDir, cutoff, (n) => n.startsWith(TEMP_PREFIX));
    for (const name of old) await unlinkQuietly(join(this.uploadsDir, name));
    return old.length;
  }

  // The store's own read of the sessions table (as the chunk and S3 stores do), not a repository's.
  async #existingSessions(ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db.kysely.selectFrom('sessions').select('id').where('id', 'in', ids).execute();
    return new Set(rows.map((r) => r.id));
  }

  // A log file without a session row: its transaction rolled back after the rename, or the
  // process died in between, or the session was deleted before its log.
  async #sweepLogs(cutoff: number): Promise<number> {
    const old = await this.#oldFiles(this.logsDir, cutoff, (n) => n.endsWith(LOG_SUFFIX));
    let removed = 0;
    for (let i = 0; i < old.length; i += 500) {
      const batch = old.slice(i, i + 500).map((n) => n.slice(0, -LOG_SUFFIX.length));
      const existing = await this.#existingSessions(batch);
      for (const id of batch.filter((b) => !existing.has(b))) {
        await unlinkQuietly(join(this.logsDir, id + LOG_SUFFIX));
        removed++;
      }
    }
    return removed;
  }
}
