// The members of an account (its users) and the invitations that add new ones. Every query is
// scoped to an account, except the lookup of an invitation by its token hash (the link is the
// credential) and the one-time claim of an invitation.
import { createHash } from 'node:crypto';
import type { Invitation, User, UserRole } from '../schema.ts';
import { affected } from './executor.ts';
import type { DbExecutor } from './executor.ts';

export function hashInvitationToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Oldest first: the founder at the top. */
export async function listUsers(db: DbExecutor, accountId: string): Promise<User[]> {
  return db.selectFrom('users').selectAll().where('account_id', '=', accountId).orderBy('created_at').orderBy('id').execute();
}

export async function findUserInAccount(db: DbExecutor, accountId: string, userId: string): Promise<User | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', userId).where('account_id', '=', accountId).executeTakeFirst();
}

export async function insertUser(db: DbExecutor, row: User): Promise<void> {
  await db.insertInto('users').values(row).execute();
}

/** Deletes a user of this account and every web session of theirs. True when a user was deleted. */
export async function deleteUser(db: DbExecutor, accountId: string, userId: string): Promise<boolean> {
  // Explicit, not only the foreign-key cascade: the sessions must end even where cascades are off.
  await db.deleteFrom('web_sessions').where('user_id', '=', userId).where('account_id', '=', accountId).execute();
  const r = await db.deleteFrom('users').where('id', '=', userId).where('account_id', '=', accountId).executeTakeFirst();
  return affected(r) > 0;
}

export async function insertInvitation(db: DbExecutor, row: Invitation): Promise<void> {
  await db.insertInto('invitations').values(row).execute();
}

/** Invitations not yet used and not expired, newest first. */
export async function listPendingInvitations(db: DbExecutor, accountId: string, now: string): Promise<Invitation[]> {
  return db
    .selectFrom('invitations')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('accepted_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** The invitation behind a link, if it can still be used. */
export async function findUsableInvitation(db: DbExecutor, tokenHash: string, now: string): Promise<Invitation | undefined> {
  return db
    .selectFrom('invitations')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .where('accepted_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

/** Claims the invitation for its one use; false when it was used (or expired) meanwhile. */
export async function claimInvitation(db: DbExecutor, id: string, now: string): Promise<boolean> {
  const r = await db
    .updateTable('invitations')
    .set({ accepted_at: now })
    .where('id', '=', id)
    .where('accepted_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return affected(r) > 0;
}

/** Deletes the pending invitations of an email in this account (a new one replaces them). */
export async function deletePendingInvitationsFor(db: DbExecutor, accountId: string, email: string): Promise<void> {
  await db.deleteFrom('invitations').where('account_id', '=', accountId).where('email', '=', email).where('accepted_at', 'is', null).execute();
}

/** Withdraws a pending invitation of this account. True when one was deleted. */
export async function deletePendingInvitation(db: DbExecutor, accountId: string, id: string): Promise<boolean> {
  const r = await db.deleteFrom('invitations').where('id', '=', id).where('account_id', '=', accountId).where('accepted_at', 'is', null).executeTakeFirst();
  return affected(r) > 0;
}

export async function setUserRole(db: DbExecutor, accountId: string, userId: string, role: UserRole): Promise<boolean> {
  const r = await db.updateTable('users').set({ role }).where('id', '=', userId).where('account_id', '=', accountId).executeTakeFirst();
  return affected(r) > 0;
}

export async function countOwners(db: DbExecutor, accountId: string): Promise<number> {
  const row = await db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).where('account_id', '=', accountId).where('role', '=', 'owner').executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function updateUserPassword(db: DbExecutor, userId: string, passwordHash: string): Promise<boolean> {
  const r = await db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', userId).executeTakeFirst();
  return affected(r) > 0;
}

/** The pending invitations a member sent (offboarding). */
export async function listPendingInvitationsBy(db: DbExecutor, accountId: string, userId: string, now: string): Promise<Invitation[]> {
  return db.selectFrom('invitations').selectAll().where('account_id', '=', accountId).where('invited_by', '=', userId)
    .where('accepted_at', 'is', null).where('expires_at', '>', now).orderBy('id').execute();
}

/** Withdraws every pending invitation a member sent; the number withdrawn. */
export async function deletePendingInvitationsBy(db: DbExecutor, accountId: string, userId: string): Promise<number> {
  const r = await db.deleteFrom('invitations').where('account_id', '=', accountId).where('invited_by', '=', userId).where('accepted_at', 'is', null).executeTakeFirst();
  return affected(r);
}

/** How many invitations of this account are waiting (a bound on what an account may have out). */
export async function countPendingInvitations(db: DbExecutor, accountId: string, now: string): Promise<number> {
  const row = await db.selectFrom('invitations').select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId).where('accepted_at', 'is', null).where('expires_at', '>', now).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A pending invitation of this account by id. */
export async function findPendingInvitation(db: DbExecutor, accountId: string, id: string): Promise<Invitation | undefined> {
  return db.selectFrom('invitations').selectAll().where('id', '=', id).where('account_id', '=', accountId).where('accepted_at', 'is', null).executeTakeFirst();
}

/** Records an acceptance that waits for its email to be proved (a newer one replaces it). */
export async function setInvitationClaim(db: DbExecutor, id: string, claim: { tokenHash: string; passwordHash: string; expiresAt: string }): Promise<void> {
  await db.updateTable('invitations').set({ claim_token_hash: claim.tokenHash, claim_password_hash: claim.passwordHash, claim_expires_at: claim.expiresAt })
    .where('id', '=', id).where('accepted_at', 'is', null).execute();
}

/** The invitation whose emailed confirmation link this is, while both can still be used. */
export async function findClaimableInvitation(db: DbExecutor, claimTokenHash: string, now: string): Promise<Invitation | undefined> {
  return db.selectFrom('invitations').selectAll().where('claim_token_hash', '=', claimTokenHash).where('accepted_at', 'is', null)
    .where('expires_at', '>', now).where('claim_expires_at', '>', now).executeTakeFirst();
}
