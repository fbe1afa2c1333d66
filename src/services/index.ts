// The service objects: every use case of Vouch, as methods taking plain arguments. The HTTP app
// (src/app), the worker (src/worker) and the CLI (src/cli) receive a `Services` from the
// composition root (src/root/), which builds the adapters (database, log store, analyser,
// outbound HTTP, mailer, metrics, job runners) and hands them to createServices() here. A new
// use case is a function in the service module it belongs to, bound here once.
//
// The modules keep their functions' first parameter (the database, a transaction, or the log
// store) so that services compose them inside one transaction; createServices binds it.
import type { Db } from '../adapters/db/database.ts';
import type { LogStore } from '../adapters/logstore/index.ts';
import type { Analyzer } from '../adapters/analysis-pool/index.ts';
import type { OutboundClient } from '../adapters/outbound/index.ts';
import type { Config } from '../config.ts';
import { accountExists, accountName, createAccount, signUpAccount } from './accounts.ts';
import { analysisService } from './analysis.ts';
import { exportAuditJsonl, listAuditPage } from './audit.ts';
import { bindFirst } from './bind.ts';
import { authenticateKeyHash, findKey, issueApiKey, listKeys, noteKeyUse, revokeApiKeyValue, revokeKeyById } from './keys.ts';
import { redactStoredLog } from './log-redaction.ts';
import { maintenanceService, orphanAgeMs } from './maintenance.ts';
import {
  acceptInvitation, changeRole, confirmInvitation, getMember, inviteMember, issuePasswordReset, listInvitations, listMembers, offboardingPlan, openInvitation,
  openInvitationClaim, openPasswordReset, removeMember, requestInvitationProof, revokeInvitation, usePasswordReset,
} from './members.ts';
import { sendInvitationClaimMail, sendInvitationMail, sendResetMail } from './notifications.ts';
import type { Mailer } from './notifications.ts';
import type { JobRunnerFactory, Log, Metrics, OidcRelyingParty, TxtResolver } from './ports.ts';
import { silentLog } from './ports.ts';
import { rateLimitService } from './rate-limits.ts';
import { getLogRetention, setLogRetention } from './retention.ts';
import { sessionsService } from './session-reads.ts';
import { ssoService } from './sso/index.ts';
import { acceptUpload, removeSession } from './sessions.ts';
import type { AcceptUploadInput } from './sessions.ts';
import { headlinesOf, trustTrends } from './session-overview.ts';
import { openMaskedLog, openStoredLog } from './session-log.ts';
import { changePassword, resolveWebSession, signIn, signOut, signOutEverywhere, startWebSession } from './web-auth.ts';
import { deliveryService } from './webhooks/delivery.ts';
import { getDelivery, listAttempts, listAttemptsOf, listDeliveries, redeliver, sendTestEvent } from './webhooks/operations.ts';
import { addWebhook, editWebhook, getWebhook, listWebhooks, removeWebhook, setWebhookEnabled } from './webhooks/registry.ts';
import type { AddWebhookInput, EditWebhookInput, RegistryDeps } from './webhooks/registry.ts';
import type { AuditContext } from './audit.ts';

export type { JobControl, JobHandler, JobRunner, JobRunnerFactory, Log, Metrics, OidcRelyingParty, QueuedJob } from './ports.ts';
export type { SweepResult } from './maintenance.ts';
export type { MaintenanceService } from './maintenance.ts';
export type { AnalysisService } from './analysis.ts';
export type { DeliveryService } from './webhooks/delivery.ts';
export type { Mailer };

/** What the composition root hands the services: adapters already built. */
export interface ServiceDeps {
  config: Config;
  db: Db;
  logStore: LogStore;
  /** The analyser (the root makes the worker-thread pool on first use: an API-only process never starts it). */
  analyzer: Analyzer;
  /** The SSRF-guarded HTTP client webhooks are sent through. */
  outbound: OutboundClient;
  /** The SSRF policy (and, in tests, a resolver) a webhook URL must pass when it is registered. */
  webhookTargets: RegistryDeps;
  /** The OpenID Connect relying party single sign-on goes through (its requests pass the SSRF guard). */
  oidc: OidcRelyingParty;
  /** DNS TXT lookups (single sign-on domain verification). */
  resolveTxt: TxtResolver;
  /** Makes job runners over the queue. */
  jobs: JobRunnerFactory;
  clock?: { now(): number };
  /** Sends invitation and reset emails; null: links are only shown. */
  mailer?: Mailer | null;
  metrics?: Metrics;
  log?: Log;
  /** Closes the database connection (last, in close()); unset: the caller closes it. */
  closeDatabase?: () => Promise<void>;
  /** Tests: a shorter auto-disable window, a fixed User-Agent version. */
  delivery?: { autoDisableAfterMs?: number; version?: string };
}

