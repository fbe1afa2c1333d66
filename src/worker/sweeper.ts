// Periodic clean-up by the worker: rows that only matter for a while are deleted once they
// stopped mattering, so tables do not grow for ever.
//   - web sessions (sign-in cookies) past their expiry;
//   - idempotency keys older than VOUCH_IDEMPOTENCY_RETENTION_MS (a retry after that creates a
//     new session instead of replaying the first answer);
//   - rate-limit windows that have ended (PostgreSQL-shared counters);
//   - stored-log data that interrupted uploads left behind (log store);
//   - stored logs older than their account's retention period (the session and report stay);
//   - password-reset links past their expiry, and sign-in backoff counters idle for a day.
// Every worker process sweeps; the deletes are idempotent, so concurrent sweeps are harmless.
import type { Db } from '../adapters/db/database.ts';
import { deleteIdempotencyKeysBefore } from '../adapters/db/repositories/idempotency.ts';
import { deleteEndedRateLimits } from '../adapters/db/repositories/rate-limits.ts';
import { deleteExpiredWebSessions } from '../adapters/db/repositories/web-sessions.ts';
import { deleteExpiredResets } from '../adapters/db/repositories/password-resets.ts';
import { deleteStaleThrottles } from '../adapters/db/repositories/sign-in-throttle.ts';
import type { JobLogger } from '../adapters/jobs/runner.ts';
import type { LogStore } from '../adapters/logstore/index.ts';
import { expireLogs } from '../services/retention.ts';

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

export interface Sweeper {
  stop(): Promise<void>;
}

/** Sweeps once shortly after start, then every `intervalMs`; a tick during a sweep is skipped. */
export function startSweeper(deps: SweepDeps & { intervalMs: number; log: JobLogger; onSwept?: (r: SweepResult) => void }): Sweeper {
  let running: Promise<void> | null = null;
  const sweep = () => {
    if (running) return;
    running = sweepOnce(deps)
      .then(
        (r) => {
          if (Object.values(r).some((n) => n > 0)) deps.log.info({ removed: r }, 'swept expired rows');
          deps.onSwept?.(r);
        },
        (err: unknown) => deps.log.warn({ err: String(err) }, 'sweep failed; trying again at the next interval'),
      )
      .finally(() => {
        running = null;
      });
  };
  const first = setTimeout(sweep, Math.min(deps.intervalMs, 5_000));
  const timer = setInterval(sweep, deps.intervalMs);
  first.unref();
  timer.unref();
  return {
    async stop() {
      clearTimeout(first);
      clearInterval(timer);
      await running;
    },
  };
}
