// Reports: one per session, the report object stored as JSON text.
import { sql } from 'kysely';
import type { NewReport } from '../schema.ts';
import type { DbExecutor } from './executor.ts';

export async function insertReport(db: DbExecutor, row: NewReport): Promise<void> {
  await db.insertInto('reports').values(row).execute();
}

/** The first `chars` characters of the stored JSON of these sessions' reports (never whole bodies). */
export async function reportPrefixes(db: DbExecutor, accountId: string, sessionIds: readonly string[], chars: number): Promise<{ session_id: string; head: string }[]> {
  if (sessionIds.length === 0) return [];
  return db
    .selectFrom('reports')
    .select(['session_id', sql<string>`substr(body, 1, ${sql.lit(chars)})`.as('head')])
    .where('account_id', '=', accountId)
    .where('session_id', 'in', [...sessionIds])
    .execute();
}
