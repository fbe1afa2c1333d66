// Single sign-on: the account's provider, its domains, members' identities at it, and the
// sign-ins under way (0010_single_sign_on).
import { createHash } from 'node:crypto';
import type { Insertable } from 'kysely';
import type { SsoDomain, SsoIdentity, SsoLogin, SsoProvider, SsoProvidersTable, SsoLoginsTable, UserRole } from '../schema.ts';
import { affected } from './executor.ts';
import type { DbExecutor } from './executor.ts';

/** The sso_logins id of a `state` value (the state itself is never stored). */
export function hashLoginState(state: string): string {
  return createHash('sha256').update(state, 'utf8').digest('hex');
}

export async function findProviderOfAccount(db: DbExecutor, accountId: string): Promise<SsoProvider | undefined> {
  return db.selectFrom('sso_providers').selectAll().where('account_id', '=', accountId).executeTakeFirst();
}

export async function getProvider(db: DbExecutor, id: string): Promise<SsoProvider | undefined> {
  return db.selectFrom('sso_providers').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertProvider(db: DbExecutor, row: Insertable<SsoProvidersTable>): Promise<void> {
  await db.insertInto('sso_providers').values(row).execute();
}

export type ProviderChanges = Partial<Omit<SsoProvider, 'id' | 'account_id' | 'created_at'>>;

export async function updateProvider(db: DbExecutor, accountId: string, id: string, changes: ProviderChanges): Promise<boolean> {
  return affected(await db.updateTable('sso_providers').set(changes).where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst()) > 0;
}

/** Deletes the provider; its domains, identities and pending sign-ins go with it (cascade). */
export async function deleteProvider(db: DbExecutor, accountId: string, id: string): Promise<boolean> {
  // Explicit deletes rather than relying on the cascade alone: the same on both dialects.
  await db.deleteFrom('sso_logins').where('provider_id', '=', id).execute();
  await db.deleteFrom('sso_identities').where('provider_id', '=', id).execute();
  await db.deleteFrom('sso_domains').where('provider_id', '=', id).execute();
  return affected(await db.deleteFrom('sso_providers').where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst()) > 0;
}

/** The domains a provider covers, verified or not. */
export async function listDomainRows(db: DbExecutor, providerId: string): Promise<SsoDomain[]> {
  return db.selectFrom('sso_domains').selectAll().where('provider_id', '=', providerId).orderBy('domain').execute();
}

/** The verified domains of a provider: the ones sign-in and enforcement use. */
export async function listVerifiedDomains(db: DbExecutor, providerId: string): Promise<string[]> {
  return (await db.selectFrom('sso_domains').select('domain').where('provider_id', '=', providerId).where('verified_at', 'is not', null).orderBy('domain').execute()).map((r) => r.domain);
}

/** The domains another account has verified, among `domains`. */
export async function domainsVerifiedElsewhere(db: DbExecutor, accountId: string, domains: string[]): Promise<string[]> {
  if (domains.length === 0) return [];
  return (await db.selectFrom('sso_domains').select('domain').where('domain', 'in', domains).where('account_id', '!=', accountId).where('verified_at', 'is not', null).execute()).map((r) => r.domain);
}

/**
 * Makes the provider's domains exactly `domains`: the ones dropped are deleted, the new ones get
 * `newToken()` and are unverified, the ones kept keep their token and verification.
 */
export async function replaceDomains(db: DbExecutor, provider: { id: string; account_id: string }, domains: string[], newToken: () => string): Promise<void> {
  const kept = (await listDomainRows(db, provider.id)).map((r) => r.domain);
  const dropped = kept.filter((d) => !domains.includes(d));
  if (dropped.length > 0) await db.deleteFrom('sso_domains').where('provider_id', '=', provider.id).where('domain', 'in', dropped).execute();
  const added = domains.filter((d) => !kept.includes(d));
  if (added.length > 0) {
    await db.insertInto('sso_domains').values(added.map((domain) => ({ domain, account_id: provider.account_id, provider_id: provider.id, token: newToken(), verified_at: null }))).execute();
  }
}

export async function findDomainRow(db: DbExecutor, accountId: string, domain: string): Promise<SsoDomain | undefined> {
  return db.selectFrom('sso_domains').selectAll().where('account_id', '=', accountId).where('domain', '=', domain).executeTakeFirst();
}

export async function markDomainVerified(db: DbExecutor, accountId: string, domain: string, at: string): Promise<boolean> {
  return affected(await db.updateTable('sso_domains').set({ verified_at: at }).where('account_id', '=', accountId).where('domain', '=', domain).executeTakeFirst()) > 0;
}

/** The provider covering an email domain it verified, if any. */
export async function findProviderForDomain(db: DbExecutor, domain: string): Promise<SsoProvider | undefined> {
  return db.selectFrom('sso_domains').innerJoin('sso_providers', 'sso_providers.id', 'sso_domains.provider_id')
    .selectAll('sso_providers').where('sso_domains.domain', '=', domain).where('sso_domains.verified_at', 'is not', null).executeTakeFirst();
}

export async function insertLogin(db: DbExecutor, row: Insertable<SsoLoginsTable>): Promise<void> {
  await db.insertInto('sso_logins').values(row).execute();
}

/** Takes a pending sign-in once: returns it and deletes it (a callback replayed finds nothing). */
export async function takeLogin(db: DbExecutor, id: string, now: string): Promise<SsoLogin | undefined> {
  const row = await db.selectFrom('sso_logins').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  const taken = affected(await db.deleteFrom('sso_logins').where('id', '=', id).executeTakeFirst()) > 0;
  return taken && row.expires_at > now ? row : undefined;
}

export async function deleteExpiredLogins(db: DbExecutor, now: string): Promise<number> {
  return affected(await db.deleteFrom('sso_logins').where('expires_at', '<=', now).executeTakeFirst());
}

export async function findIdentity(db: DbExecutor, providerId: string, subject: string): Promise<SsoIdentity | undefined> {
  return db.selectFrom('sso_identities').selectAll().where('provider_id', '=', providerId).where('subject', '=', subject).executeTakeFirst();
}

export async function findIdentityOfUser(db: DbExecutor, userId: string): Promise<SsoIdentity | undefined> {
  return db.selectFrom('sso_identities').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

export async function insertIdentity(db: DbExecutor, row: SsoIdentity): Promise<void> {
  await db.insertInto('sso_identities').values(row).execute();
}

export async function touchIdentity(db: DbExecutor, userId: string, at: string): Promise<void> {
  await db.updateTable('sso_identities').set({ last_sign_in_at: at }).where('user_id', '=', userId).execute();
}

export async function deleteIdentity(db: DbExecutor, userId: string): Promise<void> {
  await db.deleteFrom('sso_identities').where('user_id', '=', userId).execute();
}

export type { UserRole };
