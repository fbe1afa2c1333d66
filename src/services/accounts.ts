// Accounts: one organisation, its first user (dashboard sign-in) and its first API key, created
// together in one transaction so a half-made account never exists.
import type { Db } from '../adapters/db/database.ts';
import { createAccountWithUser, isUniqueViolation, normalizeEmail } from '../adapters/db/repositories/accounts.ts';
import { issueApiKey } from './keys.ts';
import { hashPassword, passwordProblem } from './passwords.ts';

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

export interface CreatedAccount {
  accountId: string;
  userId: string;
  apiKey: string;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function checkInput(input: NewAccountInput): void {
  const email = normalizeEmail(input.email);
  if (!EMAIL.test(email) || email.length > 254) throw new AccountInputError(`not a valid email address: ${JSON.stringify(input.email)}`);
  const problem = passwordProblem(input.password);
  if (problem) throw new AccountInputError(problem);
}

export async function createAccount(db: Db, input: NewAccountInput): Promise<CreatedAccount> {
  checkInput(input);
  const passwordHash = await hashPassword(input.password);
  const name = input.name?.trim() || normalizeEmail(input.email).split('@')[1];
  try {
    return await db.kysely.transaction().execute(async (trx) => {
      const { account, user } = await createAccountWithUser(trx, { name, email: input.email, passwordHash });
      const key = await issueApiKey(trx, account.id, 'default');
      return { accountId: account.id, userId: user.id, apiKey: key.key };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AccountInputError(`an account with the email ${normalizeEmail(input.email)} already exists`);
    throw error;
  }
}
