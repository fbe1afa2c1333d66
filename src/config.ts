// Environment → typed configuration, in one place (PRODUCT.md §8). Every process role (serve,
// worker, migrate, admin) reads the same variables through loadConfig(), so an admin command run
// beside a server talks to the same database. Bad values fail fast with every problem listed,
// rather than starting a service that misbehaves later.
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';

export type Role = 'all' | 'api';
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface Config {
  host: string;
  port: number;
  /** Base of report_url and of absolute links; no trailing slash. */
  publicUrl: string;
  /** Cookies get `Secure` (and the `__Host-` prefix) when the public URL is https. */
  secureCookies: boolean;
  dataDir: string;
  databaseUrl: string | null;
  role: Role;
  maxUploadBytes: number;
  logLevel: LogLevel;
  /** Passed to Fastify's trustProxy: only true behind a reverse proxy that sets X-Forwarded-For. */
  trustProxy: boolean;
  /**
   * loginMax: sign-in, sign-up, invitation and reset posts per client address, together;
   * webhookActionsMax: test events and redeliveries per account, together (both per window);
   * invitationsMax: invitations made per account, and per client address, per invitationWindowMs.
   */
  rateLimit: { max: number; windowMs: number; loginMax: number; webhookActionsMax: number; invitationsMax: number; invitationWindowMs: number };
  /** Shared rate-limit counters in Redis (redis:// or rediss://); else PostgreSQL, else in-process. */
  redisUrl: string | null;
  /** A Redis command slower than this skips the rate limit (fail open) until Redis answers again. */
  redisTimeoutMs: number;
  /** The worker's periodic clean-up: expired sign-ins, old idempotency keys, ended rate-limit windows. */
  sweep: { intervalMs: number; idempotencyRetentionMs: number };
  analysis: { timeoutMs: number; poolSize: number; maxAttempts: number };
  /** queues: which job queues a worker process runs (VOUCH_WORKER_QUEUES; both by default). */
  jobs: { pollMs: number; leaseMs: number; deliverConcurrency: number; queues: WorkerQueue[] };
  webhooks: { timeoutMs: number; retryDelaysMs: number[]; allowCidrs: string[] };
  webSessionTtlMs: number;
  /** `open`: anyone can create an account at /signup; `closed`: only operators (vouch admin) and invitations. */
  signup: 'open' | 'closed';
  shutdownTimeoutMs: number;
  /**
   * Bounds on every connection (docs/decisions.md, "Timeouts"): requestTimeoutMs for receiving
   * a whole request, headers included (0 disables); a body slower than minBodyBytesPerSec over
   * any window of bodyRateWindowMs is cut with 408 (0 disables).
   */
  http: { requestTimeoutMs: number; minBodyBytesPerSec: number; bodyRateWindowMs: number };
  /** /readyz answers 503 while the data directory's file system has less free space (0: not checked). */
  minFreeDiskBytes: number;
  /** How long a starting process waits for an unreachable database before giving up. */
  databaseStartupTimeoutMs: number;
  /** Invitation and reset links are also emailed when set (smtp:// or smtps://); else only shown to copy. */
  smtp: { url: string; from: string } | null;
  logStore: LogStoreConfig;
  sso: SsoConfig;
}

/** Single sign-on (docs/security.md, "Single sign-on"). */
export interface SsoConfig {
  /** VOUCH_SSO_SECRET_KEY: 32 bytes that seal the providers' client secrets; null: SSO cannot be configured. */
  secretKey: Buffer | null;
  /** The longest web session of a member signed in through SSO (VOUCH_SSO_SESSION_TTL_MS, default 12 h). */
  sessionTtlMs: number;
  /** Private ranges an issuer may resolve to (VOUCH_SSO_ALLOW_CIDRS, an on-premises Keycloak); default none. */
  allowCidrs: string[];
  /** VOUCH_SSO_ALLOW_HTTP_LOOPBACK: accept http:// issuers on a loopback address (development, tests). */
  allowHttpLoopback: boolean;
  /** Deadline of each request to a provider (discovery, keys, token). */
  timeoutMs: number;
}

/**
 * Where uploaded logs are kept (VOUCH_LOG_STORE), always resolved here: unset (or `default`), each
 * mode keeps its own — files under the data directory without DATABASE_URL, chunks in the
 * database with it. The log store adapter builds what this says and never looks at the dialect.
 */
export type LogStoreConfig =
  | { kind: 'file' }
  | { kind: 'database' }
  | {
      kind: 's3';
      bucket: string;
      /** Key prefix, '' or ending in '/'. */
      prefix: string;
      /** VOUCH_S3_ENDPOINT (MinIO, Ceph, R2…); null: AWS's own endpoint for the region. */
      endpoint: string | null;
      /** AWS_REGION / AWS_DEFAULT_REGION; null: the SDK's chain (~/.aws/config…) decides. */
      region: string | null;
      /** VOUCH_S3_FORCE_PATH_STYLE: bucket in the path, not the host name (most self-hosted servers). */
      forcePathStyle: boolean;
    };

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

