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

/**
 * The total a page proves by itself, without counting: a page that is not full ends the list; an
 * empty first page is an empty list. Undefined when only a count can tell (a full page, or an
 * empty page past the end).
 */
export function totalFromPage(rows: number, offset: number, limit: number): number | undefined {
  if (rows > 0 && rows < limit) return offset + rows;
  if (rows === 0 && offset === 0) return 0;
  return undefined;
}

/** A counted (possibly slightly stale) total that does not contradict the page in hand. */
export function totalWithPage(counted: number, rows: number, offset: number): number {
  return rows > 0 ? Math.max(counted, offset + rows) : counted;
}

export async function listSessionPage(db: DbExecutor, accountId: string, q: ListQuery): Promise<{ rows: SessionViewRow[]; total: number }> {
  const { limit, page, ...filters } = q;
  const offset = (page - 1) * limit;
  const rows = await listSessions(db, accountId, filters, { limit, offset });
  const proven = totalFromPage(rows.length, offset, limit);
  if (proven !== undefined) return { rows, total: proven };
  const key = JSON.stringify(filters);
  let total = recentTotal(accountId, key);
  if (total === undefined) {
    total = await countSessions(db, accountId, filters);
    rememberTotal(accountId, key, total);
  }
  return { rows, total: totalWithPage(total, rows.length, offset) };
}
