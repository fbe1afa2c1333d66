// Dashboard sign-in: email + password → a cookie token. Only the token's sha256 is stored (as
// the web_sessions id), with a per-session CSRF token for the forms of signed-in pages.
//
// Per-account backoff: after BACKOFF_AFTER consecutive failures for one email, sign-in with that
// email is refused — before any password is checked — for a time that doubles with each further
// failure (BACKOFF_BASE_MS up to BACKOFF_MAX_MS). It is counted per email whether or not a user
// has it, so the backoff says nothing about which emails exist; a success clears it. The
// per-address limit (routes/web/auth.tsx) bounds how fast one address can try.
import { randomBytes } from 'node:crypto';
import { findUserByEmail, getUser, normalizeEmail } from '../adapters/db/repositories/accounts.ts';
import { inTransaction } from '../adapters/db/repositories/executor.ts';
import type { DbExecutor } from '../adapters/db/repositories/executor.ts';
import { addFailure, blockUntil, clearThrottle, getThrottle, hashEmailForThrottle } from '../adapters/db/repositories/sign-in-throttle.ts';
import { createWebSession, deleteUserWebSessions, deleteWebSession, findValidWebSession, hashSessionToken } from '../adapters/db/repositories/web-sessions.ts';
import { updateUserPassword } from '../adapters/db/repositories/members.ts';
import { deleteUnusedResetsOf } from '../adapters/db/repositories/password-resets.ts';
import type { UserRole } from '../adapters/db/schema.ts';
import { isoAfter, nowIso } from '../kernel/ids.ts';
import { recordAudit } from './audit.ts';
import type { AuditContext } from './audit.ts';
import { hashPassword, passwordProblem, verifyPassword } from './passwords.ts';
import { requiringProvider } from './sso/policy.ts';

export const BACKOFF_AFTER = 5;
export const BACKOFF_BASE_MS = 30_000;
export const BACKOFF_MAX_MS = 15 * 60_000;

/** How long sign-in stays refused after the `failures`-th consecutive failure (0: not at all). */
export function backoffMs(failures: number): number {
  if (failures < BACKOFF_AFTER) return 0;
  return Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.min(failures - BACKOFF_AFTER, 20));
}

export interface SignedIn {
  /** The cookie value; never stored. */
  token: string;
  userId: string;
  accountId: string;
}

export type SignInResult =
  | ({ kind: 'ok' } & SignedIn)
  | { kind: 'refused' }
  /** Too many failures for this email: refused without checking the password, for `retryAfterMs`. */
  | { kind: 'backoff'; retryAfterMs: number }
  /** The password was right, but the account requires single sign-on for this email (owners excepted: break-glass). */
  | { kind: 'sso_required' };

async function newWebSession(db: DbExecutor, user: { id: string; account_id: string }, ttlMs: number): Promise<SignedIn> {
  const token = randomBytes(32).toString('base64url');
  // One instant for both ends, so the session lasts exactly its bound (two clock reads a
  // millisecond apart made it 1 ms longer than an SSO session may be).
  const now = Date.now();
  await createWebSession(db, {
    id: hashSessionToken(token),
    user_id: user.id,
    account_id: user.account_id,
    csrf_token: randomBytes(32).toString('base64url'),
    created_at: new Date(now).toISOString(),
    expires_at: new Date(now + ttlMs).toISOString(),
  });
  return { token, userId: user.id, accountId: user.account_id };
}

/**
 * Checks the password and starts a web session, with the audit event and the backoff bookkeeping
 * in the same transaction. `ip` is the client address, for the audit log.
 */
export async function signIn(db: DbExecutor, email: string, password: string, ttlMs: number, ip: string | null = null): Promise<SignInResult> {
  if (email.length > 254) return { kind: 'refused' };
  const emailHash = hashEmailForThrottle(normalizeEmail(email));
  const throttle = await getThrottle(db, emailHash);
  const now = Date.now();
  if (throttle?.blocked_until && Date.parse(throttle.blocked_until) > now) return { kind: 'backoff', retryAfterMs: Date.parse(throttle.blocked_until) - now };
  const user = await findUserByEmail(db, email);
  if (!(await verifyPassword(user?.password_hash, password)) || !user) {
    await inTransaction(db, async (trx) => {
      const failures = await addFailure(trx, emailHash, nowIso());
      const wait = backoffMs(failures);
      if (wait > 0) await blockUntil(trx, emailHash, isoAfter(wait));
      if (user) {
        await recordAudit(trx, user.account_id, { actor: { type: 'anonymous' }, ip }, 'auth.sign_in_failed', { type: 'user', id: user.id, label: user.email }, { consecutive_failures: failures, backoff_seconds: Math.ceil(wait / 1000) });
      }
    });
    return { kind: 'refused' };
  }
  // Checked after the password, so the answer says nothing to someone who does not know it.
  // Owners keep password sign-in as the break-glass path when the provider is down or misconfigured.
  const sso = await requiringProvider(db, user.account_id, user.email);
  if (sso && user.role !== 'owner') return { kind: 'sso_required' };
  return inTransaction(db, async (trx) => {
    if (throttle) await clearThrottle(trx, emailHash);
    const signedIn = await newWebSession(trx, user, ttlMs);
    await recordAudit(trx, user.account_id, { actor: { type: 'user', id: user.id, label: user.email }, ip }, 'auth.sign_in', { type: 'user', id: user.id, label: user.email }, sso ? { break_glass: true } : {});
    return { kind: 'ok' as const, ...signedIn };
  });
}

