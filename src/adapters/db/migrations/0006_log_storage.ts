// Scale-out log storage (issue 17): the object-storage log store's bookkeeping, and retention.
//
//   log_objects       one row per object in the bucket, written BEFORE the object (state
//                     `pending`), made the session's log in the session's own transaction
//                     (`committed`), and marked `removing` before its object is deleted; the row
//                     goes only after the object. So every object has a row, and the sweeper can
//                     always find what a crash left half-done.
//   accounts.log_retention_days   null: keep logs for ever (the default).
//   sessions.log_expired_at       when retention deleted the log (the report and row stay).
import type { Kysely, Migration } from 'kysely';
import type { ColumnTypes } from './types.ts';

export function logStorage(t: ColumnTypes): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('log_objects')
        .addColumn('id', t.sortable, (c) => c.primaryKey())
        .addColumn('object_key', 'text', (c) => c.notNull().unique())
        .addColumn('session_id', 'text', (c) => c.unique())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('size_bytes', 'bigint')
        .addColumn('sha256', 'text')
        .addColumn('created_at', t.sortable, (c) => c.notNull())
        .addColumn('committed_at', t.sortable)
        .execute();
      // The sweeper's scans: pending rows by age, removing rows.
      await db.schema.createIndex('log_objects_state_created').on('log_objects').columns(['state', 'created_at']).execute();
      await db.schema.alterTable('accounts').addColumn('log_retention_days', 'integer').execute();
      await db.schema.alterTable('sessions').addColumn('log_expired_at', t.sortable).execute();
      // (The retention sweep reads an account's sessions by age: sessions_account_created.)
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('sessions').dropColumn('log_expired_at').execute();
      await db.schema.alterTable('accounts').dropColumn('log_retention_days').execute();
      await db.schema.dropTable('log_objects').execute();
    },
  };
}