/** Reads one variable at a time and remembers every problem, so all are reported together. */
class Reader {
  readonly problems: string[] = [];
  constructor(private readonly env: Env) {}

  raw(name: string): string | undefined {
    const v = this.env[name];
    return v === undefined || v.trim() === '' ? undefined : v.trim();
  }

  string(name: string, fallback: string): string {
    return this.raw(name) ?? fallback;
  }

  int(name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
    const v = this.raw(name);
    if (v === undefined) return fallback;
    const n = /^\d+$/.test(v) ? Number(v) : NaN;
    if (!Number.isSafeInteger(n) || n < min || n > max) {
      this.problems.push(`${name} must be an integer between ${min} and ${max} (got ${JSON.stringify(v)})`);
      return fallback;
    }
    return n;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const v = this.raw(name);
    if (v === undefined) return fallback;
    if ((allowed as readonly string[]).includes(v)) return v as T;
    this.problems.push(`${name} must be one of ${allowed.join(', ')} (got ${JSON.stringify(v)})`);
    return fallback;
  }

  bool(name: string, fallback: boolean): boolean {
    const v = this.raw(name)?.toLowerCase();
    if (v === undefined) return fallback;
    if (['1', 'true', 'yes'].includes(v)) return true;
    if (['0', 'false', 'no'].includes(v)) return false;
    this.problems.push(`${name} must be true or false (got ${JSON.stringify(v)})`);
    return fallback;
  }

  intList(name: string, fallback: number[]): number[] {
    const v = this.raw(name);
    if (v === undefined) return fallback;
    const parts = v.split(',').map((s) => s.trim());
    if (parts.some((p) => !/^\d+$/.test(p))) {
      this.problems.push(`${name} must be a comma-separated list of milliseconds (got ${JSON.stringify(v)})`);
      return fallback;
    }
    return parts.map(Number);
  }

