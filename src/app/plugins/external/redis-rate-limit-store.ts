// The Redis rate-limit store with a time limit: @fastify/rate-limit's own RedisStore (one Lua
// call per request), each call given VOUCH_REDIS_TIMEOUT_MS (default 50 ms) to answer. A Redis
// that accepts connections but does not answer (stopped, swapping, overloaded) would otherwise
// cost every request the client's command timeout. The first call that runs out of time
// switches the store to "not answering": every request skips it (fail open, as when Redis is
// down: skipOnError), the switch is logged once at error level, and a PING every second looks
// for Redis to answer again, which switches it back (logged at info). The state is shown by
// /readyz (`checks.rate_limit_store`) and /metrics (`vouch_rate_limit_store_up`).
import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';
import type { FastifyRateLimitStore } from '@fastify/rate-limit';

type Callback = Parameters<FastifyRateLimitStore['incr']>[1];
interface InnerStore {
  incr(key: string, cb: Callback, timeWindow: number, max: number): void;
  child(routeOptions: unknown): InnerStore;
}
type RedisStoreCtor = new (continueExceeding: boolean, exponentialBackoff: boolean, redis: Redis, key?: string) => InnerStore;
// Not exported by the package's entry point; the file is part of its published layout.
const RedisStore = createRequire(import.meta.url)('@fastify/rate-limit/store/RedisStore.js') as RedisStoreCtor;

export type RedisState = 'ok' | 'unavailable' | 'not_answering';

export interface GuardedRedisStore {
  /** The store class to give @fastify/rate-limit (`store`). */
  Store: new (params: { continueExceeding?: boolean; exponentialBackoff?: boolean }) => FastifyRateLimitStore;
  state(): RedisState;
  close(): void;
}

export interface GuardOptions {
  timeoutMs: number;
  nameSpace: string;
  /** Called on every change between answering and not answering. */
  onChange(answering: boolean): void;
  log: { error(obj: object, msg: string): void; info(obj: object, msg: string): void };
  probeEveryMs?: number;
}

const SKIPPED = Object.assign(new Error('redis is not answering: rate limit skipped'), { code: 'REDIS_NOT_ANSWERING' });

export function guardRedisStore(redis: Redis, o: GuardOptions): GuardedRedisStore {
  let answering = true;
  let probe: NodeJS.Timeout | undefined;

  function notAnswering(): void {
    if (!answering) return;
    answering = false;
    o.onChange(false);
    o.log.error({ timeout_ms: o.timeoutMs }, `redis did not answer within ${o.timeoutMs} ms: rate limits are skipped (not enforced) until it answers again`);
    let inFlight = false;
    probe = setInterval(() => {
      if (inFlight) return;
      inFlight = true;
      withTimeout((cb) => redis.ping((err) => cb(err ?? null)), Math.max(o.timeoutMs, 250), (err) => {
        inFlight = false;
        if (err || answering) return;
        answering = true;
        clearInterval(probe);
        o.onChange(true);
        o.log.info({}, 'redis answers again: rate limits are enforced');
      });
    }, o.probeEveryMs ?? 1_000);
    probe.unref();
  }

  class GuardedStore implements FastifyRateLimitStore {
    readonly #inner: InnerStore;
    constructor(params: { continueExceeding?: boolean; exponentialBackoff?: boolean }, inner?: InnerStore) {
      this.#inner = inner ?? new RedisStore(params.continueExceeding ?? false, params.exponentialBackoff ?? false, redis, o.nameSpace);
    }

    incr(key: string, cb: Callback, timeWindow: number, max: number): void {
      if (!answering) {
        cb(SKIPPED, null as never);
        return;
      }
      withTimeout((done) => this.#inner.incr(key, (err, res) => done(err, res), timeWindow, max), o.timeoutMs, (err, res) => {
        if (err === TIMED_OUT) notAnswering();
        if (err) cb(err, null as never);
        else cb(null, res as never);
      });
    }

    child(routeOptions: unknown): GuardedStore {
      return new GuardedStore({}, this.#inner.child(routeOptions));
    }
  }

  return {
    Store: GuardedStore,
    state: () => (!answering ? 'not_answering' : redis.status === 'ready' ? 'ok' : 'unavailable'),
    close: () => clearInterval(probe),
  };
}

const TIMED_OUT = new Error('redis did not answer in time');

/**
 * Runs `call`, giving it `ms` to call back; otherwise `done(TIMED_OUT)` and its late answer is
 * ignored. The verdict waits for the I/O phase after the timer: when the whole process was
 * stalled (a busy machine), an answer already in the socket counts, not the stall.
 */
function withTimeout<T>(call: (cb: (err: Error | null, res?: T) => void) => void, ms: number, done: (err: Error | null, res?: T) => void): void {
  let settled = false;
  const timer = setTimeout(() => setImmediate(() => {
    if (settled) return;
    settled = true;
    done(TIMED_OUT);
  }), ms);
  call((err, res) => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    done(err, res);
  });
}
