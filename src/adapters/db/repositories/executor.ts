// Every repository function takes the database or a transaction (a Transaction is a Kysely),
// so callers compose several repository calls into one transaction.
import type { Transaction } from 'kysely';
import type { Database, DbExecutor } from '../schema.ts';

export type { DbExecutor };

/** Rows touched by an UPDATE/DELETE result, on both dialects. */
export function affected(result: { numUpdatedRows?: bigint; numDeletedRows?: bigint }): number {
  return Number(result.numUpdatedRows ?? result.numDeletedRows ?? 0n);
}

/**
 * Runs `work` in a transaction: a new one on the root handle, or the caller's own when `db`
 * already is one (so a service can be called alone or as part of a larger transaction).
 */
export async function inTransaction<T>(db: DbExecutor, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  if (db.isTransaction) return work(db as Transaction<Database>);
  return db.transaction().execute(work);
}

/**
 * Serialises changes to one account's membership: a write to the account row, which PostgreSQL
 * holds as a row lock until the transaction ends (SQLite transactions already hold the write
 * lock from their start). Two concurrent demotions of the last two owners then run one after
 * the other, and the second sees the first.
 */
export async function lockAccount(db: DbExecutor, accountId: string): Promise<boolean> {
  const r = await db.updateTable('accounts').set((eb) => ({ name: eb.ref('name') })).where('id', '=', accountId).executeTakeFirst();
  return affected(r) > 0;
}
