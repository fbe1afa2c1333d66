// Where the rate-limit counters live, so that every API process counts against ONE limit:
//   - Redis when VOUCH_REDIS_URL is set (@fastify/rate-limit's own Redis store, one Lua call);
//   - otherwise the database in PostgreSQL mode (rate_limits table, one upsert per request,
//     committed without waiting for the disk: see countRateLimitHit);
//   - otherwise (SQLite mode: one process serves the API) in process memory.
// A shared store that fails (Redis or the database briefly unreachable) lets requests through
// and logs a warning: the limit protects the service, it must not take it down.
import { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import type { FastifyRateLimitStore, RateLimitPluginOptions } from '@fastify/rate-limit';
import type { Db } from '../../../adapters/db/database.ts';
import { countRateLimitHit, readRateLimit } from '../../../adapters/db/repositories/rate-limits.ts';

type Callback = Parameters<FastifyRateLimitStore['incr']>[1];
/** What child() really receives: the route's merged limit options, with the route itself. */
interface RouteLimit {
  routeInfo: { method: string | string[]; url: string };
}

export type RateLimitBackend = 'redis' | 'database' | 'memory';

function databaseStoreClass(db: Db, log: FastifyBaseLogger) {
  const answer = (cb: Callback) => (r: { hits: number; resetAtMs: number }) => cb(null, { current: r.hits, ttl: Math.max(0, r.resetAtMs - Date.now()) });
  const failed = (cb: Callback) => (err: Error) => {
    log.warn({ err: err.message }, 'rate-limit counter unavailable; request let through');
    cb(err);
  };
  return class DatabaseRateLimitStore implements FastifyRateLimitStore {
    constructor(_options: unknown, private readonly prefix = 'rl:') {}

    incr(key: string, cb: Callback, timeWindow: number): void {
      countRateLimitHit(db, this.prefix + key, timeWindow).then(answer(cb), failed(cb));
    }

    read(key: string, cb: Callback): void {
      readRateLimit(db.kysely, this.prefix + key).then(answer(cb), failed(cb));
    }

    /** Routes with their own limit (sign-in) count under their own keys, as the built-in stores do. */
    child(route: unknown): DatabaseRateLimitStore {
      const { routeInfo } = route as RouteLimit;
      return new DatabaseRateLimitStore(route, `${this.prefix}${String(routeInfo.method)}${routeInfo.url}-`);
    }
  };
}

export interface RateLimitStoreOptions {
  /** Options to spread into the @fastify/rate-limit registration. */
  options: Pick<RateLimitPluginOptions, 'redis' | 'nameSpace' | 'store' | 'skipOnError'>;
  backend: RateLimitBackend;
  close(): Promise<void>;
}

export function rateLimitStore(opts: { redisUrl: string | null; db: Db; log: FastifyBaseLogger }): RateLimitStoreOptions {
  if (opts.redisUrl) {
    const redis = new Redis(opts.redisUrl, {
      // Fail fast instead of queueing requests behind a reconnecting client.
      maxRetriesPerRequest: 1,
      connectTimeout: 2_000,
      enableOfflineQueue: true,
    });
    redis.on('error', (err: Error) => opts.log.warn({ err: err.message }, 'redis connection error'));
    return {
      backend: 'redis',
      options: { redis, nameSpace: 'vouch-rate-limit:', skipOnError: true },
      close: async () => {
        await redis.quit().catch(() => redis.disconnect());
      },
    };
  }
  if (opts.db.dialect === 'postgres') {
    return { backend: 'database', options: { store: databaseStoreClass(opts.db, opts.log), skipOnError: true }, close: async () => {} };
  }
  return { backend: 'memory', options: {}, close: async () => {} };
}
