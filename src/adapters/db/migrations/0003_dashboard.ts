// The dashboard's additions: invitations of teammates into an account (Settings → Members).
// An invitation is a one-time link; only the sha256 of its token is stored, with an expiry, and
// `accepted_at` is set once, atomically, by the first (and only) successful use.
import type { Kysely, Migration } from 'kysely';
import type { ColumnTypes } from './types.ts';

type AnyDb = Kysely<unknown>;

export function dashboard(t: ColumnTypes): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable('invitations')
        .addColumn('id', t.sortable, (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('invited_by', 'text', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', t.sortable, (c) => c.notNull())
        .addColumn('expires_at', t.sortable, (c) => c.notNull())
        .addColumn('accepted_at', t.sortable)
        .execute();
      await db.schema.createIndex('invitations_account').on('invitations').columns(['account_id', 'created_at']).execute();
    },
    async down(db: AnyDb) {
      await db.schema.dropTable('invitations').ifExists().execute();
    },
  };
}
