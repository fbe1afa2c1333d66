// Settings → Single sign-on (owners): the account's OpenID Connect provider. Saving checks the
// issuer's discovery document first (a typo is caught at once, not at the next sign-in), seals
// the client secret (secret-box.ts; it is never shown again), and records sso.configured /
// sso.updated in the audit log in the same transaction; removing records sso.removed.
import { randomBytes } from 'node:crypto';
import { isUniqueViolation } from '../../adapters/db/repositories/accounts.ts';
import { inTransaction, lockAccount } from '../../adapters/db/repositories/executor.ts';
import type { DbExecutor } from '../../adapters/db/repositories/executor.ts';
import * as repo from '../../adapters/db/repositories/sso.ts';
import type { SsoDomain, SsoProvider } from '../../adapters/db/schema.ts';
import { issuerProblem } from '../../adapters/oidc/issuer.ts';
import type { SsoConfig } from '../../config.ts';
import { newId, nowIso } from '../../kernel/ids.ts';
import { recordAudit } from '../audit.ts';
import type { AuditContext } from '../audit.ts';
import type { OidcRelyingParty, TxtResolver } from '../ports.ts';
import { isRole } from '../roles.ts';
import type { Role } from '../roles.ts';
import { groupRulesOf, parseDomains, parseGroupRoles } from './policy.ts';
import type { GroupRoles } from './policy.ts';
import { sealSecret } from './secret-box.ts';

export interface SsoDeps {
  sso: SsoConfig;
  /** VOUCH_PUBLIC_URL: the redirect URI is `${publicUrl}/sso/callback`. */
  publicUrl: string;
  /** The longest web session (VOUCH_WEB_SESSION_TTL_MS); SSO sessions are at most sso.sessionTtlMs too. */
  webSessionTtlMs: number;
  oidc: OidcRelyingParty;
  /** Looks up the domain verification records. */
  resolveTxt: TxtResolver;
}

export const redirectUriOf = (publicUrl: string): string => `${publicUrl}/sso/callback`;

/** SSO cannot be configured: the operator has not set VOUCH_SSO_SECRET_KEY. */
export class SsoUnavailableError extends Error {
  constructor() {
    super('single sign-on needs VOUCH_SSO_SECRET_KEY on the server');
    this.name = 'SsoUnavailableError';
  }
}

export type SsoField = 'issuer' | 'client_id' | 'client_secret' | 'domains' | 'default_role' | 'groups' | 'verify' | 'form';

/** The form cannot be saved as it is: a message per field. */
export class SsoInputError extends Error {
  constructor(readonly errors: Partial<Record<SsoField, string>>) {
    super(Object.values(errors).join('; '));
    this.name = 'SsoInputError';
  }
}

/** The DNS name of a domain's verification record, and the record's value. */
export const verificationRecordName = (domain: string): string => `_vouch-challenge.${domain}`;
export const verificationRecordValue = (token: string): string => `vouch-domain-verification=${token}`;

export interface SsoDomainView {
  domain: string;
  verified: boolean;
  /** The TXT record to publish: its name and value. */
  record: { name: string; value: string };
}

/** The provider as the settings page shows it (the client secret never leaves the database). */
export interface SsoSettingsView {
  id: string;
  issuer: string;
  client_id: string;
  domains: SsoDomainView[];
  required: boolean;
  default_role: Role;
  groups_claim: string | null;
  group_roles: GroupRoles;
  require_group: boolean;
  updated_at: string;
}

export interface SsoSettingsInput {
  issuer: string;
  clientId: string;
  /** Empty when changing a provider: keep the stored secret. */
  clientSecret: string;
  domains: string;
  required: boolean;
  defaultRole: string;
  /** Empty: roles are not taken from the provider. */
  groupsClaim: string;
  groupRoles: string;
  requireGroup: boolean;
}

