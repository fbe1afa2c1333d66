// Every repository function takes the database or a transaction (a Transaction is a Kysely),
// so callers compose several repository calls into one transaction.
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';

export type DbExecutor = Kysely<Database>;

/** Rows touched by an UPDATE/DELETE result, on both dialects. */
export function affected(result: { numUpdatedRows?: bigint; numDeletedRows?: bigint }): number {
  return Number(result.numUpdatedRows ?? result.numDeletedRows ?? 0n);
}
