// API keys. Only the sha256 of a key is stored; lookups hash the presented key first.
import { createHash } from 'node:crypto';
import { nowIso } from '../../../kernel/ids.ts';
import type { ApiKey, NewApiKey } from '../schema.ts';
import { affected } from './executor.ts';
import type { DbExecutor } from './executor.ts';

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export async function insertApiKey(db: DbExecutor, row: NewApiKey): Promise<void> {
  await db.insertInto('api_keys').values(row).execute();
}

/** The key with this hash unless it is revoked. */
export async function findActiveApiKeyByHash(db: DbExecutor, hash: string): Promise<ApiKey | undefined> {
  return db.selectFrom('api_keys').selectAll().where('hash', '=', hash).where('revoked_at', 'is', null).executeTakeFirst();
}

export async function listApiKeys(db: DbExecutor, accountId: string): Promise<ApiKey[]> {
  return db.selectFrom('api_keys').selectAll().where('account_id', '=', accountId).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
}

/** A key of this account by id (revoked or not). */
export async function getApiKey(db: DbExecutor, accountId: string, keyId: string): Promise<ApiKey | undefined> {
  return db.selectFrom('api_keys').selectAll().where('id', '=', keyId).where('account_id', '=', accountId).executeTakeFirst();
}

/** Revokes by hash (the CLI holds the key itself). True when an active key was revoked. */
export async function revokeApiKeyByHash(db: DbExecutor, hash: string): Promise<boolean> {
  const r = await db.updateTable('api_keys').set({ revoked_at: nowIso() }).where('hash', '=', hash).where('revoked_at', 'is', null).executeTakeFirst();
  return affected(r) > 0;
}

/** Revokes by id within one account (the dashboard). True when an active key was revoked. */
export async function revokeApiKey(db: DbExecutor, accountId: string, keyId: string): Promise<boolean> {
  const r = await db
    .updateTable('api_keys')
    .set({ revoked_at: nowIso() })
    .where('id', '=', keyId)
    .where('account_id', '=', accountId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return affected(r) > 0;
}

const TOUCH_INTERVAL_MS = 60_000;
// Keys touched recently by this process: skips even the UPDATE, which on SQLite would take the
// write lock on every API request. The SQL condition covers other processes.
const recentlyTouched = new Map<string, number>();

/** Records use of a key, at most once a minute per key. True when a write happened. */
export async function touchApiKey(db: DbExecutor, keyId: string, now: number = Date.now()): Promise<boolean> {
  const last = recentlyTouched.get(keyId);
  if (last !== undefined && now - last < TOUCH_INTERVAL_MS) return false;
  if (recentlyTouched.size > 10_000) recentlyTouched.clear();
  recentlyTouched.set(keyId, now);
  const r = await db
    .updateTable('api_keys')
    .set({ last_used_at: nowIso(now) })
    .where('id', '=', keyId)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', nowIso(now - TOUCH_INTERVAL_MS))]))
    .executeTakeFirst();
  return affected(r) > 0;
}
