// How long a COMMIT waits for the disk.
//
// SQLite runs in WAL mode with `synchronous = NORMAL`: a commit does not wait for an fsync (a
// power cut can lose the last commits, never corrupt the file). PostgreSQL waits for its WAL
// flush on every commit by default (`synchronous_commit = on`), which costs a disk flush per
// transaction and bounds how many short transactions a second one worker can commit.
//
// Work that is redone when its record is lost may commit without that wait: after a
// PostgreSQL crash such a transaction can be rolled back with the others of its last few hundred
// milliseconds (the WAL stays ordered, so nothing half-done survives), and the job that wrote it
// runs again. Never use it for what a client was told is stored (uploads, keys, webhooks).
import { sql } from 'kysely';
import type { Db } from './database.ts';
import type { DbExecutor } from './repositories/executor.ts';

/** Lets the open transaction `trx` commit without waiting for its WAL flush (PostgreSQL; no-op on SQLite). */
export async function commitWithoutFlushWait(db: Pick<Db, 'dialect'>, trx: DbExecutor): Promise<void> {
  if (db.dialect === 'postgres') await sql`set local synchronous_commit = off`.execute(trx);
}
