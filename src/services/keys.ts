// API keys: issue, authenticate, revoke. Validity is read from the database on every request
// (no cache), so a revocation takes effect on the very next request, in every process.
import { findActiveApiKeyByHash, getApiKey, hashApiKey, insertApiKey, listApiKeys, revokeApiKey, revokeApiKeyByHash, touchApiKey } from '../adapters/db/repositories/api-keys.ts';
import type { DbExecutor } from '../adapters/db/repositories/executor.ts';
import type { ApiKey } from '../adapters/db/schema.ts';
import { newId, nowIso } from '../kernel/ids.ts';
import { generateKey } from '../kernel/key-format.ts';

export interface IssuedKey {
  id: string;
  /** Shown once to whoever asked for it; only its hash is kept. */
  key: string;
  prefix: string;
  last4: string;
}

export async function issueApiKey(db: DbExecutor, accountId: string, name = 'default'): Promise<IssuedKey> {
  const g = generateKey();
  const id = newId('key');
  await insertApiKey(db, {
    id,
    account_id: accountId,
    name,
    prefix: g.prefix,
    last4: g.last4,
    hash: hashApiKey(g.key),
    created_at: nowIso(),
    last_used_at: null,
    revoked_at: null,
  });
  return { id, key: g.key, prefix: g.prefix, last4: g.last4 };
}

export interface KeyOwner {
  accountId: string;
  keyId: string;
}

/** The owner of the active key with this hash (the presented key already checked well formed). */
export async function authenticateKeyHash(db: DbExecutor, hash: string): Promise<KeyOwner | null> {
  const row = await findActiveApiKeyByHash(db, hash);
  if (!row) return null;
  await noteKeyUse(db, row.id);
  return { accountId: row.account_id, keyId: row.id };
}

/**
 * Records that a key was used. touchApiKey writes at most once a minute per key (so
 * `last_used_at` is exact to the minute and only one request a minute waits for a write), and
 * the write is awaited so that a page read after the request shows it (read-your-writes; a
 * fire-and-forget write raced the next read on PostgreSQL). A failure to record it must not
 * refuse a valid key.
 */
export async function noteKeyUse(db: DbExecutor, keyId: string): Promise<void> {
  await touchApiKey(db, keyId).catch(() => false);
}

/** True when a live key was revoked; false when it was unknown or already revoked. */
export async function revokeApiKeyValue(db: DbExecutor, presented: string): Promise<boolean> {
  return revokeApiKeyByHash(db, hashApiKey(presented));
}

export const KEY_NAME_MAX = 100;

/** Why a key name is refused, or null. Names label keys in the list ("CI", "laptop"). */
export function keyNameProblem(name: string): string | null {
  const n = name.trim();
  if (n.length === 0) return 'give the key a name, e.g. "CI" or "my laptop"';
  if (n.length > KEY_NAME_MAX) return `the name must have at most ${KEY_NAME_MAX} characters`;
  if (/[\u0000-\u001f\u007f]/.test(n)) return 'the name contains control characters';
  return null;
}

/** What the dashboard lists: never the key, never its hash. */
export interface KeyView {
  id: string;
  name: string;
  prefix: string;
  last4: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

function toKeyView(k: ApiKey): KeyView {
  const { id, name, prefix, last4, created_at, last_used_at, revoked_at } = k;
  return { id, name, prefix, last4, created_at, last_used_at, revoked_at };
}

/** Live keys first (newest first), then revoked ones. */
export async function listKeys(db: DbExecutor, accountId: string): Promise<KeyView[]> {
  const rows = (await listApiKeys(db, accountId)).map(toKeyView);
  return [...rows.filter((k) => !k.revoked_at), ...rows.filter((k) => k.revoked_at)];
}

export async function findKey(db: DbExecutor, accountId: string, keyId: string): Promise<KeyView | undefined> {
  const row = await getApiKey(db, accountId, keyId);
  return row && toKeyView(row);
}

/** Revokes a key of this account by id. False when it is unknown here or already revoked. */
export async function revokeKeyById(db: DbExecutor, accountId: string, keyId: string): Promise<boolean> {
  return revokeApiKey(db, accountId, keyId);
}
