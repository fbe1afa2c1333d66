// The audit log: appended to (in the transaction of the change it records), read newest first
// within one account. Nothing here updates or deletes an event; the account's deletion cascades.
import type { AuditEvent, NewAuditEvent } from '../schema.ts';
import type { DbExecutor } from './executor.ts';

export async function insertAuditEvent(db: DbExecutor, row: NewAuditEvent): Promise<void> {
  await db.insertInto('audit_events').values(row).execute();
}

export interface AuditFilters {
  action?: string;
  actorId?: string;
  targetId?: string;
  /** Inclusive lower bound on occurred_at (ISO-8601). */
  after?: string;
  /** Exclusive upper bound on occurred_at (ISO-8601). */
  before?: string;
}

function matching(db: DbExecutor, accountId: string, f: AuditFilters) {
  let q = db.selectFrom('audit_events').where('account_id', '=', accountId);
  if (f.action !== undefined) q = q.where('action', '=', f.action);
  if (f.actorId !== undefined) q = q.where('actor_id', '=', f.actorId);
  if (f.targetId !== undefined) q = q.where('target_id', '=', f.targetId);
  if (f.after !== undefined) q = q.where('occurred_at', '>=', f.after);
  if (f.before !== undefined) q = q.where('occurred_at', '<', f.before);
  return q;
}

/** One page, newest first (ids are time-ordered, so `id desc` is a stable order). */
export async function listAuditEvents(db: DbExecutor, accountId: string, f: AuditFilters, page: { limit: number; offset: number }): Promise<AuditEvent[]> {
  return matching(db, accountId, f).selectAll().orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute();
}

export async function countAuditEvents(db: DbExecutor, accountId: string, f: AuditFilters): Promise<number> {
  const row = await matching(db, accountId, f).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The events older than `beforeId` (keyset paging for the export: no offset scans). */
export async function auditEventsBefore(db: DbExecutor, accountId: string, f: AuditFilters, beforeId: string | null, limit: number): Promise<AuditEvent[]> {
  let q = matching(db, accountId, f).selectAll();
  if (beforeId !== null) q = q.where('id', '<', beforeId);
  return q.orderBy('id', 'desc').limit(limit).execute();
}
