// Recently counted list totals, per account and filter set (see session-reads.ts). A total is
// reused for up to TOTAL_TTL_MS. Every write this process makes to an account's sessions
// (upload, delete, analysis result) drops that account's totals at once, so a client always
// sees its own writes; a write made through another process shows within TOTAL_TTL_MS.
import { LRUCache } from 'lru-cache';

const TOTAL_TTL_MS = 1000;
const TOTALS_MAX = 10_000;
const SEP = '\u0000';
const totals = new LRUCache<string, number>({ max: TOTALS_MAX, ttl: TOTAL_TTL_MS });

export function recentTotal(accountId: string, filterKey: string): number | undefined {
  return totals.get(accountId + SEP + filterKey);
}

export function rememberTotal(accountId: string, filterKey: string, total: number): void {
  totals.set(accountId + SEP + filterKey, total);
}

export function invalidateSessionTotals(accountId: string): void {
  for (const key of [...totals.keys()]) if (key.startsWith(accountId + SEP)) totals.delete(key);
}
