// Settings → Single sign-on (owners): the account's OpenID Connect provider. The client secret is
// written once and never shown again (leave it empty to keep it). What to register at the
// provider (the redirect URI) and which claims are read is on the page and in docs/sso.md.
import type { WebUser } from '../../types.ts';
import type { SsoField, SsoSettingsView } from '../../../services/sso/index.ts';
import { formatGroupRoles } from '../../../services/sso/index.ts';
import { Flash } from '../components.tsx';
import { CsrfField, Layout } from '../page.tsx';
import { DoneFlash, InputField as Field, SettingsAssets } from './parts.tsx';

const DONE = { saved: ['ok', 'Single sign-on was saved.'], verified: ['ok', 'The domain is verified: its people now sign in with your identity provider.'], removed: ['ok', 'Single sign-on was removed: members sign in with passwords again.'] } as const;

export interface SsoFormValues {
  issuer: string;
  client_id: string;
  domains: string;
  required: boolean;
  default_role: string;
  groups_claim: string;
  group_roles: string;
  require_group: boolean;
}

export function valuesOf(v: SsoSettingsView | null): SsoFormValues {
  if (!v) return { issuer: '', client_id: '', domains: '', required: false, default_role: 'member', groups_claim: '', group_roles: '', require_group: false };
  return {
    issuer: v.issuer, client_id: v.client_id, domains: v.domains.map((d) => d.domain).join(', '), required: v.required, default_role: v.default_role,
    groups_claim: v.groups_claim ?? '', group_roles: formatGroupRoles(v.group_roles), require_group: v.require_group,
  };
}

export interface SsoPageProps {
  user: WebUser;
  available: boolean;
  redirectUri: string;
  saved: SsoSettingsView | null;
  values: SsoFormValues;
  errors?: Partial<Record<SsoField, string>>;
  done?: string;
}

function Check({ name, checked, label, hint }: { name: string; checked: boolean; label: string; hint: string }) {
  return (
    <div class="field">
      <label><input type="checkbox" name={name} value="yes" checked={checked} aria-describedby={`f-${name}-hint`} /> {label}</label>
      <p class="hint" id={`f-${name}-hint`}>{hint}</p>
    </div>
  );
}

export function SsoPage({ user, available, redirectUri, saved, values, errors = {}, done }: SsoPageProps) {
  return (
    <Layout title="Single sign-on" user={user} current="sso">
      <SettingsAssets />
      <h1>Single sign-on</h1>
      <p class="lede">
        Members whose email is in one of the domains below sign in with your identity provider (OpenID Connect: Okta, Entra ID,
        Google Workspace, Keycloak…). Their first sign-in makes them a member; the set-up of each common provider is in the documentation (docs/sso.md).
      </p>
      <DoneFlash code={done} messages={DONE} />
      {errors.form && <Flash kind="error">{errors.form}</Flash>}
      {!available && <Flash kind="error">Single sign-on is not available on this server: its operator must set VOUCH_SSO_SECRET_KEY (docs/deploy.md).</Flash>}
      <section class="panel">
        <h2>Register Vouch at your provider</h2>
        <p>Create a web application (confidential client, authorization code flow) with this redirect URI, and the scopes <code>openid email profile</code>:</p>
        <p class="sso-record"><code id="redirect-uri">{redirectUri}</code></p>
      </section>
      {available && (
        <form method="post" action="/settings/sso" class="panel">
          <CsrfField token={user.csrfToken} />
          <Field label="Issuer URL" name="issuer" type="url" required value={values.issuer} error={errors.issuer} maxLength={500}
            hint="The provider's issuer; Vouch reads its /.well-known/openid-configuration." placeholder="https://login.example.com/realms/acme" />
          <Field label="Client id" name="client_id" required value={values.client_id} error={errors.client_id} maxLength={255} />
          <Field label="Client secret" name="client_secret" type="password" autocomplete="off" error={errors.client_secret} maxLength={1000}
            hint={saved ? 'Stored encrypted and never shown again. Leave empty to keep it.' : 'Stored encrypted and never shown again.'} />
          <Field label="Email domains" name="domains" required value={values.domains} error={errors.domains}
            hint="Comma-separated, e.g. example.com, example.org. A domain belongs to one Vouch account." />
          <Check name="required" checked={values.required} label="Require single sign-on for these domains"
            hint="Password sign-in, password-reset links and invitations are refused for these emails. Owners keep their password as the way in when the provider is down." />
          <div class="field">
            <label for="f-default_role">Role of a new member</label>
            <select id="f-default_role" name="default_role">
              {['member', 'admin'].map((r) => <option key={r} value={r} selected={values.default_role === r}>{r}</option>)}
            </select>
            {errors.default_role && <p class="field-error">{errors.default_role}</p>}
          </div>
          <Field label="Groups claim (optional)" name="groups_claim" value={values.groups_claim} maxLength={100}
            hint="The ID token claim listing the person's groups (often groups). With rules below, roles follow the groups at every sign-in." />
          <div class="field">
            <label for="f-group_roles">Group roles (optional)</label>
            <textarea id="f-group_roles" name="group_roles" rows={4} aria-describedby="f-group_roles-hint">{values.group_roles}</textarea>
            <p class="hint" id="f-group_roles-hint">One rule a line: group = owner, admin or member. The highest role of a person's groups wins; no mapped group gives the role of a new member.</p>
            {errors.groups && <p class="field-error">{errors.groups}</p>}
          </div>
          <Check name="require_group" checked={values.require_group} label="Refuse people in none of the mapped groups"
            hint="Removing someone from the groups at the provider then refuses their next sign-in and ends their Vouch sessions." />
          <p class="actions"><button type="submit" class="primary">Save</button></p>
        </form>
      )}
      {saved && (
        <section class="panel" aria-labelledby="domains-title">
          <h2 id="domains-title">Domains</h2>
          <p>
            A domain is used only once verified: publish its TXT record in your DNS, then press Verify. Until then its people sign in
            with passwords, and nobody else can claim it from another account.
          </p>
          {errors.verify && <Flash kind="error">{errors.verify}</Flash>}
          <ul class="sso-domains">
            {saved.domains.map((d) => (
              <li key={d.domain}>
                <strong>{d.domain}</strong> — {d.verified ? 'verified' : 'not verified yet'}
                {!d.verified && (
                  <>
                    <p class="sso-record">TXT record <code>{d.record.name}</code> with the value <code>{d.record.value}</code></p>
                    <form method="post" action="/settings/sso/verify">
                      <CsrfField token={user.csrfToken} />
                      <input type="hidden" name="domain" value={d.domain} />
                      <button type="submit">Verify {d.domain}</button>
                    </form>
                  </>
                )}
              </li>
            ))}
          </ul>
        </section>
      )}
      {saved && (
        <form method="post" action="/settings/sso/delete" class="panel">
          <CsrfField token={user.csrfToken} />
          <p>Removing single sign-on unlinks every member from the provider. Members created by it have no password: an owner issues them reset links.</p>
          <p class="actions"><button type="submit" class="danger">Remove single sign-on</button></p>
        </form>
      )}
    </Layout>
  );
}
