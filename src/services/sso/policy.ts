// The rules of single sign-on that need no provider: which domains an account may list, how the
// group → role mapping is written and applied, and whether SSO is required for an email.
import * as repo from '../../adapters/db/repositories/sso.ts';
import type { DbExecutor } from '../../adapters/db/repositories/executor.ts';
import type { SsoProvider } from '../../adapters/db/schema.ts';
import { isRole, ROLES } from '../roles.ts';
import type { Role } from '../roles.ts';

export const MAX_DOMAINS = 20;
export const MAX_GROUP_RULES = 50;

const DOMAIN = /^(?=.{1,253}$)(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))+$/;

/** The domain part of an email, lower-cased ('' when there is none). */
export function domainOf(email: string): string {
  const at = email.lastIndexOf('@');
  return at < 0 ? '' : email.slice(at + 1).trim().toLowerCase();
}

/** "example.com, Example.org\nexample.com" → ['example.com', 'example.org'], or the problem. */
export function parseDomains(text: string): { domains: string[] } | { problem: string } {
  const domains = [...new Set(text.split(/[\s,;]+/).map((d) => d.trim().toLowerCase().replace(/^@/, '')).filter(Boolean))];
  if (domains.length === 0) return { problem: 'list at least one email domain' };
  if (domains.length > MAX_DOMAINS) return { problem: `at most ${MAX_DOMAINS} domains` };
  const bad = domains.find((d) => !DOMAIN.test(d));
  if (bad) return { problem: `"${bad.slice(0, 80)}" is not a domain name (e.g. example.com)` };
  return { domains };
}

export type GroupRoles = Record<string, Role>;

/** One rule a line: "group = role" (e.g. "vouch-admins = admin"). */
export function parseGroupRoles(text: string): { rules: GroupRoles } | { problem: string } {
  const rules: GroupRoles = Object.create(null) as GroupRoles;
  const lines = text.split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
  if (lines.length > MAX_GROUP_RULES) return { problem: `at most ${MAX_GROUP_RULES} rules` };
  for (const line of lines) {
    const m = /^(.{1,200}?)\s*=\s*([a-z]+)$/.exec(line);
    if (!m || !isRole(m[2])) return { problem: `"${line.slice(0, 80)}" is not "group = role" with a role of ${ROLES.join(', ')}` };
    rules[m[1]] = m[2];
  }
  return { rules };
}

export function formatGroupRoles(rules: GroupRoles): string {
  return Object.entries(rules).map(([g, r]) => `${g} = ${r}`).join('\n');
}

const RANK: Record<Role, number> = { member: 0, admin: 1, owner: 2 };

/** The groups a claim holds: an array of strings (or one string); anything else is none. */
export function groupsOf(claim: unknown): string[] {
  if (typeof claim === 'string') return [claim];
  if (Array.isArray(claim)) return claim.filter((g): g is string => typeof g === 'string').slice(0, 1000);
  return [];
}

/** The highest role the person's groups map to, or null when none of them is mapped. */
export function roleFromGroups(rules: GroupRoles, groups: string[]): Role | null {
  let best: Role | null = null;
  for (const g of groups) {
    const role = Object.hasOwn(rules, g) ? rules[g] : undefined;
    if (role && (best === null || RANK[role] > RANK[best])) best = role;
  }
  return best;
}

export function groupRulesOf(provider: Pick<SsoProvider, 'group_roles'>): GroupRoles {
  try {
    const parsed = JSON.parse(provider.group_roles) as Record<string, unknown>;
    return Object.fromEntries(Object.entries(parsed).filter(([, r]) => isRole(r))) as GroupRoles;
  } catch {
    return {};
  }
}

/**
 * The account's provider when it requires SSO for this email's domain (a domain it verified),
 * else null. Only the account that lists a domain is affected: another account cannot
 * lock a domain's people out of theirs.
 */
export async function requiringProvider(db: DbExecutor, accountId: string, email: string): Promise<SsoProvider | null> {
  const provider = await repo.findProviderOfAccount(db, accountId);
  if (!provider || !provider.required) return null;
  return (await repo.listVerifiedDomains(db, provider.id)).includes(domainOf(email)) ? provider : null;
}
