// Wires the job processors to runners: `analyze` (through the worker-thread pool) and the
// webhooks engineer's `deliver`. Two runners, so slow analyses never hold back webhook
// deliveries. Also sweeps what interrupted uploads left in the log store.
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
}

const SWEEP_EVERY_MS = 15 * 60_000;
/** Far above the longest upload: only truly abandoned temp data is removed. */
const ORPHAN_AGE_MS = 6 * 3600_000;

function startSweeper(logStore: LogStore, log: JobLogger): NodeJS.Timeout {
  const timer = setInterval(() => {
    logStore.sweepOrphans(ORPHAN_AGE_MS).then(
      (n) => n > 0 && log.info({ removed: n }, 'removed abandoned uploads'),
      (err: unknown) => log.warn({ err: String(err) }, 'upload sweep failed'),
    );
  }, SWEEP_EVERY_MS);
  timer.unref();
  return timer;
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
  const sweeper = startSweeper(deps.logStore, log);
  analyze.start();
  deliver.start();
  return {
    nudge() {
      analyze.nudge();
      deliver.nudge();
    },
    async stop() {
      clearInterval(sweeper);
      await Promise.all([analyze.stop(), deliver.stop()]);
      await Promise.all([analyzer.close(), delivery.close()]);
    },
  };
}
