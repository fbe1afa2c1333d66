// Members of a given role for the team-account tests: inserted directly (one argon2 hash for
// all of them, computed once), then signed in through the real sign-in form.
import { newId, nowIso } from '../../src/kernel/ids.ts';
import { hashPassword } from '../../src/services/passwords.ts';
import type { Role } from '../../src/services/roles.ts';
import { PASSWORD } from './app.ts';
import type { TestApp } from './app.ts';
import { signInAs } from './web-forms.ts';
import type { Browser } from './web-forms.ts';

let hash: Promise<string> | undefined;
let n = 0;

export interface TestMember {
  userId: string;
  accountId: string;
  email: string;
  password: string;
  role: Role;
}

/** A user of `accountId` with `role` (password PASSWORD). */
export async function addMember(t: TestApp, accountId: string, role: Role, email = `${role}${++n}-${Date.now()}@example.test`): Promise<TestMember> {
  hash ??= hashPassword(PASSWORD);
  const userId = newId('usr');
  await t.db.kysely.insertInto('users').values({ id: userId, account_id: accountId, email, password_hash: await hash, created_at: nowIso(), role }).execute();
  return { userId, accountId, email, password: PASSWORD, role };
}

/** A user of `accountId` with `role`, signed in. */
export async function signedInMember(t: TestApp, accountId: string, role: Role): Promise<TestMember & { browser: Browser }> {
  const m = await addMember(t, accountId, role);
  return { ...m, browser: await signInAs(t, m) };
}

/** The user id of an email. */
export async function userIdOf(t: TestApp, email: string): Promise<string> {
  return (await t.db.kysely.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
}

/** The account's audit events of one action, oldest first. */
export async function auditRows(t: TestApp, accountId: string, action?: string) {
  let q = t.db.kysely.selectFrom('audit_events').selectAll().where('account_id', '=', accountId);
  if (action) q = q.where('action', '=', action);
  return q.orderBy('id').execute();
}
