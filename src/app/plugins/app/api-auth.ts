// Bearer-key authentication and per-key rate limiting for the /v1 scope (registered inside it).
// - The key is accepted only in `Authorization: Bearer …`; a key in the query string is refused
//   (URLs end up in proxy logs and browser history), even when a header is also present.
// - 401 carries `WWW-Authenticate: Bearer realm="vouch"`, plus `error="invalid_token"` when a
//   key was sent but is malformed, unknown or revoked (RFC 6750 §3).
// - The limit is counted per key (not per IP: CI fleets share addresses), and every answer says
//   where the caller stands with RateLimit-Policy / RateLimit (draft-ietf-httpapi-ratelimit-headers).
// - Every /v1 route declares the one scope a key needs for it (`config.scope`, and the same in
//   its OpenAPI `security`; a route without one fails at start-up). A valid key without it gets
//   403 `insufficient_scope` naming the scope (RFC 6750 §3.1), before the route does anything.
import type { FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { HttpProblem } from '../../problem.ts';
import { hashApiKey } from '../../../services/keys.ts';
import type { KeyOwner } from '../../../services/keys.ts';
import { KEY_PATTERN, isWellFormedKey } from '../../../kernel/key-format.ts';
import { isScope, SCOPES } from '../../../services/scopes.ts';
import type { Scope } from '../../../services/scopes.ts';

/** A route's OpenAPI `security`: the bearer key, with the scope it needs. */
export function needsScope(scope: Scope): { security: { bearerAuth: Scope[] }[] } {
  return { security: [{ bearerAuth: [scope] }] };
}

/** The scope a /v1 route declares; start-up fails for a route without one, or one its OpenAPI does not state. */
function declaredScope(route: Pick<RouteOptions, 'config' | 'method' | 'url' | 'schema'>): Scope {
  const scope = (route.config as { scope?: unknown } | undefined)?.scope;
  if (!isScope(scope)) throw new Error(`API route ${String(route.method)} ${route.url} declares no scope (config.scope)`);
  const security = (route.schema as { security?: { bearerAuth?: string[] }[] } | undefined)?.security;
  if (security?.[0]?.bearerAuth?.[0] !== scope) throw new Error(`API route ${String(route.method)} ${route.url}: its schema's security must be needsScope('${scope}')`);
  return scope;
}

/** The 403 for a valid key that lacks the route's scope. */
export function insufficientScope(scope: Scope): HttpProblem {
  const detail = `This API key lacks the \`${scope}\` scope (${SCOPES[scope].toLowerCase()}). Create a key with it on Settings → API keys; a key never has more than its creator's role allows.`;
  return new HttpProblem(403, 'insufficient_scope', detail, {
    extensions: { required_scope: scope },
    headers: { 'www-authenticate': `${REALM}, error="insufficient_scope", scope="${scope}"` },
  });
}

/** Refuses the request unless the key has the scope of its route. */
function requireScope(req: FastifyRequest, owner: Pick<KeyOwner, 'scopes'>): void {
  const scope = req.routeOptions.config.scope;
  if (!scope) throw new Error(`API route ${req.routeOptions.url ?? req.url} reached without a declared scope`);
  if (!owner.scopes.includes(scope)) throw insufficientScope(scope);
}

const REALM = 'Bearer realm="vouch"';
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;
const CREDENTIAL_PARAMS = new Set(['access_token', 'api_key', 'apikey', 'key', 'token', 'bearer']);

function unauthorized(detail: string, error?: 'invalid_token' | 'invalid_request'): HttpProblem {
  const challenge = error ? `${REALM}, error="${error}", error_description="${detail.replace(/"/g, "'")}"` : REALM;
  return new HttpProblem(401, 'unauthorized', detail, { headers: { 'www-authenticate': challenge } });
}

/** The 401 for a key that is well formed but unknown or revoked. */
export function invalidKey(): HttpProblem {
  return unauthorized('The API key is not valid (unknown, revoked or mistyped).', 'invalid_token');
}

/**
 * For routes with `config.keyCheckedByRoute`: the hash of the presented key, to look it up in
 * the route's own read. Set by the hook below before the handler runs.
 */
export function presentedKeyHash(req: FastifyRequest): string {
  if (req.apiKeyHash === null) throw new Error('key-checked route reached without a presented key');
  return req.apiKeyHash;
}

/** For routes with `config.keyCheckedByRoute`: the read found the key active; this is its owner. */
export async function acceptKeyHolder(req: FastifyRequest, owner: KeyOwner): Promise<void> {
  req.caller = owner;
  await req.server.deps.services.keys.noteKeyUse(owner.keyId, req.ip);
  requireScope(req, owner);
}

/**
 * For routes with `config.keyCheckedByRoute` (and `attachValidation`): `check` checks their
 * input (req.validationError included) before their keyed read. A refused input is answered 401 all the same when the key is
 * unknown or revoked (as on every other route, where the key is checked first); otherwise with
 * the refusal.
 */
export async function checkedInput<T>(req: FastifyRequest, check: () => T): Promise<T> {
  try {
    return check();
  } catch (refusal) {
    const owner = await req.server.deps.services.keys.authenticateKeyHash(presentedKeyHash(req), req.ip);
    if (!owner) throw invalidKey();
    req.caller = owner;
    requireScope(req, owner);
    throw refusal;
  }
}

function credentialInQuery(req: FastifyRequest): boolean {
  const q = req.url.indexOf('?');
  if (q < 0) return false;
  const params = new URLSearchParams(req.url.slice(q + 1));
  for (const [name, value] of params) {
    if (CREDENTIAL_PARAMS.has(name.toLowerCase()) || KEY_PATTERN.test(value)) return true;
  }
  return false;
}

function presentedKey(req: FastifyRequest): string {
  const header = req.headers.authorization;
  if (header === undefined || header === '') {
    throw unauthorized('This endpoint needs an API key in an `Authorization: Bearer <key>` header.');
  }
  const m = BEARER.exec(header);
  if (!m) {
    const scheme = header.split(' ')[0];
    if (scheme.toLowerCase() !== 'bearer') throw unauthorized('Only the Bearer scheme is accepted: `Authorization: Bearer <key>`.');
    throw unauthorized('The Authorization header is malformed; expected `Bearer <key>`.', 'invalid_token');
  }
  return m[1];
}

export default fp(async (app) => {
  const { services, config } = app.deps;
  const limiter = app.createRateLimit({
    max: config.rateLimit.max,
    timeWindow: config.rateLimit.windowMs,
    // Per key, by its hash: known before any lookup, so routes that check the key inside
    // their own read are counted like the others.
    keyGenerator: (req) => req.apiKeyHash ?? req.ip,
  });
  const windowSeconds = Math.ceil(config.rateLimit.windowMs / 1000);
  app.addHook('onRoute', (route) => void declaredScope(route));

  app.addHook('onRequest', async (req, reply) => {
    if (credentialInQuery(req)) {
      throw unauthorized('API keys are accepted only in the Authorization header, never in the URL. Revoke a key that was sent in a URL.', 'invalid_request');
    }
    const presented = presentedKey(req);
    // The checksum rejects typos and random strings without touching the database.
    if (!isWellFormedKey(presented)) throw invalidKey();
    req.apiKeyHash = hashApiKey(presented);
    // Routes that read with the key check joined in look the key up themselves (one round trip).
    if (req.routeOptions.config.keyCheckedByRoute !== true) {
      const owner = await services.keys.authenticateKeyHash(req.apiKeyHash, req.ip);
      if (!owner) throw invalidKey();
      req.caller = owner;
    }

    const state = await limiter(req);
    if (state.isAllowed) return; // an allow-listed caller (none are configured today)
    reply.header('ratelimit-policy', `"per-key";q=${state.max};w=${windowSeconds}`);
    reply.header('ratelimit', `"per-key";r=${state.remaining};t=${state.ttlInSeconds}`);
    if (state.isExceeded) {
      throw new HttpProblem(429, 'rate_limited', `Too many requests for this key; at most ${state.max} per ${windowSeconds} s. Retry after ${state.ttlInSeconds} s.`, {
        headers: { 'retry-after': String(Math.max(1, state.ttlInSeconds)) },
      });
    }
  });
  // After the rate limit, so that refused calls count too; key-checked reads check it themselves.
  app.addHook('onRequest', async (req) => {
    if (req.caller && req.routeOptions.config.keyCheckedByRoute !== true) requireScope(req, req.caller);
  });
}, { name: 'api-auth', fastify: '5.x', dependencies: ['problem-details'] });
