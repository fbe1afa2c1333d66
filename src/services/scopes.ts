// API key scopes (docs/security.md, "API keys and scopes"). Pure: no I/O.
//
// A key carries the scopes chosen when it was created, never more than its creator's role
// allows on the dashboard: each scope is the API side of one dashboard action (roles.ts), so a
// member's key can read and upload, as a member can, and nothing else. Every /v1 operation
// declares the one scope it needs (routes; api-auth.ts refuses a route without one), and the
// OpenAPI document lists it per operation. When the creator's role shrinks (demotion), their
// keys shrink with it (members.ts); operator keys (`vouch admin create-key`) carry every scope.
import { can } from './roles.ts';
import type { Action, Role } from './roles.ts';

export const SCOPES = {
  'sessions:read': 'List and read sessions, their reports and their masked logs',
  'sessions:write': 'Upload session logs',
  'sessions:delete': 'Delete sessions with their reports and stored logs',
  'logs:redact': 'Redact stored logs',
  'audit:read': 'Read the audit log',
} as const;
export type Scope = keyof typeof SCOPES;
export const ALL_SCOPES = Object.keys(SCOPES) as Scope[];

/** The dashboard action each scope is the API side of: a role may give a key a scope iff it may do the action. */
const ACTION_OF: Record<Scope, Action> = {
  'sessions:read': 'sessions.read',
  'sessions:write': 'sessions.upload',
  'sessions:delete': 'logs.redact_delete',
  'logs:redact': 'logs.redact_delete',
  'audit:read': 'audit.read',
};

export function isScope(value: unknown): value is Scope {
  return typeof value === 'string' && Object.hasOwn(SCOPES, value);
}

/** The scopes a member with `role` may give a key (and that key keeps while they hold the role). */
export function scopesAllowed(role: Role): Scope[] {
  return ALL_SCOPES.filter((s) => can(role, ACTION_OF[s]));
}

/** The scopes in their canonical order, without duplicates. */
export function canonicalScopes(scopes: Iterable<Scope>): Scope[] {
  const set = new Set(scopes);
  return ALL_SCOPES.filter((s) => set.has(s));
}

/** As stored (`api_keys.scopes`): space-separated, canonical order (the OAuth `scope` shape). */
export function formatScopes(scopes: Iterable<Scope>): string {
  return canonicalScopes(scopes).join(' ');
}

/** The stored text back to scopes; unknown words are dropped (they grant nothing). */
export function parseScopes(text: string | null | undefined): Scope[] {
  return canonicalScopes((text ?? '').split(/\s+/).filter(isScope));
}

/** What of `scopes` a key may keep under `role`. */
export function withinRole(scopes: readonly Scope[], role: Role): Scope[] {
  const allowed = new Set(scopesAllowed(role));
  return scopes.filter((s) => allowed.has(s));
}
