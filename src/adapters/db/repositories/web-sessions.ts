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

/** Ends every session of a user, except `keep` (the one making the request) when given. */
export async function deleteUserWebSessions(db: DbExecutor, userId: string, keep?: string): Promise<number> {
  let q = db.deleteFrom('web_sessions').where('user_id', '=', userId);
  if (keep !== undefined) q = q.where('id', '!=', keep);
  const r = await q.executeTakeFirst();
  return Number(r.numDeletedRows);
}
