// Settings → API keys: create (the key shown once), list (prefix…last 4, created, last used),
// revoke after a confirmation step.
import type { WebUser } from '../../types.ts';
import type { KeyView } from '../../../services/keys.ts';
import { keyDisplay } from '../../../services/keys.ts';
import { ALL_SCOPES, SCOPES, scopesAllowed } from '../../../services/scopes.ts';
import type { Scope } from '../../../services/scopes.ts';
import { EmptyState, Table, Time } from '../components.tsx';
import { CsrfField, Layout } from '../page.tsx';
import { ConfirmPage, Creator, DoneFlash, InputField, Reveal, SettingsAssets } from './parts.tsx';

const DONE = {
  welcome: ['ok', 'Your account is ready. Create an API key to upload session logs from CI or the command line.'],
  revoked: ['ok', 'The key was revoked. Requests that use it are refused from now on.'],
  'already-revoked': ['info', 'That key was already revoked.'],
} as const;

export { keyDisplay } from '../../../services/keys.ts';

export interface ApiKeysProps {
  user: WebUser;
  keys: KeyView[];
  done?: string;
  /** The key just created: shown once, in full. */
  created?: { name: string; key: string; scopes: Scope[] };
  name?: string;
  error?: string;
  /** The scopes ticked in a refused form (default: all the member may give). */
  chosen?: Scope[];
  scopeError?: string;
}

function ScopeList({ scopes }: { scopes: Scope[] }) {
  if (scopes.length === 0) return <span class="muted">none</span>;
  return <>{scopes.map((s, i) => <span key={s}>{i > 0 ? ' ' : ''}<code title={SCOPES[s]}>{s}</code></span>)}</>;
}

/** One box per scope the member's role may give; the others are listed, disabled, with why. */
function ScopeFields({ user, chosen, error }: { user: WebUser; chosen?: Scope[]; error?: string }) {
  const allowed = scopesAllowed(user.role);
  const ticked = chosen ?? allowed;
  return (
    <fieldset class="field scopes">
      <legend>What the key may do</legend>
      <input type="hidden" name="scopes_listed" value="1" />
      {ALL_SCOPES.map((s) => (
        <label key={s} class="check">
          <input type="checkbox" name="scope" value={s} checked={ticked.includes(s) && allowed.includes(s)} disabled={!allowed.includes(s)} />
          {' '}<code>{s}</code> — {SCOPES[s]}{allowed.includes(s) ? '' : ` (not for ${user.role}s)`}
        </label>
      ))}
      {error && <p class="error" role="alert">{error}</p>}
      <p class="small">A key never does more than your role allows, and loses what you lose if your role changes.</p>
    </fieldset>
  );
}

function KeyRow({ k }: { k: KeyView }) {
  return (
    <tr>
      <td data-label="Name">{k.name}</td>
      <td data-label="Key"><code>{keyDisplay(k)}</code></td>
      <td data-label="Scopes"><ScopeList scopes={k.scopes} /></td>
      <td data-label="Created"><Time iso={k.created_at} /></td>
      <td data-label="Created by"><Creator email={k.created_by_email} /></td>
      <td data-label="Last used">{k.last_used_at ? <Time iso={k.last_used_at} /> : <span class="muted">never</span>}</td>
      <td data-label="Status">
        {k.revoked_at
          ? <span class="muted">Revoked <Time iso={k.revoked_at} /></span>
          : <a class="button danger" href={`/settings/api-keys/${k.id}/revoke`} aria-label={`Revoke the key ${k.name}`}>Revoke…</a>}
      </td>
    </tr>
  );
}

export function ApiKeysPage({ user, keys, done, created, name, error, chosen, scopeError }: ApiKeysProps) {
  return (
    <Layout title="API keys" user={user} current="api-keys">
      <SettingsAssets />
      <h1>API keys</h1>
      <p class="lede">
        Keys let CI jobs and the <code>vouch upload</code> command send session logs to this account
        (<code>Authorization: Bearer &lt;key&gt;</code>). A key acts for the whole account within its scopes, which you choose below and which never exceed what its creator's role allows;
        owners and admins manage keys, demoting a member narrows the keys they created, and removing them revokes those keys.
      </p>
      <DoneFlash code={done} messages={DONE} />
      {created && (
        <Reveal id="new-key" label={`Your new key “${created.name}”. Copy it now: it is shown only this once.`} value={created.key}>
          <p class="small">Scopes: <ScopeList scopes={created.scopes} />. Vouch keeps only a hash of it. Store it in your CI's secret store, e.g. as <code>VOUCH_API_KEY</code>.</p>
        </Reveal>
      )}
      <form method="post" action="/settings/api-keys" class="panel">
        <CsrfField token={user.csrfToken} />
        <div class="form-row">
          <InputField label="New key name" name="name" value={name ?? ''} maxLength={100} required placeholder="e.g. GitHub Actions" error={error} />
        </div>
        <ScopeFields user={user} chosen={chosen} error={scopeError} />
        <p class="actions"><button type="submit" class="primary">Create key</button></p>
      </form>
      <h2>Keys of this account</h2>
      {keys.length === 0
        ? <EmptyState title="No keys yet"><p>Create one above to start uploading.</p></EmptyState>
        : (
          <Table head={['Name', 'Key', 'Scopes', 'Created', 'Created by', 'Last used', 'Status']} caption="API keys" class="keys cards">
            {keys.map((k) => <KeyRow key={k.id} k={k} />)}
          </Table>
        )}
    </Layout>
  );
}

export function RevokeKeyPage({ user, k }: { user: WebUser; k: KeyView }) {
  return (
    <ConfirmPage user={user} current="api-keys" title="Revoke this API key?" action={`/settings/api-keys/${k.id}/revoke`} button="Revoke key" cancelHref="/settings/api-keys">
      <p class="what"><strong>{k.name}</strong> · <code>{keyDisplay(k)}</code> · <ScopeList scopes={k.scopes} /> · created <Time iso={k.created_at} /> by <Creator email={k.created_by_email} /></p>
      <p>Anything still using this key (CI jobs, the command line) will be refused from its next request. This cannot be undone; create a new key to replace it.</p>
    </ConfirmPage>
  );
}
