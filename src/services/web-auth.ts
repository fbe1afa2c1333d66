// Dashboard sign-in: email + password → a cookie token. Only the token's sha256 is stored (as
// the web_sessions id), with a per-session CSRF token for the forms of signed-in pages.
import { randomBytes } from 'node:crypto';
import { findUserByEmail, getUser } from '../adapters/db/repositories/accounts.ts';
import type { DbExecutor } from '../adapters/db/repositories/executor.ts';
import { createWebSession, deleteWebSession, findValidWebSession, hashSessionToken } from '../adapters/db/repositories/web-sessions.ts';
import { isoAfter, nowIso } from '../kernel/ids.ts';
import { verifyPassword } from './passwords.ts';

export interface SignedIn {
  /** The cookie value; never stored. */
  token: string;
  userId: string;
  accountId: string;
}

export async function signIn(db: DbExecutor, email: string, password: string, ttlMs: number): Promise<SignedIn | null> {
  const user = email.length <= 254 ? await findUserByEmail(db, email) : undefined;
  if (!(await verifyPassword(user?.password_hash, password)) || !user) return null;
  const token = randomBytes(32).toString('base64url');
  await createWebSession(db, {
    id: hashSessionToken(token),
    user_id: user.id,
    account_id: user.account_id,
    csrf_token: randomBytes(32).toString('base64url'),
    created_at: nowIso(),
    expires_at: isoAfter(ttlMs),
  });
  return { token, userId: user.id, accountId: user.account_id };
}

export interface ResolvedWebSession {
  /** sha256 of the cookie token: the web_sessions row id. */
  sessionId: string;
  userId: string;
  accountId: string;
  email: string;
  csrfToken: string;
}

export async function resolveWebSession(db: DbExecutor, token: string): Promise<ResolvedWebSession | null> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
  const row = await findValidWebSession(db, hashSessionToken(token));
  if (!row) return null;
  const user = await getUser(db, row.user_id);
  if (!user) return null;
  return { sessionId: row.id, userId: user.id, accountId: row.account_id, email: user.email, csrfToken: row.csrf_token };
}

export async function signOut(db: DbExecutor, sessionId: string): Promise<void> {
  await deleteWebSession(db, sessionId);
}
