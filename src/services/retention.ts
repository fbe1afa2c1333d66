// Log retention (data minimisation): an account may keep its stored logs for a set number of
// days; the default is to keep them for ever. The sweeper deletes the logs of older sessions;
// the session row and its report stay, and say when the log was deleted.
import type { Db } from '../adapters/db/database.ts';
import type { LogStore } from '../adapters/logstore/index.ts';
import { accountsWithRetention, getLogRetentionDays, markLogExpired, sessionsPastRetention, setLogRetentionDays } from '../adapters/db/repositories/retention.ts';
import { nowIso } from '../kernel/ids.ts';
import { recordAudit } from './audit.ts';
import type { AuditContext } from './audit.ts';

export const RETENTION_DAYS_MAX = 3650;
/** The choices the dashboard offers (any whole number of days 1…RETENTION_DAYS_MAX is accepted). */
export const RETENTION_PRESETS = [7, 30, 90, 180, 365] as const;
/** How many logs one sweep deletes per account at most (the next sweep goes on). */
const BATCH = 500;

/** Null when acceptable, else what is wrong. `null` days means keep for ever. */
export function retentionProblem(days: number | null): string | null {
  if (days === null) return null;
  if (!Number.isSafeInteger(days) || days < 1 || days > RETENTION_DAYS_MAX) return `must be a whole number of days from 1 to ${RETENTION_DAYS_MAX}, or "forever"`;
  return null;
}

/** "forever" / "" → null; a number of days → that number; anything else → NaN (refused by retentionProblem). */
export function parseRetention(text: string): number | null {
  const v = text.trim().toLowerCase();
  if (v === '' || v === 'forever' || v === 'keep') return null;
  return /^\d{1,5}$/.test(v) ? Number(v) : NaN;
}

export function describeRetention(days: number | null): string {
  return days === null ? 'kept for ever' : `deleted ${days} day${days === 1 ? '' : 's'} after upload`;
}

export async function getLogRetention(db: Db, accountId: string): Promise<number | null> {
  return (await getLogRetentionDays(db.kysely, accountId)) ?? null;
}

/** Sets the period and records `retention.changed` in one transaction. False: no such account. */
export async function setLogRetention(db: Db, accountId: string, days: number | null, audit: AuditContext): Promise<boolean> {
  const problem = retentionProblem(days);
  if (problem) throw new RangeError(`retention ${problem}`);
  return db.kysely.transaction().execute(async (trx) => {
    const before = await getLogRetentionDays(trx, accountId);
    if (before === undefined) return false;
    if (before === days) return true;
    await setLogRetentionDays(trx, accountId, days);
    await recordAudit(trx, accountId, audit, 'retention.changed', { type: 'account', id: accountId }, { from_days: before, to_days: days });
    return true;
  });
}

/**
 * Deletes the stored logs past each account's retention period. The log goes first, then the
 * session is marked: a crash in between leaves an unmarked session whose log is already gone,
 * which the next sweep marks (deleting a missing log is harmless) — never a kept log marked deleted.
 */
export async function expireLogs(db: Db, logStore: LogStore, nowMs: number = Date.now()): Promise<number> {
  let expired = 0;
  for (const account of await accountsWithRetention(db.kysely)) {
    const cutoff = nowIso(nowMs - account.days * 86_400_000);
    for (const sessionId of await sessionsPastRetention(db.kysely, account.id, cutoff, BATCH)) {
      await logStore.delete(sessionId);
      // Counted by the sweep that marks it: two sweeps at once do not both report it.
      if (await markLogExpired(db.kysely, sessionId, nowIso(nowMs))) expired++;
    }
  }
  return expired;
}
