// Settings → Members: the users of an account, their roles, invitations of teammates, removal
// with offboarding, and owner-issued password-reset links.
//
// An invitation is a one-time link carrying a random token (only its sha256 is stored) that
// expires after INVITATION_TTL_MS. Opening it lets the invitee choose a password; the user is
// created and the invitation claimed in one transaction, so a link works exactly once even when
// two browsers submit it at the same moment.
//
// Membership changes (roles, removal) run in a transaction that first locks the account row
// (lockAccount) and reads the acting member's role again inside it: an account always keeps at
// least one owner, also when two owners demote or remove each other at the same moment.
//
// Removing a member offboards them in the same transaction: their live API keys are revoked,
// their webhooks disabled, their pending invitations withdrawn and their web sessions ended —
// or, when an owner chooses, their keys, webhooks and invitations are transferred to another
// member first. Each change is in the audit log.
import { randomBytes } from 'node:crypto';
import type { Db } from '../adapters/db/database.ts';
import { getAccount, isUniqueViolation, normalizeEmail, findUserByEmail } from '../adapters/db/repositories/accounts.ts';
import { reassignKeys } from '../adapters/db/repositories/api-keys.ts';
import { inTransaction, lockAccount } from '../adapters/db/repositories/executor.ts';
import type { DbExecutor } from '../adapters/db/repositories/executor.ts';
import * as repo from '../adapters/db/repositories/members.ts';
import * as resets from '../adapters/db/repositories/password-resets.ts';
import { reassignWebhooks } from '../adapters/db/repositories/webhooks.ts';
import { deleteUserWebSessions } from '../adapters/db/repositories/web-sessions.ts';
import type { User } from '../adapters/db/schema.ts';
import { emailProblem } from './accounts.ts';
import { recordAudit } from './audit.ts';
import type { AuditContext } from './audit.ts';
import { isoAfter, newId, nowIso } from '../kernel/ids.ts';
import { liveKeysCreatedBy, revokeKeyById } from './keys.ts';
import type { KeyView } from './keys.ts';
import { hashPassword, passwordProblem } from './passwords.ts';
import { can, canRemove, invitableRoles, ROLE_LABELS } from './roles.ts';
import type { Role } from './roles.ts';
import { disableWebhooksOf, liveWebhooksCreatedBy } from './webhooks/registry.ts';
import type { WebhookView } from './webhooks/registry.ts';
import { clearSignInBackoff, startWebSession } from './web-auth.ts';
import { domainOf, requiringProvider } from './sso/policy.ts';

/** Refuses what SSO-required domains do without (docs/security.md, "Single sign-on"). */
async function refuseIfSsoRequired(db: DbExecutor, accountId: string, email: string, what: string): Promise<void> {
  if (await requiringProvider(db, accountId, email)) {
    throw new MemberInputError(`this account requires single sign-on for ${domainOf(email)}: ${what}`);
  }
}
import type { SignedIn } from './web-auth.ts';

/** Three days: long enough to reach a teammate over a weekend, short enough to not linger. */
export const INVITATION_TTL_MS = 72 * 3600_000;
/** A reset link is for someone waiting for it: one day. */
export const RESET_TTL_MS = 24 * 3600_000;

/** A refusal to show the member as is (validation, "that is you", the last owner). */
export class MemberInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MemberInputError';
  }
}

/** The acting member's role does not allow this (checked again inside the transaction). */
export class MemberForbiddenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MemberForbiddenError';
  }
}

/** No such member or invitation in this account (another account's ids look the same). */
export class MemberNotFoundError extends Error {
  constructor(what: 'member' | 'invitation', id: string) {
    super(`no ${what} ${id} in this account`);
    this.name = 'MemberNotFoundError';
  }
}

/** Who is acting: their id and the audit context (their role is read again where it matters). */
export interface ActingMember {
  userId: string;
  role: Role;
  ctx: AuditContext;
}

export interface MemberView {
  id: string;
  email: string;
  role: Role;
  created_at: string;
}

export interface InvitationView {
  id: string;
  email: string;
  role: Role;
  invited_by: string | null;
  created_at: string;
  expires_at: string;
}

export interface IssuedInvitation extends InvitationView {
  /** The secret part of the link; shown once, never stored. */
  token: string;
  /** For the invitation email only (never shown to the inviter): the address already has an account. */
  emailHasAccount: boolean;
}

const toMemberView = ({ id, email, role, created_at }: User): MemberView => ({ id, email, role, created_at });

export async function listMembers(db: DbExecutor, accountId: string): Promise<MemberView[]> {
  return (await repo.listUsers(db, accountId)).map(toMemberView);
}

