// Consecutive failed sign-ins per email (by the sha256 of the normalised email, whether or not a
// user has it), for the per-account backoff of services/web-auth.ts.
import { createHash } from 'node:crypto';
import type { SignInThrottleTable } from '../schema.ts';
import type { DbExecutor } from './executor.ts';

export function hashEmailForThrottle(normalizedEmail: string): string {
  return createHash('sha256').update(`sign-in:${normalizedEmail}`, 'utf8').digest('hex');
}

export async function getThrottle(db: DbExecutor, emailHash: string): Promise<SignInThrottleTable | undefined> {
  return db.selectFrom('sign_in_throttle').selectAll().where('email_hash', '=', emailHash).executeTakeFirst();
}

/** Counts one more failure (atomically, also under concurrent failures); returns the new count. */
export async function addFailure(db: DbExecutor, emailHash: string, now: string): Promise<number> {
  const row = await db
    .insertInto('sign_in_throttle')
    .values({ email_hash: emailHash, failures: 1, blocked_until: null, updated_at: now })
    .onConflict((oc) => oc.column('email_hash').doUpdateSet((eb) => ({ failures: eb('sign_in_throttle.failures', '+', 1), updated_at: now })))
    .returning('failures')
    .executeTakeFirstOrThrow();
  return Number(row.failures);
}

export async function blockUntil(db: DbExecutor, emailHash: string, until: string): Promise<void> {
  await db.updateTable('sign_in_throttle').set({ blocked_until: until }).where('email_hash', '=', emailHash).execute();
}

export async function clearThrottle(db: DbExecutor, emailHash: string): Promise<void> {
  await db.deleteFrom('sign_in_throttle').where('email_hash', '=', emailHash).execute();
}

/** The sweeper: rows not touched for `olderThan` (a backoff long over). */
export async function deleteStaleThrottles(db: DbExecutor, olderThan: string): Promise<number> {
  const r = await db.deleteFrom('sign_in_throttle').where('updated_at', '<', olderThan).where((eb) => eb.or([eb('blocked_until', 'is', null), eb('blocked_until', '<', olderThan)])).executeTakeFirst();
  return Number(r.numDeletedRows);
}
