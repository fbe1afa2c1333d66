// Single sign-on (issue 29): an account's OpenID Connect provider, the email domains it covers,
// the link between a member and their subject at the provider, and the sign-ins under way.
//
//   sso_providers   one per account: issuer, client id, the client secret encrypted at rest
//                   (services/sso/secret-box.ts; the key comes from the environment), whether
//                   SSO is required, the default role and the group → role mapping.
//   sso_domains     the email domains an account lists, each with a DNS verification token;
//                   a domain is used (routing, sign-in, enforcement) only once verified, and is
//                   verified by one account at most (a partial unique index), so an email is
//                   routed to one provider only and nobody can claim another's domain.
//   sso_identities  (provider, subject) → user: a member's identity at the provider, found again
//                   by subject at the next sign-in. Deleted with the member or the provider.
//   sso_logins      a sign-in between the redirect to the provider and its callback: the sha256
//                   of `state` (the row id), the nonce and the PKCE verifier, for ten minutes.
import { sql } from 'kysely';
import type { Kysely, Migration } from 'kysely';
import type { ColumnTypes } from './types.ts';

type AnyDb = Kysely<unknown>;

async function providers(db: AnyDb, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('sso_providers')
    .addColumn('id', t.sortable, (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().unique().references('accounts.id').onDelete('cascade'))
    .addColumn('issuer', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('client_secret_sealed', 'text', (c) => c.notNull())
    .addColumn('required', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('default_role', 'text', (c) => c.notNull().defaultTo('member'))
    .addColumn('groups_claim', 'text')
    .addColumn('group_roles', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('require_group', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', t.sortable, (c) => c.notNull())
    .addColumn('updated_at', t.sortable, (c) => c.notNull())
    .execute();
}

async function domains(db: AnyDb, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('sso_domains')
    .addColumn('domain', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('provider_id', 'text', (c) => c.notNull().references('sso_providers.id').onDelete('cascade'))
    .addColumn('token', 'text', (c) => c.notNull())
    .addColumn('verified_at', t.sortable)
    .addPrimaryKeyConstraint('sso_domains_pk', ['domain', 'account_id'])
    .execute();
  await db.schema.createIndex('sso_domains_provider').on('sso_domains').column('provider_id').execute();
  await db.schema.createIndex('sso_domains_verified').on('sso_domains').column('domain').unique().where(sql.ref('verified_at'), 'is not', null).execute();
}

async function identities(db: AnyDb, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('sso_identities')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('provider_id', 'text', (c) => c.notNull().references('sso_providers.id').onDelete('cascade'))
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('created_at', t.sortable, (c) => c.notNull())
    .addColumn('last_sign_in_at', t.sortable, (c) => c.notNull())
    .addUniqueConstraint('sso_identities_subject', ['provider_id', 'subject'])
    .execute();
}

async function logins(db: AnyDb, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('sso_logins')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('provider_id', 'text', (c) => c.notNull().references('sso_providers.id').onDelete('cascade'))
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('nonce', 'text', (c) => c.notNull())
    .addColumn('code_verifier', 'text', (c) => c.notNull())
    .addColumn('next', 'text', (c) => c.notNull())
    .addColumn('created_at', t.sortable, (c) => c.notNull())
    .addColumn('expires_at', t.sortable, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sso_logins_expires').on('sso_logins').column('expires_at').execute();
}

export function singleSignOn(t: ColumnTypes): Migration {
  return {
    async up(db: AnyDb) {
      await providers(db, t);
      await domains(db, t);
      await identities(db, t);
      await logins(db, t);
    },
    async down(db: AnyDb) {
      for (const table of ['sso_logins', 'sso_identities', 'sso_domains', 'sso_providers']) await db.schema.dropTable(table).ifExists().execute();
    },
  };
}
