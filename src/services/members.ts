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
// Removal, transfer and demotion end in the same state (docs/security.md, "Offboarding"): what
// the person may no longer do, nothing of theirs can do. Removing a member, in one transaction,
// revokes their live API keys, disables their webhooks, withdraws their pending invitations and
// the reset links they issued, and ends their web sessions. A transfer (owners) first replaces
// their keys by new keys held by the recipient — the leaver knows the old secrets, so the old
// keys are revoked all the same — when the recipient may hold keys, and hands their (disabled)
// webhooks over for review when the recipient may manage webhooks. A demotion narrows their keys
// to the new role's scopes and withdraws the webhooks, invitations and reset links the new role
// could not make. Each change is in the audit log.
import { randomBytes } from 'node:crypto';
import type { Db } from '../adapters/db/database.ts';
import { getAccount, isUniqueViolation, normalizeEmail, findUserByEmail } from '../adapters/db/repositories/accounts.ts';
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
import { issueApiKey, liveKeysCreatedBy, narrowKeysOf, revokeKeyById } from './keys.ts';
import type { IssuedKey, KeyView } from './keys.ts';
import { withinRole } from './scopes.ts';
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
/** How long the link that proves an invitee's email works (never past the invitation itself). */
export const CLAIM_TTL_MS = 24 * 3600_000;
/**
 * Invitations an account may have waiting at once. With the per-account and per-address rate
 * limits of the invite form (routes), this bounds how much email one account can make Vouch send.
 */
export const PENDING_INVITATIONS_MAX = 50;

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
    await lockAccount(trx, accountId); // serialised with role changes, which withdraw what a new role could not send
    const myRole = await currentRole(trx, accountId, actor.userId);
    if (!invitableRoles(myRole).includes(role)) {
      throw new MemberForbiddenError(myRole === 'member' ? 'members cannot invite' : `an ${myRole} cannot invite an ${role}`);
    }
    const existing = await findUserByEmail(trx, email);
    if (existing && existing.account_id === accountId) throw new MemberInputError(`${email} is already a member of this account`);
    await refuseIfSsoRequired(trx, accountId, email, 'people there join by signing in with it, no invitation needed');
    await repo.deletePendingInvitationsFor(trx, accountId, email);
    if ((await repo.countPendingInvitations(trx, accountId, nowIso())) >= PENDING_INVITATIONS_MAX) {
      throw new MemberInputError(`this account already has ${PENDING_INVITATIONS_MAX} invitations waiting; withdraw some, or wait until they are used or expire`);
    }
    const row = {
      id: newId('inv'), account_id: accountId, email, token_hash: repo.hashInvitationToken(token), invited_by: actor.userId, created_at: nowIso(), expires_at: isoAfter(ttlMs), accepted_at: null, role,
      claim_token_hash: null, claim_password_hash: null, claim_expires_at: null,
    };
    await repo.insertInvitation(trx, row);
    await recordAudit(trx, accountId, actor.ctx, 'member.invited', { type: 'invitation', id: row.id, label: email }, { role });
    return { id: row.id, email, role, invited_by: actor.userId, created_at: row.created_at, expires_at: row.expires_at, token, emailHasAccount: existing !== undefined };
  });
}

/**
 * Withdraws a pending invitation. The acting member may withdraw only invitations of a role
 * they could send (an admin withdraws members' invitations, never an owner's admin invitation).
 */