export async function getMember(db: DbExecutor, accountId: string, userId: string): Promise<MemberView> {
  const u = await repo.findUserInAccount(db, accountId, userId);
  if (!u) throw new MemberNotFoundError('member', userId);
  return toMemberView(u);
}

export async function listInvitations(db: DbExecutor, accountId: string, now = nowIso()): Promise<InvitationView[]> {
  return (await repo.listPendingInvitations(db, accountId, now)).map(({ id, email, role, invited_by, created_at, expires_at }) => ({ id, email, role, invited_by, created_at, expires_at }));
}

/** The acting member's current role, read in `trx` (a demotion that just committed counts). */
async function currentRole(trx: DbExecutor, accountId: string, userId: string): Promise<Role> {
  const me = await repo.findUserInAccount(trx, accountId, userId);
  if (!me) throw new MemberForbiddenError('you are no longer a member of this account');
  return me.role;
}

/**
 * Invites `email` into the account with `role`. The answer is the same for any email that is not
 * already a member here — also for an email with an account elsewhere (it cannot join: a user
 * belongs to one account; the invitation email, or the invitation page when its password is
 * submitted, tells that person). A pending invitation of the same email is replaced.
 */
export async function inviteMember(db: Db, accountId: string, actor: ActingMember, rawEmail: string, role: Role = 'member', ttlMs = INVITATION_TTL_MS): Promise<IssuedInvitation> {
  const problem = emailProblem(rawEmail);
  if (problem) throw new MemberInputError(problem);
  const email = normalizeEmail(rawEmail);
  const token = randomBytes(32).toString('base64url');
  return db.kysely.transaction().execute(async (trx) => {
    const myRole = await currentRole(trx, accountId, actor.userId);
    if (!invitableRoles(myRole).includes(role)) {
      throw new MemberForbiddenError(myRole === 'member' ? 'members cannot invite' : `an ${myRole} cannot invite an ${role}`);
    }
    const existing = await findUserByEmail(trx, email);
    if (existing && existing.account_id === accountId) throw new MemberInputError(`${email} is already a member of this account`);
    await refuseIfSsoRequired(trx, accountId, email, 'people there join by signing in with it, no invitation needed');
    await repo.deletePendingInvitationsFor(trx, accountId, email);
    const row = { id: newId('inv'), account_id: accountId, email, token_hash: repo.hashInvitationToken(token), invited_by: actor.userId, created_at: nowIso(), expires_at: isoAfter(ttlMs), accepted_at: null, role };
    await repo.insertInvitation(trx, row);
    await recordAudit(trx, accountId, actor.ctx, 'member.invited', { type: 'invitation', id: row.id, label: email }, { role });
    return { id: row.id, email, role, invited_by: actor.userId, created_at: row.created_at, expires_at: row.expires_at, token, emailHasAccount: existing !== undefined };
  });
}

export async function revokeInvitation(db: DbExecutor, accountId: string, invitationId: string, ctx: AuditContext): Promise<void> {
  await inTransaction(db, async (trx) => {
    const inv = await trx.selectFrom('invitations').select(['id', 'email']).where('id', '=', invitationId).where('account_id', '=', accountId).where('accepted_at', 'is', null).executeTakeFirst();
    if (!inv || !(await repo.deletePendingInvitation(trx, accountId, invitationId))) throw new MemberNotFoundError('invitation', invitationId);
    await recordAudit(trx, accountId, ctx, 'member.invitation_withdrawn', { type: 'invitation', id: inv.id, label: inv.email });
  });
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
 * Uses the link: creates the user with this password and the invitation's role and claims the
 * invitation, atomically. Returns null when the link cannot be used (unknown, used, expired).
 * Throws MemberInputError for a password that breaks the rules or an email with an account.
 */
export async function acceptInvitation(db: Db, token: string, password: string, ip: string | null = null): Promise<AcceptedInvitation | null> {
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
      if (!inv) return null;
      await refuseIfSsoRequired(trx, inv.account_id, inv.email, 'sign in with your company account instead of this invitation');
      if (!(await repo.claimInvitation(trx, inv.id, now))) return null;
      const user: User = { id: newId('usr'), account_id: inv.account_id, email: inv.email, password_hash: passwordHash, created_at: now, role: inv.role };
      await repo.insertUser(trx, user);
      const ctx = { actor: { type: 'user' as const, id: user.id, label: user.email }, ip };
      await recordAudit(trx, inv.account_id, ctx, 'member.joined', { type: 'user', id: user.id, label: user.email }, { role: inv.role, invitation: inv.id });
      return { userId: user.id, accountId: user.account_id, email: user.email };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new MemberInputError('this email already has a Vouch account, and a person belongs to one account only; sign in with it instead, or ask to be invited with another email');
    throw error;
  }
}

