// A limit shared by several dashboard routes (the built-in per-route limit counts each route
// apart): one counter per key across every route that uses the same limiter, in the same store
// as the API's limits (Redis, PostgreSQL or memory: plugins/external/rate-limit-store.ts).
// Over the limit: 429 with Retry-After, as an HTML page for a browser.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpProblem } from '../problem.ts';

export interface AttemptLimit {
  max: number;
  windowMs: number;
  /** The counter a request counts against (e.g. the client address, the account). */
  key: (req: FastifyRequest) => string;
  /** What the refusal says, before "retry after N s". */
  message: string;
}

/** A preHandler counting each request against the limit, refusing past it. */
export function attemptLimiter(app: FastifyInstance, limit: AttemptLimit): (req: FastifyRequest) => Promise<void> {
  const check = app.createRateLimit({ max: limit.max, timeWindow: limit.windowMs, keyGenerator: limit.key });
  return async (req) => {
    const state = await check(req);
    if (state.isAllowed || !state.isExceeded) return;
    req.log.info({ limit: limit.message }, 'attempt limit reached');
    const wait = Math.max(1, state.ttlInSeconds);
    throw new HttpProblem(429, 'rate_limited', `${limit.message} Retry after ${wait} s.`, { headers: { 'retry-after': String(wait) } });
  };
}
