// The hot authenticated reads (the session list, a session's report) with the API-key check in
// the same statement: one database round trip per request instead of two. On PostgreSQL a round
// trip costs more than either query (network, protocol, a pool checkout), so the key lookup
// travels inside the read. Validity is still read from the database on every request: a key
// revoked a moment ago finds nothing on the very next request, in every process.
//
// The key is given by its sha256 (api-keys.ts). An active key's account is a scalar subquery;
// PostgreSQL and SQLite both evaluate an uncorrelated scalar subquery once per statement, and
// the sessions indexes on (account_id, …) still drive the read.
import { sql } from 'kysely';
import type { Expression } from 'kysely';
import type { DbExecutor } from './executor.ts';
import { sessionsMatching } from './sessions.ts';
import type { SessionFilters } from './sessions.ts';
import type { Session } from '../schema.ts';

/** The owner of an active key, as the read found it. */
export interface KeyHolder {
  keyId: string;
  accountId: string;
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
  const row = await activeKey(db, keyHash).select(['id', 'account_id']).executeTakeFirst();
  return row ? { keyId: row.id, accountId: row.account_id } : null;
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
    .select('account_id as key_account');
  if (page.count) {
    q = q.select(sessionsMatching(db, keyAccount(db, keyHash), filters).select((eb) => eb.fn.countAll<number>().as('n')).as('total'));
  }
  const rows = (await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute()) as unknown as (Pick<Session, C> & { key_id: string; key_account: string; total?: number | string })[];
  if (rows.length === 0) return { holder: await findKeyHolder(db, keyHash), rows: [], total: undefined };
  const first = rows[0];
  const total = page.count ? Number(first.total) : undefined;
  const clean = rows.map(({ key_id: _k, key_account: _a, total: _t, ...row }) => row as unknown as Pick<Session, C>);
  return { holder: { keyId: first.key_id, accountId: first.key_account }, rows: clean, total };
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
    .select(['k.id as key_id', 'k.account_id as key_account', 's.status', 's.failure_reason', 's.report_id'])
    .select((eb) => (knownReportId === undefined
      ? eb.ref('r.body')
      : eb.case().when('s.report_id', '=', knownReportId).then(sql<string | null>`null`).else(eb.ref('r.body')).end()).as('body'))
    .where('k.hash', '=', keyHash)
    .where('k.revoked_at', 'is', null)
    .executeTakeFirst();
  if (!row) return { holder: null };
  const holder = { keyId: row.key_id, accountId: row.key_account };
  if (row.status === null || row.status === undefined) return { holder, session: null };
  return { holder, session: { status: row.status, failure_reason: row.failure_reason ?? null, report_id: row.report_id ?? null, body: row.body ?? null } };
}
