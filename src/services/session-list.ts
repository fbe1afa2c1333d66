// GET /v1/sessions: one page of an account's sessions, newest first, and the total.
//
// The page rows are always read fresh. The total is the expensive part once an account holds
// thousands of sessions (a count over all of them, on every request), so:
//   - when the page is not full, the total follows from it exactly, without counting;
//   - otherwise a total counted very recently for the same account and filters is reused
//     (session-totals.ts says how recent, and how writes invalidate it).
import type { DbExecutor } from '../adapters/db/repositories/executor.ts';
import { countSessions, listSessions } from '../adapters/db/repositories/sessions.ts';
import type { SessionFilters } from '../adapters/db/repositories/sessions.ts';
import { recentTotal, rememberTotal } from './session-totals.ts';
import type { SessionViewRow } from './sessions.ts';

export interface ListQuery extends SessionFilters {
  limit: number;
  page: number;
}


export async function listSessionPage(db: DbExecutor, accountId: string, q: ListQuery): Promise<{ rows: SessionViewRow[]; total: number }> {
  const { limit, page, ...filters } = q;
  const offset = (page - 1) * limit;
  const rows = await listSessions(db, accountId, filters, { limit, offset });
  // A page that is not full is the end of the list (a page past the end says nothing).
  if (rows.length > 0 && rows.length < limit) return { rows, total: offset + rows.length };
  if (rows.length === 0 && offset === 0) return { rows, total: 0 };
  const key = JSON.stringify(filters);
  let total = recentTotal(accountId, key);
  if (total === undefined) {
    total = await countSessions(db, accountId, filters);
    rememberTotal(accountId, key, total);
  }
  // A stale total must not contradict the page in hand.
  return { rows, total: rows.length > 0 ? Math.max(total, offset + rows.length) : total };
}
