// Reports: one per session, the report object stored as JSON text.
import type { NewReport, Report } from '../schema.ts';
import type { DbExecutor } from './executor.ts';

export async function insertReport(db: DbExecutor, row: NewReport): Promise<void> {
  await db.insertInto('reports').values(row).execute();
}

export async function getReportBySession(db: DbExecutor, accountId: string, sessionId: string): Promise<Report | undefined> {
  return db.selectFrom('reports').selectAll().where('session_id', '=', sessionId).where('account_id', '=', accountId).executeTakeFirst();
}
