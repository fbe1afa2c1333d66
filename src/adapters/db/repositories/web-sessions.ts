// Dashboard sign-in sessions. The row id is the sha256 of the cookie token, so a database
// leak does not hand out valid cookies.
import { createHash } from 'node:crypto';
import { nowIso } from '../../../kernel/ids.ts';
import type { NewWebSession, WebSession } from '../schema.ts';
import type { DbExecutor } from './executor.ts';

export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export async function createWebSession(db: DbExecutor, row: NewWebSession): Promise<void> {
  await db.insertInto('web_sessions').values(row).execute();
}

/** The session with this id (token hash) if it has not expired. */
export async function findValidWebSession(db: DbExecutor, id: string, now: string = nowIso()): Promise<WebSession | undefined> {
  return db.selectFrom('web_sessions').selectAll().where('id', '=', id).where('expires_at', '>', now).executeTakeFirst();
}

export async function deleteWebSession(db: DbExecutor, id: string): Promise<void> {
  await db.deleteFrom('web_sessions').where('id', '=', id).execute();
}

export async function deleteExpiredWebSessions(db: DbExecutor, now: string = nowIso()): Promise<number> {
  const r = await db.deleteFrom('web_sessions').where('expires_at', '<=', now).executeTakeFirst();
  return Number(r.numDeletedRows);
}
