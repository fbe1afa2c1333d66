// Wires the job processors to runners: `analyze` (through the worker-thread pool) and the
// webhooks engineer's `deliver`. Two runners, so slow analyses never hold back webhook
// deliveries. Also runs the sweeper (expired sign-ins, old idempotency keys, ended rate-limit
// windows, what interrupted uploads left in the log store).
import { hostname } from 'node:os';
import type { Db } from '../adapters/db/database.ts';
import { createJobRunner } from '../adapters/jobs/runner.ts';
import type { JobLogger } from '../adapters/jobs/runner.ts';
import type { LogStore } from '../adapters/logstore/index.ts';
import { createAnalysisPool } from '../adapters/analysis-pool/index.ts';
import type { Analyzer } from '../adapters/analysis-pool/index.ts';
import type { Config } from '../config.ts';
import type { Metrics } from '../services/metrics.ts';
import { ANALYZE_JOB } from '../services/sessions.ts';
import { DELIVER_JOB_KIND } from '../services/webhooks/index.ts';
import { createAnalyzeProcessor } from './analyze.ts';
import { createWebhookDelivery } from './deliver-webhook.ts';
import { orphanAgeMs, startSweeper } from './sweeper.ts';
import { reclaimLeasesOfDeadProcesses, removeUploadsOfDeadProcesses } from './reclaim.ts';
import type { SweepResult } from './sweeper.ts';

export interface Workers {
  /** Look for work now (after an upload in this process). */
  nudge(): void;
  /** Stop claiming; finish running jobs within the shutdown timeout, release the rest. */
  stop(): Promise<void>;
}

export interface WorkerDeps {
  config: Config;
  db: Db;
  logStore: LogStore;
  log: JobLogger;
  metrics?: Metrics;
  /** Tests pass an in-process analyzer; the default is a worker-thread pool. */
  analyzer?: Analyzer;
  /** Called after each sweep (tests wait on it). */
  onSwept?: (result: SweepResult) => void;
}

export function startWorkers(deps: WorkerDeps): Workers {
  const { config, db, log } = deps;
  const owner = `${hostname()}:${process.pid}`;
  const common = { db, log, pollMs: config.jobs.pollMs, leaseMs: config.jobs.leaseMs, stopTimeoutMs: config.shutdownTimeoutMs };
  const analyzer = deps.analyzer ?? createAnalysisPool({ size: config.analysis.poolSize, timeoutMs: config.analysis.timeoutMs, maxMemoryMb: 2048 });
  const analyze = createJobRunner({
    ...common,
    owner: `${owner}:analyze`,
    concurrency: config.analysis.poolSize,
    processors: {
      [ANALYZE_JOB]: createAnalyzeProcessor({ db, logStore: deps.logStore, analyzer, publicUrl: config.publicUrl, metrics: deps.metrics, log }),
    },
  });
  const delivery = createWebhookDelivery(db, config, { log });
  const deliver = createJobRunner({ ...common, owner: `${owner}:deliver`, concurrency: config.jobs.deliverConcurrency, processors: { [DELIVER_JOB_KIND]: delivery.processor } });
  const sweeper = startSweeper({
    db, logStore: deps.logStore, log, intervalMs: config.sweep.intervalMs, idempotencyRetentionMs: config.sweep.idempotencyRetentionMs, onSwept: deps.onSwept,
    orphanAgeMs: orphanAgeMs(config.http.requestTimeoutMs),
  });
  let stopped = false;
  // Jobs a crashed process of this machine held are taken back first (reclaim.ts), so the
  // runners' first claim finds them; a failure here only means waiting for their leases.
  const reclaim = async () => ({ jobs: await reclaimLeasesOfDeadProcesses(db, hostname()), uploads: await removeUploadsOfDeadProcesses(deps.logStore) });
  const started = reclaim()
    .then(
      (n) => (n.jobs > 0 || n.uploads > 0) && log.info({ jobs: n.jobs, temp_uploads: n.uploads }, 'took back the jobs and removed the temp uploads of processes that died'),
      (err: unknown) => log.warn({ err: String(err) }, 'could not take back the jobs of dead processes; their leases will expire'),
    )
    .then(() => {
      if (stopped) return;
      analyze.start();
      deliver.start();
    });

  return {
    nudge() {
      analyze.nudge();
      deliver.nudge();
    },
    async stop() {
      stopped = true;
      await started;
      await sweeper.stop();
      await Promise.all([analyze.stop(), deliver.stop()]);
      await Promise.all([analyzer.close(), delivery.close()]);
    },
  };
}