/** What removing a member will do: shown on the confirmation page before it is done. */
export interface OffboardingPlan {
  member: MemberView;
  keys: KeyView[];
  webhooks: WebhookView[];
  invitations: InvitationView[];
}

export async function offboardingPlan(db: DbExecutor, accountId: string, userId: string): Promise<OffboardingPlan> {
  const member = await getMember(db, accountId, userId);
  const [keys, webhooks, invitations] = await Promise.all([
    liveKeysCreatedBy(db, accountId, userId),
    liveWebhooksCreatedBy(db, accountId, userId),
    repo.listPendingInvitationsBy(db, accountId, userId, nowIso()),
  ]);
  return { member, keys, webhooks, invitations: invitations.map(({ id, email, role, invited_by, created_at, expires_at }) => ({ id, email, role, invited_by, created_at, expires_at })) };
}

export interface RemovalResult {
  member: MemberView;
  keysRevoked: number;
  webhooksDisabled: number;
  invitationsWithdrawn: number;
  /** The member who received the keys, webhooks and invitations, when they were transferred. */
  transferredTo: MemberView | null;
}

async function transferResources(trx: DbExecutor, accountId: string, actor: ActingMember, from: MemberView, toId: string): Promise<MemberView> {
  const to = await repo.findUserInAccount(trx, accountId, toId);
  if (!to || to.id === from.id) throw new MemberInputError('choose another member of this account to receive the keys and webhooks');
  const keys = await reassignKeys(trx, accountId, from.id, { id: to.id, email: to.email });
  const hooks = await reassignWebhooks(trx, accountId, from.id, { id: to.id, email: to.email });
  const invites = await repo.reassignInvitations(trx, accountId, from.id, to.id);
  await recordAudit(trx, accountId, actor.ctx, 'member.resources_transferred', { type: 'user', id: to.id, label: to.email }, { from: from.email, keys, webhooks: hooks, invitations: invites });
  return toMemberView(to);
}

/**
 * Removes a member and offboards them (see the top of this module), in one transaction. With
 * `transferTo` (owners only) their keys, webhooks and invitations go to that member instead.
 */
export async function removeMember(db: Db, accountId: string, actor: ActingMember, userId: string, opts: { transferTo?: string } = {}): Promise<RemovalResult> {
  if (userId === actor.userId) throw new MemberInputError('you cannot remove yourself; ask an owner to do it');
  return db.kysely.transaction().execute(async (trx) => {
    await lockAccount(trx, accountId);
    const myRole = await currentRole(trx, accountId, actor.userId);
    const member = await getMember(trx, accountId, userId);
    if (!canRemove(myRole, member.role)) throw new MemberForbiddenError(`an ${myRole} cannot remove an ${member.role}`);
    if (member.role === 'owner' && (await repo.countOwners(trx, accountId)) <= 1) throw new MemberInputError('an account needs at least one owner');
    let transferredTo: MemberView | null = null;
    if (opts.transferTo) {
      if (!can(myRole, 'members.roles')) throw new MemberForbiddenError('only owners can transfer a member\'s keys and webhooks');
      transferredTo = await transferResources(trx, accountId, actor, member, opts.transferTo);
    }
    const offboarding = { reason: `creator ${member.email} removed` };
    let keysRevoked = 0;
    for (const k of await liveKeysCreatedBy(trx, accountId, userId)) if (await revokeKeyById(trx, accountId, k.id, actor.ctx, offboarding)) keysRevoked++;
    const webhooksDisabled = await disableWebhooksOf(trx, accountId, userId, actor.ctx, `its creator ${member.email} was removed`);
    const invitationsWithdrawn = await repo.deletePendingInvitationsBy(trx, accountId, userId);
    await repo.deleteUser(trx, accountId, userId);
    await recordAudit(trx, accountId, actor.ctx, 'member.removed', { type: 'user', id: member.id, label: member.email }, {
      role: member.role, keys_revoked: keysRevoked, webhooks_disabled: webhooksDisabled, invitations_withdrawn: invitationsWithdrawn, transferred_to: transferredTo?.email ?? null,
    });
    return { member, keysRevoked, webhooksDisabled, invitationsWithdrawn, transferredTo };
  });
}

