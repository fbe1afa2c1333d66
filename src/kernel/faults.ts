// What kind of failure an error is, in one place: the HTTP error handler, the job runner, the
// readiness check and startup all ask classifyFault() instead of matching messages themselves.
//   - `unavailable`: a dependency (the database, the object store, Redis) cannot be reached or
//     refused the connection (restart, outage, too many connections). The request was fine;
//     the same request later should work: 503 with Retry-After, jobs wait without spending
//     an attempt.
//   - `storage_full`: a disk or quota ran out (ENOSPC, EDQUOT, SQLite's SQLITE_FULL,
//     PostgreSQL's disk_full). Not the client's fault either: 507, jobs wait.
// Anything else is not a fault of a dependency (a bug, a bad input): null.
// Pure: no I/O. OutageLog (below) only keeps time.

export type FaultKind = 'unavailable' | 'storage_full';
export type Dependency = 'database' | 'object_store' | 'redis' | 'disk';

export interface Fault {
  kind: FaultKind;
  dependency: Dependency;
}

/**
 * Thrown by adapters that know a failure is a dependency's (an object-store client that timed
 * out, a store that found the disk full), so that callers need not know the driver's errors.
 */
export class DependencyError extends Error {
  constructor(
    readonly fault: Fault,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'DependencyError';
  }
}

// Node's socket errors: the peer is not there, went away, or cannot be resolved right now.
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND', 'ECONNABORTED']);
const DISK_FULL_CODES = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL']);
// PostgreSQL SQLSTATEs: class 08 (connection exception), 57P01-03 (admin/crash shutdown,
// cannot connect now: a restart), 53300 (too many connections).
const PG_UNAVAILABLE = /^(08\d{3}|57P0[123]|53300)$/;
const PG_DISK_FULL = '53100';
// SQLite: the file is locked by another process past busy_timeout.
const SQLITE_UNAVAILABLE = new Set(['SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_BUSY_TIMEOUT']);
// node-postgres reports a lost or unusable connection by message only.
const PG_CONNECTION_MESSAGES = [
  'Connection terminated',
  'connection timeout',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'terminating connection due to administrator command',
  'the database system is starting up',
  'the database system is shutting down',
  'Client was closed and is not queryable',
];

interface ErrorLike {
  code?: unknown;
  message?: unknown;
  cause?: unknown;
  errors?: unknown;
}

/** An outbound HTTP call's failure (undici): its own caller handles it, never a dependency fault. */
function isOutboundHttpError(e: ErrorLike): boolean {
  return (typeof e.code === 'string' && e.code.startsWith('UND_ERR')) || e.message === 'fetch failed';
}

function ownFault(e: ErrorLike): Fault | null {
  if (e instanceof DependencyError) return e.fault;
  const code = typeof e.code === 'string' ? e.code : '';
  if (DISK_FULL_CODES.has(code)) return { kind: 'storage_full', dependency: code === 'SQLITE_FULL' ? 'database' : 'disk' };
  if (code === PG_DISK_FULL) return { kind: 'storage_full', dependency: 'database' };
  if (PG_UNAVAILABLE.test(code) || SQLITE_UNAVAILABLE.has(code)) return { kind: 'unavailable', dependency: 'database' };
  if (NETWORK_CODES.has(code)) return { kind: 'unavailable', dependency: 'database' };
  const message = typeof e.message === 'string' ? e.message : '';
  if (PG_CONNECTION_MESSAGES.some((m) => message.includes(m))) return { kind: 'unavailable', dependency: 'database' };
  return null;
}

/**
 * The fault an error stands for, looking through `cause` chains and AggregateErrors (a pool
 * that tried every address), or null when it is not a dependency's failure.
 * A network error without a DependencyError around it is taken as the database's: the
 * database is the only dependency reached without an adapter of our own in between.
 */
export function classifyFault(error: unknown, depth = 0): Fault | null {
  if (error === null || typeof error !== 'object' || depth > 5) return null;
  const e = error as ErrorLike;
  if (isOutboundHttpError(e)) return null;
  const own = ownFault(e);
  if (own) return own;
  if (Array.isArray(e.errors)) {
    for (const inner of e.errors) {
      const f = classifyFault(inner, depth + 1);
      if (f) return f;
    }
  }
  return classifyFault(e.cause, depth + 1);
}

// PostgreSQL SQLSTATEs of a transaction the server rolled back because of another one
// (serialization_failure, deadlock_detected): nothing of it happened, the same work can run again.
const PG_CONFLICT = new Set(['40001', '40P01']);

/**
 * True when the error is a transaction PostgreSQL aborted for a conflict with a concurrent one
 * (through `cause` chains): not a dependency's fault and not a bug — running it again is the remedy.
 */
export function isTransactionConflict(error: unknown, depth = 0): boolean {
  if (error === null || typeof error !== 'object' || depth > 5) return false;
  const e = error as ErrorLike;
  if (typeof e.code === 'string' && PG_CONFLICT.has(e.code)) return true;
  return isTransactionConflict(e.cause, depth + 1);
}

/**
 * Remembers when each dependency last failed, so that an outage is logged at error level once
 * (its first failure) instead of once per request or per poll: a failure within `quietMs` of
 * the previous one belongs to the same outage.
 */
export class OutageLog {
  readonly #lastFailure = new Map<string, number>();
  constructor(private readonly quietMs = 30_000) {}

  /** Records a failure; true when it starts a new outage (log it), false while one goes on. */
  note(fault: Fault, nowMs = Date.now()): boolean {
    const key = `${fault.dependency}:${fault.kind}`;
    const last = this.#lastFailure.get(key);
    this.#lastFailure.set(key, nowMs);
    return last === undefined || nowMs - last > this.quietMs;
  }
}

/** Seconds a client should wait before retrying after a dependency fault (Retry-After). */
export const FAULT_RETRY_AFTER_S = 5;
