// Operator endpoints, without authentication: liveness, readiness (the database answers) and
// Prometheus metrics. They reveal nothing about any account.
import type { FastifyPluginAsync } from 'fastify';
import { HttpProblem } from '../problem.ts';

const healthRoutes: FastifyPluginAsync = async (app) => {
  const { db, metrics } = app.deps;
  const hide = { hide: true };

  app.get('/healthz', { schema: hide }, async () => ({ status: 'ok' }));

  app.get('/readyz', { schema: hide }, async () => {
    if (!(await db.ping())) throw new HttpProblem(503, 'not_ready', 'The database is not reachable.');
    return { status: 'ready' };
  });

  app.get('/metrics', { schema: hide }, async (_req, reply) => {
    const body = await metrics.registry.metrics();
    return reply.type(metrics.registry.contentType).send(body);
  });
};

export default healthRoutes;
