// Headers every response carries: Request-Id (also in every log line and problem body, so a
// user's report can be matched to our logs) and conservative security headers. HTML pages set
// their own nonce-based CSP; everything else gets one that allows nothing.
import { randomBytes } from 'node:crypto';
import fp from 'fastify-plugin';

// A random per-process prefix and a counter: unique across processes and restarts, and cheap
// (no random bytes per request). Request ids identify, they do not authorise.
const PROCESS_PREFIX = randomBytes(6).toString('base64url');
let counter = 0;

export function newRequestId(): string {
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  return `req_${PROCESS_PREFIX}${counter.toString(36)}`;
}

/**
 * The headers every response starts with; a route may replace any of them (HTML pages set their
 * own nonce-based CSP, problem bodies their own cache-control). Set once when the request
 * arrives, in one call, rather than checked again at send time: per-request hooks are a large
 * share of a small route's CPU.
 */
export function defaultHeaders(url: string, https: boolean): Record<string, string> {
  // Sessions, reports and logs are an account's private data: no shared cache may keep them.
  if (url.startsWith('/v1/')) return https ? API_HTTPS : API;
  return https ? PLAIN_HTTPS : PLAIN;
}

const PLAIN: Record<string, string> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
};
const PLAIN_HTTPS = { ...PLAIN, 'strict-transport-security': 'max-age=31536000' };
const API = { ...PLAIN, 'cache-control': 'no-store' };
const API_HTTPS = { ...PLAIN_HTTPS, 'cache-control': 'no-store' };

export default fp(async (app) => {
  const https = app.deps.config.publicUrl.startsWith('https:');
  // A callback-style hook: an async hook costs a promise per request.
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('request-id', req.id);
    reply.headers(defaultHeaders(req.url, https));
    done();
  });
}, { name: 'response-headers', fastify: '5.x' });
