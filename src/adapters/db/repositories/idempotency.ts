// Idempotency-Key of uploads: (account, key) → the session the first request created.
import type { IdempotencyKey } from '../schema.ts';
import type { DbExecutor } from './executor.ts';

export async function findIdempotencyKey(db: DbExecutor, accountId: string, key: string): Promise<IdempotencyKey | undefined> {
  return db.selectFrom('idempotency_keys').selectAll().where('account_id', '=', accountId).where('key', '=', key).executeTakeFirst();
}

/**
 * Records the key in the transaction that creates the session. False when the key already
 * exists (a concurrent retry won the race): roll back and answer with the existing session.
 */
export async function insertIdempotencyKey(db: DbExecutor, row: IdempotencyKey): Promise<boolean> {
  const r = await db
    .insertInto('idempotency_keys')
    .values(row)
    .onConflict((oc) => oc.columns(['account_id', 'key']).doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0n) > 0;
}

export async function deleteIdempotencyKeysBefore(db: DbExecutor, before: string): Promise<number> {
  const r = await db.deleteFrom('idempotency_keys').where('created_at', '<', before).executeTakeFirst();
  return Number(r.numDeletedRows);
}
