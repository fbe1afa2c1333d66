// Webhooks, deliveries and delivery attempts: storage only. Delivery logic (signing, retries,
// SSRF) lives in services/webhooks and the deliver worker.
import { newId } from '../../../services/ids.ts';
import type { Delivery, DeliveryAttempt, DeliveryStatus, NewDelivery, NewWebhook, Webhook, WebhookUpdate } from '../schema.ts';
import { affected } from './executor.ts';
import type { DbExecutor } from './executor.ts';

export async function insertWebhook(db: DbExecutor, row: NewWebhook): Promise<void> {
  await db.insertInto('webhooks').values(row).execute();
}

export async function getWebhook(db: DbExecutor, accountId: string, id: string): Promise<Webhook | undefined> {
  return db.selectFrom('webhooks').selectAll().where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
}

export async function listWebhooks(db: DbExecutor, accountId: string): Promise<Webhook[]> {
  return db.selectFrom('webhooks').selectAll().where('account_id', '=', accountId).orderBy('created_at').orderBy('id').execute();
}

export async function listEnabledWebhooks(db: DbExecutor, accountId: string): Promise<Webhook[]> {
  return db.selectFrom('webhooks').selectAll().where('account_id', '=', accountId).where('enabled', '=', 1).orderBy('created_at').orderBy('id').execute();
}

/** Patches a webhook of this account (id and account_id are not patchable). */
export async function updateWebhook(db: DbExecutor, accountId: string, id: string, patch: Omit<WebhookUpdate, 'id' | 'account_id'>): Promise<boolean> {
  const r = await db.updateTable('webhooks').set(patch).where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
  return affected(r) > 0;
}

/** Deletes the webhook with its deliveries and attempts. */
export async function deleteWebhook(db: DbExecutor, accountId: string, id: string): Promise<boolean> {
  const r = await db.deleteFrom('webhooks').where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
  return affected(r) > 0;
}

export async function insertDelivery(db: DbExecutor, row: NewDelivery): Promise<void> {
  await db.insertInto('deliveries').values(row).execute();
}

/** A delivery by id; scoped to an account when one is given (the dashboard always gives it). */
export async function getDelivery(db: DbExecutor, id: string, accountId?: string): Promise<Delivery | undefined> {
  let q = db.selectFrom('deliveries').selectAll().where('id', '=', id);
  if (accountId !== undefined) q = q.where('account_id', '=', accountId);
  return q.executeTakeFirst();
}

export async function updateDelivery(
  db: DbExecutor,
  id: string,
  patch: { status?: DeliveryStatus; attempt_count?: number; updated_at: string },
): Promise<boolean> {
  const r = await db.updateTable('deliveries').set(patch).where('id', '=', id).executeTakeFirst();
  return affected(r) > 0;
}

/** Newest first. Scoped to an account when one is given. */
export async function listDeliveries(db: DbExecutor, webhookId: string, limit: number, accountId?: string): Promise<Delivery[]> {
  let q = db.selectFrom('deliveries').selectAll().where('webhook_id', '=', webhookId);
  if (accountId !== undefined) q = q.where('account_id', '=', accountId);
  return q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

/** Writes the attempt row before the request is made; returns its id. */
export async function recordAttemptStart(db: DbExecutor, a: { deliveryId: string; attemptNo: number; startedAt: string }): Promise<string> {
  const id = newId('att');
  await db.insertInto('delivery_attempts').values({ id, delivery_id: a.deliveryId, attempt_no: a.attemptNo, started_at: a.startedAt }).execute();
  return id;
}

export interface AttemptEnd {
  finishedAt: string;
  statusCode: number | null;
  latencyMs: number | null;
  errorClass: string | null;
  error: string | null;
  responseExcerpt: string | null;
}

export async function recordAttemptEnd(db: DbExecutor, attemptId: string, e: AttemptEnd): Promise<void> {
  await db
    .updateTable('delivery_attempts')
    .set({
      finished_at: e.finishedAt,
      status_code: e.statusCode,
      latency_ms: e.latencyMs,
      error_class: e.errorClass,
      error: e.error,
      response_excerpt: e.responseExcerpt,
    })
    .where('id', '=', attemptId)
    .execute();
}

/** In attempt order. */
export async function listAttempts(db: DbExecutor, deliveryId: string): Promise<DeliveryAttempt[]> {
  return db.selectFrom('delivery_attempts').selectAll().where('delivery_id', '=', deliveryId).orderBy('attempt_no').orderBy('started_at').orderBy('id').execute();
}
