// Where uploaded logs are kept. Uploads are streamed: neither side ever holds a whole log.
import type { DbExecutor } from '../db/schema.ts';
import { DependencyError } from '../../kernel/faults.ts';

export interface UploadSink {
  /**
   * All bytes are written: makes them durable in the store (the object store finishes its
   * upload here). Call it before the session transaction, so a storage failure surfaces before
   * anything is recorded; commit() calls it too if it was not. Idempotent.
   */
  finish(): Promise<void>;
  /** Appends bytes. Await each call before the next. */
  write(chunk: Uint8Array): Promise<void>;
  /** Bytes written so far. */
  readonly size: number;
  /** sha256 of the bytes written so far, hex. */
  sha256Hex(): string;
  /**
   * Makes the upload the stored log of `sessionId`. Call it inside the transaction that inserts
   * the session row, after the insert; if that transaction then fails, call abort().
   */
  commit(trx: DbExecutor, sessionId: string): Promise<void>;
  /** Discards everything this upload stored (also after commit, if the transaction failed). */
  abort(): Promise<void>;
}

export interface LogStore {
  /** Which store this is (readiness and logs say it). */
  readonly kind: 'file' | 'database' | 's3';
  /** Readiness: the store can be used now. Never throws. */
  ping(): Promise<boolean>;
  beginUpload(): Promise<UploadSink>;
  /**
   * Stores that write temp files on this machine (the file store): removes those of the writers
   * `isGone` names (processes that died), returning how many. Others do not have it.
   */
  removeTempsOfGoneWriters?(isGone: (pid: number) => boolean): Promise<number>;
  /** The stored log, streamed in chunks. Throws LogNotFoundError when there is none. */
  open(sessionId: string): Promise<AsyncIterable<Uint8Array>>;
  /**
   * Makes a fully written upload the new stored log of a session that has one, replacing it
   * in one step: until the swap the old log is intact (an interruption leaves it, and an
   * orphan upload for the sweep); after it only the new one exists. For rewrites (redaction).
   * `alongside` runs in the same database transaction as the swap (the audit event of it).
   */
  replace(sessionId: string, sink: UploadSink, alongside?: (trx: DbExecutor) => Promise<void>): Promise<void>;
  /** Removes the stored log of a session; no error when there is none. */
  delete(sessionId: string): Promise<void>;
  /**
   * Removes what interrupted uploads left behind (never committed, or committed by a
   * transaction that rolled back or whose session was deleted) once older than `olderThanMs`.
   * Keep the threshold well above the longest upload. Returns how many uploads were removed.
   */
  sweepOrphans(olderThanMs: number): Promise<number>;
}

export class LogNotFoundError extends Error {
  constructor(readonly sessionId: string) {
    super(`no stored log for session ${sessionId}`);
    this.name = 'LogNotFoundError';
  }
}

/**
 * The store cannot be reached or refused to work (network, 5xx, throttling, credentials): a
 * dependency fault (kernel/faults.ts), so the API answers 503 service_unavailable with
 * Retry-After and the job runner defers the job without spending an attempt.
 */
export class LogStoreUnavailableError extends DependencyError {
  constructor(message: string, options?: { cause?: unknown }) {
    super({ kind: 'unavailable', dependency: 'object_store' }, message, options);
    this.name = 'LogStoreUnavailableError';
  }
}

/** The bytes read back are not the bytes stored (size or sha256 differ). */
export class LogIntegrityError extends Error {
  constructor(readonly sessionId: string, detail: string) {
    super(`the stored log of session ${sessionId} failed its integrity check: ${detail}`);
    this.name = 'LogIntegrityError';
  }
}

// Session ids become file names: allow nothing that could leave the directory.
export function assertSafeId(id: string): void {
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(id)) throw new Error(`invalid session id for the log store: ${JSON.stringify(id)}`);
}
