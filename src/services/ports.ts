// The services' own view of what the composition root (src/root/) plugs into them and of what a
// job runner hands a use case. Entry points (app, worker, cli) name these types, never an
// adapter's: the adapters satisfy them structurally, checked where the root wires them.
import type { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { DbExecutor } from '../adapters/db/repositories/executor.ts';

/** A structured logger (pino's shape): what services and processors log through. */
export interface Log {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export const silentLog: Log = { debug() {}, info() {}, warn() {}, error() {} };

/** The process's Prometheus instruments (built by adapters/metrics, one registry per process). */
export interface Metrics {
  registry: Registry;
  httpRequests: Counter<'method' | 'route' | 'status'>;
  httpDuration: Histogram<'method' | 'route'>;
  uploadBytes: Counter;
  uploads: Counter<'result'>;
  analysisDuration: Histogram<'result'>;
  /** 1 while the rate-limit store answers, 0 while requests skip it (Redis down or not answering). */
  rateLimitStoreUp: Gauge;
}

/** A claimed job as a use case sees it. */
export interface QueuedJob {
  id: string;
  payload: unknown;
  /** Claims so far, this one included. */
  attempts: number;
  maxAttempts: number;
  leaseOwner: string;
  leaseExpiresAt: string;
  /** Why the previous run ended without finishing, if it recorded a reason. */
  lastError?: string | null;
}

/**
 * The runner's control over a claimed job: a use case settles its job inside the transaction of
 * the state change the job causes (complete / retry / fail), so both commit together or neither.
 */
export interface JobControl {
  signal: AbortSignal;
  complete(trx: DbExecutor): Promise<void>;
  retry(trx: DbExecutor, runAt: string, error: string): Promise<void>;
  fail(trx: DbExecutor, error: string): Promise<void>;
}

/** A job kind's processor, as the worker registers it with a runner. */
export interface JobHandler {
  run(job: QueuedJob, ctx: JobControl): Promise<void>;
  /** The last attempt failed (or its worker died on it): record the failure for good. */
  onExhausted(job: QueuedJob, error: string, ctx: JobControl): Promise<void>;
  backoffMs?: readonly number[];
}

export interface JobRunner {
  start(): void;
  /** Stops claiming, waits for running jobs (bounded), hands the rest back to the queue. */
  stop(): Promise<void>;
  /** Looks for work now (after an enqueue in this process). */
  nudge(): void;
}

/** Makes a job runner over the queue (built by the composition root; the worker names the kinds). */
export type JobRunnerFactory = (opts: { owner: string; concurrency: number; processors: Record<string, JobHandler> }) => JobRunner;

/** An account's OpenID Connect client at its provider, as the relying party needs it. */
export interface OidcClientRef {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/** A sign-in about to be sent to the provider: its URL and what the callback must match. */
export interface OidcAuthorization {
  url: string;
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** Why the relying party refused (`detail` is for the log and the audit event, never shown). */
export type OidcFailure = { ok: false; reason: 'unreachable' | 'discovery' | 'denied' | 'response' | 'id_token'; detail: string };

/**
 * The OpenID Connect relying party (adapters/oidc, over openid-client): authorization code flow
 * with PKCE, `state` and `nonce`; the ID token is checked (issuer, audience, expiry, signature
 * against the provider's JWKS, nonce) before its claims are returned. Results are values.
 */
export interface OidcRelyingParty {
  /** Fetches the provider's discovery document (is the issuer usable?). */
  check(client: OidcClientRef): Promise<{ ok: true } | OidcFailure>;
  begin(client: OidcClientRef, redirectUri: string): Promise<({ ok: true } & OidcAuthorization) | OidcFailure>;
  /** `callbackUrl`: the redirect URI with the provider's query parameters. */
  complete(client: OidcClientRef, callbackUrl: URL, expected: Omit<OidcAuthorization, 'url'>): Promise<{ ok: true; claims: Record<string, unknown> } | OidcFailure>;
  close(): Promise<void>;
}

/** The TXT records of a DNS name (node:dns resolveTxt's shape: each record in its chunks). */
export type TxtResolver = (name: string) => Promise<string[][]>;
