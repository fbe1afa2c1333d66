// Starts the worker's job runners over the services: `analyze` (through the analysis service's
// worker-thread pool) and `deliver` (webhooks). Two runners, so slow analyses never hold back
// webhook deliveries; VOUCH_WORKER_QUEUES runs only one of them, so that an operator can run the
// queues in separate processes (a worker killed in the middle of an analysis then takes no
// webhook request down with it). On stop (SIGTERM) each runner lets its jobs finish within
// VOUCH_SHUTDOWN_TIMEOUT_MS and hands the rest back to the queue. Also runs the sweeper
// (expired sign-ins, old idempotency keys, ended rate-limit windows, what interrupted uploads
// left in the log store).
import { hostname } from 'node:os';
import type { JobRunner, Log, Services, SweepResult } from '../services/index.ts';
import { ANALYZE_JOB } from '../services/sessions.ts';
import { DELIVER_JOB_KIND } from '../services/webhooks/deliver-job.ts';
import { analyzeProcessor } from './analyze.ts';
import { deliverProcessor } from './deliver-webhook.ts';
import { startSweeper } from './sweeper.ts';

export interface Workers {
  /** Look for work now (after an upload in this process). */
  nudge(): void;
  /** Stop claiming; finish running jobs within the shutdown timeout, release the rest (services.close() is the caller's). */
  stop(): Promise<void>;
}

export interface WorkerOptions {
  log: Log;
  /** Called after each sweep (tests wait on it). */
  onSwept?: (result: SweepResult) => void;
}

export function startWorkers(services: Services, opts: WorkerOptions): Workers {
  const { config } = services;
  const { log } = opts;
  const owner = `${hostname()}:${process.pid}`;
  const queues = new Set(config.jobs.queues);
  const runners: JobRunner[] = [];
  if (queues.has('analyze')) runners.push(services.jobs({ owner: `${owner}:analyze`, concurrency: config.analysis.poolSize, processors: { [ANALYZE_JOB]: analyzeProcessor(services.analysis) } }));
  if (queues.has('deliver')) runners.push(services.jobs({ owner: `${owner}:deliver`, concurrency: config.jobs.deliverConcurrency, processors: { [DELIVER_JOB_KIND]: deliverProcessor(services.deliveries) } }));
  const sweeper = startSweeper(services.maintenance, { log, intervalMs: config.sweep.intervalMs, onSwept: opts.onSwept });
  let stopped = false;
  // Jobs a crashed process of this machine held are taken back first (maintenance service), so
  // the runners' first claim finds them; a failure here only means waiting for their leases.
  const started = services.maintenance.reclaimDeadProcesses(hostname())
    .then(
      (n) => (n.jobs > 0 || n.uploads > 0) && log.info({ jobs: n.jobs, temp_uploads: n.uploads }, 'took back the jobs and removed the temp uploads of processes that died'),
      (err: unknown) => log.warn({ err: String(err) }, 'could not take back the jobs of dead processes; their leases will expire'),
    )
    .then(() => {
      if (stopped) return;
      for (const r of runners) r.start();
    });

  return {
    nudge() {
      for (const r of runners) r.nudge();
    },
    async stop() {
      stopped = true;
      await started;
      await sweeper.stop();
      await Promise.all(runners.map((r) => r.stop()));
    },
  };
}
