// The object-storage log store keeps a log as a run of segment objects (s3-store.ts):
//
//   log_objects.segments   how many segment objects the committed log has; null: one (rows
//                          written before segments, each a single object at object_key).
import type { Kysely, Migration } from 'kysely';

export function logSegments(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('log_objects').addColumn('segments', 'integer').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('log_objects').dropColumn('segments').execute();
    },
  };
}
