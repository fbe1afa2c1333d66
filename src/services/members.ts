// Settings → Members: the users of an account, invitations of teammates, removal.
//
// An invitation is a one-time link carrying a random token (only its sha256 is stored) that
// expires after INVITATION_TTL_MS. Opening it lets the invitee choose a password; the user is
// created and the invitation claimed in one transaction, so a link works exactly once even when
// two browsers submit it at the same moment. Removing a member deletes the user and every web
// session of theirs in one transaction: their next request is signed out.
import { randomBytes } from 'node:crypto';
import type { Db } from '../adapters/db/database.ts';
import { getAccount, isUniqueViolation, normalizeEmail, findUserByEmail } from '../adapters/db/repositories/accounts.ts';
import type { DbExecutor } from '../adapters/db/repositories/executor.ts';
import * as repo from '../adapters/db/repositories/members.ts';
import { emailProblem } from './accounts.ts';
import { isoAfter, newId, nowIso } from '../kernel/ids.ts';
import { hashPassword, passwordProblem } from './passwords.ts';

/** Three days: long enough to reach a teammate over a weekend, short enough to not linger. */
export const INVITATION_TTL_MS = 72 * 3600_000;

/** A refusal to show the member as is (validation, "that is you", email in use). */
export class MemberInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MemberInputError';
  }
}

/** No such member or invitation in this account (another account's ids look the same). */
export class MemberNotFoundError extends Error {
  constructor(what: 'member' | 'invitation', id: string) {
    super(`no ${what} ${id} in this account`);
    this.name = 'MemberNotFoundError';
  }
}

export interface MemberView {
  id: string;
  email: string;
  created_at: string;
}

export interface InvitationView {
  id: string;
  email: string;
  created_at: string;
  expires_at: string;
}

export interface IssuedInvitation extends InvitationView {
  /** The secret part of the link; shown once, never stored. */
  token: string;
}

export async function listMembers(db: DbExecutor, accountId: string): Promise<MemberView[]> {
  return (await repo.listUsers(db, accountId)).map(({ id, email, created_at }) => ({ id, email, created_at }));
}

export async function getMember(db: DbExecutor, accountId: string, userId: string): Promise<MemberView> {
  const u = await repo.findUserInAccount(db, accountId, userId);
  if (!u) throw new MemberNotFoundError('member', userId);
  return { id: u.id, email: u.email, created_at: u.created_at };
}

export async function listInvitations(db: DbExecutor, accountId: string, now = nowIso()): Promise<InvitationView[]> {
  return (await repo.listPendingInvitations(db, accountId, now)).map(({ id, email, created_at, expires_at }) => ({ id, email, created_at, expires_at }));
}

/**
 * Invites `email` into the account. A pending invitation of the same email is replaced (its
 * link stops working). An email that already belongs to a user is refused: a user belongs to
 * exactly one account. Only members can call this, so saying so reveals nothing to strangers.
 */
export async function inviteMember(db: Db, accountId: string, invitedBy: string, rawEmail: string, ttlMs = INVITATION_TTL_MS): Promise<IssuedInvitation> {
  const problem = emailProblem(rawEmail);
  if (problem) throw new MemberInputError(problem);
  const email = normalizeEmail(rawEmail);
  const token = randomBytes(32).toString('base64url');
  return db.kysely.transaction().execute(async (trx) => {
    const existing = await findUserByEmail(trx, email);
    if (existing) {
      throw new MemberInputError(existing.account_id === accountId ? `${email} is already a member of this account` : `${email} already has a Vouch account; a user belongs to one account only`);
    }
    await repo.deletePendingInvitationsFor(trx, accountId, email);
    const row = { id: newId('inv'), account_id: accountId, email, token_hash: repo.hashInvitationToken(token), invited_by: invitedBy, created_at: nowIso(), expires_at: isoAfter(ttlMs), accepted_at: null };
    await repo.insertInvitation(trx, row);
    return { id: row.id, email, created_at: row.created_at, expires_at: row.expires_at, token };
  });
}

export async function revokeInvitation(db: DbExecutor, accountId: string, invitationId: string): Promise<void> {
  if (!(await repo.deletePendingInvitation(db, accountId, invitationId))) throw new MemberNotFoundError('invitation', invitationId);
}

export interface OpenInvitation {
  email: string;
  accountName: string;
  expiresAt: string;
}

const TOKEN = /^[A-Za-z0-9_-]{20,100}$/;

/** What the invitation page shows; null for a malformed, unknown, used or expired link (alike). */
export async function openInvitation(db: DbExecutor, token: string): Promise<OpenInvitation | null> {
  if (!TOKEN.test(token)) return null;
  const inv = await repo.findUsableInvitation(db, repo.hashInvitationToken(token), nowIso());
  if (!inv) return null;
  const account = await getAccount(db, inv.account_id);
  return account ? { email: inv.email, accountName: account.name, expiresAt: inv.expires_at } : null;
}

export interface AcceptedInvitation {
  userId: string;
  accountId: string;
  email: string;
}

/**
 * Uses the link: creates the user with this password and claims the invitation, atomically.
 * Returns null when the link cannot be used (unknown, used, expired). Throws MemberInputError
 * for a password that breaks the rules or an email that got an account meanwhile.
 */
export async function acceptInvitation(db: Db, token: string, password: string): Promise<AcceptedInvitation | null> {
  if (!TOKEN.test(token)) return null;
  const problem = passwordProblem(password);
  if (problem) throw new MemberInputError(problem);
  const hash = repo.hashInvitationToken(token);
  if (!(await repo.findUsableInvitation(db.kysely, hash, nowIso()))) return null;
  const passwordHash = await hashPassword(password); // outside the transaction (slow on purpose)
  try {
    return await db.kysely.transaction().execute(async (trx) => {
      const now = nowIso();
      const inv = await repo.findUsableInvitation(trx, hash, now);
      if (!inv || !(await repo.claimInvitation(trx, inv.id, now))) return null;
      const user = { id: newId('usr'), account_id: inv.account_id, email: inv.email, password_hash: passwordHash, created_at: now };
      await repo.insertUser(trx, user);
      return { userId: user.id, accountId: user.account_id, email: user.email };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new MemberInputError('this email got a Vouch account in the meantime; sign in with it instead');
    throw error;
  }
}

/**
 * Removes a member: the user and all their web sessions, at once. A member cannot remove
 * themselves (so an account always keeps at least the member who is acting).
 */
export async function removeMember(db: Db, accountId: string, actingUserId: string, userId: string): Promise<MemberView> {
  if (userId === actingUserId) throw new MemberInputError('you cannot remove yourself; ask another member to do it');
  return db.kysely.transaction().execute(async (trx) => {
    const member = await getMember(trx, accountId, userId);
    await repo.deleteUser(trx, accountId, userId);
    return member;
  });
}