export async function revokeInvitation(db: DbExecutor, accountId: string, actor: ActingMember, invitationId: string): Promise<void> {
  await inTransaction(db, async (trx) => {
    const inv = await repo.findPendingInvitation(trx, accountId, invitationId);
    if (!inv) throw new MemberNotFoundError('invitation', invitationId);
    const myRole = await currentRole(trx, accountId, actor.userId);
    if (!invitableRoles(myRole).includes(inv.role)) throw new MemberForbiddenError(`an ${myRole} cannot withdraw an invitation to become ${inv.role === 'admin' ? 'an admin' : `a ${inv.role}`}`);
    if (!(await repo.deletePendingInvitation(trx, accountId, invitationId))) throw new MemberNotFoundError('invitation', invitationId);
    await recordAudit(trx, accountId, actor.ctx, 'member.invitation_withdrawn', { type: 'invitation', id: inv.id, label: inv.email });
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

/** An acceptance waiting for the invited address to be proved by the link emailed to it. */
export interface EmailProof {
  email: string;
  /** The confirmation link's secret, for the email only (null: the address has an account; the email says so). */
  claimToken: string | null;
  expiresAt: string;
}

function userFromInvitation(inv: { account_id: string; email: string; role: Role }, passwordHash: string, now: string): User {
  return { id: newId('usr'), account_id: inv.account_id, email: inv.email, password_hash: passwordHash, created_at: now, role: inv.role };
}

/** Creates the user of a claimed invitation and records that they joined (inside the claiming transaction). */
async function join(trx: DbExecutor, inv: { id: string; account_id: string; email: string; role: Role }, passwordHash: string, now: string, ip: string | null): Promise<AcceptedInvitation> {
  const user = userFromInvitation(inv, passwordHash, now);
  await repo.insertUser(trx, user);
  const ctx = { actor: { type: 'user' as const, id: user.id, label: user.email }, ip };
  await recordAudit(trx, inv.account_id, ctx, 'member.joined', { type: 'user', id: user.id, label: user.email }, { role: inv.role, invitation: inv.id });
  return { userId: user.id, accountId: user.account_id, email: user.email };
}

const TAKEN = 'this email already has a Vouch account, and a person belongs to one account only; sign in with it instead, or ask to be invited with another email';

/**
 * Uses the link with the password the invitee chose, when no email can prove the address (no
 * SMTP server): the user is created at once — the link was only shown to the inviter, who is
 * trusted with it. Null when the link cannot be used (unknown, used, expired). Throws
 * MemberInputError for a password that breaks the rules or a taken email.
 */
export async function acceptInvitation(db: Db, token: string, password: string, ip: string | null = null): Promise<AcceptedInvitation | null> {
  const checked = await checkedAcceptance(db, token, password);
  if (!checked) return null;
  try {
    return await db.kysely.transaction().execute(async (trx) => {
      const now = nowIso();
      const inv = await repo.findUsableInvitation(trx, checked.hash, now);
      if (!inv) return null;
      await refuseIfSsoRequired(trx, inv.account_id, inv.email, 'sign in with your company account instead of this invitation');
      if (!(await repo.claimInvitation(trx, inv.id, now))) return null;
      return join(trx, inv, checked.passwordHash, now, ip);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new MemberInputError(TAKEN);
    throw error;
  }
}

/**
 * Uses the link with the password the invitee chose, when an SMTP server is set: nothing is
 * created yet. The password's hash waits on the invitation and a second link, emailed to the
 * invited address, proves the address before the user exists (confirmInvitation): whoever
 * holds the invitation link is not necessarily who owns the address. The outcome is the same
 * whether or not the address already has an account (then no link is made; the email says so).
 */
export async function requestInvitationProof(db: Db, token: string, password: string): Promise<EmailProof | null> {
  const checked = await checkedAcceptance(db, token, password);
  return checked && awaitEmailProof(db, checked.hash, checked.passwordHash);
}

/** The link's hash and the password's, once both checked out; null for a link that cannot be used. */
async function checkedAcceptance(db: Db, token: string, password: string): Promise<{ hash: string; passwordHash: string } | null> {
  if (!TOKEN.test(token)) return null;
  const problem = passwordProblem(password);
  if (problem) throw new MemberInputError(problem);
  const hash = repo.hashInvitationToken(token);
  if (!(await repo.findUsableInvitation(db.kysely, hash, nowIso()))) return null;
  return { hash, passwordHash: await hashPassword(password) }; // outside any transaction (slow on purpose)
}

/** Stores the chosen password on the invitation and makes the link that proves the address. */
async function awaitEmailProof(db: Db, invitationHash: string, passwordHash: string): Promise<EmailProof | null> {
  const claimToken = randomBytes(32).toString('base64url');
  return db.kysely.transaction().execute(async (trx) => {
    const now = nowIso();
    const inv = await repo.findUsableInvitation(trx, invitationHash, now);
    if (!inv) return null;
    const expiresAt = [isoAfter(CLAIM_TTL_MS), inv.expires_at].sort()[0];
    const taken = (await findUserByEmail(trx, inv.email)) !== undefined;
    // For a taken address nothing can be claimed: no link exists, the email only says so.
    if (!taken) await repo.setInvitationClaim(trx, inv.id, { tokenHash: repo.hashInvitationToken(`claim:${claimToken}`), passwordHash, expiresAt });
    return { email: inv.email, claimToken: taken ? null : claimToken, expiresAt };
  });
}

/** What the confirmation page shows; null for a malformed, unknown, used or expired link (alike). */
export async function openInvitationClaim(db: DbExecutor, claimToken: string): Promise<{ email: string } | null> {
  if (!TOKEN.test(claimToken)) return null;
  const inv = await repo.findClaimableInvitation(db, repo.hashInvitationToken(`claim:${claimToken}`), nowIso());
  return inv ? { email: inv.email } : null;
}

/**
 * The emailed link was opened and confirmed: the address is proved, the user is created with
 * the password chosen on the invitation page and the invitation claimed, atomically. Null when
 * the link cannot be used; MemberInputError when the address got an account meanwhile.
 */
export async function confirmInvitation(db: Db, claimToken: string, ip: string | null = null): Promise<AcceptedInvitation | null> {
  if (!TOKEN.test(claimToken)) return null;
  const hash = repo.hashInvitationToken(`claim:${claimToken}`);
  try {
    return await db.kysely.transaction().execute(async (trx) => {
      const now = nowIso();
      const inv = await repo.findClaimableInvitation(trx, hash, now);
      if (!inv?.claim_password_hash) return null;
      await refuseIfSsoRequired(trx, inv.account_id, inv.email, 'sign in with your company account instead of this invitation');
      if (!(await repo.claimInvitation(trx, inv.id, now))) return null;
      return join(trx, inv, inv.claim_password_hash, now, ip);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new MemberInputError(TAKEN);
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

/**
 * What a transfer to a member of `role` does with the leaver's keys and webhooks (the page
 * says it before anything happens). Keys are always revoked (the leaver knows them); a
 * recipient who may hold keys gets new ones in their place. Webhooks are always disabled; a
 * recipient who may manage webhooks receives them to review and enable again.
 */
export function handoverTo(role: Role): { keys: 'replaced' | 'revoked'; webhooks: 'handed_over' | 'disabled' } {
  return { keys: can(role, 'keys.manage') ? 'replaced' : 'revoked', webhooks: can(role, 'webhooks.manage') ? 'handed_over' : 'disabled' };
}

/** A key made in a transfer for the recipient, in place of one of the leaver's. */
export interface ReplacementKey extends IssuedKey {
  name: string;
  /** The leaver's key it replaces (prefix…last4). */
  replaces: string;
}

export interface RemovalResult {
  member: MemberView;
  keysRevoked: number;
  webhooksDisabled: number;
  invitationsWithdrawn: number;
  resetLinksWithdrawn: number;
  /** The member who received the replacement keys and the webhooks, when they were transferred. */
  transferredTo: MemberView | null;
  /** New keys held by the recipient, in place of the leaver's: shown once, to the owner who removed. */
  replacementKeys: ReplacementKey[];
  webhooksHandedOver: number;
}

interface Handover {
  to: MemberView;
  replacementKeys: ReplacementKey[];
  webhooksHandedOver: number;
}

/** The transfer part of a removal: replacement keys and webhooks for `toId` (see handoverTo). */
async function handOver(trx: DbExecutor, accountId: string, actor: ActingMember, from: MemberView, toId: string): Promise<Handover> {
  const to = await repo.findUserInAccount(trx, accountId, toId);
  if (!to || to.id === from.id) throw new MemberInputError('choose another member of this account to receive the keys and webhooks');
  const plan = handoverTo(to.role);
  const replacementKeys: ReplacementKey[] = [];
  if (plan.keys === 'replaced') {
    for (const k of await liveKeysCreatedBy(trx, accountId, from.id)) {
      const scopes = withinRole(k.scopes, to.role);
      if (scopes.length === 0) continue;
      const replaces = `${k.prefix}…${k.last4}`;
      const issued = await issueApiKey(trx, accountId, k.name, actor.ctx, scopes, { holder: { id: to.id, email: to.email }, details: { replaces } });
      replacementKeys.push({ ...issued, name: k.name, replaces });
    }
  }
  let webhooksHandedOver = 0;
  if (plan.webhooks === 'handed_over') {
    await disableWebhooksOf(trx, accountId, from.id, actor.ctx, `its creator ${from.email} was removed; review its URL and secret before enabling it again`);
    webhooksHandedOver = await reassignWebhooks(trx, accountId, from.id, { id: to.id, email: to.email });
  }
  await recordAudit(trx, accountId, actor.ctx, 'member.resources_transferred', { type: 'user', id: to.id, label: to.email }, {
    from: from.email, keys_replaced: replacementKeys.length, webhooks_handed_over: webhooksHandedOver,
  });
  return { to: toMemberView(to), replacementKeys, webhooksHandedOver };
}

/** What a removal or a role change took away from what the member had made. */
interface Withdrawn {
  invitations: number;
  resetLinks: number;
}

/**
 * Withdraws the member's pending invitations that `role` could not send (all of them when
 * `role` is null: a removal), and the reset links they issued unless `role` issues them.
 */
async function withdrawLinksOf(trx: DbExecutor, accountId: string, member: MemberView, role: Role | null, ctx: AuditContext, reason: string): Promise<Withdrawn> {
  const allowed = role ? invitableRoles(role) : [];
  let invitations = 0;
  for (const inv of await repo.listPendingInvitationsBy(trx, accountId, member.id, nowIso())) {
    if (allowed.includes(inv.role) || !(await repo.deletePendingInvitation(trx, accountId, inv.id))) continue;
    await recordAudit(trx, accountId, ctx, 'member.invitation_withdrawn', { type: 'invitation', id: inv.id, label: inv.email }, { reason });
    invitations++;
  }
  if (!role) await repo.deletePendingInvitationsBy(trx, accountId, member.id); // expired ones too: nothing of theirs stays
  const resetLinks = role && can(role, 'members.reset_password') ? 0 : await resets.deletePendingResetsIssuedBy(trx, accountId, member.id);
  return { invitations, resetLinks };
}

/**
 * Removes a member and offboards them (see the top of this module), in one transaction. With
 * `transferTo` (owners only) their keys are replaced by keys of that member and their webhooks
 * handed to them, as far as that member's role allows (handoverTo).
 */
export async function removeMember(db: Db, accountId: string, actor: ActingMember, userId: string, opts: { transferTo?: string } = {}): Promise<RemovalResult> {
  if (userId === actor.userId) throw new MemberInputError('you cannot remove yourself; ask an owner to do it');
  return db.kysely.transaction().execute(async (trx) => {
    await lockAccount(trx, accountId);
    const myRole = await currentRole(trx, accountId, actor.userId);
    const member = await getMember(trx, accountId, userId);
    if (!canRemove(myRole, member.role)) throw new MemberForbiddenError(`an ${myRole} cannot remove an ${member.role}`);
    if (member.role === 'owner' && (await repo.countOwners(trx, accountId)) <= 1) throw new MemberInputError('an account needs at least one owner');
    let handover: Handover | null = null;
    if (opts.transferTo) {
      if (!can(myRole, 'members.roles')) throw new MemberForbiddenError('only owners can transfer a member\'s keys and webhooks');
      handover = await handOver(trx, accountId, actor, member, opts.transferTo);
    }
    const offboarding = { reason: `creator ${member.email} removed` };
    let keysRevoked = 0;
    for (const k of await liveKeysCreatedBy(trx, accountId, userId)) if (await revokeKeyById(trx, accountId, k.id, actor.ctx, offboarding)) keysRevoked++;
    const webhooksDisabled = await disableWebhooksOf(trx, accountId, userId, actor.ctx, `its creator ${member.email} was removed`);
    const withdrawn = await withdrawLinksOf(trx, accountId, member, null, actor.ctx, `${member.email} was removed`);
    await repo.deleteUser(trx, accountId, userId);
    await recordAudit(trx, accountId, actor.ctx, 'member.removed', { type: 'user', id: member.id, label: member.email }, {
      role: member.role, keys_revoked: keysRevoked, webhooks_disabled: webhooksDisabled, invitations_withdrawn: withdrawn.invitations,
      reset_links_withdrawn: withdrawn.resetLinks, transferred_to: handover?.to.email ?? null,
    });
    return {
      member, keysRevoked, webhooksDisabled, invitationsWithdrawn: withdrawn.invitations, resetLinksWithdrawn: withdrawn.resetLinks,
      transferredTo: handover?.to ?? null, replacementKeys: handover?.replacementKeys ?? [], webhooksHandedOver: handover?.webhooksHandedOver ?? 0,
    };
  });
}

/** What a role change took away from what the member had made (all zero for a promotion). */
export interface RoleChangeResult extends MemberView {
  keysNarrowed: number;
  keysRevoked: number;
  webhooksDisabled: number;
  invitationsWithdrawn: number;
  resetLinksWithdrawn: number;
}

/**
 * Gives a member another role (owners only); the last owner cannot stop being one. In the same
 * transaction, what they made obeys the new role: their keys keep only the scopes it allows
 * (none left: revoked), their webhooks are disabled unless it manages webhooks, their pending
 * invitations of a role it could not invite are withdrawn, and their reset links unless it issues them.
 */
export async function changeRole(db: Db, accountId: string, actor: ActingMember, userId: string, role: Role): Promise<RoleChangeResult> {
  return db.kysely.transaction().execute(async (trx) => {
    await lockAccount(trx, accountId);
    if (!can(await currentRole(trx, accountId, actor.userId), 'members.roles')) throw new MemberForbiddenError('only owners can change roles');
    const member = await getMember(trx, accountId, userId);
    const none = { keysNarrowed: 0, keysRevoked: 0, webhooksDisabled: 0, invitationsWithdrawn: 0, resetLinksWithdrawn: 0 };
    if (member.role === role) return { ...member, ...none };
    if (member.role === 'owner' && (await repo.countOwners(trx, accountId)) <= 1) {
      throw new MemberInputError(`an account needs at least one owner: make another member an owner before ${member.id === actor.userId ? 'you stop' : 'they stop'} being one`);
    }
    await repo.setUserRole(trx, accountId, userId, role);
    const reason = `${member.email} became ${role === 'admin' ? 'an admin' : `a ${role}`}`;
    const keys = await narrowKeysOf(trx, accountId, userId, role, actor.ctx, reason);
    const webhooksDisabled = can(role, 'webhooks.manage') ? 0 : await disableWebhooksOf(trx, accountId, userId, actor.ctx, `its creator ${reason} and may no longer manage webhooks`);
    const withdrawn = await withdrawLinksOf(trx, accountId, member, role, actor.ctx, reason);
    await recordAudit(trx, accountId, actor.ctx, 'member.role_changed', { type: 'user', id: member.id, label: member.email }, {
      from: member.role, to: role, keys_narrowed: keys.narrowed, keys_revoked: keys.revoked, webhooks_disabled: webhooksDisabled,
      invitations_withdrawn: withdrawn.invitations, reset_links_withdrawn: withdrawn.resetLinks,
    });
    return {
      ...member, role, keysNarrowed: keys.narrowed, keysRevoked: keys.revoked, webhooksDisabled, invitationsWithdrawn: withdrawn.invitations, resetLinksWithdrawn: withdrawn.resetLinks,
    };
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