export interface ResolvedWebSession {
  /** sha256 of the cookie token: the web_sessions row id. */
  sessionId: string;
  userId: string;
  accountId: string;
  email: string;
  role: UserRole;
  csrfToken: string;
}

export async function resolveWebSession(db: DbExecutor, token: string): Promise<ResolvedWebSession | null> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
  const row = await findValidWebSession(db, hashSessionToken(token));
  if (!row) return null;
  const user = await getUser(db, row.user_id);
  if (!user) return null;
  return { sessionId: row.id, userId: user.id, accountId: row.account_id, email: user.email, role: user.role, csrfToken: row.csrf_token };
}

/** The audit context of a signed-in member. */
export function memberContext(user: Pick<ResolvedWebSession, 'userId' | 'email'>, ip: string | null): AuditContext {
  return { actor: { type: 'user', id: user.userId, label: user.email }, ip };
}

export async function signOut(db: DbExecutor, sessionId: string, user?: { accountId: string; ctx: AuditContext }): Promise<void> {
  await inTransaction(db, async (trx) => {
    await deleteWebSession(trx, sessionId);
    if (user && user.ctx.actor.type === 'user') {
      await recordAudit(trx, user.accountId, user.ctx, 'auth.sign_out', { type: 'user', id: user.ctx.actor.id, label: user.ctx.actor.label });
    }
  });
}

/** Ends every web session of the member, this one included. */
export async function signOutEverywhere(db: DbExecutor, user: Pick<ResolvedWebSession, 'userId' | 'email' | 'accountId'>, ip: string | null): Promise<number> {
  return inTransaction(db, async (trx) => {
    const ended = await deleteUserWebSessions(trx, user.userId);
    await recordAudit(trx, user.accountId, memberContext(user, ip), 'auth.signed_out_everywhere', { type: 'user', id: user.userId, label: user.email }, { sessions_ended: ended });
    return ended;
  });
}

export type ChangePasswordResult =
  | { kind: 'changed'; otherSessionsEnded: number }
  | { kind: 'wrong_current' }
  | { kind: 'weak'; problem: string }
  /** Too many wrong current passwords for this email: refused without checking, for `retryAfterMs`. */
  | { kind: 'backoff'; retryAfterMs: number };

/**
 * Changes the member's password after checking the current one; every other web session of
 * theirs and every unused reset link for them end in the same transaction (the session making
 * the change stays signed in). A wrong current password counts in the same per-email backoff as
 * a failed sign-in (a stolen session must not become a password oracle), and is audited as one.
 */
export async function changePassword(db: DbExecutor, user: ResolvedWebSession, current: string, next: string, ip: string | null): Promise<ChangePasswordResult> {
  const emailHash = hashEmailForThrottle(normalizeEmail(user.email));
  const throttle = await getThrottle(db, emailHash);
  const now = Date.now();
  if (throttle?.blocked_until && Date.parse(throttle.blocked_until) > now) return { kind: 'backoff', retryAfterMs: Date.parse(throttle.blocked_until) - now };
  const stored = await getUser(db, user.userId);
  if (!stored || !(await verifyPassword(stored.password_hash, current))) {
    await inTransaction(db, async (trx) => {
      const failures = await addFailure(trx, emailHash, nowIso());
      const wait = backoffMs(failures);
      if (wait > 0) await blockUntil(trx, emailHash, isoAfter(wait));
      await recordAudit(trx, user.accountId, memberContext(user, ip), 'auth.sign_in_failed', { type: 'user', id: user.userId, label: user.email }, {
        consecutive_failures: failures, backoff_seconds: Math.ceil(wait / 1000), form: 'change_password',
      });
    });
    return { kind: 'wrong_current' };
  }
  const problem = passwordProblem(next);
  if (problem) return { kind: 'weak', problem };
  const passwordHash = await hashPassword(next); // outside the transaction (slow on purpose)
  return inTransaction(db, async (trx) => {
    if (throttle) await clearThrottle(trx, emailHash);
    await updateUserPassword(trx, user.userId, passwordHash);
    const ended = await deleteUserWebSessions(trx, user.userId, user.sessionId);
    const links = await deleteUnusedResetsOf(trx, user.userId);
    await recordAudit(trx, user.accountId, memberContext(user, ip), 'auth.password_changed', { type: 'user', id: user.userId, label: user.email }, { other_sessions_ended: ended, reset_links_withdrawn: links });
    return { kind: 'changed' as const, otherSessionsEnded: ended };
  });
}

/** Starts a web session for a user who just proved who they are another way (invitation, reset link). */
export async function startWebSession(db: DbExecutor, user: { id: string; account_id: string }, ttlMs: number): Promise<SignedIn> {
  return newWebSession(db, user, ttlMs);
}

/** Clears the backoff of an email (its password was just set through a link). */
export async function clearSignInBackoff(db: DbExecutor, email: string): Promise<void> {
  await clearThrottle(db, hashEmailForThrottle(normalizeEmail(email)));
}
