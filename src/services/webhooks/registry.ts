// Webhook registration and management, scoped to one account.
//
// A URL is accepted only if the SSRF policy accepts it now (resolving its host); the policy is
// checked again at every connection (adapters/outbound), so a later DNS change cannot turn an
// accepted webhook into a probe of the internal network.
import { checkTargetUrl, createSsrfPolicy } from '../../adapters/outbound/ssrf.ts';
import type { Resolver, SsrfPolicy } from '../../adapters/outbound/ssrf.ts';
import * as repo from '../../adapters/db/repositories/webhooks.ts';
import { inTransaction } from '../../adapters/db/repositories/executor.ts';
import type { DbExecutor } from '../../adapters/db/repositories/executor.ts';
import type { Webhook, WebhookShape } from '../../adapters/db/schema.ts';
import { newId, nowIso } from '../../kernel/ids.ts';
import { WebhookNotFoundError, WebhookValidationError } from './errors.ts';
import { isShape } from './shapes.ts';
import { maskSecret } from './signing.ts';
import { OPERATOR, recordAudit, webhookLabel } from '../audit.ts';
import type { AuditContext, AuditDetails } from '../audit.ts';

export const MAX_WEBHOOKS_PER_ACCOUNT = 20;
const MAX_URL_LENGTH = 2048;
const MAX_SECRET_LENGTH = 512;

export interface AddWebhookInput {
  accountId: string;
  url: string;
  secret?: string | null;
  shape?: string;
}

export interface RegistryDeps {
  /** The SSRF policy (config.webhooks.allowCidrs); strict (no exceptions) when omitted. */
  policy?: SsrfPolicy;
  resolver?: Resolver;
}

/** What the dashboard and the admin CLI show: the secret never in full. */
export interface WebhookView {
  id: string;
  url: string;
  shape: WebhookShape;
  enabled: boolean;
  disabled_reason: string | null;
  has_secret: boolean;
  secret_masked: string | null;
  created_at: string;
  /** The member who added it; null when not known (shown as "unknown"). */
  created_by: string | null;
  created_by_email: string | null;
}

export function toView(w: Webhook): WebhookView {
  return {
    id: w.id,
    url: w.url,
    shape: w.shape,
    enabled: w.enabled === 1,
    disabled_reason: w.disabled_reason,
    has_secret: w.secret !== null,
    secret_masked: maskSecret(w.secret),
    created_at: w.created_at,
    created_by: w.created_by,
    created_by_email: w.created_by_email,
  };
}

function validateSecret(secret: string | null | undefined): string | null {
  if (secret === undefined || secret === null) return null;
  if (secret.length === 0) throw new WebhookValidationError('the secret is empty (leave it out to send unsigned deliveries)');
  if (secret.length > MAX_SECRET_LENGTH) throw new WebhookValidationError(`the secret is longer than ${MAX_SECRET_LENGTH} characters`);
  if (/[\u0000-\u001f\u007f]/.test(secret)) throw new WebhookValidationError('the secret contains control characters');
  return secret;
}

function validateShape(shape: string | undefined): WebhookShape {
  if (shape === undefined || shape === '') return 'A';
  if (!isShape(shape)) throw new WebhookValidationError(`shape must be A, B or C (got ${JSON.stringify(shape)})`);
  return shape;
}

/** Checks a URL against the policy; throws WebhookValidationError with the precise reason. */
export async function validateWebhookUrl(url: string, deps: RegistryDeps = {}): Promise<string> {
  if (url.length > MAX_URL_LENGTH) throw new WebhookValidationError(`the URL is longer than ${MAX_URL_LENGTH} characters`);
  const verdict = await checkTargetUrl(url, deps.policy ?? createSsrfPolicy(), deps.resolver);
  if (!verdict.ok) throw new WebhookValidationError(verdict.reason);
  return verdict.url.href;
}

/** The audit log's name for a webhook: its origin (a chat webhook's path is its secret). */
const hookTarget = (w: Pick<Webhook, 'id' | 'url'>) => ({ type: 'webhook' as const, id: w.id, label: webhookLabel(w.url) });

/**
 * Registers a webhook, recorded as added by the member in `audit` (null creator for the
 * operator's CLI), with its audit event in the same transaction. The secret is stored as given
 * (it must be available to sign) and is only ever shown masked afterwards. Throws
 * WebhookValidationError with a user-facing reason.
 */
export async function addWebhook(db: DbExecutor, input: AddWebhookInput, deps: RegistryDeps = {}, audit: AuditContext = OPERATOR): Promise<WebhookView> {
  const shape = validateShape(input.shape);
  const secret = validateSecret(input.secret);
  const url = await validateWebhookUrl(input.url, deps); // outside the transaction: it resolves DNS
  const creator = audit.actor.type === 'user' ? audit.actor : null;
  const row: Webhook = {
    id: newId('wh'),
    account_id: input.accountId,
    url,
    secret,
    shape,
    enabled: 1,
    disabled_reason: null,
    created_at: nowIso(),
    created_by: creator?.id ?? null,
    created_by_email: creator?.label ?? null,
  };
  await inTransaction(db, async (trx) => {
    if ((await repo.countWebhooks(trx, input.accountId)) >= MAX_WEBHOOKS_PER_ACCOUNT) {
      throw new WebhookValidationError(`an account can have at most ${MAX_WEBHOOKS_PER_ACCOUNT} webhooks`);
    }
    await repo.insertWebhook(trx, row);
    await recordAudit(trx, input.accountId, audit, 'webhook.created', hookTarget(row), { shape, signed: secret !== null });
  });
  return toView(row);
}

