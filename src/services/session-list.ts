// GET /v1/sessions: one page of an account's sessions, newest first, and the total.
//
// The page rows are always read fresh. The total is the expensive part once an account holds
// thousands of sessions (a count over all of them, on every request), so:
//   - when the page is not full, the total follows from it exactly, without counting;
//   - otherwise a total counted less than TOTAL_TTL_MS ago for the same account and filters is
//     reused. Every write this process makes to an account's sessions (upload, delete, analysis
//     result) drops that account's totals at once, so a client always sees its own writes; a
//     write made through another process shows in the total within TOTAL_TTL_MS.
// (The row and count queries belong in the sessions repository; they are here until it offers
// them separately — its listSessions always counts.)
import type { DbExecutor } from '../adapters/db/repositories/executor.ts';
import type { SessionFilters } from '../adapters/db/repositories/sessions.ts';
import type { Session } from '../adapters/db/schema.ts';

export interface ListQuery extends SessionFilters {
  limit: number;
  page: number;
}

const TOTAL_TTL_MS = 1000;
const TOTALS_MAX = 10_000;
const totals = new Map<string, { total: number; at: number }>();
const SEP = '\u0000';

export function invalidateSessionTotals(accountId: string): void {
  for (const key of totals.keys()) if (key.startsWith(accountId + SEP)) totals.delete(key);
}

function filtered(db: DbExecutor, accountId: string, f: SessionFilters) {
  let q = db.selectFrom('sessions').where('account_id', '=', accountId);
  if (f.repo !== undefined) q = q.where('repo', '=', f.repo);
  if (f.agent !== undefined) q = q.where('agent', '=', f.agent);
  if (f.outcome !== undefined) q = q.where('outcome', '=', f.outcome);
  if (f.status !== undefined) q = q.where('status', '=', f.status);
  if (f.createdAfter !== undefined) q = q.where('created_at', '>=', f.createdAfter);
  if (f.createdBefore !== undefined) q = q.where('created_at', '<', f.createdBefore);
  return q;
}

async function countFresh(db: DbExecutor, accountId: string, filters: SessionFilters, key: string): Promise<number> {
  const row = await filtered(db, accountId, filters).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const total = Number(row.n);
  if (totals.size >= TOTALS_MAX) totals.clear();
  totals.set(key, { total, at: Date.now() });
  return total;
}

export async function listSessionPage(db: DbExecutor, accountId: string, q: ListQuery): Promise<{ rows: Session[]; total: number }> {
  const { limit, page, ...filters } = q;
  const offset = (page - 1) * limit;
  const rows = await filtered(db, accountId, filters).selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute();
  // A page that is not full is the end of the list (a page past the end says nothing).
  if (rows.length > 0 && rows.length < limit) return { rows, total: offset + rows.length };
  if (rows.length === 0 && offset === 0) return { rows, total: 0 };
  const key = accountId + SEP + JSON.stringify(filters);
  const cached = totals.get(key);
  const total = cached && Date.now() - cached.at < TOTAL_TTL_MS ? cached.total : await countFresh(db, accountId, filters, key);
  // A stale total must not contradict the page in hand.
  return { rows, total: rows.length > 0 ? Math.max(total, offset + rows.length) : total };
}
