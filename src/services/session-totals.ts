// Recently counted list totals, per account and filter set (see session-reads.ts). A total is
// reused for up to TOTAL_TTL_MS. Every write this process makes to an account's sessions
// (upload, delete, analysis result) drops that account's totals at once, so a client always
// sees its own writes; a write made through another process shows within TOTAL_TTL_MS.
const TOTAL_TTL_MS = 1000;
const TOTALS_MAX = 10_000;
const SEP = '\u0000';
const totals = new Map<string, { total: number; at: number }>();

export function recentTotal(accountId: string, filterKey: string): number | undefined {
  const hit = totals.get(accountId + SEP + filterKey);
  return hit && Date.now() - hit.at < TOTAL_TTL_MS ? hit.total : undefined;
}

export function rememberTotal(accountId: string, filterKey: string, total: number): void {
  if (totals.size >= TOTALS_MAX) totals.clear();
  totals.set(accountId + SEP + filterKey, { total, at: Date.now() });
}

export function invalidateSessionTotals(accountId: string): void {
  for (const key of totals.keys()) if (key.startsWith(accountId + SEP)) totals.delete(key);
}
