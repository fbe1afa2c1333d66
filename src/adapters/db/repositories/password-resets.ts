// One-time password-reset links issued by an owner. Only the sha256 of the link's token is
// stored; a link is claimed once (used_at set only while null and unexpired).
import { createHash } from 'node:crypto';
import type { PasswordReset } from '../schema.ts';
import { affected } from './executor.ts';
import type { DbExecutor } from './executor.ts';

export function hashResetToken(token: string): string {
  return createHash('sha256').update(`reset:${token}`, 'utf8').digest('hex');
}

export async function insertPasswordReset(db: DbExecutor, row: PasswordReset): Promise<void> {
  await db.insertInto('password_resets').values(row).execute();
}

/** Withdraws the unused links of a user (a new link replaces them). */
export async function deletePendingResetsFor(db: DbExecutor, accountId: string, userId: string): Promise<void> {
  await db.deleteFrom('password_resets').where('account_id', '=', accountId).where('user_id', '=', userId).where('used_at', 'is', null).execute();
}

export async function findUsableReset(db: DbExecutor, tokenHash: string, now: string): Promise<PasswordReset | undefined> {
  return db.selectFrom('password_resets').selectAll().where('token_hash', '=', tokenHash).where('used_at', 'is', null).where('expires_at', '>', now).executeTakeFirst();
}

export async function claimReset(db: DbExecutor, id: string, now: string): Promise<boolean> {
  const r = await db.updateTable('password_resets').set({ used_at: now }).where('id', '=', id).where('used_at', 'is', null).where('expires_at', '>', now).executeTakeFirst();
  return affected(r) > 0;
}

export async function deleteExpiredResets(db: DbExecutor, now: string): Promise<number> {
  const r = await db.deleteFrom('password_resets').where('expires_at', '<=', now).executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** Withdraws the unused links a member issued (their removal, or a role that may no longer issue them); how many. */
export async function deletePendingResetsIssuedBy(db: DbExecutor, accountId: string, userId: string): Promise<number> {
  const r = await db.deleteFrom('password_resets').where('account_id', '=', accountId).where('created_by', '=', userId).where('used_at', 'is', null).executeTakeFirst();
  return affected(r);
}

/** Withdraws every unused link of a user (their own password just changed). */
export async function deleteUnusedResetsOf(db: DbExecutor, userId: string): Promise<number> {
  const r = await db.deleteFrom('password_resets').where('user_id', '=', userId).where('used_at', 'is', null).executeTakeFirst();
  return affected(r);
}
