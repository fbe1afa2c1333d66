// The composition root: the one place that builds adapters (database, log store, analysis pool,
// outbound HTTP client, mailer, metrics, job runners) and hands them to createServices()
// (services/index.ts). The entry points receive the service objects: the CLI opens them here,
// `serve`/`worker` (root/serve.ts) give them to the HTTP app and the worker.
import type pino from 'pino';
import { loadConfig } from '../config.ts';
import type { Config } from '../config.ts';
import { openDatabase } from '../adapters/db/database.ts';
import type { Db } from '../adapters/db/database.ts';
import { createLogStore } from '../adapters/logstore/index.ts';
import type { LogStore } from '../adapters/logstore/index.ts';
import type { Analyzer } from '../adapters/analysis-pool/index.ts';
import { createSsrfPolicy } from '../adapters/outbound/ssrf.ts';
import type { OutboundClient, Resolver } from '../adapters/outbound/index.ts';
import type { OidcRelyingParty, TxtResolver } from '../services/ports.ts';
import { createJobRunner } from '../adapters/jobs/job-runner.ts';
import { createSmtpMailer } from '../adapters/mail/index.ts';
import { classifyFault } from '../kernel/faults.ts';
import { createServices } from '../services/index.ts';
import type { Log, Mailer, Metrics, Services } from '../services/index.ts';

/** What tests and special set-ups may put in place of a built adapter. */
export interface WireOptions {
  log?: Log;
  /** An analyser (tests: a stub or an in-process one); default: a worker-thread pool, made on first use. */
  analyzer?: Analyzer;
  /** Resolves webhook hosts (tests); default: the system's resolver. */
  resolver?: Resolver;
  /** DNS TXT lookups for single sign-on domain verification (tests); default: node:dns. */
  resolveTxt?: TxtResolver;
  /** Null: no email (links are only shown); default: SMTP when VOUCH_SMTP_URL is set. */
  mailer?: Mailer | null;
  /** Prometheus instruments: `false` for none (one-shot commands); `{ defaultMetrics: false }` in tests. */
  metrics?: false | { defaultMetrics?: boolean };
  /** A log store built by the caller (tests: one signing with the S3 test server's keys); default: by VOUCH_LOG_STORE. */
  logStore?: LogStore;
  /** Tests: a shorter webhook auto-disable window, a fixed User-Agent version. */
  delivery?: { autoDisableAfterMs?: number; version?: string };
  /** services.close() closes the database too (openServices); default: the caller closes it. */
  closeDatabase?: boolean;
}

/** Made on first use, loaded then too: the one-shot commands never load what they do not call. */
function onFirstUse<T extends { close(): Promise<void> }>(make: () => Promise<T>) {
  let made: Promise<T> | undefined;
  return { get: () => (made ??= make()), close: async () => { if (made) await (await made).close(); } };
}

function lazyAnalyzer(config: Config): Analyzer {
  const pool = onFirstUse(async () => (await import('../adapters/analysis-pool/index.ts')).createAnalysisPool({
    size: config.analysis.poolSize, timeoutMs: config.analysis.timeoutMs, maxMemoryMb: 2048,
    // The API answers first: analyses take the CPU its requests leave (issue 30).
    background: true,
  }));
  return { analyze: async (...a) => (await pool.get()).analyze(...a), close: pool.close };
}

function lazyOutbound(config: Config, resolver: Resolver | undefined): OutboundClient {
  const client = onFirstUse(async () => (await import('../adapters/outbound/http-client.ts')).createOutboundClient({
    policy: createSsrfPolicy(config.webhooks.allowCidrs),
    timeoutMs: config.webhooks.timeoutMs,
    resolver,
    connectionsPerOrigin: Math.max(4, config.jobs.deliverConcurrency),
  }));
  return { post: async (...a) => (await client.get()).post(...a), close: client.close };
}

/**
 * The OpenID Connect relying party, loaded (with openid-client) at the first SSO request. Its
 * requests pass the SSRF guard with VOUCH_SSO_ALLOW_CIDRS, not the webhooks' allow-list: an
 * operator may trust an on-premises identity provider without trusting every private address.
 */
function lazyOidc(config: Config, resolver: Resolver | undefined): OidcRelyingParty {
  const policy = createSsrfPolicy(config.sso.allowCidrs, 'VOUCH_SSO_ALLOW_CIDRS'); // a typo stops the process now
  const rp = onFirstUse(async () => {
    const [{ createGuardedFetch }, { createOidcRelyingParty }] = await Promise.all([import('../adapters/outbound/guarded-fetch.ts'), import('../adapters/oidc/index.ts')]);
    const fetch = createGuardedFetch({ policy, timeoutMs: config.sso.timeoutMs, resolver });
    return createOidcRelyingParty({ fetch, allowHttpLoopback: config.sso.allowHttpLoopback });
  });
  return {
    check: async (...a) => (await rp.get()).check(...a),
    begin: async (...a) => (await rp.get()).begin(...a),
    complete: async (...a) => (await rp.get()).complete(...a),
    close: rp.close,
  };
}

