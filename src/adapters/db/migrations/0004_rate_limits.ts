// Shared rate-limit counters (PostgreSQL mode without Redis): one row per limited key and
// window, so that every API process counts against the same limit. Times are epoch
// milliseconds (compared as numbers on every request; no text timestamps needed here).
import type { Kysely, Migration } from 'kysely';

export function rateLimits(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('rate_limits')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('hits', 'bigint', (c) => c.notNull())
        .addColumn('reset_at_ms', 'bigint', (c) => c.notNull())
        .execute();
      // The sweeper removes windows that ended.
      await db.schema.createIndex('rate_limits_reset').on('rate_limits').column('reset_at_ms').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('rate_limits').execute();
    },
  };
}
