// Operator endpoints, without authentication: liveness, readiness (the database and the log
// store answer) and Prometheus metrics. They reveal nothing about any account.
import type { FastifyPluginAsync } from 'fastify';
import { HttpProblem } from '../problem.ts';

const healthRoutes: FastifyPluginAsync = async (app) => {
  const { db, logStore, metrics } = app.deps;
  const hide = { hide: true };

  app.get('/healthz', { schema: hide }, async () => ({ status: 'ok' }));

  app.get('/readyz', { schema: hide }, async () => {
    const [database, store] = await Promise.all([db.ping(), logStore.ping()]);
    const checks = { database: database ? 'ok' : 'unreachable', log_store: { kind: logStore.kind, status: store ? 'ok' : 'unreachable' } };
    if (!database || !store) {
      const down = [database ? null : 'the database', store ? null : `the log store (${logStore.kind})`].filter(Boolean).join(' and ');
      throw new HttpProblem(503, 'not_ready', `Not reachable: ${down}.`, { extensions: { checks } });
    }
    return { status: 'ready', checks };
  });

  app.get('/metrics', { schema: hide }, async (_req, reply) => {
    const body = await metrics.registry.metrics();
    return reply.type(metrics.registry.contentType).send(body);
  });
};

export default healthRoutes;
