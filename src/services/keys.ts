// API keys: issue, authenticate, revoke. Validity is read from the database on every request
// (no cache), so a revocation takes effect on the very next request, in every process.
// Each key records the member who created it (offboarding revokes or transfers a removed
// member's keys); creating, revoking and the first use are written to the audit log.
// Each key carries scopes (scopes.ts), chosen at creation within what its creator's role
// allows, and narrowed when that role shrinks (narrowKeysOf).
import {
  findActiveApiKeyByHash, findApiKeyByHash, getApiKey, hashApiKey, insertApiKey, listApiKeys, listLiveKeysCreatedBy, markFirstUse, revokeApiKey,
  setKeyScopes, touchDue, touchLastUsed,
} from '../adapters/db/repositories/api-keys.ts';
import { findUserInAccount } from '../adapters/db/repositories/members.ts';
import { inTransaction, lockAccount } from '../adapters/db/repositories/executor.ts';
import type { DbExecutor } from '../adapters/db/repositories/executor.ts';
import type { ApiKey } from '../adapters/db/schema.ts';
import { newId, nowIso } from '../kernel/ids.ts';

/** The sha256 by which a presented key is looked up (and counted by the rate limit). */
export { hashApiKey };
import { generateKey } from '../kernel/key-format.ts';
import { OPERATOR, recordAudit } from './audit.ts';
import { silentLog } from './ports.ts';
import type { Log } from './ports.ts';
import type { AuditContext } from './audit.ts';
import { ALL_SCOPES, formatScopes, parseScopes, scopesAllowed, withinRole } from './scopes.ts';
import type { Scope } from './scopes.ts';
import type { Role } from './roles.ts';

/** Scopes asked for a key that its creator may not give (or none at all). */
export class KeyScopeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KeyScopeError';
  }
}

export interface IssuedKey {
  id: string;
  scopes: Scope[];
  /** Shown once to whoever asked for it; only its hash is kept. */
  key: string;
  prefix: string;
  last4: string;
}

/** The member a key or webhook is recorded as made by. */
export interface Creator {
  id: string;
  email: string;
}

export function keyDisplay(k: Pick<ApiKey, 'prefix' | 'last4'>): string {
  return `${k.prefix}…${k.last4}`;
}

/** The audit context of a member acting from the dashboard. */
export function creatorOf(ctx: AuditContext): Creator | null {
  return ctx.actor.type === 'user' ? { id: ctx.actor.id, email: ctx.actor.label } : null;
}

/** The scopes `creator` may give a key, read in `db` (the operator, null: every scope). */
async function scopeCeiling(db: DbExecutor, accountId: string, creator: Creator | null): Promise<Scope[]> {
  if (!creator) return [...ALL_SCOPES];
  const user = await findUserInAccount(db, accountId, creator.id);
  return user ? scopesAllowed(user.role) : [];
}

/**
 * Issues a key in its own transaction with its audit event (or in the caller's transaction).
 * The creator is the member in `audit` (null for the operator's CLI: shown as "unknown").
 * `scopes`: what the key may do; by default everything the creator may give. Asking for more
 * than the creator's role allows (read again inside the transaction) throws KeyScopeError.
 * `opts.holder`: the member the key is made for, when not the actor (a key replaced in a transfer).
 */
export async function issueApiKey(
  db: DbExecutor, accountId: string, name = 'default', audit: AuditContext = OPERATOR, scopes?: readonly Scope[], opts: { holder?: Creator; details?: Record<string, string> } = {},
): Promise<IssuedKey> {
  const g = generateKey();
  const id = newId('key');
  const creator = opts.holder ?? creatorOf(audit);
  const granted = await inTransaction(db, async (trx) => {
    // Serialised with role changes (which lock the account row too): a demotion committing
    // meanwhile either sees this key and narrows it, or is seen here.
    if (creator) await lockAccount(trx, accountId);
    const ceiling = await scopeCeiling(trx, accountId, creator);
    const wanted = parseScopes(formatScopes(scopes ?? ceiling));
    const beyond = wanted.filter((s) => !ceiling.includes(s));
    if (beyond.length > 0) throw new KeyScopeError(`your role cannot give a key ${beyond.join(', ')}`);
    if (wanted.length === 0) throw new KeyScopeError('choose at least one scope for the key');
    await insertApiKey(trx, {
      id, account_id: accountId, name, prefix: g.prefix, last4: g.last4, hash: hashApiKey(g.key), created_at: nowIso(),
      last_used_at: null, revoked_at: null, created_by: creator?.id ?? null, created_by_email: creator?.email ?? null, scopes: formatScopes(wanted),
    });
    await recordAudit(trx, accountId, audit, 'key.created', { type: 'key', id, label: keyDisplay(g) }, { name, scopes: formatScopes(wanted), ...opts.details });
    return wanted;
  });
  return { id, key: g.key, prefix: g.prefix, last4: g.last4, scopes: granted };
}

