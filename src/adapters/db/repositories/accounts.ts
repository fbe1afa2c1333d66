// Accounts and their users (dashboard sign-in).
import { newId, nowIso } from '../../../kernel/ids.ts';
import type { Account, User } from '../schema.ts';
import type { DbExecutor } from './executor.ts';

export interface NewAccountWithUser {
  name: string;
  email: string;
  /** argon2id hash; hashing is the caller's job. */
  passwordHash: string;
}

/** Emails are compared case-insensitively: stored and looked up lower-cased and trimmed. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * Creates an account and its first user, its owner. Run it inside a transaction when more rows belong
 * with it (e.g. a first API key). A duplicate email fails on the unique constraint; use
 * isUniqueViolation() to tell that apart.
 */
export async function createAccountWithUser(db: DbExecutor, input: NewAccountWithUser): Promise<{ account: Account; user: User }> {
  const createdAt = nowIso();
  const account: Account = { id: newId('acc'), name: input.name, created_at: createdAt, log_retention_days: null };
  const user: User = {
    id: newId('usr'),
    account_id: account.id,
    email: normalizeEmail(input.email),
    password_hash: input.passwordHash,
    created_at: createdAt,
    role: 'owner',
  };
  await db.insertInto('accounts').values(account).execute();
  await db.insertInto('users').values(user).execute();
  return { account, user };
}

export async function getAccount(db: DbExecutor, id: string): Promise<Account | undefined> {
  return db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findUserByEmail(db: DbExecutor, email: string): Promise<User | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', normalizeEmail(email)).executeTakeFirst();
}

export async function getUser(db: DbExecutor, id: string): Promise<User | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** True when `error` is a unique-constraint violation (SQLite or PostgreSQL). */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: unknown } | null;
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
