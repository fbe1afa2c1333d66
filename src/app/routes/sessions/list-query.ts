// What the JSON Schema of the list query cannot say, checked around it:
// - `limit`/`page` are decimal digits. Ajv's type coercion turns "0x10" into 16 and "Infinity"
//   or "1e309" into Infinity (which then passes min/max checks oddly and reaches the database),
//   so the raw strings are checked before validation.
// - `created_after`/`created_before` are real instants. RFC 3339 allows second 60 (a leap
//   second), which the date-time format accepts but a JavaScript Date cannot represent.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { validationFailed } from '../../problem.ts';
import type { HttpProblem } from '../../problem.ts';
import type { FieldError } from '../../problem.ts';
import { PAGE_MAX } from './schemas.ts';

const DECIMAL = /^[0-9]{1,9}$/;
const RANGES: Record<string, [number, number]> = { limit: [1, 100], page: [1, PAGE_MAX] };

function decimalProblem(name: string, value: unknown): FieldError | null {
  if (value === undefined) return null;
  const [min, max] = RANGES[name];
  if (Array.isArray(value)) return { pointer: `/query/${name}`, detail: 'must be given once' };
  if (typeof value !== 'string' || !DECIMAL.test(value)) {
    return { pointer: `/query/${name}`, detail: `must be a decimal integer from ${min} to ${max} (digits only)` };
  }
  return null;
}

/** preValidation hook of the paged lists (GET /v1/sessions, GET /v1/audit-events). */
export function listQueryChecks(req: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void): void {
  done(rawQueryProblem(req));
}

function rawQueryProblem(req: FastifyRequest): HttpProblem | undefined {
  const query = (req.query ?? {}) as Record<string, unknown>;
  const errors = Object.keys(RANGES).map((name) => decimalProblem(name, query[name])).filter((e): e is FieldError => e !== null);
  return errors.length > 0 ? validationFailed(errors) : undefined;
}

const deferred = new WeakMap<FastifyRequest, HttpProblem>();

/**
 * The same check for a route that checks the key inside its own read (api-auth.ts
 * checkedInput): the problem is kept for the handler, which answers it after the key.
 */
export function listQueryChecksDeferred(req: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void): void {
  const problem = rawQueryProblem(req);
  if (problem) deferred.set(req, problem);
  done();
}

/** The problem listQueryChecksDeferred found in the raw query, if any. */
export function deferredQueryProblem(req: FastifyRequest): HttpProblem | undefined {
  return deferred.get(req);
}

/**
 * A validated date-time filter → the stored timestamp form (ISO with milliseconds, UTC), which
 * compares correctly as text; 422 for an instant that passes the format but does not exist.
 */
export function instantOrProblem(value: string | undefined, name: string): string | undefined {
  if (value === undefined) return undefined;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) {
    throw validationFailed([{ pointer: `/query/${name}`, detail: 'must be a real instant (RFC 3339; second 60, a leap second, cannot be used)' }]);
  }
  return new Date(ms).toISOString();
}

/** Link header (RFC 8288) with first/prev/next/last of a paged list at `url`, keeping the filters of the request. */
export function pageLinks(url: string, q: { limit: number; page: number } & Record<string, unknown>, total: number): string {
  const last = Math.max(1, Math.ceil(total / q.limit));
  const link = (page: number) => {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(q)) if (v !== undefined && k !== 'page') params.set(k, String(v));
    params.set('page', String(page));
    return `<${url}?${params}>`;
  };
  const links = [`${link(1)}; rel="first"`, `${link(last)}; rel="last"`];
  if (q.page > 1) links.push(`${link(Math.min(q.page - 1, last))}; rel="prev"`);
  if (q.page < last) links.push(`${link(q.page + 1)}; rel="next"`);
  return links.join(', ');
}
