// Work that one process of the deployment should do at a time (the sweep): a PostgreSQL
// session-level advisory lock, tried and never waited for, held on one pooled connection while
// the work runs on the others. A process that dies releases it with its connection. SQLite is
// one process: the work always runs.
import { sql } from 'kysely';
import type { Db } from './database.ts';

/** Runs `work` unless another process holds `lockKey`; null when it was skipped. */
export async function unlessRunningElsewhere<T>(db: Db, lockKey: number, work: () => Promise<T>): Promise<T | null> {
  if (db.dialect !== 'postgres') return work();
  return db.kysely.connection().execute(async (conn) => {
    const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_lock(${sql.lit(lockKey)}) as locked`.execute(conn);
    if (!rows[0]?.locked) return null;
    try {
      return await work();
    } finally {
      await sql`select pg_advisory_unlock(${sql.lit(lockKey)})`.execute(conn).catch(() => {});
    }
  });
}
