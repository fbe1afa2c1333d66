// Operator endpoints, without authentication: liveness, readiness and Prometheus metrics. They
// reveal nothing about any account.
// Readiness: the database answers, the log store answers (the bucket, with VOUCH_LOG_STORE=s3://…),
// (the body's `checks` shows each, and how the rate-limit store is doing, which never makes it unready),
// and the data directory's file system has at least
// VOUCH_MIN_FREE_DISK_BYTES free, so that a load balancer stops sending uploads to a node that
// would answer them 507. A data directory that does not exist (PostgreSQL mode, where nothing
// is written there) is not checked.
import { statfs } from 'node:fs/promises';
import type { FastifyPluginAsync } from 'fastify';
import { HttpProblem } from '../problem.ts';

/** Bytes an unprivileged process can still write on the file system holding `dir`; null when `dir` does not exist. */
export async function freeDiskBytes(dir: string): Promise<number | null> {
  try {
    const s = await statfs(dir);
    return s.bavail * s.bsize;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

const healthRoutes: FastifyPluginAsync = async (app) => {
  const { services, metrics, config } = app.deps;
  const hide = { hide: true };

  app.get('/healthz', { schema: hide }, async () => ({ status: 'ok' }));

  app.get('/readyz', { schema: hide }, async (_req, reply) => {
    // Every check is made and shown in `checks`, ready or not; the first failing one decides the 503.
    const kind = services.health.logStoreKind;
    const database = await services.health.databaseReachable();
    const logStore = await services.health.logStoreReachable();
    const free = config.minFreeDiskBytes > 0 ? await freeDiskBytes(config.dataDir) : null;
    const diskLow = free !== null && free < config.minFreeDiskBytes;
    const checks = {
      database: database ? 'ok' : 'unreachable',
      log_store: `${kind}: ${logStore ? 'ok' : 'unreachable'}`,
      disk: free === null ? 'not checked' : diskLow ? `${free} bytes free, below VOUCH_MIN_FREE_DISK_BYTES` : 'ok',
      // Optional: a rate-limit store that fails is skipped (requests are let through), never a reason to be unready.
      rate_limit_store: app.rateLimitStoreStatus(),
    };
    if (!database) throw new HttpProblem(503, 'not_ready', 'The database is not reachable.', { headers: { 'retry-after': '5' }, extensions: { checks }, fault: { kind: 'unavailable', dependency: 'database' } });
    if (!logStore) {
      throw new HttpProblem(503, 'not_ready', `The log store (${kind}) is not reachable.`, {
        headers: { 'retry-after': '5' },
        extensions: { log_store: kind, checks },
        fault: { kind: 'unavailable', dependency: kind === 's3' ? 'object_store' : kind === 'database' ? 'database' : 'disk' },
      });
    }
    if (diskLow) {
      throw new HttpProblem(503, 'not_ready', 'The data directory has less free space than VOUCH_MIN_FREE_DISK_BYTES.', {
        headers: { 'retry-after': '5' },
        extensions: { free_bytes: free, min_free_bytes: config.minFreeDiskBytes, checks },
        // Logged like the outage it is (once, not per probe): see problem-details.ts.
        fault: { kind: 'storage_full', dependency: 'disk' },
      });
    }
    return reply.send({ status: 'ready', checks });
  });

  app.get('/metrics', { schema: hide }, async (_req, reply) => {
    const body = await metrics.registry.metrics();
    return reply.type(metrics.registry.contentType).send(body);
  });
};

export default healthRoutes;
