// The per-key request counters shared by every API process through the database (PostgreSQL
// mode without Redis): the HTTP app's rate-limit store adds its batched hits here.
import type { Db } from '../adapters/db/database.ts';
import { addRateLimitHits } from '../adapters/db/repositories/rate-limits.ts';
import type { RateLimitHit } from '../adapters/db/repositories/rate-limits.ts';

export type { RateLimitHit };

export function rateLimitService(db: Db) {
  return {
    /** True when the database is shared by several processes (PostgreSQL): count there. */
    shared: db.dialect === 'postgres',
    /** Adds `hits` to the window of `key` (created for `windowMs` if none is open); the window after. */
    add: (key: string, windowMs: number, hits: number): Promise<RateLimitHit> => addRateLimitHits(db, key, windowMs, hits),
  };
}

export type RateLimitService = ReturnType<typeof rateLimitService>;
