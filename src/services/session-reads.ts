// The sessions service's reads: one list path and one report path, for a signed-in member (an
// account) and for an API key alike. For a key, the key check travels in the same statement as
// the read (adapters/db/repositories/sessions.ts, "reads with the API-key check"): one database
// round trip per request instead of two; validity is still read from the database every time.
//
// The page rows are always read fresh. The total is the expensive part once an account holds
// thousands of sessions (a count over all of them, on every request), so:
//   - when the page is not full, the total follows from it exactly, without counting;
//   - otherwise a total counted very recently for the same account and filters is reused
//     (session-totals.ts says how recent, and how writes invalidate it).
import type { Db } from '../adapters/db/database.ts';
import type { DbExecutor } from '../adapters/db/repositories/executor.ts';
import { LIST_COLUMNS, countSessions, findKeyHolder, findReportForKey, listSessions, listSessionsForKey } from '../adapters/db/repositories/sessions.ts';
import type { KeyHolder as StoredKeyHolder, SessionFilters } from '../adapters/db/repositories/sessions.ts';
import { parseScopes } from './scopes.ts';
import type { Scope } from './scopes.ts';
import { findReport, findSession, isSessionId, reportState } from './sessions.ts';
import type { ReportState, SessionViewRow } from './sessions.ts';
import { recentTotal, rememberTotal } from './session-totals.ts';
import { keepReport, keptReport } from './report-cache.ts';

/** The holder of a key, as a keyed read found it: its account, and what the key may do. */
export interface KeyHolder {
  keyId: string;
  accountId: string;
  scopes: Scope[];
}

function holderOf(stored: StoredKeyHolder | null): KeyHolder | null {
  return stored && { keyId: stored.keyId, accountId: stored.accountId, scopes: parseScopes(stored.scopes) };
}

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

async function listForAccount(db: DbExecutor, accountId: string, q: ListQuery): Promise<AccountList> {
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


// A key belongs to one account for its whole life: which one, as last seen by this process.
// Only used to find a recently counted total before the read (so the read can skip counting);
// the key's validity is never taken from here.
const ACCOUNTS_MAX = 10_000;
const accountOfKey = new Map<string, string>();

function rememberAccount(keyHash: string, accountId: string): void {
  if (accountOfKey.size >= ACCOUNTS_MAX) accountOfKey.clear();
  accountOfKey.set(keyHash, accountId);
}

export interface AccountList {
  rows: SessionViewRow[];
  total: number;
}

export interface KeyedReport {
  /** Null: the key is unknown or revoked (state is null then). */
  holder: KeyHolder | null;
  /** Null: no such session in the key's account. */
  state: ReportState | null;
}

export interface KeyedList {
  /** Null: the key is unknown or revoked (nothing else is set). */
  holder: KeyHolder | null;
  rows: SessionViewRow[];
  total: number;
}

/** One page for the holder of the key with this hash (the total as for an account, above). */
export async function listForKey(db: DbExecutor, keyHash: string, q: ListQuery): Promise<KeyedList> {
  const { limit, page, ...filters } = q;
  const offset = (page - 1) * limit;
  const filterKey = JSON.stringify(filters);
  const known = accountOfKey.get(keyHash);
  const cached = known === undefined ? undefined : recentTotal(known, filterKey);
  const read = await listSessionsForKey(db, keyHash, filters, { columns: LIST_COLUMNS, limit, offset, count: cached === undefined });
  const { rows } = read;
  const holder = holderOf(read.holder);
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
export async function reportForKey(db: DbExecutor, keyHash: string, id: string): Promise<KeyedReport> {
  // An id that cannot exist (and may hold bytes PostgreSQL refuses, such as NUL) is not sent to
  // the sessions table: only the key is checked, and the answer is "no such session".
  if (!isSessionId(id)) return { holder: holderOf(await findKeyHolder(db, keyHash)), state: null };
  const kept = keptReport(id);
  const read = await findReportForKey(db, keyHash, id, kept?.reportId);
  if (!read.holder) return { holder: null, state: null };
  const { session } = read;
  const holder = holderOf(read.holder) as KeyHolder;
  if (!session) return { holder, state: null };
  let body = session.body;
  if (body === null && kept && session.report_id === kept.reportId) body = kept.json;
  else if (body !== null && session.report_id !== null) keepReport(id, session.report_id, body);
  return { holder, state: reportState({ ...session, body }) };
}

/** Who reads: a signed-in member's account, or the holder of an API key (checked in the read). */
export type Reader = { accountId: string } | { keyHash: string };

export function sessionsService({ db }: { db: Db }) {
  const exec = db.kysely;
  /** One page of sessions, newest first, and the total. For a key: null holder = refused key. */
  function list(reader: { keyHash: string }, q: ListQuery): Promise<KeyedList>;
  function list(reader: { accountId: string }, q: ListQuery): Promise<AccountList>;
  function list(reader: Reader, q: ListQuery): Promise<KeyedList | AccountList> {
    return 'keyHash' in reader ? listForKey(exec, reader.keyHash, q) : listForAccount(exec, reader.accountId, q);
  }
  /** A session's report (JSON text), or why there is none; null state: no such session. */
  function report(reader: { keyHash: string }, id: string): Promise<KeyedReport>;
  function report(reader: { accountId: string }, id: string): Promise<ReportState | null>;
  function report(reader: Reader, id: string): Promise<KeyedReport | ReportState | null> {
    return 'keyHash' in reader ? reportForKey(exec, reader.keyHash, id) : findReport(exec, reader.accountId, id);
  }
  return {
    list,
    report,
    findSession: (accountId: string, id: string) => findSession(exec, accountId, id),
  };
}
