// One log line per request, at a level that depends on how it went. Fastify's own request
// logging writes two info lines per request ("incoming request", "request completed"), which
// at API request rates costs more CPU than serving a typical read. Here a request is logged once,
// when it ends: at info when it failed on our side (5xx) or was slow, at debug otherwise (set
// VOUCH_LOG_LEVEL=debug to see every request). Client errors are already logged at info by the
// error handler ("request refused"). The req/res serializers of logger.ts apply: method, route,
// redacted URL, ip and status only — never headers, keys or bodies.
import fp from 'fastify-plugin';

/** A request slower than this is logged at info whatever its outcome. */
export const SLOW_REQUEST_MS = 1000;

export default fp(async (app) => {
  app.addHook('onResponse', (req, reply, done) => {
    const elapsed = reply.elapsedTime;
    const level = reply.statusCode >= 500 || elapsed >= SLOW_REQUEST_MS ? 'info' : 'debug';
    req.log[level]({ req, res: reply, responseTime: elapsed }, 'request completed');
    done();
  });
}, { name: 'request-log', fastify: '5.x' });
