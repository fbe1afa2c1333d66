// Queries the delivery logic needs beyond the generic repositories in adapters/db/repositories.
// Same portable rules: ISO text timestamps, 0/1 booleans, one query text for both dialects.
import type { DbExecutor } from '../../adapters/db/repositories/executor.ts';
import type { Delivery, Webhook } from '../../adapters/db/schema.ts';

export interface DeliveryWithTarget {
  delivery: Delivery;
  webhook: Pick<Webhook, 'id' | 'url' | 'secret' | 'enabled' | 'account_id'>;
}

/** A delivery with the webhook it goes to (one query); undefined when either is gone. */
export async function getDeliveryWithTarget(db: DbExecutor, deliveryId: string): Promise<DeliveryWithTarget | undefined> {
  const row = await db
    .selectFrom('deliveries as d')
    .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
    .selectAll('d')
    .select(['w.url as w_url', 'w.secret as w_secret', 'w.enabled as w_enabled', 'w.account_id as w_account_id'])
    .where('d.id', '=', deliveryId)
    .executeTakeFirst();
  if (!row) return undefined;
  const { w_url, w_secret, w_enabled, w_account_id, ...delivery } = row;
  return { delivery, webhook: { id: delivery.webhook_id, url: w_url, secret: w_secret, enabled: w_enabled, account_id: w_account_id } };
}

/**
 * Attempts left without an end by a worker that died mid-attempt: closed as "interrupted" (the
 * receiver may or may not have seen them) before the next attempt starts.
 */
export async function closeInterruptedAttempts(db: DbExecutor, deliveryId: string, at: string): Promise<number> {
  const r = await db
    .updateTable('delivery_attempts')
    .set({ finished_at: at, error_class: 'interrupted', error: 'the worker stopped during this attempt; the receiver may have received it' })
    .where('delivery_id', '=', deliveryId)
    .where('finished_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows ?? 0n);
}

export async function countWebhooks(db: DbExecutor, accountId: string): Promise<number> {
  const row = await db
    .selectFrom('webhooks')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** When the webhook last had a delivery accepted (max updated_at of delivered rows), or null. */
export async function lastDeliveredAt(db: DbExecutor, webhookId: string): Promise<string | null> {
  const row = await db
    .selectFrom('deliveries')
    .select((eb) => eb.fn.max('updated_at').as('at'))
    .where('webhook_id', '=', webhookId)
    .where('status', '=', 'delivered')
    .executeTakeFirst();
  return (row?.at as string | null | undefined) ?? null;
}

/** The oldest failed delivery created after `since` (all of them when null). */
export async function firstFailureSince(db: DbExecutor, webhookId: string, since: string | null): Promise<string | null> {
  let q = db
    .selectFrom('deliveries')
    .select((eb) => eb.fn.min('created_at').as('at'))
    .where('webhook_id', '=', webhookId)
    .where('status', '=', 'failed');
  if (since !== null) q = q.where('created_at', '>', since);
  const row = await q.executeTakeFirst();
  return (row?.at as string | null | undefined) ?? null;
}
