// Fixed-window rate-limit counters in the database, shared by every process on it. One
// statement per add: insert the key's window, or add to it — or start a new window when the
// stored one has ended. Atomic on both dialects (INSERT … ON CONFLICT DO UPDATE).
import { sql } from 'kysely';
import type { Db } from '../database.ts';
import { commitWithoutFlushWait } from '../durability.ts';
import type { DbExecutor } from './executor.ts';

export interface RateLimitHit {
  /** Hits in the current window, this one included. */
  hits: number;
  /** When the current window ends (epoch ms). */
  resetAtMs: number;
}

/** Adds `add` hits (default one) to the key's window, starting a new window when it has ended. */
export async function hitRateLimit(db: DbExecutor, key: string, windowMs: number, nowMs: number = Date.now(), add = 1): Promise<RateLimitHit> {
  const resetAt = nowMs + windowMs;
  const row = await db
    .insertInto('rate_limits')
    .values({ key, hits: add, reset_at_ms: resetAt })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        hits: sql<number>`case when rate_limits.reset_at_ms <= ${nowMs} then ${add} else rate_limits.hits + ${add} end`,
        reset_at_ms: sql<number>`case when rate_limits.reset_at_ms <= ${nowMs} then ${resetAt} else rate_limits.reset_at_ms end`,
      }),
    )
    .returning(['hits', 'reset_at_ms'])
    .executeTakeFirstOrThrow();
  return { hits: Number(row.hits), resetAtMs: Number(row.reset_at_ms) };
}

/**
 * Adds hits counted by one process (rate-limit-batch.ts gathers them). A counter is worth no
 * disk flush: on PostgreSQL the add commits without waiting for the WAL flush. A database crash
 * can forget the last few hundred milliseconds of hits — it forgives a few requests, nothing more.
 */
export async function addRateLimitHits(db: Db, key: string, windowMs: number, add: number): Promise<RateLimitHit> {
  if (db.dialect !== 'postgres') return hitRateLimit(db.kysely, key, windowMs, Date.now(), add);
  return db.kysely.transaction().execute(async (trx) => {
    await commitWithoutFlushWait(db, trx);
    return hitRateLimit(trx, key, windowMs, Date.now(), add);
  });
}

/** Removes windows that have ended (the sweeper). */
export async function deleteEndedRateLimits(db: DbExecutor, nowMs: number = Date.now()): Promise<number> {
  const r = await db.deleteFrom('rate_limits').where('reset_at_ms', '<=', nowMs).executeTakeFirst();
  return Number(r.numDeletedRows);
}