function toView(p: SsoProvider, rows: SsoDomain[]): SsoSettingsView {
  const domains = rows.map((r) => ({ domain: r.domain, verified: r.verified_at !== null, record: { name: verificationRecordName(r.domain), value: verificationRecordValue(r.token) } }));
  return {
    id: p.id, issuer: p.issuer, client_id: p.client_id, domains, required: p.required === 1, default_role: p.default_role,
    groups_claim: p.groups_claim, group_roles: groupRulesOf(p), require_group: p.require_group === 1, updated_at: p.updated_at,
  };
}

export async function getSsoSettings(db: DbExecutor, accountId: string): Promise<SsoSettingsView | null> {
  const p = await repo.findProviderOfAccount(db, accountId);
  return p ? toView(p, await repo.listDomainRows(db, p.id)) : null;
}

interface Checked {
  issuer: string;
  clientId: string;
  domains: string[];
  defaultRole: Role;
  groupsClaim: string | null;
  rules: GroupRoles;
}

function check(input: SsoSettingsInput, deps: SsoDeps, creating: boolean): Checked {
  const errors: Partial<Record<SsoField, string>> = {};
  const issuer = input.issuer.trim().replace(/\/+$/, '');
  const problem = issuerProblem(issuer, deps.sso.allowHttpLoopback);
  if (problem) errors.issuer = `The issuer URL ${problem}.`;
  const clientId = input.clientId.trim();
  if (!clientId || clientId.length > 255) errors.client_id = 'Enter the client id the provider gave Vouch (at most 255 characters).';
  if (creating && !input.clientSecret) errors.client_secret = 'Enter the client secret.';
  if (input.clientSecret.length > 1000) errors.client_secret = 'At most 1,000 characters.';
  const domains = parseDomains(input.domains);
  if ('problem' in domains) errors.domains = `Email domains: ${domains.problem}.`;
  if (!isRole(input.defaultRole) || input.defaultRole === 'owner') errors.default_role = 'Choose member or admin.';
  const groupsClaim = input.groupsClaim.trim();
  if (groupsClaim.length > 100 || /\s/.test(groupsClaim)) errors.groups = 'The groups claim is one claim name (e.g. groups).';
  const rules = parseGroupRoles(input.groupRoles);
  if ('problem' in rules) errors.groups = `Group roles: ${rules.problem}.`;
  if (input.requireGroup && (!groupsClaim || ('rules' in rules && Object.keys(rules.rules).length === 0))) {
    errors.groups = 'Refusing people in no mapped group needs a groups claim and at least one rule.';
  }
  if (Object.keys(errors).length > 0 || 'problem' in domains || 'problem' in rules) throw new SsoInputError(errors);
  return { issuer, clientId, domains: domains.domains, defaultRole: input.defaultRole as Role, groupsClaim: groupsClaim || null, rules: rules.rules };
}

const FAILURE_WORDS = {
  unreachable: 'Vouch could not reach the issuer (address refused by the outbound policy, no answer, or an error).',
  discovery: 'The issuer did not serve a valid OpenID Connect discovery document (/.well-known/openid-configuration) for this exact issuer URL.',
  denied: 'The provider refused.',
  response: 'The provider answered something Vouch cannot use.',
  id_token: 'The provider answered something Vouch cannot use.',
} as const;