export interface KeyOwner {
  accountId: string;
  keyId: string;
  /** What the key may do on the API. */
  scopes: Scope[];
  /** prefix…last 4: how the audit log names the key. */
  label?: string;
}

/** The owner of the active key with this hash (the presented key already checked well formed). */
export async function authenticateKeyHash(db: DbExecutor, hash: string, ip: string | null = null, log: Log = silentLog): Promise<KeyOwner | null> {
  const row = await findActiveApiKeyByHash(db, hash);
  if (!row) return null;
  await noteKeyUse(db, row.id, ip, Date.now(), log);
  return { accountId: row.account_id, keyId: row.id, label: keyDisplay(row), scopes: parseScopes(row.scopes) };
}

/**
 * Records that a key was used: `last_used_at`, written at most once a minute per key (so only
 * one request a minute waits for a write), and on the very first use an audit event, in the
 * same transaction. The write is awaited so that a page read after the request shows it
 * (read-your-writes). A failure to record it must not refuse a valid key.
 */
export async function noteKeyUse(db: DbExecutor, keyId: string, ip: string | null = null, now: number = Date.now(), log: Log = silentLog): Promise<void> {
  if (!touchDue(keyId, now)) return;
  await inTransaction(db, async (trx) => {
    const first = await markFirstUse(trx, keyId, now);
    if (!first) return void (await touchLastUsed(trx, keyId, now));
    const label = keyDisplay(first);
    await recordAudit(trx, first.account_id, { actor: { type: 'key', id: first.id, label }, ip }, 'key.first_used', { type: 'key', id: first.id, label });
  }).catch((error: unknown) => log.debug({ key_id: keyId, err: String(error) }, 'could not record the use of an API key; the key is accepted anyway'));
}

/** True when a live key was revoked; false when it was unknown or already revoked (operator CLI). */
export async function revokeApiKeyValue(db: DbExecutor, presented: string): Promise<boolean> {
  const row = await findApiKeyByHash(db, hashApiKey(presented));
  return row ? revokeKeyById(db, row.account_id, row.id, OPERATOR) : false;
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
  /** The member who created it; null when not known (shown as "unknown"). */
  created_by: string | null;
  created_by_email: string | null;
  scopes: Scope[];
}

function toKeyView(k: ApiKey): KeyView {
  const { id, name, prefix, last4, created_at, last_used_at, revoked_at, created_by, created_by_email } = k;
  return { id, name, prefix, last4, created_at, last_used_at, revoked_at, created_by, created_by_email, scopes: parseScopes(k.scopes) };
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

/** The live keys a member created: what their removal revokes. */
export async function liveKeysCreatedBy(db: DbExecutor, accountId: string, userId: string): Promise<KeyView[]> {
  return (await listLiveKeysCreatedBy(db, accountId, userId)).map(toKeyView);
}

/**
 * Revokes a key of this account by id, with its audit event, in one transaction (or the
 * caller's). False when it is unknown here or already revoked.
 */
export async function revokeKeyById(db: DbExecutor, accountId: string, keyId: string, audit: AuditContext = OPERATOR, details: Record<string, string> = {}): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    const row = await getApiKey(trx, accountId, keyId);
    if (!row || !(await revokeApiKey(trx, accountId, keyId))) return false;
    await recordAudit(trx, accountId, audit, 'key.revoked', { type: 'key', id: row.id, label: keyDisplay(row) }, { name: row.name, ...details });
    return true;
  });
}

export interface NarrowedKeys {
  /** Keys that lost some scopes and keep the rest. */
  narrowed: number;
  /** Keys left with no scope at all: revoked. */
  revoked: number;
}

/**
 * Brings the live keys `userId` created within what `role` allows (their new role after a
 * demotion, or the role of the member they were handed to): a key keeps the scopes the role
 * allows and loses the rest; a key left with none is revoked. Each change is in the audit log.
 * Call it inside the transaction that changes the role.
 */
export async function narrowKeysOf(db: DbExecutor, accountId: string, userId: string, role: Role, audit: AuditContext, reason: string): Promise<NarrowedKeys> {
  const out: NarrowedKeys = { narrowed: 0, revoked: 0 };
  for (const k of await listLiveKeysCreatedBy(db, accountId, userId)) {
    const had = parseScopes(k.scopes);
    const kept = withinRole(had, role);
    if (kept.length === had.length) continue;
    if (kept.length === 0) {
      if (await revokeKeyById(db, accountId, k.id, audit, { reason })) out.revoked++;
      continue;
    }
    await setKeyScopes(db, accountId, k.id, formatScopes(kept));
    await recordAudit(db, accountId, audit, 'key.scopes_narrowed', { type: 'key', id: k.id, label: keyDisplay(k) }, { name: k.name, from: formatScopes(had), to: formatScopes(kept), reason });
    out.narrowed++;
  }
  return out;
}
