// The Fastify app: external plugins, then our app plugins, then routes by resource
// (the layout of fastify/demo). buildApp() neither listens nor starts workers: the CLI's
// `serve` does that, tests use inject() on the same app.
import Fastify, { LogController } from 'fastify';
import type { FastifyBaseLogger, FastifyInstance, FastifyServerOptions } from 'fastify';
import { createLogger } from './logger.ts';
import { lazyChildLogger } from './lazy-logger.ts';
import type { AppDeps, AppOptions, RegisteredRoute } from './types.ts';
import { registerExternalPlugins } from './plugins/external/index.ts';
import problemDetails, { sendProblem } from './plugins/app/problem-details.ts';
import responseHeaders, { defaultHeaders, newRequestId } from './plugins/app/response-headers.ts';
import metricsPlugin from './plugins/app/metrics.ts';
import requestLog from './plugins/app/request-log.ts';
import bodyTimeouts from './plugins/app/body-timeouts.ts';
import apiAuth from './plugins/app/api-auth.ts';
import healthRoutes from './routes/health.ts';
import sessionsRoutes from './routes/sessions/index.ts';
import webRoutes from './routes/web/index.ts';
import auditEventRoutes, { AUDIT_COMPONENTS } from './routes/audit-events/index.ts';
import problemPages from './routes/problems.tsx';
import { API_COMPONENTS, REPORT_COMPONENTS } from './routes/sessions/schemas.ts';
import { toProblem } from './problem.ts';
import { clientErrorHandler } from './client-errors.ts';

export { createLogger };

function loggerOptions(deps: AppDeps): Pick<FastifyServerOptions, 'loggerInstance' | 'logger' | 'childLoggerFactory'> {
  if (deps.logger === false) return { logger: false };
  // The per-request child logger is created only when a request writes a line (lazy-logger.ts).
  return { loggerInstance: deps.logger ?? createLogger(deps.config.logLevel), childLoggerFactory: lazyChildLogger };
}

/** Node's header timeout: the body-rate window, never longer than the whole-request limit (Node refuses that). */
export function headerLimits(http: { requestTimeoutMs: number; bodyRateWindowMs: number }): { headersTimeout: number; connectionsCheckingInterval: number } {
  const headersTimeout = http.requestTimeoutMs > 0 ? Math.min(http.bodyRateWindowMs, http.requestTimeoutMs) : http.bodyRateWindowMs;
  return { headersTimeout, connectionsCheckingInterval: Math.min(1_000, headersTimeout) };
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { services } = options;
  if (!services.metrics) throw new Error('buildApp: the services were wired without metrics');
  const deps: AppDeps = { ...options, config: services.config, metrics: services.metrics };
  // The parser-error handler runs on the server, before any request object exists: it logs
  // through the app's logger, known once the app is built.
  const logRef: { current?: FastifyBaseLogger } = {};
  const app = Fastify({
    ...loggerOptions(deps),
    genReqId: () => newRequestId(),
    // Requests are logged once, by the request-log plugin (info only for failures and slow ones).
    logController: new LogController({ requestIdLogLabel: 'request_id', disableRequestLogging: true }),
    trustProxy: deps.config.trustProxy,
    bodyLimit: 1024 * 1024,
    // The whole request (headers and body) must arrive within this; Node answers 408 otherwise
    // (through clientErrorHandler below). See body-timeouts.ts.
    requestTimeout: deps.config.http.requestTimeoutMs,
    // The headers get the same bound as a stalled body: VOUCH_BODY_RATE_WINDOW_MS (15 s), checked
    // every second (Node's defaults, 60 s checked every 30 s, held a silent socket 60–90 s).
    http: headerLimits(deps.config.http),
    routerOptions: { maxParamLength: 200, ignoreTrailingSlash: true },
    // Errors raised before routing (a malformed URL) still get a problem body and a Request-Id.
    frameworkErrors: (error, req, reply) => {
      reply.header('request-id', req.id);
      reply.headers(defaultHeaders(req.url, deps.config.publicUrl.startsWith('https:')));
      return sendProblem(req, reply, toProblem(error));
    },
    // …and so do requests that Node's HTTP parser refuses (oversized headers, bad Content-Length).
    clientErrorHandler: (error, socket) => clientErrorHandler(logRef.current, deps.config.publicUrl, error, socket),
  });
  logRef.current = app.log;
  app.decorate('deps', deps);
  // Every route as registered (method, URL, schema): for the OpenAPI coverage test.
  const routes: RegisteredRoute[] = [];
  app.decorate('registeredRoutes', routes);
  app.addHook('onRoute', (r) => {
    for (const method of ([] as string[]).concat(r.method)) routes.push({ method, url: r.url, hidden: r.schema?.hide === true });
  });
  app.decorateRequest('caller', null);
  app.decorateRequest('apiKeyHash', null);
  app.decorateRequest('webUser', null);
  app.decorateRequest('cspNonce', '');

  await registerExternalPlugins(app);
  await app.register(problemDetails);
  await app.register(responseHeaders);
  await app.register(metricsPlugin);
  await app.register(requestLog);
  await app.register(bodyTimeouts);
  for (const schema of [...REPORT_COMPONENTS, ...API_COMPONENTS, ...AUDIT_COMPONENTS]) app.addSchema(schema);

  await app.register(healthRoutes);
  await app.register(problemPages);
  app.get('/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  await app.register(async (v1) => {
    await v1.register(apiAuth);
    await v1.register(sessionsRoutes, { prefix: '/sessions' });
    await v1.register(auditEventRoutes, { prefix: '/audit-events' });
  }, { prefix: '/v1' });
  await app.register(webRoutes);
  return app;
}