/** Creates or changes the account's provider (see the top of this module). */
export async function saveSsoSettings(db: DbExecutor, deps: SsoDeps, accountId: string, ctx: AuditContext, input: SsoSettingsInput): Promise<SsoSettingsView> {
  const key = deps.sso.secretKey;
  if (!key) throw new SsoUnavailableError();
  const existing = await repo.findProviderOfAccount(db, accountId);
  const c = check(input, deps, !existing);
  const taken = await repo.domainsVerifiedElsewhere(db, accountId, c.domains);
  if (taken.length > 0) throw new SsoInputError({ domains: `Already verified by another Vouch account: ${taken.join(', ')}. A domain signs in to one account only.` });
  if (input.clientSecret || !existing || existing.issuer !== c.issuer) {
    // The discovery document answers for the issuer; the client's credentials are checked by the first sign-in.
    const probe = await deps.oidc.check({ issuer: c.issuer, clientId: c.clientId, clientSecret: input.clientSecret || 'unused' });
    if (!probe.ok) throw new SsoInputError({ issuer: FAILURE_WORDS[probe.reason] });
  }
  const id = existing?.id ?? newId('sso');
  const now = nowIso();
  const fields = {
    issuer: c.issuer, client_id: c.clientId, required: input.required ? 1 : 0, default_role: c.defaultRole, groups_claim: c.groupsClaim,
    group_roles: JSON.stringify(c.rules), require_group: input.requireGroup ? 1 : 0, updated_at: now,
    ...(input.clientSecret ? { client_secret_sealed: sealSecret(key, id, accountId, input.clientSecret) } : {}),
  };
  return inTransaction(db, async (trx) => {
    await lockAccount(trx, accountId);

    if (existing) await repo.updateProvider(trx, accountId, id, fields);
    else await repo.insertProvider(trx, { id, account_id: accountId, created_at: now, client_secret_sealed: '', ...fields });
    const provider = { id, account_id: accountId };
    await repo.replaceDomains(trx, provider, c.domains, () => randomBytes(24).toString('base64url'));
    await recordAudit(trx, accountId, ctx, existing ? 'sso.updated' : 'sso.configured', { type: 'sso_provider', id, label: c.issuer }, {
      issuer: c.issuer, client_id: c.clientId, domains: c.domains.join(', '), required: input.required, default_role: c.defaultRole,
      groups_claim: c.groupsClaim, group_rules: Object.keys(c.rules).length, require_group: input.requireGroup, secret_changed: Boolean(input.clientSecret),
    });
    const saved = await repo.getProvider(trx, id);
    return toView(saved as SsoProvider, await repo.listDomainRows(trx, id));
  });
}

/** Removes the account's provider: its domains, links to subjects and pending sign-ins go too. */
export async function removeSsoSettings(db: DbExecutor, accountId: string, ctx: AuditContext): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    const p = await repo.findProviderOfAccount(trx, accountId);
    if (!p) return false;
    await repo.deleteProvider(trx, accountId, p.id);
    await recordAudit(trx, accountId, ctx, 'sso.removed', { type: 'sso_provider', id: p.id, label: p.issuer }, { issuer: p.issuer });
    return true;
  });
}

/**
 * Verifies that the account controls a domain it listed: the TXT record
 * `_vouch-challenge.<domain>` must hold `vouch-domain-verification=<token>`. Only then does the
 * domain route emails to the provider, admit its people and (when required) refuse passwords.
 * One account at most verifies a domain (checked again by a unique index).
 */
export async function verifySsoDomain(db: DbExecutor, deps: Pick<SsoDeps, 'resolveTxt'>, accountId: string, domain: string, ctx: AuditContext): Promise<void> {
  const row = await repo.findDomainRow(db, accountId, domain.trim().toLowerCase());
  if (!row) throw new SsoInputError({ verify: 'This domain is not listed for single sign-on.' });
  if (row.verified_at) return;
  let records: string[][];
  try {
    records = await deps.resolveTxt(verificationRecordName(row.domain));
  } catch {
    records = []; // NXDOMAIN, no TXT record, a resolver failure: not verified (yet)
  }
  if (!records.some((chunks) => chunks.join('') === verificationRecordValue(row.token))) {
    throw new SsoInputError({ verify: `No TXT record ${verificationRecordName(row.domain)} with the value ${verificationRecordValue(row.token)} was found yet (DNS changes can take a while to appear).` });
  }
  try {
    await inTransaction(db, async (trx) => {
      if ((await repo.domainsVerifiedElsewhere(trx, accountId, [row.domain])).length > 0) throw new SsoInputError({ verify: `${row.domain} is already verified by another Vouch account.` });
      await repo.markDomainVerified(trx, accountId, row.domain, nowIso());
      await recordAudit(trx, accountId, ctx, 'sso.domain_verified', { type: 'sso_provider', id: row.provider_id, label: row.domain }, { domain: row.domain });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new SsoInputError({ verify: `${row.domain} is already verified by another Vouch account.` });
    throw error;
  }
}
