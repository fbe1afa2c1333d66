// `vouch serve` (HTTP app, plus workers unless VOUCH_ROLE=api) and `vouch worker` (workers only).
// SIGTERM/SIGINT drain: stop accepting connections, let requests in flight finish, let running
// jobs finish within VOUCH_SHUTDOWN_TIMEOUT_MS and hand the rest back to the queue. A second
// signal, or the deadline passing, exits at once: the queue makes that safe.
// Part of the composition root: it gives the services to the two entry points it starts.
import { buildApp } from '../app/app.ts';
import { startWorkers } from '../worker/start-workers.ts';
import type { Workers } from '../worker/start-workers.ts';
import { openRuntime } from './open.ts';
import type { Runtime } from './open.ts';

type Stop = () => Promise<void>;

function onShutdown(rt: Runtime, stop: Stop): void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) {
      rt.log.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    stopping = true;
    rt.log.info({ signal }, 'shutting down');
    // The hard deadline leaves the queue to hand unfinished jobs to another worker.
    const deadline = setTimeout(() => {
      rt.log.error('shutdown deadline passed: exiting');
      process.exit(1);
    }, rt.services.config.shutdownTimeoutMs + 5_000);
    deadline.unref();
    stop().then(
      () => process.exit(0),
      (err: unknown) => {
        rt.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', handler);
  process.on('SIGINT', handler);
}

export async function runServe(): Promise<void> {
  const began = performance.now();
  const rt = await openRuntime();
  const { services, log } = rt;
  const { config } = services;
  const opened = performance.now();
  let workers: Workers | null = null;
  const app = await buildApp({ services, logger: log, onJobEnqueued: () => workers?.nudge() });
  const built = performance.now();
  await app.listen({ host: config.host, port: config.port });
  if (config.role === 'all') workers = startWorkers(services, { log });
  // Where a slow start went: the database (reachable, migrated), building the app, or binding.
  // performance.now() counts from the process's start: `load` is Node and the CLI's modules.
  const startup_ms = { total: Math.round(performance.now()), load: Math.round(began), database: Math.round(opened - began), app: Math.round(built - opened), listen: Math.round(performance.now() - built) };
  log.info({ role: config.role, public_url: config.publicUrl, database: services.health.databaseDialect, startup_ms }, 'vouch serving');
  onShutdown(rt, async () => {
    await Promise.all([app.close(), workers?.stop()]);
    await services.close();
  });
}

export async function runWorker(): Promise<void> {
  const rt = await openRuntime();
  const { services, log } = rt;
  const workers = startWorkers(services, { log });
  log.info({ database: services.health.databaseDialect, pool: services.config.analysis.poolSize, queues: services.config.jobs.queues }, 'vouch worker running');
  onShutdown(rt, async () => {
    await workers.stop();
    await services.close();
  });
}
