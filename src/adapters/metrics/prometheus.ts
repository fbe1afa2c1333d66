// Prometheus instruments, one registry per process (not prom-client's global one, so that tests
// can build several apps side by side). The HTTP app records requests and upload bytes; the
// analysis worker records durations; queue depth and age are read from the jobs table on scrape.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Db } from '../db/database.ts';
import { queueStatsByKind } from '../jobs/queue.ts';

/** What createMetrics builds (services/ports.ts `Metrics` is the services' view of it). */
export type PrometheusMetrics = ReturnType<typeof createMetrics>;

interface Debug {
  debug(obj: object, msg?: string): void;
}

export function createMetrics(opts: { db?: Db; defaultMetrics?: boolean; log?: Debug } = {}) {
  const registry = new Registry();
  if (opts.defaultMetrics !== false) {
    collectDefaultMetrics({ register: registry, prefix: 'vouch_' });
    renameTotalGauges(registry);
  }
  const metrics = {
    registry,
    httpRequests: new Counter<'method' | 'route' | 'status'>({
      name: 'vouch_http_requests_total',
      help: 'HTTP requests by method, route template and status code',
      labelNames: ['method', 'route', 'status'],
      registers: [registry],
    }),
    httpDuration: new Histogram<'method' | 'route'>({
      name: 'vouch_http_request_duration_seconds',
      help: 'HTTP request duration by method and route template',
      labelNames: ['method', 'route'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10, 60],
      registers: [registry],
    }),
    uploadBytes: new Counter({
      name: 'vouch_upload_bytes_total',
      help: 'Bytes of session logs received (accepted or not)',
      registers: [registry],
    }),
    uploads: new Counter<'result'>({
      name: 'vouch_uploads_total',
      help: 'Upload attempts by result (accepted, replayed, rejected, aborted)',
      labelNames: ['result'],
      registers: [registry],
    }),
    rateLimitStoreUp: new Gauge({
      name: 'vouch_rate_limit_store_up',
      help: '1 while the rate-limit store answers; 0 while requests skip it (Redis unreachable or not answering within VOUCH_REDIS_TIMEOUT_MS) and are not limited',
      registers: [registry],
    }),
    analysisDuration: new Histogram<'result'>({
      name: 'vouch_analysis_duration_seconds',
      help: 'Time to analyse one stored log, by result (complete, error, timeout)',
      labelNames: ['result'],
      buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
      registers: [registry],
    }),
  };
  if (opts.db) registerQueueGauges(registry, opts.db, opts.log);
  return metrics;
}

/**
 * prom-client's default metrics include three gauges named `…_total` (active handles, requests
 * and resources), which Prometheus reserves for counters (`promtool check metrics` refuses
 * them). They are republished as `…_all` with the same values; the per-type gauges
 * (`vouch_nodejs_active_handles{type}` …) stay as they are.
 */
export const RENAMED_DEFAULT_GAUGES: Readonly<Record<string, string>> = {
  vouch_nodejs_active_handles_total: 'vouch_nodejs_active_handles_all',
  vouch_nodejs_active_requests_total: 'vouch_nodejs_active_requests_all',
  vouch_nodejs_active_resources_total: 'vouch_nodejs_active_resources_all',
};

function renameTotalGauges(registry: Registry): void {
  for (const [from, to] of Object.entries(RENAMED_DEFAULT_GAUGES)) {
    const original = registry.getSingleMetric(from);
    if (!original) continue; // not collected on this Node version
    registry.removeSingleMetric(from);
    new Gauge({
      name: to,
      help: `${(original as unknown as { help: string }).help} (all types)`,
      registers: [registry],
      async collect() {
        const { values } = await original.get();
        this.set(values.reduce((sum, v) => sum + v.value, 0));
      },
    });
  }
}

/** Depth and age of the oldest runnable job per kind, read at scrape time (one grouped query). */
function registerQueueGauges(registry: Registry, db: Db, log?: Debug): void {
  let pending: Promise<QueueStat[]> | null = null;
  // Both gauges are collected on the same scrape; share one query between them.
  const read = () => (pending ??= queueStats(db, log).finally(() => setTimeout(() => (pending = null), 0)));
  new Gauge({
    name: 'vouch_queue_depth',
    help: 'Jobs waiting or running, by kind',
    labelNames: ['kind'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const s of await read()) this.set({ kind: s.kind }, s.depth);
    },
  });
  new Gauge({
    name: 'vouch_queue_oldest_age_seconds',
    help: 'Age of the oldest job that is due, by kind (0 when none is due)',
    labelNames: ['kind'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const s of await read()) this.set({ kind: s.kind }, s.oldestAgeSeconds);
    },
  });
}

interface QueueStat {
  kind: string;
  depth: number;
  oldestAgeSeconds: number;
}

async function queueStats(db: Db, log?: Debug): Promise<QueueStat[]> {
  const now = new Date().toISOString();
  try {
    return (await queueStatsByKind(db, now)).map((r) => ({
      kind: r.kind,
      depth: r.depth,
      oldestAgeSeconds: r.oldestDue ? Math.max(0, (Date.parse(now) - Date.parse(r.oldestDue)) / 1000) : 0,
    }));
  } catch (error) {
    // A scrape must not fail because the database is briefly unreachable; /readyz reports that.
    log?.debug({ err: String(error) }, 'queue gauges: could not read the jobs table; reporting no queue for this scrape');
    return [];
  }
}