  list(name: string): string[] {
    return (this.raw(name) ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  }
}

export const WORKER_QUEUES = ['analyze', 'deliver'] as const;
export type WorkerQueue = (typeof WORKER_QUEUES)[number];

/** VOUCH_WORKER_QUEUES: `analyze`, `deliver` or both (comma-separated); unset: both. */
function readWorkerQueues(r: Reader): WorkerQueue[] {
  const given = r.list('VOUCH_WORKER_QUEUES');
  if (given.length === 0) return [...WORKER_QUEUES];
  const unknown = given.filter((q) => !(WORKER_QUEUES as readonly string[]).includes(q));
  if (unknown.length > 0) r.problems.push(`VOUCH_WORKER_QUEUES must list ${WORKER_QUEUES.join(' and/or ')} (got ${JSON.stringify(unknown.join(','))})`);
  return WORKER_QUEUES.filter((q) => given.includes(q));
}

function defaultPoolSize(): number {
  return Math.max(1, availableParallelism() - 1);
}

function readPublicUrl(r: Reader, port: number): string {
  const v = r.string('VOUCH_PUBLIC_URL', `http://localhost:${port}`);
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    r.problems.push(`VOUCH_PUBLIC_URL must be an absolute http(s) URL (got ${JSON.stringify(v)})`);
    return `http://localhost:${port}`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    r.problems.push(`VOUCH_PUBLIC_URL must use http or https (got ${JSON.stringify(v)})`);
  }
  if (url.search || url.hash || url.username || url.password) {
    r.problems.push('VOUCH_PUBLIC_URL must not carry credentials, a query or a fragment');
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

function readRedisUrl(r: Reader): string | null {
  const v = r.raw('VOUCH_REDIS_URL');
  if (v === undefined) return null;
  // Do not echo the value: it may carry a password.
  if (!/^rediss?:\/\//i.test(v)) r.problems.push('VOUCH_REDIS_URL must be a redis:// or rediss:// URL');
  return v;
}

function readSmtp(r: Reader, publicUrl: string): Config['smtp'] {
  const url = r.raw('VOUCH_SMTP_URL');
  if (url === undefined) return null;
  // Do not echo the value: it may carry a password.
  if (!/^smtps?:\/\/[^/]/i.test(url)) r.problems.push('VOUCH_SMTP_URL must be an smtp:// or smtps:// URL');
  return { url, from: r.string('VOUCH_SMTP_FROM', `Vouch <vouch@${new URL(publicUrl).hostname}>`) };
}

// S3 bucket names: 3-63 lower-case letters, digits, dots and hyphens.
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

function readS3(r: Reader, url: string): LogStoreConfig {
  const m = /^s3:\/\/([^/]+)(?:\/(.*))?$/.exec(url);
  const bucket = m?.[1] ?? '';
  if (!BUCKET.test(bucket)) r.problems.push(`VOUCH_LOG_STORE must be s3://<bucket>[/<prefix>] with a valid bucket name (got ${JSON.stringify(url)})`);
  const prefix = (m?.[2] ?? '').replace(/^\/+|\/+$/g, '');
  const endpoint = r.raw('VOUCH_S3_ENDPOINT') ?? null;
  if (endpoint !== null && !/^https?:\/\/[^/\s]+/i.test(endpoint)) r.problems.push(`VOUCH_S3_ENDPOINT must be an http(s) URL (got ${JSON.stringify(endpoint)})`);
  return {
    kind: 's3',
    bucket,
    prefix: prefix === '' ? '' : `${prefix}/`,
    endpoint,
    region: r.raw('AWS_REGION') ?? r.raw('AWS_DEFAULT_REGION') ?? null,
    forcePathStyle: r.bool('VOUCH_S3_FORCE_PATH_STYLE', false),
  };
}

function readLogStore(r: Reader, databaseUrl: string | null): LogStoreConfig {
  const v = r.raw('VOUCH_LOG_STORE');
  const modeDefault: LogStoreConfig = databaseUrl ? { kind: 'database' } : { kind: 'file' };
  if (v === undefined || v === 'default') return modeDefault;
  if (v === 'file') return { kind: 'file' };
  if (v === 'database' || v === 'postgres') return { kind: 'database' };
  if (/^s3:\/\//i.test(v)) return readS3(r, v);
  r.problems.push(`VOUCH_LOG_STORE must be file, database (or postgres), or s3://<bucket>[/<prefix>] (got ${JSON.stringify(v)})`);
  return modeDefault;
}

/** 32 bytes, as 64 hex digits or base64 (44 characters). */
function readSsoKey(r: Reader): Buffer | null {
  const v = r.raw('VOUCH_SSO_SECRET_KEY');
  if (v === undefined) return null;
  const key = /^[0-9a-fA-F]{64}$/.test(v) ? Buffer.from(v, 'hex') : /^[A-Za-z0-9+/_-]{43}=?$/.test(v) ? Buffer.from(v, 'base64') : null;
  if (key?.length === 32) return key;
  r.problems.push('VOUCH_SSO_SECRET_KEY must be 32 random bytes as 64 hex digits or base64 (e.g. `openssl rand -base64 32`)');
  return null;
}

function readSso(r: Reader): SsoConfig {
  return {
    secretKey: readSsoKey(r),
    sessionTtlMs: r.int('VOUCH_SSO_SESSION_TTL_MS', 12 * 3600_000, 60_000),
    allowCidrs: r.list('VOUCH_SSO_ALLOW_CIDRS'),
    allowHttpLoopback: r.bool('VOUCH_SSO_ALLOW_HTTP_LOOPBACK', false),
    timeoutMs: r.int('VOUCH_SSO_TIMEOUT_MS', 10_000, 100),
  };
}

function readDatabaseUrl(r: Reader): string | null {
  const v = r.raw('DATABASE_URL');
  if (v === undefined) return null;
  if (!/^postgres(ql)?:\/\//i.test(v)) {
    // Do not echo the value: it usually carries a password.
    r.problems.push('DATABASE_URL must be a postgres:// or postgresql:// URL');
  }
  return v;
}

export function loadConfig(env: Env = process.env): Config {
  const r = new Reader(env);
  const port = r.int('PORT', 8080, 0, 65535);
  const publicUrl = readPublicUrl(r, port);
  const poolSize = r.int('VOUCH_ANALYSIS_POOL_SIZE', defaultPoolSize(), 1, 64);
  const databaseUrl = readDatabaseUrl(r);
  const config: Config = {
    host: r.string('HOST', '127.0.0.1'),
    port,
    publicUrl,
    secureCookies: publicUrl.startsWith('https:'),
    dataDir: resolve(r.string('VOUCH_DATA_DIR', './data')),
    databaseUrl,
    role: r.oneOf<Role>('VOUCH_ROLE', ['all', 'api'], 'all'),
    maxUploadBytes: r.int('VOUCH_MAX_UPLOAD_BYTES', 268_435_456, 1),
    logLevel: r.oneOf<LogLevel>('VOUCH_LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info'),
    trustProxy: r.bool('VOUCH_TRUST_PROXY', false),
    rateLimit: {
      max: r.int('VOUCH_RATE_LIMIT_MAX', 1200, 1),
      windowMs: r.int('VOUCH_RATE_LIMIT_WINDOW_MS', 60_000, 1000),
      loginMax: r.int('VOUCH_LOGIN_RATE_LIMIT_MAX', 20, 1),
      webhookActionsMax: r.int('VOUCH_WEBHOOK_ACTION_RATE_LIMIT_MAX', 10, 1),
      invitationsMax: r.int('VOUCH_INVITATION_RATE_LIMIT_MAX', 20, 1),
      invitationWindowMs: r.int('VOUCH_INVITATION_RATE_LIMIT_WINDOW_MS', 3_600_000, 1000),
    },
    redisUrl: readRedisUrl(r),
    redisTimeoutMs: r.int('VOUCH_REDIS_TIMEOUT_MS', 50, 1, 60_000),
    sweep: {
      intervalMs: r.int('VOUCH_SWEEP_INTERVAL_MS', 5 * 60_000, 10),
      idempotencyRetentionMs: r.int('VOUCH_IDEMPOTENCY_RETENTION_MS', 24 * 3600_000, 1000),
    },
    analysis: {
      timeoutMs: r.int('VOUCH_ANALYSIS_TIMEOUT_MS', 300_000, 100),
      poolSize,
      maxAttempts: r.int('VOUCH_ANALYSIS_MAX_ATTEMPTS', 3, 1, 20),
    },
    jobs: {
      pollMs: r.int('VOUCH_JOB_POLL_MS', 1000, 10),
      leaseMs: r.int('VOUCH_JOB_LEASE_MS', 30_000, 1000),
      deliverConcurrency: r.int('VOUCH_DELIVERY_CONCURRENCY', 4, 1, 256),
      queues: readWorkerQueues(r),
    },
    webhooks: {
      timeoutMs: r.int('VOUCH_WEBHOOK_TIMEOUT_MS', 10_000, 1),
      retryDelaysMs: r.intList('VOUCH_WEBHOOK_RETRY_DELAYS_MS', [5000, 30_000, 300_000]),
      allowCidrs: r.list('VOUCH_WEBHOOK_ALLOW_CIDRS'),
    },
    webSessionTtlMs: r.int('VOUCH_WEB_SESSION_TTL_MS', 12 * 3600_000, 60_000),
    signup: r.oneOf('VOUCH_SIGNUP', ['open', 'closed'] as const, 'open'),
    shutdownTimeoutMs: r.int('VOUCH_SHUTDOWN_TIMEOUT_MS', 20_000, 0),
    http: {
      requestTimeoutMs: r.int('VOUCH_REQUEST_TIMEOUT_MS', 600_000, 0),
      minBodyBytesPerSec: r.int('VOUCH_MIN_BODY_BYTES_PER_SEC', 1024, 0),
      bodyRateWindowMs: r.int('VOUCH_BODY_RATE_WINDOW_MS', 15_000, 100),
    },
    minFreeDiskBytes: r.int('VOUCH_MIN_FREE_DISK_BYTES', 268_435_456, 0),
    databaseStartupTimeoutMs: r.int('VOUCH_DB_STARTUP_TIMEOUT_MS', 120_000, 0),
    smtp: readSmtp(r, publicUrl),
    logStore: readLogStore(r, databaseUrl),
    sso: readSso(r),
  };
  if (r.problems.length > 0) throw new ConfigError(r.problems);
  return config;
}

/** What `vouch upload` needs: where the API is and which key to send. */
export interface ClientConfig {
  apiUrl: string;
  apiKey: string | null;
  /** How long an upload keeps retrying while the server is unreachable or asks to wait (VOUCH_UPLOAD_RETRY_SECONDS). */
  uploadRetryMs: number;
}

/** VOUCH_UPLOAD_RETRY_SECONDS (default 120): how long `vouch upload`, the hooks and the Action keep retrying an upload. */
export const DEFAULT_UPLOAD_RETRY_SECONDS = 120;

/** VOUCH_UPLOAD_RETRY_SECONDS in ms (the hooks and the Action, which need no API URL check); a bad value is a ConfigError. */
export function uploadRetryMsOf(env: Env = process.env): number {
  const r = new Reader(env);
  const seconds = r.int('VOUCH_UPLOAD_RETRY_SECONDS', DEFAULT_UPLOAD_RETRY_SECONDS, 0, 86_400);
  if (r.problems.length > 0) throw new ConfigError(r.problems);
  return seconds * 1000;
}

export function loadClientConfig(env: Env = process.env): ClientConfig {
  const r = new Reader(env);
  const apiUrl = r.string('VOUCH_API_URL', `http://localhost:${r.int('PORT', 8080, 0, 65535)}`).replace(/\/+$/, '');
  try {
    const u = new URL(apiUrl);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('scheme');
  } catch {
    r.problems.push(`VOUCH_API_URL must be an absolute http(s) URL (got ${JSON.stringify(apiUrl)})`);
  }
  if (r.problems.length > 0) throw new ConfigError(r.problems);
  return { apiUrl, apiKey: r.raw('VOUCH_API_KEY') ?? null, uploadRetryMs: uploadRetryMsOf(env) };
}
