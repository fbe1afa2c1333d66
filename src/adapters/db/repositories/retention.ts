// Retention: each account's log retention period, and the sessions whose stored log it expires.
import { affected } from './executor.ts';
import type { DbExecutor } from './executor.ts';

export async function getLogRetentionDays(db: DbExecutor, accountId: string): Promise<number | null | undefined> {
  const row = await db.selectFrom('accounts').select('log_retention_days').where('id', '=', accountId).executeTakeFirst();
  return row ? row.log_retention_days : undefined;
}

export async function setLogRetentionDays(db: DbExecutor, accountId: string, days: number | null): Promise<boolean> {
  const r = await db.updateTable('accounts').set({ log_retention_days: days }).where('id', '=', accountId).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function accountsWithRetention(db: DbExecutor): Promise<{ id: string; days: number }[]> {
  const rows = await db.selectFrom('accounts').select(['id', 'log_retention_days']).where('log_retention_days', 'is not', null).execute();
  return rows.map((r) => ({ id: r.id, days: Number(r.log_retention_days) }));
}

/**
 * Sessions of the account created before `cutoff` whose log is still stored, oldest first. A
 * session still being analysed keeps its log until the analysis settles.
 */
export async function sessionsPastRetention(db: DbExecutor, accountId: string, cutoff: string, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('sessions')
    .select('id')
    .where('account_id', '=', accountId)
    .where('created_at', '<', cutoff)
    .where('log_expired_at', 'is', null)
    .where('status', '!=', 'analyzing')
    .orderBy('created_at')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/** False when the session was marked already (another sweep got there first). */
export async function markLogExpired(db: DbExecutor, sessionId: string, at: string): Promise<boolean> {
  const r = await db.updateTable('sessions').set({ log_expired_at: at }).where('id', '=', sessionId).where('log_expired_at', 'is', null).executeTakeFirst();
  return affected(r) > 0;
}
