// Roles and what each may do (docs/security.md has the same table for people). Pure: no I/O.
//
// Three roles: an owner runs the account (roles, ownership, reset links), an admin manages what
// the account connects to (members, keys, webhooks, logs, retention), a member uses it (reads and
// uploads sessions). Every dashboard route declares the action it performs (routes/web/access.ts
// enforces it); an account always keeps at least one owner (services/members.ts).
import type { UserRole } from '../adapters/db/schema.ts';

export type Role = UserRole;
export const ROLES: readonly Role[] = ['owner', 'admin', 'member'];

export const ACTIONS = {
  'sessions.read': 'See sessions, reports and the masked logs',
  'sessions.upload': 'Upload session logs from the dashboard',
  'logs.redact_delete': 'Redact or delete stored logs',
  'members.read': 'See the members of the account',
  'members.invite': 'Invite members (admins invite members; owners also admins) and withdraw invitations',
  'members.remove': 'Remove members (admins: members only; owners: anyone but the last owner)',
  'members.roles': 'Change roles, transfer a member\'s keys and webhooks',
  'members.reset_password': 'Issue a one-time password-reset link for a member',
  'keys.manage': 'See, create and revoke API keys',
  'webhooks.manage': 'See, add, change, test and delete webhooks',
  'retention.manage': 'Change how long logs are kept',
  'audit.read': 'Read and export the audit log',
  'account.self': 'Change one\'s own password, sign out everywhere',
  'sso.manage': 'Configure single sign-on (provider, domains, whether it is required, group roles)',
} as const;
export type Action = keyof typeof ACTIONS;

const ADMIN_AND_UP: readonly Role[] = ['owner', 'admin'];
const EVERYONE: readonly Role[] = ROLES;

const ALLOWED: Record<Action, readonly Role[]> = {
  'sessions.read': EVERYONE,
  'sessions.upload': EVERYONE,
  'logs.redact_delete': ADMIN_AND_UP,
  'members.read': EVERYONE,
  'members.invite': ADMIN_AND_UP,
  'members.remove': ADMIN_AND_UP,
  'members.roles': ['owner'],
  'members.reset_password': ['owner'],
  'keys.manage': ADMIN_AND_UP,
  'webhooks.manage': ADMIN_AND_UP,
  'retention.manage': ADMIN_AND_UP,
  'audit.read': ADMIN_AND_UP,
  'account.self': EVERYONE,
  'sso.manage': ['owner'],
};

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

export function can(role: Role, action: Action): boolean {
  return ALLOWED[action].includes(role);
}

/** The roles allowed an action, for the documentation table and the matrix test. */
export function rolesAllowed(action: Action): readonly Role[] {
  return ALLOWED[action];
}

/** May `actor` remove a member whose role is `target`? Admins remove members only. */
export function canRemove(actor: Role, target: Role): boolean {
  if (!can(actor, 'members.remove')) return false;
  return actor === 'owner' || target === 'member';
}

/** The roles `actor` may give in an invitation: owners invite admins too, admins members only. */
export function invitableRoles(actor: Role): Role[] {
  if (actor === 'owner') return ['member', 'admin'];
  if (actor === 'admin') return ['member'];
  return [];
}

export const ROLE_LABELS: Record<Role, string> = { owner: 'Owner', admin: 'Admin', member: 'Member' };