/** Builds the adapters over an open database and the services over them. */
export async function wireServices(config: Config, db: Db, opts: WireOptions = {}): Promise<Services> {
  const log = opts.log;
  const mailer = opts.mailer !== undefined ? opts.mailer : config.smtp ? createSmtpMailer(config.smtp) : null;
  let metrics: Metrics | undefined;
  if (opts.metrics !== false) {
    const { createMetrics } = await import('../adapters/metrics/prometheus.ts');
    metrics = createMetrics({ db, defaultMetrics: opts.metrics?.defaultMetrics, log });
  }
  const services = createServices({
    config,
    db,
    logStore: opts.logStore ?? await createLogStore(db, config.dataDir, config.logStore, log ? { log } : {}),
    analyzer: opts.analyzer ?? lazyAnalyzer(config),
    outbound: lazyOutbound(config, opts.resolver),
    oidc: lazyOidc(config, opts.resolver),
    resolveTxt: opts.resolveTxt ?? (async (name) => (await import('node:dns/promises')).resolveTxt(name)),
    webhookTargets: { policy: createSsrfPolicy(config.webhooks.allowCidrs), resolver: opts.resolver },
    jobs: ({ owner, concurrency, processors }) => createJobRunner({
      db, owner, concurrency, processors, log, pollMs: config.jobs.pollMs, leaseMs: config.jobs.leaseMs, stopTimeoutMs: config.shutdownTimeoutMs,
    }),
    mailer,
    metrics,
    log,
    delivery: opts.delivery,
    closeDatabase: opts.closeDatabase ? () => db.close() : undefined,
  });
  return {
    ...services,
    close: async () => {
      await services.close();
      await mailer?.close();
    },
  };
}

/** The services of a long-running process (serve, worker) and its logger. */
export interface Runtime {
  services: Services;
  log: pino.Logger;
}

export interface OpenStoreOptions {
  /** Told about each failed attempt to reach the database at start, and the wait before the next. */
  onWait?: (error: unknown, retryInMs: number) => void;
  /** Told every few seconds while another process holds the migration lock (bounded by VOUCH_DB_STARTUP_TIMEOUT_MS). */
  onMigrationLockWait?: (waitedMs: number) => void;
  /** Told when an open connection to the database fails later (PostgreSQL restarted). */
  onConnectionError?: (error: Error) => void;
}

const STARTUP_RETRY_MS = [250, 500, 1_000, 2_000];

/**
 * Applies pending migrations, waiting for a database that is not reachable yet (starting
 * together with the service, restarting) up to VOUCH_DB_STARTUP_TIMEOUT_MS instead of exiting:
 * a process started during an outage comes up when the database does. Other errors (bad
 * credentials, a failed migration) fail at once.
 */
async function migrateWhenReachable(db: Db, config: Config, opts: OpenStoreOptions): Promise<void> {
  const deadline = Date.now() + config.databaseStartupTimeoutMs;
  for (let attempt = 0; ; attempt++) {
    try {
      await db.migrate({
        lockTimeoutMs: config.databaseStartupTimeoutMs,
        onLockWait: opts.onMigrationLockWait,
      });
      return;
    } catch (error) {
      const wait = STARTUP_RETRY_MS[Math.min(attempt, STARTUP_RETRY_MS.length - 1)];
      if (classifyFault(error)?.kind !== 'unavailable' || Date.now() + wait > deadline) throw error;
      opts.onWait?.(error, wait);
      await new Promise((r) => setTimeout(r, wait));
    }
  }
}

/**
 * Opens the database, applies pending migrations (safe with several processes starting) and
 * wires the services over it. `services.close()` closes everything, the database last.
 */
export async function openServices(config: Config = loadConfig(), opts: OpenStoreOptions & WireOptions = {}): Promise<Services> {
  const db = await openDatabase({ databaseUrl: config.databaseUrl ?? undefined, dataDir: config.dataDir, onConnectionError: opts.onConnectionError });
  try {
    await migrateWhenReachable(db, config, opts);
    return await wireServices(config, db, { ...opts, closeDatabase: true });
  } catch (error) {
    await db.close();
    throw error;
  }
}

/** The store plus the process logger (pino and its ~30 modules, so only serve and worker). */
export async function openRuntime(): Promise<Runtime> {
  const config = loadConfig();
  const { createLogger } = await import('../app/logger.ts');
  const log = createLogger(config.logLevel);
  const { OutageLog } = await import('../kernel/faults.ts');
  const outages = new OutageLog();
  const services = await openServices(config, {
    log,
    onWait: (error, retryInMs) => log.warn({ err: String(error), retry_in_ms: retryInMs }, 'database not reachable yet; waiting'),
    onMigrationLockWait: (waitedMs) => log.warn({ waited_ms: waitedMs, gives_up_after_ms: config.databaseStartupTimeoutMs }, 'waiting for the migration lock: another process is migrating the database'),
    // The failing statement reports the outage (once, error level); this only notes the connection.
    onConnectionError: (error) => {
      if (outages.note({ kind: 'unavailable', dependency: 'database' })) log.warn({ err: error.message }, 'database connection lost; the pool reconnects on demand');
    },
  });
  return { services, log };
}
