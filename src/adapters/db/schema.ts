// The Kysely view of the database (docs/architecture.md, "Storage"). One interface per table;
// column names are the SQL names (snake_case). Portable types only, so the same queries run on
// SQLite and PostgreSQL:
//   - timestamps: ISO-8601 text with milliseconds ("2025-01-02T03:04:05.678Z"), sortable as text;
//   - booleans: integer 0/1;
//   - bytes: Uint8Array (blob / bytea);
//   - JSON: text.
import type { ColumnType, Insertable, Kysely, Selectable, Updateable } from 'kysely';

/** ISO-8601 UTC timestamp with milliseconds, as produced by nowIso(). */
export type IsoTime = string;

export interface AccountsTable {
  id: string; // acc_…
  name: string;
  created_at: IsoTime;
  /** Logs older than this many days are deleted by the sweeper; null keeps them for ever. */
  log_retention_days: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface UsersTable {
  id: string; // usr_…
  account_id: string;
  /** Always stored lower-cased; unique. */
  email: string;
  /** argon2id PHC string. */
  password_hash: string;
  created_at: IsoTime;
  /** What the user may do in the account (services/roles.ts); 0005_team_accounts. */
  role: ColumnType<UserRole, UserRole | undefined, UserRole>;
}

export type UserRole = 'owner' | 'admin' | 'member';

export interface ApiKeysTable {
  id: string; // key_…
  account_id: string;
  name: string;
  /** Displayable start of the key (e.g. "vk_live_ab12"). */
  prefix: string;
  last4: string;
  /** sha256 hex of the full key; unique. The key itself is never stored. */
  hash: string;
  created_at: IsoTime;
  last_used_at: IsoTime | null;
  revoked_at: IsoTime | null;
  /** The member who created it (kept after their removal); null when not known (before 0005, operator CLI). */
  created_by: ColumnType<string | null, string | null | undefined, string | null>;
  created_by_email: ColumnType<string | null, string | null | undefined, string | null>;
  /** What the key may do on the API: scopes, space-separated (services/scopes.ts) — 0008. */
  scopes: ColumnType<string, string | undefined, string>;
}

export interface WebSessionsTable {
  /** sha256 hex of the cookie token (the token itself is never stored). */
  id: string;
  user_id: string;
  account_id: string;
  csrf_token: string;
  created_at: IsoTime;
  expires_at: IsoTime;
}

export type SessionStatus = 'analyzing' | 'complete' | 'failed';

export interface SessionsTable {
  id: string; // ses_…
  account_id: string;
  status: SessionStatus;
  /** The `agent` field of the upload, if any. */
  agent_hint: string | null;
  /** Detected (or hinted) agent id; null until known. */
  agent: string | null;
  repo: string | null;
  branch: string | null;
  filename: string;
  size_bytes: number;
  sha256: string;
  created_at: IsoTime;
  completed_at: IsoTime | null;
  trust_score: number | null;
  outcome: string | null;
  findings_critical: number | null;
  findings_warning: number | null;
  findings_info: number | null;
  report_id: string | null;
  failure_reason: string | null;
  idempotency_key: string | null;
  /** When retention deleted the stored log (the session and its report stay); null: not deleted. */
  log_expired_at: ColumnType<IsoTime | null, IsoTime | null | undefined, IsoTime | null>;
}

export interface ReportsTable {
  id: string; // rep_…
  /** Unique: one report per session. */
  session_id: string;
  account_id: string;
  analyzer_version: string;
  /** The report object as JSON text. */
  body: string;
  created_at: IsoTime;
}

/**
 * One stored log being (or having been) uploaded in PostgreSQL mode. The chunks are written
 * under the upload id while bytes arrive; `session_id` is set inside the transaction that
 * inserts the session, so an upload with `session_id` null is pending (or orphaned by a crash).
 */
export interface LogUploadsTable {
  id: string; // upl_…
  session_id: string | null;
  created_at: IsoTime;
  committed_at: IsoTime | null;
}

/** The object-storage log store's record of each object (migration 0006 says why). */
export type LogObjectState = 'pending' | 'committed' | 'removing';
export interface LogObjectsTable {
  id: string; // upl_…
  object_key: string;
  session_id: string | null;
  state: LogObjectState;
  size_bytes: number | null;
  sha256: string | null;
  created_at: IsoTime;
  committed_at: IsoTime | null;
  /** Segment objects of the committed log (s3-store.ts); null: one, at object_key. */
  segments: number | null;
}

export interface LogChunksTable {
  upload_id: string;
  seq: number;
  data: Uint8Array;
}

export interface JobsTable {
  id: string; // job_…
  kind: string;
  /** JSON text. */
  payload: string;
  run_at: IsoTime;
  /** Number of times the job was claimed (incremented by the claim). */
  attempts: ColumnType<number, number | undefined, number>;
  max_attempts: number;
  lease_owner: string | null;
  lease_expires_at: IsoTime | null;
  last_error: string | null;
  /** Unique when set: a second enqueue with the same key is a no-op while the job exists. */
  dedupe_key: string | null;
  /** Set when the job gave up for good; dead jobs are kept for inspection, never claimed. */
  dead_at: IsoTime | null;
  created_at: IsoTime;
}

export type WebhookShape = 'A' | 'B' | 'C';

export interface WebhooksTable {
  id: string; // wh_…
  account_id: string;
  url: string;
  secret: string | null;
  shape: WebhookShape;
  /** 0/1 */
  enabled: number;
  disabled_reason: string | null;
  created_at: IsoTime;
  /** The member who added it (kept after their removal); null when not known. */
  created_by: ColumnType<string | null, string | null | undefined, string | null>;
  created_by_email: ColumnType<string | null, string | null | undefined, string | null>;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface DeliveriesTable {
  id: string; // dlv_…
  webhook_id: string;
  account_id: string;
  session_id: string | null;
  event: string;
  /** The exact request body, serialised once; every attempt sends these bytes. */
  body: string;
  status: DeliveryStatus;
  attempt_count: number;
  created_at: IsoTime;
  updated_at: IsoTime;
}

export interface DeliveryAttemptsTable {
  id: string; // att_…
  delivery_id: string;
  attempt_no: number;
  started_at: IsoTime;
  finished_at: IsoTime | null;
  status_code: number | null;
  latency_ms: number | null;
  /** e.g. "http_status", "timeout", "connect", "redirect", "ssrf_refused". */
  error_class: string | null;
  error: string | null;
  response_excerpt: string | null;
}

/** A one-time link that lets a teammate join an account by setting a password. */
export interface InvitationsTable {
  id: string; // inv_…
  account_id: string;
  /** Lower-cased; the user created on acceptance gets this email. */
  email: string;
  /** sha256 hex of the link's token (the token itself is never stored); unique. */
  token_hash: string;
  /** The member who invited (null once that member was removed). */
  invited_by: string | null;
  created_at: IsoTime;
  expires_at: IsoTime;
  /** Set once, by the one successful use. */
  accepted_at: IsoTime | null;
  /** The role the new member gets (member or admin). */
  role: ColumnType<UserRole, UserRole | undefined, UserRole>;
  /** An acceptance waiting for the email to be proved (0008): the emailed link's sha256, the chosen password's hash, until when. */
  claim_token_hash: ColumnType<string | null, string | null | undefined, string | null>;
  claim_password_hash: ColumnType<string | null, string | null | undefined, string | null>;
  claim_expires_at: ColumnType<IsoTime | null, IsoTime | null | undefined, IsoTime | null>;
}

/** A one-time link, issued by an owner, that lets a member choose a new password. */
export interface PasswordResetsTable {
  id: string; // pwr_…
  account_id: string;
  user_id: string;
  /** sha256 hex of the link's token; unique. */
  token_hash: string;
  created_by: string | null;
  created_at: IsoTime;
  expires_at: IsoTime;
  used_at: IsoTime | null;
}

/**
 * One security-relevant event of an account (services/audit.ts). Labels are what a person
 * recognises (an email, a key's prefix…last 4, a webhook's origin), never a secret.
 */
export interface AuditEventsTable {
  id: string; // aud_…
  account_id: string;
  occurred_at: IsoTime;
  action: string;
  /** user | key | operator | anonymous */
  actor_type: string;
  actor_id: string | null;
  actor_label: string | null;
  source_ip: string | null;
  target_type: string | null;
  target_id: string | null;
  target_label: string | null;
  /** JSON object text: what changed (names and counts, never values of secrets). */
  details: string;
}

/** Consecutive failed sign-ins per email (sha256 of the normalised email), for the backoff. */
export interface SignInThrottleTable {
  email_hash: string;
  failures: number;
  blocked_until: IsoTime | null;
  updated_at: IsoTime;
}

/** An account's OpenID Connect provider (0010_single_sign_on; services/sso). */
export interface SsoProvidersTable {
  id: string; // sso_…
  /** Unique: one provider per account. */
  account_id: string;
  issuer: string;
  client_id: string;
  /** The client secret sealed with VOUCH_SSO_SECRET_KEY (services/sso/secret-box.ts); never the secret itself. */
  client_secret_sealed: string;
  /** 0/1: password sign-in, resets and invitations are refused for the covered domains (owners keep a break-glass path). */
  required: number;
  default_role: UserRole;
  /** The ID token claim holding the person's groups; null: roles are not taken from the provider. */
  groups_claim: string | null;
  /** JSON object text: group name → role. */
  group_roles: string;
  /** 0/1: with a mapping, a person in none of the mapped groups is refused. */
  require_group: number;
  created_at: IsoTime;
  updated_at: IsoTime;
}

/** An email domain an account's provider covers once verified (by one account at most). */
export interface SsoDomainsTable {
  /** Lower-cased. */
  domain: string;
  account_id: string;
  provider_id: string;
  /** The value of the DNS TXT record that proves the account controls the domain. */
  token: string;
  /** When the TXT record was found; null: listed, not used yet. */
  verified_at: IsoTime | null;
}

/** A member's identity at the account's provider: the ID token's `sub`. */
export interface SsoIdentitiesTable {
  user_id: string;
  provider_id: string;
  subject: string;
  created_at: IsoTime;
  last_sign_in_at: IsoTime;
}

/** A sign-in between the redirect to the provider and its callback. */
export interface SsoLoginsTable {
  /** sha256 hex of the `state` sent to the provider. */
  id: string;
  provider_id: string;
  account_id: string;
  nonce: string;
  code_verifier: string;
  /** Where to go after signing in (a local path). */
  next: string;
  created_at: IsoTime;
  expires_at: IsoTime;
}

export interface IdempotencyKeysTable {
  account_id: string;
  key: string;
  /** Hash of what identifies "the same request" (e.g. sha256 of the upload). */
  request_hash: string;
  session_id: string;
  created_at: IsoTime;
}

/** A shared rate-limit window (0004_rate_limits): hits so far and when the window ends. */
export interface RateLimitsTable {
  key: string;
  hits: number;
  reset_at_ms: number;
}

export interface Database {
  accounts: AccountsTable;
  users: UsersTable;
  api_keys: ApiKeysTable;
  web_sessions: WebSessionsTable;
  sessions: SessionsTable;
  reports: ReportsTable;
  log_uploads: LogUploadsTable;
  log_chunks: LogChunksTable;
  log_objects: LogObjectsTable;
  jobs: JobsTable;
  webhooks: WebhooksTable;
  deliveries: DeliveriesTable;
  delivery_attempts: DeliveryAttemptsTable;
  idempotency_keys: IdempotencyKeysTable;
  invitations: InvitationsTable;
  rate_limits: RateLimitsTable;
  password_resets: PasswordResetsTable;
  audit_events: AuditEventsTable;
  sign_in_throttle: SignInThrottleTable;
  sso_providers: SsoProvidersTable;
  sso_domains: SsoDomainsTable;
  sso_identities: SsoIdentitiesTable;
  sso_logins: SsoLoginsTable;
}

export type Account = Selectable<AccountsTable>;
export type User = Selectable<UsersTable>;
export type ApiKey = Selectable<ApiKeysTable>;
export type NewApiKey = Insertable<ApiKeysTable>;
export type WebSession = Selectable<WebSessionsTable>;
export type NewWebSession = Insertable<WebSessionsTable>;
export type Session = Selectable<SessionsTable>;
export type NewSession = Insertable<SessionsTable>;
export type Report = Selectable<ReportsTable>;
export type NewReport = Insertable<ReportsTable>;
export type Job = Selectable<JobsTable>;
export type Webhook = Selectable<WebhooksTable>;
export type NewWebhook = Insertable<WebhooksTable>;
export type WebhookUpdate = Updateable<WebhooksTable>;
export type Delivery = Selectable<DeliveriesTable>;
export type NewDelivery = Insertable<DeliveriesTable>;
export type DeliveryAttempt = Selectable<DeliveryAttemptsTable>;
export type IdempotencyKey = Selectable<IdempotencyKeysTable>;
export type Invitation = Selectable<InvitationsTable>;
export type PasswordReset = Selectable<PasswordResetsTable>;
export type AuditEvent = Selectable<AuditEventsTable>;
export type NewAuditEvent = Insertable<AuditEventsTable>;
export type SsoProvider = Selectable<SsoProvidersTable>;
export type SsoLogin = Selectable<SsoLoginsTable>;
export type SsoIdentity = Selectable<SsoIdentitiesTable>;
export type SsoDomain = Selectable<SsoDomainsTable>;

/** The database or a transaction: what every query runs on (repositories, and the stores that own tables). */
export type DbExecutor = Kysely<Database>;