export function createServices(deps: ServiceDeps) {
  const { config, db, logStore } = deps;
  const exec = db.kysely;
  const log = deps.log ?? silentLog;
  const registry = deps.webhookTargets;
  return {
    config,
    metrics: deps.metrics,
    jobs: deps.jobs,
    /** Is every store reachable (/readyz)? */
    health: {
      databaseReachable: () => db.ping(),
      logStoreReachable: () => logStore.ping(),
      logStoreKind: logStore.kind,
      databaseDialect: db.dialect,
    },
    accounts: { ...bindFirst(db, { createAccount, signUpAccount }), ...bindFirst(exec, { accountName, accountExists }) },
    keys: {
      ...bindFirst(exec, { issueApiKey, revokeApiKeyValue, listKeys, findKey, revokeKeyById }),
      authenticateKeyHash: (hash: string, ip: string | null = null) => authenticateKeyHash(exec, hash, ip, log),
      noteKeyUse: (keyId: string, ip: string | null = null) => noteKeyUse(exec, keyId, ip, Date.now(), log),
    },
    sessions: {
      ...sessionsService({ db }),
      acceptUpload: (input: AcceptUploadInput) => acceptUpload(db, input, log),
      removeSession: (accountId: string, id: string, audit?: AuditContext) => removeSession(db, logStore, accountId, id, audit, log),
      redactStoredLog: (accountId: string, sessionId: string, audit?: AuditContext) => redactStoredLog(db, logStore, accountId, sessionId, undefined, audit),
      ...bindFirst(exec, { headlinesOf, trustTrends }),
      ...bindFirst(logStore, { openStoredLog, openMaskedLog }),
      /** Where uploads are written (the upload form streams into a sink of this store). */
      logStore: { beginUpload: () => logStore.beginUpload() },
    },
    analysis: analysisService({ db, logStore, analyzer: deps.analyzer, publicUrl: config.publicUrl, metrics: deps.metrics, log }),
    deliveries: deliveryService({
      db,
      client: deps.outbound,
      retryDelaysMs: config.webhooks.retryDelaysMs,
      leaseMs: config.jobs.leaseMs,
      autoDisableAfterMs: deps.delivery?.autoDisableAfterMs,
      version: deps.delivery?.version,
      log,
      clock: deps.clock,
    }),
    webhooks: {
      ...bindFirst(exec, { listWebhooks, getWebhook, setWebhookEnabled, removeWebhook, listDeliveries, getDelivery, listAttempts, listAttemptsOf, redeliver }),
      addWebhook: (input: AddWebhookInput, audit?: AuditContext) => addWebhook(exec, input, registry, audit),
      editWebhook: (accountId: string, webhookId: string, input: EditWebhookInput, audit?: AuditContext) => editWebhook(exec, accountId, webhookId, input, registry, audit),
      sendTestEvent: (accountId: string, webhookId: string, audit?: AuditContext) => sendTestEvent(exec, accountId, webhookId, { publicUrl: config.publicUrl }, audit),
    },
    members: {
      ...bindFirst(exec, { listMembers, getMember, listInvitations, revokeInvitation, openInvitation, openInvitationClaim, offboardingPlan, openPasswordReset }),
      ...bindFirst(db, { inviteMember, acceptInvitation, requestInvitationProof, confirmInvitation, removeMember, changeRole, issuePasswordReset, usePasswordReset }),
    },
    notifications: bindFirst(deps.mailer ?? null, { sendInvitationMail, sendInvitationClaimMail, sendResetMail }),
    webAuth: bindFirst(exec, { signIn, resolveWebSession, signOut, signOutEverywhere, changePassword, startWebSession }),
    audit: bindFirst(exec, { listAuditPage, exportAuditJsonl }),
    retention: bindFirst(db, { getLogRetention, setLogRetention }),
    sso: ssoService(exec, { sso: config.sso, publicUrl: config.publicUrl, webSessionTtlMs: config.webSessionTtlMs, oidc: deps.oidc, resolveTxt: deps.resolveTxt, log }),
    rateLimits: rateLimitService(db),
    maintenance: maintenanceService({
      db,
      logStore,
      idempotencyRetentionMs: config.sweep.idempotencyRetentionMs,
      orphanAgeMs: orphanAgeMs(config.http.requestTimeoutMs),
      clock: deps.clock,
    }),
    /** Stops what the services use: the analyser, the outbound connections, then the database. */
    async close(): Promise<void> {
      await Promise.all([deps.analyzer.close(), deps.outbound.close(), deps.oidc.close()]);
      await deps.closeDatabase?.();
    },
  };
}

export type Services = ReturnType<typeof createServices>;
