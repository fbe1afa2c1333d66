// Housekeeping use cases of the worker. The sweep (worker/sweeper.ts runs it on a timer): rows
// that only matter for a while are deleted once they stopped mattering, so tables do not grow
// for ever.
//   - web sessions (sign-in cookies) past their expiry;
//   - idempotency keys older than VOUCH_IDEMPOTENCY_RETENTION_MS (a retry after that creates a
//     new session instead of replaying the first answer);
//   - rate-limit windows that have ended (PostgreSQL-shared counters);
//   - stored-log data that interrupted uploads left behind (log store);
//   - stored logs older than their account's retention period (the session and report stay);
//   - password-reset links past their expiry, and sign-in backoff counters idle for a day.
// Every worker process sweeps on its timer, but one at a time across the deployment (an
// advisory lock in PostgreSQL): a worker whose turn comes while another sweeps skips this round,
// so two workers never remove (and log) the same rows. The deletes are idempotent anyway.
import type { Db } from '../adapters/db/database.ts';
import { activeLeases, expireLeases } from '../adapters/jobs/queue.ts';
import { unlessRunningElsewhere } from '../adapters/db/exclusive.ts';
import { deleteIdempotencyKeysBefore } from '../adapters/db/repositories/idempotency.ts';
import { deleteEndedRateLimits } from '../adapters/db/repositories/rate-limits.ts';
import { deleteExpiredWebSessions } from '../adapters/db/repositories/web-sessions.ts';
import { deleteExpiredResets } from '../adapters/db/repositories/password-resets.ts';
import { deleteStaleThrottles } from '../adapters/db/repositories/sign-in-throttle.ts';
import type { LogStore } from '../adapters/logstore/index.ts';
import { expireLogs } from './retention.ts';

/** Without a bound on how long an upload may take (VOUCH_REQUEST_TIMEOUT_MS=0): far above the longest upload. */
export const ORPHAN_AGE_MS = 6 * 3600_000;
/** Added to the request timeout: clocks of API and worker processes, the commit after the last byte. */
export const ORPHAN_MARGIN_MS = 2 * 60_000;

/**
 * How old an interrupted upload must be before the sweep removes it. No request lives longer
 * than VOUCH_REQUEST_TIMEOUT_MS (Node cuts it), so an upload begun longer ago than that, plus a
 * margin, cannot be in progress any more: with the default 10 min, orphans go after 12 min
 * instead of 6 h, and an upload still arriving is never touched.
 */
export function orphanAgeMs(requestTimeoutMs: number): number {
  return requestTimeoutMs > 0 ? requestTimeoutMs + ORPHAN_MARGIN_MS : ORPHAN_AGE_MS;
}
/** A sign-in backoff counter untouched this long is forgotten (the longest backoff is 15 minutes). */
export const THROTTLE_IDLE_MS = 24 * 3600_000;

export interface SweepDeps {
  db: Db;
  logStore: LogStore;
  idempotencyRetentionMs: number;
  /** Interrupted uploads older than this are removed (orphanAgeMs()); default ORPHAN_AGE_MS. */
  orphanAgeMs?: number;
}

export interface SweepResult {
  webSessions: number;
  idempotencyKeys: number;
  rateLimitWindows: number;
  orphanUploads: number;
  expiredLogs: number;
  passwordResets: number;
  signInThrottles: number;
}

/** The advisory lock key of the sweep ("vsw1"). */
const SWEEP_LOCK = 0x76737731;

const NOTHING_SWEPT: SweepResult = { webSessions: 0, idempotencyKeys: 0, rateLimitWindows: 0, orphanUploads: 0, expiredLogs: 0, passwordResets: 0, signInThrottles: 0 };

/** One sweep, unless another process is sweeping right now (then nothing, this round). */
export async function sweepIfNoneRunning(deps: SweepDeps, nowMs: number = Date.now()): Promise<SweepResult> {
  return (await unlessRunningElsewhere(deps.db, SWEEP_LOCK, () => sweepOnce(deps, nowMs))) ?? { ...NOTHING_SWEPT };
}

