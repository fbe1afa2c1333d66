// Signing in through the account's OpenID Connect provider.
//
// begin: the email's domain picks the provider (a domain belongs to one account); a sign-in row
//   keeps the sha256 of `state`, the nonce and the PKCE verifier for ten minutes, and the browser
//   gets `state` in a cookie too, so a callback is completed only in the browser that started it.
// complete: the row is taken once (a replayed callback finds nothing); the relying party checks
//   the state, exchanges the code with the verifier and checks the ID token (signature against
//   the provider's keys, issuer, audience, expiry, nonce). Then, in one transaction:
//     - the email must be verified (when the claim is present) and in one of the provider's
//       verified domains: a provider cannot sign anybody into its account under another domain;
//     - the member is found by subject, else by email in this account (and linked), else made
//       (just in time) — never taken from another account;
//     - with a groups mapping, the role follows the groups at every sign-in (the last owner
//       stays one); a person in no mapped group is refused when the account says so, and their
//       web sessions end;
//     - the web session lasts at most the SSO session bound (default 12 h): someone the
//       provider no longer signs in keeps no access longer than that.
// Every refusal after the account is known is in the audit log (auth.sso_sign_in_failed).
import { randomBytes } from 'node:crypto';
import { findUserByEmail, isUniqueViolation, normalizeEmail } from '../../adapters/db/repositories/accounts.ts';
import { inTransaction, lockAccount } from '../../adapters/db/repositories/executor.ts';
import type { DbExecutor } from '../../adapters/db/repositories/executor.ts';
import * as members from '../../adapters/db/repositories/members.ts';
import * as repo from '../../adapters/db/repositories/sso.ts';
import { deleteUserWebSessions } from '../../adapters/db/repositories/web-sessions.ts';
import type { SsoProvider, User } from '../../adapters/db/schema.ts';
import { isoAfter, newId, nowIso } from '../../kernel/ids.ts';
import { recordAudit } from '../audit.ts';
import type { AuditContext } from '../audit.ts';
import type { Log, OidcClientRef } from '../ports.ts';
import type { Role } from '../roles.ts';
import { startWebSession } from '../web-auth.ts';
import type { SignedIn } from '../web-auth.ts';
import { domainOf, groupRulesOf, groupsOf, roleFromGroups } from './policy.ts';
import { openSecret } from './secret-box.ts';
import { redirectUriOf } from './settings.ts';
import type { SsoDeps } from './settings.ts';

export const SSO_LOGIN_TTL_MS = 10 * 60_000;

export type BeginResult =
  | { kind: 'redirect'; url: string; state: string }
  /** The domain has no provider: sign in with a password. */
  | { kind: 'not_covered' }
  /** The provider is configured but cannot be used now (unreachable, secret unreadable). */
  | { kind: 'unavailable' };

/** Does an email's domain sign in through a provider? (The email-first step of the sign-in page.) */
export async function isCovered(db: DbExecutor, email: string): Promise<boolean> {
  const domain = domainOf(email);
  return domain !== '' && (await repo.findProviderForDomain(db, domain)) !== undefined;
}

function clientOf(deps: SsoDeps, p: SsoProvider): OidcClientRef | null {
  const secret = deps.sso.secretKey ? openSecret(deps.sso.secretKey, p.id, p.account_id, p.client_secret_sealed) : null;
  return secret === null ? null : { issuer: p.issuer, clientId: p.client_id, clientSecret: secret };
}

export async function beginSsoSignIn(db: DbExecutor, deps: SsoDeps & { log: Log }, email: string, next: string): Promise<BeginResult> {
  const domain = domainOf(email);
  const provider = domain ? await repo.findProviderForDomain(db, domain) : undefined;
  if (!provider) return { kind: 'not_covered' };
  const client = clientOf(deps, provider);
  if (!client) {
    deps.log.warn({ provider: provider.id }, 'sso: the client secret cannot be opened (VOUCH_SSO_SECRET_KEY changed?)');
    return { kind: 'unavailable' };
  }
  const auth = await deps.oidc.begin(client, redirectUriOf(deps.publicUrl));
  if (!auth.ok) {
    deps.log.warn({ provider: provider.id, reason: auth.reason, detail: auth.detail }, 'sso: the provider cannot be used');
    return { kind: 'unavailable' };
  }
  const now = nowIso();
  await repo.deleteExpiredLogins(db, now);
  await repo.insertLogin(db, {
    id: repo.hashLoginState(auth.state), provider_id: provider.id, account_id: provider.account_id, nonce: auth.nonce,
    code_verifier: auth.codeVerifier, next, created_at: now, expires_at: isoAfter(SSO_LOGIN_TTL_MS),
  });
  return { kind: 'redirect', url: auth.url, state: auth.state };
}

