// Sessions (one uploaded log and its analysis). Every read and write that an account can cause
// carries the account id in the query itself: another account's session is simply not found.
import { sql } from 'kysely';
import type { Expression } from 'kysely';
import { nowIso } from '../../../kernel/ids.ts';
import type { NewSession, Session, SessionStatus } from '../schema.ts';
import { affected } from './executor.ts';
import type { DbExecutor } from './executor.ts';

export async function insertSession(db: DbExecutor, row: NewSession): Promise<void> {
  await db.insertInto('sessions').values(row).execute();
}

export async function getSession(db: DbExecutor, accountId: string, id: string): Promise<Session | undefined> {
  return db.selectFrom('sessions').selectAll().where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
}

export interface SessionFilters {
  repo?: string;
  agent?: string;
  outcome?: string;
  status?: SessionStatus;
  /** Inclusive lower bound on created_at (ISO-8601). */
  createdAfter?: string;
  /** Exclusive upper bound on created_at (ISO-8601). */
  createdBefore?: string;
}

/**
 * The account: its id, or a scalar subquery yielding it (the account of a presented API key,
 * so that the key check travels in the same statement as the read: listSessionsForKey below).
 */
export type AccountRef = string | Expression<string | null>;

/** The account's sessions matching the filters, as a query to select from (tenant scope included). */
export function sessionsMatching(db: DbExecutor, accountId: AccountRef, f: SessionFilters) {
  let q = db.selectFrom('sessions').where('account_id', '=', accountId);
  if (f.repo !== undefined) q = q.where('repo', '=', f.repo);
  if (f.agent !== undefined) q = q.where('agent', '=', f.agent);
  if (f.outcome !== undefined) q = q.where('outcome', '=', f.outcome);
  if (f.status !== undefined) q = q.where('status', '=', f.status);
  if (f.createdAfter !== undefined) q = q.where('created_at', '>=', f.createdAfter);
  if (f.createdBefore !== undefined) q = q.where('created_at', '<', f.createdBefore);
  return q;
}

/** The columns of a session as lists and the API show it (not the internal ones). */
export const LIST_COLUMNS = [
  'id', 'status', 'agent', 'repo', 'branch', 'filename', 'size_bytes', 'sha256', 'created_at', 'completed_at',
  'trust_score', 'outcome', 'findings_critical', 'findings_warning', 'findings_info', 'failure_reason', 'log_expired_at',
] as const;
export type SessionListRow = Pick<Session, (typeof LIST_COLUMNS)[number]>;