/** Gives a member another role (owners only); the last owner cannot stop being one. */
export async function changeRole(db: Db, accountId: string, actor: ActingMember, userId: string, role: Role): Promise<MemberView> {
  return db.kysely.transaction().execute(async (trx) => {
    await lockAccount(trx, accountId);
    if (!can(await currentRole(trx, accountId, actor.userId), 'members.roles')) throw new MemberForbiddenError('only owners can change roles');
    const member = await getMember(trx, accountId, userId);
    if (member.role === role) return member;
    if (member.role === 'owner' && (await repo.countOwners(trx, accountId)) <= 1) {
      throw new MemberInputError(`an account needs at least one owner: make another member an owner before ${member.id === actor.userId ? 'you stop' : 'they stop'} being one`);
    }
    await repo.setUserRole(trx, accountId, userId, role);
    await recordAudit(trx, accountId, actor.ctx, 'member.role_changed', { type: 'user', id: member.id, label: member.email }, { from: member.role, to: role });
    return { ...member, role };
  });
}

export interface IssuedReset {
  email: string;
  token: string;
  expires_at: string;
}

/** An owner's one-time link that lets another member choose a new password (replaces older ones). */
export async function issuePasswordReset(db: Db, accountId: string, actor: ActingMember, userId: string, ttlMs = RESET_TTL_MS): Promise<IssuedReset> {
  if (userId === actor.userId) throw new MemberInputError('change your own password on the Account page');
  const token = randomBytes(32).toString('base64url');
  return db.kysely.transaction().execute(async (trx) => {
    if (!can(await currentRole(trx, accountId, actor.userId), 'members.reset_password')) throw new MemberForbiddenError('only owners can issue password-reset links');
    const member = await getMember(trx, accountId, userId);
    if (member.role !== 'owner') await refuseIfSsoRequired(trx, accountId, member.email, `${member.email} signs in through the identity provider, not with a password`);
    await resets.deletePendingResetsFor(trx, accountId, userId);
    const row = { id: newId('pwr'), account_id: accountId, user_id: userId, token_hash: resets.hashResetToken(token), created_by: actor.userId, created_at: nowIso(), expires_at: isoAfter(ttlMs), used_at: null };
    await resets.insertPasswordReset(trx, row);
    await recordAudit(trx, accountId, actor.ctx, 'auth.password_reset_issued', { type: 'user', id: member.id, label: member.email }, { expires_at: row.expires_at });
    return { email: member.email, token, expires_at: row.expires_at };
  });
}

/** What the reset page shows; null for a malformed, unknown, used or expired link (alike). */
export async function openPasswordReset(db: DbExecutor, token: string): Promise<{ email: string; accountName: string } | null> {
  if (!TOKEN.test(token)) return null;
  const r = await resets.findUsableReset(db, resets.hashResetToken(token), nowIso());
  if (!r) return null;
  const [user, account] = await Promise.all([repo.findUserInAccount(db, r.account_id, r.user_id), getAccount(db, r.account_id)]);
  return user && account ? { email: user.email, accountName: account.name } : null;
}

/**
 * Uses a reset link: sets the password, ends every web session of the member, clears their
 * sign-in backoff and starts a new session, in one transaction. Null when the link cannot be used.
 */
export async function usePasswordReset(db: Db, token: string, password: string, ip: string | null, ttlMs: number): Promise<(SignedIn & { email: string }) | null> {
  if (!TOKEN.test(token)) return null;
  const problem = passwordProblem(password);
  if (problem) throw new MemberInputError(problem);
  const hash = resets.hashResetToken(token);
  if (!(await resets.findUsableReset(db.kysely, hash, nowIso()))) return null;
  const passwordHash = await hashPassword(password);
  return db.kysely.transaction().execute(async (trx) => {
    const now = nowIso();
    const r = await resets.findUsableReset(trx, hash, now);
    if (!r || !(await resets.claimReset(trx, r.id, now))) return null;
    const user = await repo.findUserInAccount(trx, r.account_id, r.user_id);
    if (!user) return null;
    // A link issued before SSO became required: the password would not be usable anyway.
    if (user.role !== 'owner' && (await requiringProvider(trx, user.account_id, user.email))) return null;
    await repo.updateUserPassword(trx, user.id, passwordHash);
    const ended = await deleteUserWebSessions(trx, user.id);
    await clearSignInBackoff(trx, user.email);
    await recordAudit(trx, user.account_id, { actor: { type: 'user', id: user.id, label: user.email }, ip }, 'auth.password_reset_used', { type: 'user', id: user.id, label: user.email }, { sessions_ended: ended });
    return { ...(await startWebSession(trx, user, ttlMs)), email: user.email };
  });
}

export const roleLabel = (role: Role): string => ROLE_LABELS[role];
