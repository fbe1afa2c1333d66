// Team accounts (issue 21): roles, who created each key and webhook, one-time password-reset
// links, the audit log, and the per-email sign-in backoff.
//
// Existing data: the oldest user of each account becomes its owner and every other existing
// user an admin (before roles, every member could do what an admin can, so nobody loses what
// they were trusted with, and every account has its owner). Keys and webhooks made before
// this migration have no recorded creator (null, shown as "unknown").
import { sql } from 'kysely';
import type { Kysely, Migration } from 'kysely';
import type { ColumnTypes } from './types.ts';

type AnyDb = Kysely<unknown>;

async function roles(db: AnyDb): Promise<void> {
  await db.schema.alterTable('users').addColumn('role', 'text', (c) => c.notNull().defaultTo('member')).execute();
  await sql`update users set role = 'admin'`.execute(db);
  // The founder: the first user of each account (ids are time-ordered ULIDs).
  await sql`update users set role = 'owner' where id in (select min(id) from users group by account_id)`.execute(db);
  await db.schema.alterTable('invitations').addColumn('role', 'text', (c) => c.notNull().defaultTo('member')).execute();
}

async function creators(db: AnyDb): Promise<void> {
  for (const table of ['api_keys', 'webhooks']) {
    // No foreign key: the creator's id and email stay readable after the member is removed.
    await db.schema.alterTable(table).addColumn('created_by', 'text').execute();
    await db.schema.alterTable(table).addColumn('created_by_email', 'text').execute();
  }
  await db.schema.createIndex('api_keys_created_by').on('api_keys').columns(['account_id', 'created_by']).execute();
  await db.schema.createIndex('webhooks_created_by').on('webhooks').columns(['account_id', 'created_by']).execute();
}

async function passwordResets(db: AnyDb, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('password_resets')
    .addColumn('id', t.sortable, (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_by', 'text')
    .addColumn('created_at', t.sortable, (c) => c.notNull())
    .addColumn('expires_at', t.sortable, (c) => c.notNull())
    .addColumn('used_at', t.sortable)
    .execute();
  await db.schema.createIndex('password_resets_user').on('password_resets').column('user_id').execute();
}

async function auditEvents(db: AnyDb, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('audit_events')
    .addColumn('id', t.sortable, (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('occurred_at', t.sortable, (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('actor_type', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text')
    .addColumn('actor_label', 'text')
    .addColumn('source_ip', 'text')
    .addColumn('target_type', 'text')
    .addColumn('target_id', 'text')
    .addColumn('target_label', 'text')
    .addColumn('details', 'text', (c) => c.notNull())
    .execute();
  // The audit page and GET /v1/audit-events: newest first within one account, optionally one action.
  await db.schema.createIndex('audit_events_account').on('audit_events').columns(['account_id', 'id']).execute();
  await db.schema.createIndex('audit_events_account_action').on('audit_events').columns(['account_id', 'action', 'id']).execute();
}

async function signInThrottle(db: AnyDb, t: ColumnTypes): Promise<void> {
  // Keyed by the sha256 of the normalised email, known or not, so the backoff itself never tells
  // whether an email has an account.
  await db.schema
    .createTable('sign_in_throttle')
    .addColumn('email_hash', 'text', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('blocked_until', t.sortable)
    .addColumn('updated_at', t.sortable, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sign_in_throttle_updated').on('sign_in_throttle').column('updated_at').execute();
}

export function teamAccounts(t: ColumnTypes): Migration {
  return {
    async up(db: AnyDb) {
      await roles(db);
      await creators(db);
      await passwordResets(db, t);
      await auditEvents(db, t);
      await signInThrottle(db, t);
    },
    async down(db: AnyDb) {
      for (const table of ['sign_in_throttle', 'audit_events', 'password_resets']) await db.schema.dropTable(table).ifExists().execute();
      await db.schema.dropIndex('webhooks_created_by').ifExists().execute();
      await db.schema.dropIndex('api_keys_created_by').ifExists().execute();
      for (const table of ['api_keys', 'webhooks']) {
        await db.schema.alterTable(table).dropColumn('created_by_email').execute();
        await db.schema.alterTable(table).dropColumn('created_by').execute();
      }
      await db.schema.alterTable('invitations').dropColumn('role').execute();
      await db.schema.alterTable('users').dropColumn('role').execute();
    },
  };
}
