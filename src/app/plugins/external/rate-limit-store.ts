// Where the rate-limit counters live, so that every API process counts against ONE limit:
//   - Redis when VOUCH_REDIS_URL is set (@fastify/rate-limit's own Redis store, one Lua call);
//   - otherwise the database in PostgreSQL mode (rate_limits table). Hits are added in batches
//     while a key is far from its limit, and one by one near it (rate-limit-batch.ts), so that
//     most requests make no write and every refusal is decided on the exact shared count;
//   - otherwise (SQLite mode: one process serves the API) in process memory.
// A shared store that fails (Redis or the database briefly unreachable) lets requests through
// and logs a warning: the limit protects the service, it must not take it down. A Redis that
// does not answer within VOUCH_REDIS_TIMEOUT_MS is skipped the same way (redis-rate-limit-store.ts).
// status() says how the store is doing, for /readyz.
import { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import type { FastifyRateLimitStore, RateLimitPluginOptions } from '@fastify/rate-limit';
import type { RateLimitService } from '../../../services/rate-limits.ts';
import { BatchedCounter } from './rate-limit-batch.ts';
import { OutageLog } from '../../../kernel/faults.ts';
import { guardRedisStore } from './redis-rate-limit-store.ts';

type Callback = Parameters<FastifyRateLimitStore['incr']>[1];
/** What child() really receives: the route's merged limit options, with the route itself. */
interface RouteLimit {
  routeInfo: { method: string | string[]; url: string };
}

export type RateLimitBackend = 'redis' | 'database' | 'memory';

// A database outage fails every counter call (and every batch flush, each 100 ms): warned
// once per outage, the outage itself being logged at error level by the failing requests.
const counterOutages = new OutageLog();
const DATABASE_DOWN = { kind: 'unavailable', dependency: 'database' } as const;

function databaseStoreClass(log: FastifyBaseLogger, counter: BatchedCounter) {
  const answer = (cb: Callback) => (r: { hits: number; resetAtMs: number }) => cb(null, { current: r.hits, ttl: Math.max(0, r.resetAtMs - Date.now()) });
  const failed = (cb: Callback) => (err: Error) => {
    if (counterOutages.note(DATABASE_DOWN)) log.warn({ err: err.message }, 'rate-limit counter unavailable; requests let through');
    cb(err);
  };
  return class DatabaseRateLimitStore implements FastifyRateLimitStore {
    constructor(_options: unknown, private readonly prefix = 'rl:') {}

    incr(key: string, cb: Callback, timeWindow: number, max: number): void {
      counter.hit(this.prefix + key, timeWindow, max).then(answer(cb), failed(cb));
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
  /** For /readyz: "ok", or why requests are not being limited. */
  status(): string;
  close(): Promise<void>;
}

export interface RateLimitStoreInput {
  redisUrl: string | null;
  /** How long a Redis call may take before Redis is skipped (VOUCH_REDIS_TIMEOUT_MS). */
  redisTimeoutMs?: number;
  counters: RateLimitService;
  log: FastifyBaseLogger;
  /** Told whether the shared store answers (for the vouch_rate_limit_store_up gauge). */
  onAvailability?: (up: boolean) => void;
}

const REDIS_STATUS = {
  ok: 'ok',
  unavailable: 'unavailable: requests are not rate-limited until it is back',
  not_answering: 'not answering in time: skipped, requests are not rate-limited until it answers',
} as const;

export function rateLimitStore(opts: RateLimitStoreInput): RateLimitStoreOptions {
  if (opts.redisUrl) {
    const redis = new Redis(opts.redisUrl, {
      // Fail fast instead of queueing requests behind a reconnecting client. Until the first
      // connection, calls wait for it (the first requests after start are counted too); once
      // connected, the offline queue is switched off (below): while Redis is away every counter
      // call fails at once and the request goes through (skipOnError), rather than waiting
      // seconds for reconnection tries. A Redis that hangs: 1 s at most.
      maxRetriesPerRequest: 1,
      connectTimeout: 2_000,
      commandTimeout: 1_000,
      enableOfflineQueue: true,
    });
    // Without this listener a Redis outage would kill the process ('error' unhandled). ioredis
    // reconnects by itself (backing off up to 2 s) and reports every failed try: logged once
    // per outage; requests meanwhile are let through unlimited (skipOnError).
    const outages = new OutageLog();
    redis.on('error', (err: Error) => {
      opts.onAvailability?.(false);
      if (outages.note({ kind: 'unavailable', dependency: 'redis' })) opts.log.error({ err: err.message }, 'redis unavailable: rate limits are not enforced until it is back');
    });
    redis.on('ready', () => {
      // ioredis reads this option on every command.
      redis.options.enableOfflineQueue = false;
      opts.onAvailability?.(true);
      opts.log.info('redis connection ready');
    });
    const guarded = guardRedisStore(redis, { timeoutMs: opts.redisTimeoutMs ?? 50, nameSpace: 'vouch-rate-limit:', log: opts.log, onChange: (up) => opts.onAvailability?.(up) });
    return {
      backend: 'redis',
      options: { store: guarded.Store, skipOnError: true },
      status: () => `redis: ${REDIS_STATUS[guarded.state()]}`,
      close: async () => {
        guarded.close();
        await redis.quit().catch(() => redis.disconnect());
      },
    };
  }
  if (opts.counters.shared) {
    const { counters, log } = opts;
    const counter = new BatchedCounter({
      add: (key, add, windowMs) => counters.add(key, windowMs, add),
      onError: (err) => {
        if (counterOutages.note(DATABASE_DOWN)) log.warn({ err: err.message }, 'rate-limit counter unavailable; hits kept to add later');
      },
    });
    return { backend: 'database', options: { store: databaseStoreClass(log, counter), skipOnError: true }, status: () => 'database: ok', close: () => counter.close() };
  }
  return { backend: 'memory', options: {}, status: () => 'memory: ok', close: async () => {} };
}
