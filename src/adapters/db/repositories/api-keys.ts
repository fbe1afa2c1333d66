// API keys. Only the sha256 of a key is stored; lookups hash the presented key first.
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
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
// write lock on every API request. The SQL condition covers other processes. Bounded: the keys
// used least recently are forgotten first (forgetting one costs one conditional UPDATE).
const recentlyTouched = new LRUCache<string, number>({ max: 10_000 });

/** True when this process has not recorded a use of the key within the last minute (and notes it now). */
export function touchDue(keyId: string, now: number = Date.now()): boolean {
  const last = recentlyTouched.get(keyId);
  if (last !== undefined && now - last < TOUCH_INTERVAL_MS) return false;
  recentlyTouched.set(keyId, now);
  return true;
}

/** Sets last_used_at on a key never used before; the key when this was its first use. */
export async function markFirstUse(db: DbExecutor, keyId: string, now: number = Date.now()): Promise<Pick<ApiKey, 'id' | 'account_id' | 'prefix' | 'last4'> | undefined> {
  return db
    .updateTable('api_keys')
    .set({ last_used_at: nowIso(now) })
    .where('id', '=', keyId)
    .where('last_used_at', 'is', null)
    .returning(['id', 'account_id', 'prefix', 'last4'])
    .executeTakeFirst();
}

/** Records use of a key, at most once a minute per key (by the SQL condition). True when a write happened. */
export async function touchLastUsed(db: DbExecutor, keyId: string, now: number = Date.now()): Promise<boolean> {
  const r = await db
    .updateTable('api_keys')
    .set({ last_used_at: nowIso(now) })
    .where('id', '=', keyId)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', nowIso(now - TOUCH_INTERVAL_MS))]))
    .executeTakeFirst();
  return affected(r) > 0;
}

/** Records use of a key, at most once a minute per key. True when a write happened. */
export async function touchApiKey(db: DbExecutor, keyId: string, now: number = Date.now()): Promise<boolean> {
  if (!touchDue(keyId, now)) return false;
  return touchLastUsed(db, keyId, now);
}

/** The live keys a member created (offboarding). */
export async function listLiveKeysCreatedBy(db: DbExecutor, accountId: string, userId: string): Promise<ApiKey[]> {
  return db.selectFrom('api_keys').selectAll().where('account_id', '=', accountId).where('created_by', '=', userId).where('revoked_at', 'is', null).orderBy('id').execute();
}

/** Hands a member's keys (live or not) to another member. */
export async function reassignKeys(db: DbExecutor, accountId: string, from: string, to: { id: string; email: string }): Promise<number> {
  const r = await db.updateTable('api_keys').set({ created_by: to.id, created_by_email: to.email }).where('account_id', '=', accountId).where('created_by', '=', from).executeTakeFirst();
  return affected(r);
}

/** The key with this hash, revoked or not (the operator's revoke-key command). */
export async function findApiKeyByHash(db: DbExecutor, hash: string): Promise<ApiKey | undefined> {
  return db.selectFrom('api_keys').selectAll().where('hash', '=', hash).executeTakeFirst();
}

/** Replaces a key's scopes (a demotion narrows them). */
export async function setKeyScopes(db: DbExecutor, accountId: string, keyId: string, scopes: string): Promise<void> {
  await db.updateTable('api_keys').set({ scopes }).where('id', '=', keyId).where('account_id', '=', accountId).execute();
}