/** Why a sign-in was refused: `message` is for the person, `reason` for the log and the tests. */
export type SsoRefusal = { kind: 'refused'; reason: string; message: string };
export type CompleteResult = ({ kind: 'ok'; next: string; ttlMs: number; email: string } & SignedIn) | SsoRefusal;

const refusal = (reason: string, message: string): SsoRefusal => ({ kind: 'refused', reason, message });

const MESSAGES = {
  state: 'This sign-in cannot be completed: it was started in another browser, has expired or was already used. Please sign in again.',
  provider: 'Your identity provider did not sign you in, or its answer could not be verified. Please try again, or ask your administrator.',
  email: 'Your identity provider did not give Vouch a verified email address in one of this account\'s domains.',
  other_account: 'This email already belongs to another Vouch account; it cannot sign in to this one with single sign-on.',
  subject: 'This member is already linked to another identity at the provider. Ask an owner of the account.',
  no_group: 'Your identity provider does not place you in a group that gives access to this Vouch account.',
} as const;

export interface CompleteInput {
  /** The `state` query parameter of the callback. */
  state: string | undefined;
  /** The `state` kept in the browser's cookie by begin. */
  cookieState: string | undefined;
  /** The callback's query string (everything after `?`). */
  query: string;
  ip: string | null;
}

export async function completeSsoSignIn(db: DbExecutor, deps: SsoDeps & { log: Log }, input: CompleteInput): Promise<CompleteResult> {
  if (!input.state || !input.cookieState || input.state.length > 200 || input.state !== input.cookieState) {
    return refusal('state_mismatch', MESSAGES.state);
  }
  const login = await repo.takeLogin(db, repo.hashLoginState(input.state), nowIso());
  if (!login) return refusal('state_unknown', MESSAGES.state);
  const provider = await repo.getProvider(db, login.provider_id);
  const client = provider && provider.account_id === login.account_id ? clientOf(deps, provider) : null;
  if (!provider || !client) return refusal('provider_gone', MESSAGES.provider);
  const anonymous: AuditContext = { actor: { type: 'anonymous' }, ip: input.ip };
  const fail = async (reason: string, message: string, details: Record<string, string | null> = {}) => {
    deps.log.info({ provider: provider.id, reason, ...details }, 'sso sign-in refused');
    await recordAudit(db, provider.account_id, anonymous, 'auth.sso_sign_in_failed', { type: 'sso_provider', id: provider.id, label: provider.issuer }, { reason, provider: provider.issuer, ...details });
    return refusal(reason, message);
  };
  const callbackUrl = new URL(`${redirectUriOf(deps.publicUrl)}?${input.query}`);
  const result = await deps.oidc.complete(client, callbackUrl, { state: input.state, nonce: login.nonce, codeVerifier: login.code_verifier });
  if (!result.ok) return fail(result.reason, MESSAGES.provider, { detail: result.detail });
  const claims = result.claims;
  const subject = typeof claims.sub === 'string' ? claims.sub : '';
  const email = typeof claims.email === 'string' ? normalizeEmail(claims.email) : '';
  if (!subject || !email || email.length > 254) return fail('no_email', MESSAGES.email, { subject });
  if (claims.email_verified === false) return fail('email_unverified', MESSAGES.email, { subject, email });
  const domains = await repo.listVerifiedDomains(db, provider.id);
  if (!domains.includes(domainOf(email))) return fail('domain', MESSAGES.email, { subject, email });
  const rules = groupRulesOf(provider);
  const mapped = provider.groups_claim ? roleFromGroups(rules, groupsOf(claims[provider.groups_claim])) : null;
  const groupsApply = provider.groups_claim !== null && Object.keys(rules).length > 0;
  const ttlMs = Math.min(deps.webSessionTtlMs, deps.sso.sessionTtlMs);
  try {
    return await inTransaction(db, async (trx) => {
      await lockAccount(trx, provider.account_id);
      const found = await findMember(trx, provider, subject, email);
      if ('refused' in found) return found.refused;
      if (groupsApply && mapped === null && provider.require_group) {
        if (found.user) await deleteUserWebSessions(trx, found.user.id);
        return failIn(trx, 'no_group', MESSAGES.no_group, { subject, email, sessions_ended: found.user ? 'yes' : 'no' });
      }
      const role: Role = groupsApply ? (mapped ?? provider.default_role) : (found.user?.role ?? provider.default_role);
      const user = found.user ? await applyRole(trx, provider, found.user, role, input.ip) : await joinJustInTime(trx, provider, email, role, input.ip);
      await linkIdentity(trx, provider, user.id, subject, found.linked);
      const signedIn = await startWebSession(trx, user, ttlMs);
      const self: AuditContext = { actor: { type: 'user', id: user.id, label: user.email }, ip: input.ip };
      await recordAudit(trx, provider.account_id, self, 'auth.sso_sign_in', { type: 'user', id: user.id, label: user.email }, { provider: provider.issuer, subject, role: user.role });
      return { kind: 'ok' as const, ...signedIn, next: login.next, ttlMs, email: user.email };
    });
  } catch (error) {
    // Two first sign-ins of one email at the same moment: the second finds the first's row next time.
    if (isUniqueViolation(error)) return refusal('conflict', 'Another sign-in for this person was completing at the same moment. Please sign in again.');
    throw error;
  }

  async function failIn(trx: DbExecutor, reason: string, message: string, details: Record<string, string>): Promise<SsoRefusal> {
    deps.log.info({ provider: provider!.id, reason, ...details }, 'sso sign-in refused');
    await recordAudit(trx, provider!.account_id, anonymous, 'auth.sso_sign_in_failed', { type: 'sso_provider', id: provider!.id, label: provider!.issuer }, { reason, provider: provider!.issuer, ...details });
    return refusal(reason, message);
  }

  async function findMember(trx: DbExecutor, p: SsoProvider, sub: string, mail: string): Promise<{ user: User | null; linked: boolean } | { refused: SsoRefusal }> {
    const identity = await repo.findIdentity(trx, p.id, sub);
    if (identity) {
      const user = await members.findUserInAccount(trx, p.account_id, identity.user_id);
      if (user) return { user, linked: true };
    }
    const byEmail = await findUserByEmail(trx, mail);
    if (!byEmail) return { user: null, linked: false };
    if (byEmail.account_id !== p.account_id) return { refused: await failIn(trx, 'other_account', MESSAGES.other_account, { subject: sub, email: mail }) };
    const theirs = await repo.findIdentityOfUser(trx, byEmail.id);
    if (theirs && theirs.provider_id === p.id && theirs.subject !== sub) return { refused: await failIn(trx, 'subject_mismatch', MESSAGES.subject, { subject: sub, email: mail }) };
    return { user: byEmail, linked: false };
  }
}

