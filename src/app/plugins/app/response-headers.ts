// Headers every response carries: Request-Id (also in every log line and problem body, so a
// user's report can be matched to our logs) and conservative security headers. HTML pages set
// their own nonce-based CSP; everything else gets one that allows nothing.
import { randomBytes } from 'node:crypto';
import { sharedPlugin } from '../../plugin.ts';

// A random per-process prefix and a counter: unique across processes and restarts, and cheap
// (no random bytes per request). Request ids identify, they do not authorise.
const PROCESS_PREFIX = randomBytes(6).toString('base64url');
let counter = 0;

export function newRequestId(): string {
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  return `req_${PROCESS_PREFIX}${counter.toString(36)}`;
}

export default sharedPlugin('response-headers', async (app) => {
  const https = app.deps.config.publicUrl.startsWith('https:');
  // Callback-style hooks: they run on every response, and an async hook costs a promise each.
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('request-id', req.id);
    done();
  });
  app.addHook('onSend', (req, reply, payload, done) => {
    reply.header('request-id', req.id);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    if (!reply.hasHeader('content-security-policy')) {
      reply.header('content-security-policy', "default-src 'none'; frame-ancestors 'none'");
    }
    if (https) reply.header('strict-transport-security', 'max-age=31536000');
    // Sessions, reports and logs are an account's private data: no shared cache may keep them.
    if (req.url.startsWith('/v1/') && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    done(null, payload);
  });
});
