// Webhooks, deliveries and delivery attempts: storage only. Delivery logic (signing, retries,
// SSRF, when to disable) lives in services/webhooks and the deliver worker.
// Same portable rules as every repository: ISO text timestamps, 0/1 booleans, one query text
// for both dialects.
import { newId } from '../../../kernel/ids.ts';
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

export async function countWebhooks(db: DbExecutor, accountId: string): Promise<number> {
  const row = await db
    .selectFrom('webhooks')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
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

/** Disables an enabled webhook with the reason shown to the account; false when it was not enabled. */
export async function disableWebhook(db: DbExecutor, id: string, reason: string): Promise<boolean> {
  const r = await db.updateTable('webhooks').set({ enabled: 0, disabled_reason: reason }).where('id', '=', id).where('enabled', '=', 1).executeTakeFirst();
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

/**
 * Takes the delivery's row lock until the transaction ends (an update that changes nothing: the
 * same statement locks the row in PostgreSQL and takes the write lock in SQLite). Whoever begins
 * or settles an attempt takes it first — before the job's row and the attempts' — so a run that
 * reads "pending" cannot interleave with another run recording the answer (a second POST).
 */
export async function lockDelivery(db: DbExecutor, id: string): Promise<void> {
  await db.updateTable('deliveries').set((eb) => ({ updated_at: eb.ref('updated_at') })).where('id', '=', id).execute();
}

/**
 * Takes the row locks of every delivery of a webhook, before the webhook's own row is touched: a
 * webhook's removal cascades to its deliveries, and a run settling one of them holds its delivery
 * before it may take the webhook (auto-disable) — the delivery first, in both.
 */
export async function lockDeliveriesOf(db: DbExecutor, webhookId: string): Promise<void> {
  await db.updateTable('deliveries').set((eb) => ({ updated_at: eb.ref('updated_at') })).where('webhook_id', '=', webhookId).execute();
}

export async function updateDelivery(
  db: DbExecutor,
  id: string,
  patch: { status?: DeliveryStatus; attempt_count?: number; updated_at: string },
): Promise<boolean> {
  const r = await db.updateTable('deliveries').set(patch).where('id', '=', id).executeTakeFirst();
  return affected(r) > 0;
}

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

/** Marks a delivery failed if it is still pending (a delivery given up on). */
export async function failPendingDelivery(db: DbExecutor, id: string, at: string): Promise<void> {
  await db.updateTable('deliveries').set({ status: 'failed', updated_at: at }).where('id', '=', id).where('status', '=', 'pending').execute();
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

/**
 * Attempts left without an end by a worker that died mid-attempt: closed as "interrupted" (the
 * receiver may or may not have seen them) before the next attempt starts.
 */
export async function closeInterruptedAttempts(db: DbExecutor, deliveryId: string, at: string): Promise<number> {
  const r = await db
    .updateTable('delivery_attempts')
    .set({ finished_at: at, error_class: 'interrupted', error: 'no result was recorded for this attempt (its worker stopped, or could not reach the database in time); the receiver may have received it' })
    .where('delivery_id', '=', deliveryId)
    .where('finished_at', 'is', null)
    .executeTakeFirst();
  return affected(r);
}

/** The attempt of this delivery still without an end (at most one: attempts run one at a time), if any. */
export async function findOpenAttempt(db: DbExecutor, deliveryId: string): Promise<Pick<DeliveryAttempt, 'id' | 'attempt_no'> | undefined> {
  return db.selectFrom('delivery_attempts').select(['id', 'attempt_no']).where('delivery_id', '=', deliveryId).where('finished_at', 'is', null).orderBy('attempt_no').executeTakeFirst();
}

/**
 * Attempts from `fromAttemptNo` on that ran their course (they have a result: an answer, a
 * timeout, a refusal). Interrupted attempts are not counted: they spend no retry budget.
 */
export async function countAnsweredAttempts(db: DbExecutor, deliveryId: string, fromAttemptNo: number): Promise<number> {
  const row = await db
    .selectFrom('delivery_attempts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('delivery_id', '=', deliveryId)
    .where('attempt_no', '>=', fromAttemptNo)
    .where('finished_at', 'is not', null)
    .where((eb) => eb.or([eb('error_class', 'is', null), eb('error_class', '!=', 'interrupted')]))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function getAttempt(db: DbExecutor, attemptId: string): Promise<DeliveryAttempt | undefined> {
  return db.selectFrom('delivery_attempts').selectAll().where('id', '=', attemptId).executeTakeFirst();
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
  await recordAttemptEndIfOpen(db, attemptId, e, { onlyIfOpen: false });
}

/** Writes the attempt's result; with onlyIfOpen, only while it has none (false when it had one, e.g. closed as interrupted). */
export async function recordAttemptEndIfOpen(db: DbExecutor, attemptId: string, e: AttemptEnd, opts = { onlyIfOpen: true }): Promise<boolean> {
  let q = db
    .updateTable('delivery_attempts')
    .set({
      finished_at: e.finishedAt,
      status_code: e.statusCode,
      latency_ms: e.latencyMs,
      error_class: e.errorClass,
      error: e.error,
      response_excerpt: e.responseExcerpt,
    })
    .where('id', '=', attemptId);
  if (opts.onlyIfOpen) q = q.where('finished_at', 'is', null);
  return affected(await q.executeTakeFirst()) > 0;
}

/** In attempt order. */
export async function listAttempts(db: DbExecutor, deliveryId: string): Promise<DeliveryAttempt[]> {
  return db.selectFrom('delivery_attempts').selectAll().where('delivery_id', '=', deliveryId).orderBy('attempt_no').orderBy('started_at').orderBy('id').execute();
}

/** The attempts of these deliveries of the account, ordered by delivery, then attempt order. */
export async function listAttemptsOfDeliveries(db: DbExecutor, accountId: string, deliveryIds: readonly string[]): Promise<DeliveryAttempt[]> {
  return db
    .selectFrom('delivery_attempts as a')
    .innerJoin('deliveries as d', 'd.id', 'a.delivery_id')
    .selectAll('a')
    .where('d.account_id', '=', accountId)
    .where('a.delivery_id', 'in', [...deliveryIds])
    .orderBy('a.delivery_id')
    .orderBy('a.attempt_no')
    .orderBy('a.started_at')
    .orderBy('a.id')
    .execute();
}

/** The enabled webhooks a member added (offboarding). */
export async function listEnabledWebhooksCreatedBy(db: DbExecutor, accountId: string, userId: string): Promise<Webhook[]> {
  return db.selectFrom('webhooks').selectAll().where('account_id', '=', accountId).where('created_by', '=', userId).where('enabled', '=', 1).orderBy('id').execute();
}

/** Hands a member's webhooks to another member. */
export async function reassignWebhooks(db: DbExecutor, accountId: string, from: string, to: { id: string; email: string }): Promise<number> {
  const r = await db.updateTable('webhooks').set({ created_by: to.id, created_by_email: to.email }).where('account_id', '=', accountId).where('created_by', '=', from).executeTakeFirst();
  return affected(r);
}