/** One page, newest first (`created_at desc, id desc`), so pages are stable while new sessions arrive. */
export async function listSessions(db: DbExecutor, accountId: string, filters: SessionFilters, page: { limit: number; offset: number }): Promise<SessionListRow[]> {
  return sessionsMatching(db, accountId, filters)
    .select(LIST_COLUMNS)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/** How many of the account's sessions match the filters. */
export async function countSessions(db: DbExecutor, accountId: AccountRef, filters: SessionFilters): Promise<number> {
  const row = await sessionsMatching(db, accountId, filters).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Scores of the account's most recent complete sessions that name a repo, newest first. */
export async function recentScores(db: DbExecutor, accountId: string, limit: number): Promise<Pick<Session, 'repo' | 'trust_score' | 'created_at'>[]> {
  return db
    .selectFrom('sessions')
    .select(['repo', 'trust_score', 'created_at'])
    .where('account_id', '=', accountId)
    .where('status', '=', 'complete')
    .where('repo', 'is not', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/**
 * A session's state with its stored report's JSON (null until there is one), in one query: the
 * hot read of CI pipelines polling for their result. The report is joined on the id parameter,
 * not on sessions.id: on PostgreSQL sessions.id is `collate "C"` and reports.session_id is not,
 * and comparing the two columns cannot use the unique index on reports.session_id (a scan of
 * every report).
 */
export async function findSessionReport(db: DbExecutor, accountId: string, id: string): Promise<{ status: SessionStatus; failure_reason: string | null; body: string | null } | undefined> {
  return db
    .selectFrom('sessions')
    .leftJoin('reports', (join) => join.on('reports.session_id', '=', id).on('reports.account_id', '=', accountId))
    .select(['sessions.status', 'sessions.failure_reason', 'reports.body'])
    .where('sessions.id', '=', id)
    .where('sessions.account_id', '=', accountId)
    .executeTakeFirst();
}

export interface SessionCompletion {
  accountId: string;
  sessionId: string;
  reportId: string;
  agent: string | null;
  branch: string | null;
  trustScore: number;
  outcome: string;
  findings: { critical: number; warning: number; info: number };
  completedAt?: string;
}

/**
 * analyzing → complete. False when the session is gone or no longer analysing (another worker
 * finished it first): the caller's transaction should then not go on to queue webhooks.
 */
export async function markSessionComplete(db: DbExecutor, c: SessionCompletion): Promise<boolean> {
  const r = await db
    .updateTable('sessions')
    .set({
      status: 'complete',
      completed_at: c.completedAt ?? nowIso(),
      report_id: c.reportId,
      agent: c.agent,
      branch: c.branch,
      trust_score: c.trustScore,
      outcome: c.outcome,
      findings_critical: c.findings.critical,
      findings_warning: c.findings.warning,
      findings_info: c.findings.info,
      failure_reason: null,
    })
    .where('id', '=', c.sessionId)
    .where('account_id', '=', c.accountId)
    .where('status', '=', 'analyzing')
    .executeTakeFirst();
  return affected(r) > 0;
}

/** analyzing → failed, keeping the reason. False when the session is not analysing. */
export async function markSessionFailed(
  db: DbExecutor,
  f: { accountId: string; sessionId: string; reason: string; completedAt?: string },
): Promise<boolean> {
  const r = await db
    .updateTable('sessions')
    .set({ status: 'failed', failure_reason: f.reason, completed_at: f.completedAt ?? nowIso() })
    .where('id', '=', f.sessionId)
    .where('account_id', '=', f.accountId)
    .where('status', '=', 'analyzing')
    .executeTakeFirst();
  return affected(r) > 0;
}

/**
 * Deletes the session row (its report and idempotency keys go with it). The stored log is the
 * log store's: call LogStore.delete after this commits.
 */
export async function deleteSession(db: DbExecutor, accountId: string, id: string): Promise<boolean> {
  const r = await db.deleteFrom('sessions').where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
  return affected(r) > 0;
}

// ---- reads with the API-key check in the same statement ----
//
// The hot authenticated reads (the session list, a session's report) with the API-key check in
// the same statement: one database round trip per request instead of two. On PostgreSQL a round
// trip costs more than either query (network, protocol, a pool checkout), so the key lookup
// travels inside the read. Validity is still read from the database on every request: a key
// revoked a moment ago finds nothing on the very next request, in every process.
//
// The key is given by its sha256 (api-keys.ts). An active key's account is a scalar subquery;
// PostgreSQL and SQLite both evaluate an uncorrelated scalar subquery once per statement, and
// the sessions indexes on (account_id, …) still drive the read.

/** The owner of an active key, as the read found it. */
export interface KeyHolder {
  keyId: string;
  accountId: string;
  /** The key's scopes as stored (space-separated). */
  scopes: string;
}

function activeKey(db: DbExecutor, keyHash: string) {
  return db.selectFrom('api_keys').where('hash', '=', keyHash).where('revoked_at', 'is', null);
}

/** The account of an active key with this hash (a scalar subquery: NULL when there is none). */
function keyAccount(db: DbExecutor, keyHash: string): Expression<string | null> {
  return activeKey(db, keyHash).select('account_id') as unknown as Expression<string | null>;
}

/** The holder of an active key, alone: for reads that found no row to carry it. */
export async function findKeyHolder(db: DbExecutor, keyHash: string): Promise<KeyHolder | null> {
  const row = await activeKey(db, keyHash).select(['id', 'account_id', 'scopes']).executeTakeFirst();
  return row ? { keyId: row.id, accountId: row.account_id, scopes: row.scopes } : null;
}

export interface KeyedPage<C extends keyof Session> {
  /** Null: the key is unknown or revoked. */
  holder: KeyHolder | null;
  rows: Pick<Session, C>[];
  /** Counted in the same statement when `count` was asked for and the page is not empty. */
  total: number | undefined;
}

/**
 * One page of the key's account's sessions, newest first, with the key id on every row (and
 * the total when asked). A page with no rows cannot say whether the key is valid: that rare
 * case (an empty account, a page past the end) asks once more, for the key alone.
 */
export async function listSessionsForKey<C extends keyof Session>(
  db: DbExecutor,
  keyHash: string,
  filters: SessionFilters,
  page: { columns: readonly C[]; limit: number; offset: number; count: boolean },
): Promise<KeyedPage<C>> {
  const account = keyAccount(db, keyHash);
  let q = sessionsMatching(db, account, filters)
    .select(page.columns as readonly (keyof Session)[])
    .select(activeKey(db, keyHash).select('id').as('key_id'))
    .select(activeKey(db, keyHash).select('scopes').as('key_scopes'))
    .select('account_id as key_account');
  if (page.count) {
    q = q.select(sessionsMatching(db, keyAccount(db, keyHash), filters).select((eb) => eb.fn.countAll<number>().as('n')).as('total'));
  }
  const rows = (await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute()) as unknown as (Pick<Session, C> & { key_id: string; key_scopes: string; key_account: string; total?: number | string })[];
  if (rows.length === 0) return { holder: await findKeyHolder(db, keyHash), rows: [], total: undefined };
  const first = rows[0];
  const total = page.count ? Number(first.total) : undefined;
  const clean = rows.map(({ key_id: _k, key_scopes: _s, key_account: _a, total: _t, ...row }) => row as unknown as Pick<Session, C>);
  return { holder: { keyId: first.key_id, accountId: first.key_account, scopes: first.key_scopes }, rows: clean, total };
}

export type KeyedReport =
  | { holder: null }
  | { holder: KeyHolder; session: null }
  | { holder: KeyHolder; session: { status: string; failure_reason: string | null; report_id: string | null; body: string | null } };

/**
 * A session's state and stored report, read together with the key: no row at all means the key
 * is not valid; a row without a session means no such session in the key's account. The
 * report is joined on the id parameter (not on sessions.id: on PostgreSQL sessions.id is
 * `collate "C"` and reports.session_id is not, and comparing the columns cannot use the
 * unique index on reports.session_id).
 *
 * `knownReportId`: the caller already holds that report's text (reports never change), so the
 * body comes back null when the session's report is that one — tens of KB not read or sent.
 */
export async function findReportForKey(db: DbExecutor, keyHash: string, sessionId: string, knownReportId?: string): Promise<KeyedReport> {
  const row = await db
    .selectFrom('api_keys as k')
    .leftJoin('sessions as s', (join) => join.on('s.id', '=', sessionId).onRef('s.account_id', '=', 'k.account_id'))
    .leftJoin('reports as r', (join) => join.on('r.session_id', '=', sessionId).onRef('r.account_id', '=', 'k.account_id'))
    .select(['k.id as key_id', 'k.account_id as key_account', 'k.scopes as key_scopes', 's.status', 's.failure_reason', 's.report_id'])
    .select((eb) => (knownReportId === undefined
      ? eb.ref('r.body')
      : eb.case().when('s.report_id', '=', knownReportId).then(sql<string | null>`null`).else(eb.ref('r.body')).end()).as('body'))
    .where('k.hash', '=', keyHash)
    .where('k.revoked_at', 'is', null)
    .executeTakeFirst();
  if (!row) return { holder: null };
  const holder = { keyId: row.key_id, accountId: row.key_account, scopes: row.key_scopes };
  if (row.status === null || row.status === undefined) return { holder, session: null };
  return { holder, session: { status: row.status, failure_reason: row.failure_reason ?? null, report_id: row.report_id ?? null, body: row.body ?? null } };
}
