// The session list and the report, read with the API-key check in the same statement
// (adapters/db/repositories/keyed-reads.ts): what GET /v1/sessions and GET /v1/sessions/{id}/report
// serve. Same answers as session-list.ts / sessions.ts findReport, one round trip fewer.
import { findKeyHolder, findReportForKey, listSessionsForKey } from '../adapters/db/repositories/keyed-reads.ts';
import type { KeyHolder } from '../adapters/db/repositories/keyed-reads.ts';
import type { DbExecutor } from '../adapters/db/repositories/executor.ts';
import { totalFromPage, totalWithPage } from './session-list.ts';
import type { ListQuery } from './session-list.ts';
import { LIST_COLUMNS } from '../adapters/db/repositories/sessions.ts';
import { isSessionId, reportState } from './sessions.ts';
import type { ReportState, SessionViewRow } from './sessions.ts';
import { recentTotal, rememberTotal } from './session-totals.ts';
import { keepReport, keptReport } from './report-cache.ts';

export type { KeyHolder };

// A key belongs to one account for its whole life: which one, as last seen by this process.
// Only used to find a recently counted total before the read (so the read can skip counting);
// the key's validity is never taken from here.
const ACCOUNTS_MAX = 10_000;
const accountOfKey = new Map<string, string>();

function rememberAccount(keyHash: string, accountId: string): void {
  if (accountOfKey.size >= ACCOUNTS_MAX) accountOfKey.clear();
  accountOfKey.set(keyHash, accountId);
}

export interface KeyedList {
  /** Null: the key is unknown or revoked (nothing else is set). */
  holder: KeyHolder | null;
  rows: SessionViewRow[];
  total: number;
}

/** GET /v1/sessions for the holder of the key with this hash (see session-list.ts for the total). */
export async function listSessionPageForKey(db: DbExecutor, keyHash: string, q: ListQuery): Promise<KeyedList> {
  const { limit, page, ...filters } = q;
  const offset = (page - 1) * limit;
  const filterKey = JSON.stringify(filters);
  const known = accountOfKey.get(keyHash);
  const cached = known === undefined ? undefined : recentTotal(known, filterKey);
  const read = await listSessionsForKey(db, keyHash, filters, { columns: LIST_COLUMNS, limit, offset, count: cached === undefined });
  const { holder, rows } = read;
  if (!holder) return { holder, rows: [], total: 0 };
  rememberAccount(keyHash, holder.accountId);
  if (read.total !== undefined) rememberTotal(holder.accountId, filterKey, read.total);
  const proven = totalFromPage(rows.length, offset, limit);
  if (proven !== undefined) return { holder, rows, total: proven };
  let total = read.total ?? cached ?? recentTotal(holder.accountId, filterKey);
  if (total === undefined) {
    // An empty page past the end carries no count: ask for one (rare).
    const again = await listSessionsForKey(db, keyHash, filters, { columns: ['id'], limit: 1, offset: 0, count: true });
    total = again.total ?? 0;
    rememberTotal(holder.accountId, filterKey, total);
  }
  return { holder, rows, total: totalWithPage(total, rows.length, offset) };
}

/**
 * GET /v1/sessions/{id}/report for the holder of the key: null state when there is no such
 * session. The key and the session are read every time; the report text comes from
 * report-cache.ts when the session's report is the one kept there.
 */
export async function findReportForKeyHolder(db: DbExecutor, keyHash: string, id: string): Promise<{ holder: KeyHolder | null; state: ReportState | null }> {
  // An id that cannot exist (and may hold bytes PostgreSQL refuses, such as NUL) is not sent to
  // the sessions table: only the key is checked, and the answer is "no such session".
  if (!isSessionId(id)) return { holder: await findKeyHolder(db, keyHash), state: null };
  const kept = keptReport(id);
  const read = await findReportForKey(db, keyHash, id, kept?.reportId);
  if (!read.holder) return { holder: null, state: null };
  const { holder, session } = read;
  if (!session) return { holder, state: null };
  let body = session.body;
  if (body === null && kept && session.report_id === kept.reportId) body = kept.json;
  else if (body !== null && session.report_id !== null) keepReport(id, session.report_id, body);
  return { holder, state: reportState({ ...session, body }) };
}