export async function listWebhooks(db: DbExecutor, accountId: string): Promise<WebhookView[]> {
  return (await repo.listWebhooks(db, accountId)).map(toView);
}

export async function getWebhook(db: DbExecutor, accountId: string, webhookId: string): Promise<Webhook> {
  const w = await repo.getWebhook(db, accountId, webhookId);
  if (!w) throw new WebhookNotFoundError('webhook', webhookId);
  return w;
}

/** How an edit treats the secret: unchanged, removed (unsigned deliveries), or replaced. */
export type SecretChange = { keep: true } | { clear: true } | { set: string };

export interface EditWebhookInput {
  url: string;
  shape: string;
  secret: SecretChange;
}

/**
 * Edits a webhook's URL, shape and secret, with the same checks as adding one. Deliveries already
 * recorded keep their bytes (they were serialised in the old shape); new ones use the new shape.
 */
export async function editWebhook(db: DbExecutor, accountId: string, webhookId: string, input: EditWebhookInput, deps: RegistryDeps = {}, audit: AuditContext = OPERATOR): Promise<WebhookView> {
  const shape = validateShape(input.shape);
  const secretPatch = 'set' in input.secret ? { secret: validateSecret(input.secret.set) } : 'clear' in input.secret ? { secret: null } : {};
  const url = await validateWebhookUrl(input.url, deps);
  return inTransaction(db, async (trx) => {
    const before = await getWebhook(trx, accountId, webhookId);
    if (!(await repo.updateWebhook(trx, accountId, webhookId, { url, shape, ...secretPatch }))) throw new WebhookNotFoundError('webhook', webhookId);
    const secret = 'set' in input.secret ? (before.secret === null ? 'added' : 'replaced') : 'clear' in input.secret ? (before.secret === null ? 'none' : 'removed') : 'kept';
    const details: AuditDetails = { url_changed: before.url !== url, shape_from: before.shape, shape_to: shape, secret };
    if (before.url !== url) details.previous_origin = webhookLabel(before.url);
    await recordAudit(trx, accountId, audit, 'webhook.updated', hookTarget({ id: webhookId, url }), details);
    return toView(await getWebhook(trx, accountId, webhookId));
  });
}

/**
 * Enables or disables a webhook. Enabling clears the recorded reason (including an automatic
 * disable); disabling by hand records who did it.
 */
export async function setWebhookEnabled(db: DbExecutor, accountId: string, webhookId: string, enabled: boolean, audit: AuditContext = OPERATOR, reason = 'disabled by a user'): Promise<WebhookView> {
  const patch = enabled ? { enabled: 1, disabled_reason: null } : { enabled: 0, disabled_reason: reason };
  return inTransaction(db, async (trx) => {
    const before = await getWebhook(trx, accountId, webhookId);
    await repo.updateWebhook(trx, accountId, webhookId, patch);
    if ((before.enabled === 1) !== enabled) await recordAudit(trx, accountId, audit, enabled ? 'webhook.enabled' : 'webhook.disabled', hookTarget(before), enabled ? {} : { reason });
    return toView(await getWebhook(trx, accountId, webhookId));
  });
}

/** Deletes the webhook with its deliveries and attempts (their jobs find nothing and end). */
export async function removeWebhook(db: DbExecutor, accountId: string, webhookId: string, audit: AuditContext = OPERATOR): Promise<void> {
  await inTransaction(db, async (trx) => {
    const before = await getWebhook(trx, accountId, webhookId);
    // its deliveries before the webhook's row (the cascade's order reversed): see lockDeliveriesOf
    await repo.lockDeliveriesOf(trx, before.id);
    if (!(await repo.deleteWebhook(trx, accountId, webhookId))) throw new WebhookNotFoundError('webhook', webhookId);
    await recordAudit(trx, accountId, audit, 'webhook.deleted', hookTarget(before), { shape: before.shape });
  });
}

/** The enabled webhooks a member added: what their removal disables. */
export async function liveWebhooksCreatedBy(db: DbExecutor, accountId: string, userId: string): Promise<WebhookView[]> {
  return (await repo.listEnabledWebhooksCreatedBy(db, accountId, userId)).map(toView);
}

/** Disables every enabled webhook a member added (offboarding), each audited; how many. */
export async function disableWebhooksOf(db: DbExecutor, accountId: string, userId: string, audit: AuditContext, reason: string): Promise<number> {
  return inTransaction(db, async (trx) => {
    const hooks = await repo.listEnabledWebhooksCreatedBy(trx, accountId, userId);
    for (const h of hooks) await setWebhookEnabled(trx, accountId, h.id, false, audit, reason);
    return hooks.length;
  });
}
