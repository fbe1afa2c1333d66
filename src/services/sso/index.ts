// Single sign-on with the account's OpenID Connect provider (docs/security.md, "Single sign-on"):
// the settings (settings.ts), signing in (sign-in.ts) and the rules without I/O (policy.ts).
import type { DbExecutor } from '../../adapters/db/repositories/executor.ts';
import type { AuditContext } from '../audit.ts';
import type { Log } from '../ports.ts';
import { beginSsoSignIn, completeSsoSignIn, isCovered } from './sign-in.ts';
import type { CompleteInput } from './sign-in.ts';
import { getSsoSettings, redirectUriOf, removeSsoSettings, saveSsoSettings, verifySsoDomain } from './settings.ts';
import type { SsoDeps, SsoSettingsInput } from './settings.ts';

export { SsoInputError, SsoUnavailableError, redirectUriOf } from './settings.ts';
export type { SsoDomainView, SsoField, SsoSettingsInput, SsoSettingsView } from './settings.ts';
export type { BeginResult, CompleteResult, SsoRefusal } from './sign-in.ts';
export { formatGroupRoles } from './policy.ts';

export function ssoService(db: DbExecutor, deps: SsoDeps & { log: Log }) {
  return {
    /** Can SSO be configured on this server (VOUCH_SSO_SECRET_KEY set)? */
    available: deps.sso.secretKey !== null,
    /** The redirect URI to register at the provider. */
    redirectUri: redirectUriOf(deps.publicUrl),
    getSettings: (accountId: string) => getSsoSettings(db, accountId),
    saveSettings: (accountId: string, ctx: AuditContext, input: SsoSettingsInput) => saveSsoSettings(db, deps, accountId, ctx, input),
    removeSettings: (accountId: string, ctx: AuditContext) => removeSsoSettings(db, accountId, ctx),
    verifyDomain: (accountId: string, domain: string, ctx: AuditContext) => verifySsoDomain(db, deps, accountId, domain, ctx),
    isCovered: (email: string) => isCovered(db, email),
    begin: (email: string, next: string) => beginSsoSignIn(db, deps, email, next),
    complete: (input: CompleteInput) => completeSsoSignIn(db, deps, input),
  };
}