/** A covered email's first sign-in: the member is created with the mapped or default role. */
async function joinJustInTime(trx: DbExecutor, p: SsoProvider, email: string, role: Role, ip: string | null): Promise<User> {
  // No usable password: an SSO member signs in through the provider (a password is set, if ever, by a reset link).
  const user: User = { id: newId('usr'), account_id: p.account_id, email, password_hash: `!sso:${randomBytes(8).toString('hex')}`, created_at: nowIso(), role };
  await members.insertUser(trx, user);
  await recordAudit(trx, p.account_id, { actor: { type: 'user', id: user.id, label: email }, ip }, 'member.joined', { type: 'user', id: user.id, label: email }, { role, via: 'sso', provider: p.issuer });
  return user;
}

/** The role the provider's groups give, applied; an account's last owner stays its owner. */
async function applyRole(trx: DbExecutor, p: SsoProvider, user: User, role: Role, ip: string | null): Promise<User> {
  if (user.role === role) return user;
  if (user.role === 'owner' && (await members.countOwners(trx, p.account_id)) <= 1) return user;
  await members.setUserRole(trx, p.account_id, user.id, role);
  await recordAudit(trx, p.account_id, { actor: { type: 'user', id: user.id, label: user.email }, ip }, 'member.role_changed', { type: 'user', id: user.id, label: user.email }, { from: user.role, to: role, via: 'sso_groups' });
  return { ...user, role };
}

async function linkIdentity(trx: DbExecutor, p: SsoProvider, userId: string, subject: string, linked: boolean): Promise<void> {
  const now = nowIso();
  if (linked) return repo.touchIdentity(trx, userId, now);
  await repo.deleteIdentity(trx, userId); // a link to a provider this account no longer has
  await repo.insertIdentity(trx, { user_id: userId, provider_id: p.id, subject, created_at: now, last_sign_in_at: now });
}
