// Tenant-scoped operations on deliveries, for the dashboard and the admin CLI: listing
// deliveries and their attempts, redelivering, and sending a test event.
//
// Redelivery keeps the delivery id and its stored bytes and starts a NEW attempt series with a
// full retry budget. Attempt numbers CONTINUE (a delivery with attempts 1–4 redelivered sends
// attempt 5 next): X-Service-Attempt stays unique per delivery, the attempts list stays
// unambiguous, and a receiver can tell a redelivery from a first try.
import * as repo from '../../adapters/db/repositories/webhooks.ts';
import type { DbExecutor } from '../../adapters/db/repositories/executor.ts';
import type { Delivery, DeliveryAttempt } from '../../adapters/db/schema.ts';
import { nowIso } from '../../kernel/ids.ts';
import { enqueueDeliverJob } from './deliver-job.ts';
import { WebhookConflictError, WebhookNotFoundError } from './errors.ts';
import { enqueueDelivery } from './outbox.ts';
import { getWebhook } from './registry.ts';
import type { EventInput } from './shapes.ts';
import { OPERATOR, recordAudit, webhookLabel } from '../audit.ts';
import type { AuditContext } from '../audit.ts';
import { inTransaction } from '../../adapters/db/repositories/executor.ts';

export interface DeliveryView {
  id: string;
  webhook_id: string;
  session_id: string | null;
  event: string;
  status: Delivery['status'];
  attempt_count: number;
  created_at: string;
  updated_at: string;
  /** The exact bytes sent (JSON text). */
  body: string;
}

export type AttemptView = Omit<DeliveryAttempt, 'delivery_id'>;

function toDeliveryView(d: Delivery): DeliveryView {
  const { id, webhook_id, session_id, event, status, attempt_count, created_at, updated_at, body } = d;
  return { id, webhook_id, session_id, event, status, attempt_count, created_at, updated_at, body };
}

/** Newest first. Throws WebhookNotFoundError for another account's webhook. */
export async function listDeliveries(db: DbExecutor, accountId: string, webhookId: string, opts: { limit?: number } = {}): Promise<DeliveryView[]> {
  await getWebhook(db, accountId, webhookId);
  const limit = Math.min(Math.max(opts.limit ?? 50, 1), 500);
  return (await repo.listDeliveries(db, webhookId, limit, accountId)).map(toDeliveryView);
}

export async function getDelivery(db: DbExecutor, accountId: string, deliveryId: string): Promise<DeliveryView> {
  const d = await repo.getDelivery(db, deliveryId, accountId);
  if (!d) throw new WebhookNotFoundError('delivery', deliveryId);
  return toDeliveryView(d);
}

/** In attempt order. */
export async function listAttempts(db: DbExecutor, accountId: string, deliveryId: string): Promise<AttemptView[]> {
  await getDelivery(db, accountId, deliveryId);
  return (await repo.listAttempts(db, deliveryId)).map(({ delivery_id: _d, ...rest }) => rest);
}

/**
 * The attempts of several deliveries of this account at once (the delivery log shows a page of
 * deliveries with their attempts), grouped by delivery id, each in attempt order.
 */
export async function listAttemptsOf(db: DbExecutor, accountId: string, deliveryIds: readonly string[]): Promise<Map<string, AttemptView[]>> {
  const out = new Map<string, AttemptView[]>(deliveryIds.map((id) => [id, []]));
  if (deliveryIds.length === 0) return out;
  const rows = await repo.listAttemptsOfDeliveries(db, accountId, deliveryIds);
  for (const { delivery_id, ...rest } of rows) out.get(delivery_id)?.push(rest);
  return out;
}

export interface RedeliverResult {
  delivery_id: string;
  /** The X-Service-Attempt number the new series starts with. */
  next_attempt: number;
}

/**
 * Sends a finished (delivered or failed) delivery again: same id, same bytes, a new series of
 * 1 + retries attempts. Refused while a series is still pending, or when the webhook is disabled.
 * `db` must be the root database handle (this opens its own transaction).
 */
export async function redeliver(db: DbExecutor, accountId: string, deliveryId: string, audit: AuditContext = OPERATOR): Promise<RedeliverResult> {
  return inTransaction(db, async (trx) => {
    const d = await repo.getDelivery(trx, deliveryId, accountId);
    if (!d) throw new WebhookNotFoundError('delivery', deliveryId);
    if (d.status === 'pending') throw new WebhookConflictError(`delivery ${deliveryId} is still pending: wait for its attempts to finish`);
    const hook = await getWebhook(trx, accountId, d.webhook_id);
    if (hook.enabled !== 1) throw new WebhookConflictError(`webhook ${hook.id} is disabled: enable it before redelivering`);
    const next = d.attempt_count + 1;
    await repo.updateDelivery(trx, d.id, { status: 'pending', updated_at: nowIso() });
    if (!(await enqueueDeliverJob(trx, { delivery_id: d.id, series_start: next }))) {
      throw new WebhookConflictError(`delivery ${deliveryId} already has a queued series`);
    }
    await recordAudit(trx, accountId, audit, 'webhook.redelivered', { type: 'webhook', id: hook.id, label: webhookLabel(hook.url) }, { delivery: d.id, next_attempt: next });
    return { delivery_id: d.id, next_attempt: next };
  });
}

/** The sample event of a test delivery: clearly not a real session, in the webhook's shape. */
export function testEvent(accountId: string, publicUrl: string): EventInput {
  const text = 'Test event sent from Vouch: no session was analysed.';
  return {
    accountId,
    session: { id: 'ses_test', agent: 'claude-code', repo: 'example/repository', branch: 'main' },
    report: {
      report_id: 'rep_test',
      trust_score: 100,
      outcome: 'Clear',
      headline: 'Test event from Vouch',
      reason: text,
      summary: text,
      findings_count: { critical: 0, warning: 0, info: 0 },
    },
    reportUrl: `${publicUrl.replace(/\/+$/, '')}/`,
  };
}

/**
 * Queues a test delivery (event `analysis.complete`, the only kind there is, with sample values)
 * through the normal path: recorded, signed, retried and listed like any other delivery.
 */
export async function sendTestEvent(db: DbExecutor, accountId: string, webhookId: string, opts: { publicUrl?: string } = {}, audit: AuditContext = OPERATOR): Promise<{ delivery_id: string }> {
  return inTransaction(db, async (trx) => {
    const hook = await getWebhook(trx, accountId, webhookId);
    if (hook.enabled !== 1) throw new WebhookConflictError(`webhook ${hook.id} is disabled: enable it before sending a test event`);
    const event = testEvent(accountId, opts.publicUrl ?? 'http://localhost:8080');
    const id = await enqueueDelivery(trx, { webhookId: hook.id, accountId, shape: hook.shape }, event, null);
    await recordAudit(trx, accountId, audit, 'webhook.test_sent', { type: 'webhook', id: hook.id, label: webhookLabel(hook.url) }, { delivery: id });
    return { delivery_id: id };
  });
}
