// Accounts: one organisation, its first user (dashboard sign-in) and its first API key, created
// together in one transaction so a half-made account never exists.
import type { Db } from '../adapters/db/database.ts';
import { createAccountWithUser, getAccount, isUniqueViolation, normalizeEmail } from '../adapters/db/repositories/accounts.ts';
import type { DbExecutor } from '../adapters/db/repositories/executor.ts';
import { recordAudit } from './audit.ts';
import { issueApiKey } from './keys.ts';
import { hashPassword, passwordProblem } from './passwords.ts';
import { isCovered } from './sso/sign-in.ts';

export class AccountInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AccountInputError';
  }
}

export interface NewAccountInput {
  email: string;
  password: string;
  /** Display name of the organisation; defaults to the email's domain. */
  name?: string;
}

/** The email belongs to a user already (users.email is unique across accounts). */
export class EmailTakenError extends AccountInputError {
  constructor(email: string) {
    super(`an account with the email ${email} already exists`);
    this.name = 'EmailTakenError';
  }
}

export interface CreatedAccount {
  accountId: string;
  userId: string;
  apiKey: string;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const ACCOUNT_NAME_MAX = 100;

/** Why an email address is refused, or null when it is acceptable. */
export function emailProblem(email: string): string | null {
  const e = normalizeEmail(email);
  if (!EMAIL.test(e) || e.length > 254) return `not a valid email address: ${JSON.stringify(email)}`;
  return null;
}

function checkInput(input: NewAccountInput): void {
  const problem = emailProblem(input.email) ?? passwordProblem(input.password);
  if (problem) throw new AccountInputError(problem);
  if ((input.name?.trim().length ?? 0) > ACCOUNT_NAME_MAX) throw new AccountInputError(`the account name must have at most ${ACCOUNT_NAME_MAX} characters`);
  if (input.name && /[\u0000-\u001f\u007f]/.test(input.name)) throw new AccountInputError('the account name contains control characters');
}

async function create(db: Db, input: NewAccountInput, withKey: boolean, ip: string | null): Promise<{ accountId: string; userId: string; apiKey: string | null }> {
  checkInput(input);
  // Hashed before the transaction: argon2 takes tens of milliseconds, the write lock should not.
  const passwordHash = await hashPassword(input.password);
  const name = input.name?.trim() || normalizeEmail(input.email).split('@')[1];
  try {
    return await db.kysely.transaction().execute(async (trx) => {
      const { account, user } = await createAccountWithUser(trx, { name, email: input.email, passwordHash });
      // Sign-up: the founder acts; the operator's CLI: the operator.
      const ctx = withKey ? { actor: { type: 'operator' as const }, ip } : { actor: { type: 'user' as const, id: user.id, label: user.email }, ip };
      await recordAudit(trx, account.id, ctx, 'account.created', { type: 'account', id: account.id, label: name }, { owner: user.email });
      const key = withKey ? await issueApiKey(trx, account.id, 'default', ctx) : null;
      return { accountId: account.id, userId: user.id, apiKey: key?.key ?? null };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new EmailTakenError(normalizeEmail(input.email));
    throw error;
  }
}

/** An account with its first user and a first API key (operator command, tests). */
export async function createAccount(db: Db, input: NewAccountInput): Promise<CreatedAccount> {
  const created = await create(db, input, true, null);
  return { accountId: created.accountId, userId: created.userId, apiKey: created.apiKey as string };
}

/**
 * Dashboard sign-up: an account and its first user, without an API key — the new member
 * creates keys on the API keys page, where a key is shown once to the person who asked for it.
 */
export async function signUpAccount(db: Db, input: NewAccountInput, ip: string | null = null): Promise<{ accountId: string; userId: string }> {
  // A domain an account verified for single sign-on joins that account through its provider: no
  // side accounts that its identity provider does not govern.
  if (await isCovered(db.kysely, input.email)) {
    throw new AccountInputError('Your organisation signs in to Vouch with single sign-on: use Sign in with your work email instead of creating an account.');
  }
  const { accountId, userId } = await create(db, input, false, ip);
  return { accountId, userId };
}

/** The account's display name (emails and pages name it). */
export async function accountName(db: DbExecutor, accountId: string): Promise<string> {
  return (await getAccount(db, accountId))?.name ?? 'your team';
}

/** Whether an account with this id exists (the admin commands refuse unknown ones). */
export async function accountExists(db: DbExecutor, accountId: string): Promise<boolean> {
  return (await getAccount(db, accountId)) !== undefined;
}
