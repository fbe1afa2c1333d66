// The transactional outbox: deliveries are written in the caller's transaction, together with
// the state change that causes them (analysis completion), so an event is never lost and never
// sent for work that was rolled back.
import * as repo from '../../adapters/db/repositories/webhooks.ts';
import type { DbExecutor } from '../../adapters/db/repositories/executor.ts';
import type { WebhookShape } from '../../adapters/db/schema.ts';
import { newId, nowIso } from '../../kernel/ids.ts';
import { enqueueDeliverJob } from './deliver-job.ts';
import { serializePayload } from './shapes.ts';
import type { EventInput } from './shapes.ts';
import { EVENT_ANALYSIS_COMPLETE } from './signing.ts';

/** Writes one delivery (its exact body) and its job. */
export async function enqueueDelivery(
  trx: DbExecutor,
  target: { webhookId: string; accountId: string; shape: WebhookShape },
  event: EventInput,
  sessionId: string | null,
): Promise<string> {
  const id = newId('dlv');
  const now = nowIso();
  await repo.insertDelivery(trx, {
    id,
    webhook_id: target.webhookId,
    account_id: target.accountId,
    session_id: sessionId,
    event: EVENT_ANALYSIS_COMPLETE,
    body: serializePayload(target.shape, event),
    status: 'pending',
    attempt_count: 0,
    created_at: now,
    updated_at: now,
  });
  await enqueueDeliverJob(trx, { delivery_id: id, series_start: 1 });
  return id;
}

/**
 * Call INSIDE the transaction that completes the analysis: one delivery per enabled webhook of
 * the account, each with the body serialised once in the webhook's shape. Returns the delivery
 * ids (empty when the account has no enabled webhook).
 */
export async function enqueueAnalysisComplete(trx: DbExecutor, event: EventInput): Promise<string[]> {
  const hooks = await repo.listEnabledWebhooks(trx, event.accountId);
  const ids: string[] = [];
  for (const hook of hooks) {
    ids.push(await enqueueDelivery(trx, { webhookId: hook.id, accountId: event.accountId, shape: hook.shape }, event, event.session.id));
  }
  return ids;
}
