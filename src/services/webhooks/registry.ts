// Webhook registration and management, scoped to one account.
//
// A URL is accepted only if the SSRF policy accepts it now (resolving its host); the policy is
// checked again at every connection (adapters/outbound), so a later DNS change cannot turn an
// accepted webhook into a probe of the internal network.
import { checkTargetUrl, createSsrfPolicy } from '../../adapters/outbound/ssrf.ts';
import type { Resolver, SsrfPolicy } from '../../adapters/outbound/ssrf.ts';
import * as repo from '../../adapters/db/repositories/webhooks.ts';
import type { DbExecutor } from '../../adapters/db/repositories/executor.ts';
import type { Webhook, WebhookShape } from '../../adapters/db/schema.ts';
import { newId, nowIso } from '../../kernel/ids.ts';
import { WebhookNotFoundError, WebhookValidationError } from './errors.ts';
import { isShape } from './shapes.ts';
import { maskSecret } from './signing.ts';

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

/** The registry's dependencies for a configured allow-list (config.webhooks.allowCidrs). */
export function registryDeps(allowCidrs: Parameters<typeof createSsrfPolicy>[0]): RegistryDeps {
  return { policy: createSsrfPolicy(allowCidrs) };
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

/**
 * Registers a webhook. The secret is stored as given (it must be available to sign) and is only
 * ever shown masked afterwards. Throws WebhookValidationError with a user-facing reason.
 */
export async function addWebhook(db: DbExecutor, input: AddWebhookInput, deps: RegistryDeps = {}): Promise<WebhookView> {
  const shape = validateShape(input.shape);
  const secret = validateSecret(input.secret);
  const url = await validateWebhookUrl(input.url, deps);
  if ((await repo.countWebhooks(db, input.accountId)) >= MAX_WEBHOOKS_PER_ACCOUNT) {
    throw new WebhookValidationError(`an account can have at most ${MAX_WEBHOOKS_PER_ACCOUNT} webhooks`);
  }
  const row: Webhook = {
    id: newId('wh'),
    account_id: input.accountId,
    url,
    secret,
    shape,
    enabled: 1,
    disabled_reason: null,
    created_at: nowIso(),
  };
  await repo.insertWebhook(db, row);
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
export async function editWebhook(db: DbExecutor, accountId: string, webhookId: string, input: EditWebhookInput, deps: RegistryDeps = {}): Promise<WebhookView> {
  const shape = validateShape(input.shape);
  const secretPatch = 'set' in input.secret ? { secret: validateSecret(input.secret.set) } : 'clear' in input.secret ? { secret: null } : {};
  const url = await validateWebhookUrl(input.url, deps);
  if (!(await repo.updateWebhook(db, accountId, webhookId, { url, shape, ...secretPatch }))) throw new WebhookNotFoundError('webhook', webhookId);
  return toView(await getWebhook(db, accountId, webhookId));
}

/**
 * Enables or disables a webhook. Enabling clears the recorded reason (including an automatic
 * disable); disabling by hand records who did it.
 */
export async function setWebhookEnabled(db: DbExecutor, accountId: string, webhookId: string, enabled: boolean): Promise<WebhookView> {
  const patch = enabled ? { enabled: 1, disabled_reason: null } : { enabled: 0, disabled_reason: 'disabled by a user' };
  if (!(await repo.updateWebhook(db, accountId, webhookId, patch))) throw new WebhookNotFoundError('webhook', webhookId);
  return toView(await getWebhook(db, accountId, webhookId));
}

/** Deletes the webhook with its deliveries and attempts (their jobs find nothing and end). */
export async function removeWebhook(db: DbExecutor, accountId: string, webhookId: string): Promise<void> {
  if (!(await repo.deleteWebhook(db, accountId, webhookId))) throw new WebhookNotFoundError('webhook', webhookId);
}