export async function sweepOnce(deps: SweepDeps, nowMs: number = Date.now()): Promise<SweepResult> {
  const now = new Date(nowMs).toISOString();
  const cutoff = new Date(nowMs - deps.idempotencyRetentionMs).toISOString();
  return {
    webSessions: await deleteExpiredWebSessions(deps.db.kysely, now),
    idempotencyKeys: await deleteIdempotencyKeysBefore(deps.db.kysely, cutoff),
    rateLimitWindows: await deleteEndedRateLimits(deps.db.kysely, nowMs),
    orphanUploads: await deps.logStore.sweepOrphans(deps.orphanAgeMs ?? ORPHAN_AGE_MS),
    expiredLogs: await expireLogs(deps.db, deps.logStore, nowMs),
    passwordResets: await deleteExpiredResets(deps.db.kysely, now),
    signInThrottles: await deleteStaleThrottles(deps.db.kysely, new Date(nowMs - THROTTLE_IDLE_MS).toISOString()),
  };
}

// Taking back after a crash: on start, an embedded (SQLite) process takes back at once the jobs that a dead process of
// this machine held, instead of waiting out their leases (VOUCH_JOB_LEASE_MS, 30 s): after a
// crash or `kill -9` and a restart, analyses and webhooks resume immediately. It also removes
// the temp files of uploads those processes were receiving (their names carry the pid).
// Why this is safe only for SQLite: the database is a file on this machine, so every process
// that can hold a lease on it runs here, and "host:pid" in lease_owner names it exactly; a pid
// that no longer exists cannot be working on anything. (A pid reused by an unrelated process
// only means we wait for the lease, as before.) With PostgreSQL, holders may run on other
// machines, or in containers that share a host name: their leases are left to expire.

/** The pid in a lease owner `<host>:<pid>:<runner>#<claim>` written by a process on `host`, or null. */
export function leaseHolderPid(owner: string, host: string): number | null {
  if (!owner.startsWith(`${host}:`)) return null;
  const pid = Number(owner.slice(host.length + 1).split(':')[0]);
  return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
}

export function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, owned by someone else.
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/** Expires the leases held by dead processes of this host; returns how many jobs were freed. */
export async function reclaimLeasesOfDeadProcesses(db: Db, host: string, alive: (pid: number) => boolean = processExists): Promise<number> {
  if (db.dialect !== 'sqlite') return 0;
  const dead = (await activeLeases(db)).filter((l) => {
    const pid = leaseHolderPid(l.owner, host);
    return pid !== null && pid !== process.pid && !alive(pid);
  });
  return expireLeases(db, dead.map((l) => l.id));
}

/** Removes the temp uploads that dead processes were receiving (SQLite mode's file store). */
export async function removeUploadsOfDeadProcesses(logStore: LogStore, alive: (pid: number) => boolean = processExists): Promise<number> {
  return logStore.removeTempsOfGoneWriters ? logStore.removeTempsOfGoneWriters((pid) => !alive(pid)) : 0;
}

export interface MaintenanceDeps {
  db: Db;
  logStore: LogStore;
  idempotencyRetentionMs: number;
  orphanAgeMs: number;
  clock?: { now(): number };
}

export function maintenanceService(deps: MaintenanceDeps) {
  return {
    /** One sweep of everything that expired; skipped while another process sweeps. */
    sweep: (nowMs: number = (deps.clock ?? Date).now()) => sweepIfNoneRunning(deps, nowMs),
    /** Takes back the jobs and removes the temp uploads of dead processes of `host` (SQLite only). */
    async reclaimDeadProcesses(host: string): Promise<{ jobs: number; uploads: number }> {
      return { jobs: await reclaimLeasesOfDeadProcesses(deps.db, host), uploads: await removeUploadsOfDeadProcesses(deps.logStore) };
    },
  };
}

export type MaintenanceService = ReturnType<typeof maintenanceService>;
