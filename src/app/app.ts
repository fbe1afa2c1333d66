// The Fastify app: external plugins, then our app plugins, then routes by resource
// (the layout of fastify/demo). buildApp() neither listens nor starts workers: the CLI's
// `serve` does that, tests use inject() on the same app.
import Fastify, { LogController } from 'fastify';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { createLogger } from './logger.ts';
import { lazyChildLogger } from './lazy-logger.ts';
import type { AppDeps } from './types.ts';
import { registerExternalPlugins } from './plugins/external/index.ts';
import problemDetails, { sendProblem } from './plugins/app/problem-details.ts';
import responseHeaders, { defaultHeaders, newRequestId } from './plugins/app/response-headers.ts';
import metricsPlugin from './plugins/app/metrics.ts';
import requestLog from './plugins/app/request-log.ts';
import apiAuth from './plugins/app/api-auth.ts';
import healthRoutes from './routes/health.ts';
import sessionsRoutes from './routes/sessions/index.ts';
import webRoutes from './routes/web/index.ts';
import { SessionSchema, ProblemSchema } from './routes/sessions/schemas.ts';
import { toProblem } from './problem.ts';

export { createLogger };

function loggerOptions(deps: AppDeps): Pick<FastifyServerOptions, 'loggerInstance' | 'logger' | 'childLoggerFactory'> {
  if (deps.logger === false) return { logger: false };
  // The per-request child logger is created only when a request writes a line (lazy-logger.ts).
  return { loggerInstance: deps.logger ?? createLogger(deps.config.logLevel), childLoggerFactory: lazyChildLogger };
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    ...loggerOptions(deps),
    genReqId: () => newRequestId(),
    // Requests are logged once, by the request-log plugin (info only for failures and slow ones).
    logController: new LogController({ requestIdLogLabel: 'request_id', disableRequestLogging: true }),
    trustProxy: deps.config.trustProxy,
    bodyLimit: 1024 * 1024,
    routerOptions: { maxParamLength: 200, ignoreTrailingSlash: true },
    // Errors raised before routing (a malformed URL) still get a problem body and a Request-Id.
    frameworkErrors: (error, req, reply) => {
      reply.header('request-id', req.id);
      reply.headers(defaultHeaders(req.url, deps.config.publicUrl.startsWith('https:')));
      return sendProblem(req, reply, toProblem(error));
    },
  });
  app.decorate('deps', deps);
  app.decorateRequest('caller', null);
  app.decorateRequest('apiKeyHash', null);
  app.decorateRequest('webUser', null);
  app.decorateRequest('cspNonce', '');

  await registerExternalPlugins(app);
  await app.register(problemDetails);
  await app.register(responseHeaders);
  await app.register(metricsPlugin);
  await app.register(requestLog);
  app.addSchema(SessionSchema);
  app.addSchema(ProblemSchema);

  await app.register(healthRoutes);
  app.get('/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  await app.register(async (v1) => {
    await v1.register(apiAuth);
    await v1.register(sessionsRoutes, { prefix: '/sessions' });
  }, { prefix: '/v1' });
  await app.register(webRoutes);
  return app;
}
