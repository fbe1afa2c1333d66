// Settings → Webhooks: the list, the add/edit form (shape A/B/C with a preview of each body,
// secret none / generated whsec_ / own), one webhook's page with its actions and the delivery
// log (every attempt with status code, latency, error in words and response excerpt).
import type { WebUser } from '../../types.ts';
import type { AttemptView, DeliveryView, WebhookView } from '../../../services/webhooks/index.ts';
import { buildPayload, SHAPES } from '../../../services/webhooks/shapes.ts';
import type { EventInput, WebhookShape } from '../../../services/webhooks/shapes.ts';
import { EmptyState, Flash, formatDuration, Table, Time } from '../components.tsx';
import { CsrfField, Layout } from '../page.tsx';
import { ConfirmPage, Creator, DoneFlash, InputField, Reveal, SettingsAssets } from './parts.tsx';

const DONE = {
  created: ['ok', 'Webhook added. It receives an event each time an analysis completes; send a test event to try it.'],
  saved: ['ok', 'Changes saved. Deliveries already recorded keep the body they were made with.'],
  enabled: ['ok', 'Webhook enabled.'],
  disabled: ['ok', 'Webhook disabled. No deliveries are made to it until you enable it again.'],
  deleted: ['ok', 'Webhook deleted, with its delivery log.'],
  tested: ['ok', 'Test event queued. It appears in the delivery log below; reload to see its attempts.'],
  redelivered: ['ok', 'Redelivery queued: the same body is sent again with a new series of attempts.'],
} as const;

const SHAPE_INFO: Record<WebhookShape, { title: string; text: string }> = {
  A: { title: 'A · session and score (default)', text: 'Session id, report link, trust score, agent, repository and the count of findings by severity.' },
  B: { title: 'B · outcome and reason', text: 'Outcome (Clear / Review / Blocked), headline and reason, for chat notifications.' },
  C: { title: 'C · score and summary', text: 'Trust score and the report summary, with the report link.' },
};

/** A realistic event for the shape previews (not sent anywhere). */
function sampleEvent(accountId: string, publicUrl: string): EventInput {
  return {
    accountId,
    session: { id: 'ses_01JD8Z6Q3N7V2K4T9W5X1Y0ABC', agent: 'claude-code', repo: 'acme/web', branch: 'feature/login' },
    report: {
      report_id: 'rep_01JD8Z7A1B2C3D4E5F6G7H8J9K',
      trust_score: 64,
      outcome: 'Review',
      headline: 'Tests were not run after the last edit',
      reason: 'The agent said "all tests pass" but no test ran after it changed src/auth.ts.',
      summary: 'Changed 4 files, ran 9 commands (1 failed); 0 critical, 2 warnings, 3 notes.',
      findings_count: { critical: 0, warning: 2, info: 3 },
    },
    reportUrl: `${publicUrl}/r/ses_01JD8Z6Q3N7V2K4T9W5X1Y0ABC`,
  };
}

export type SecretMode = 'none' | 'generate' | 'custom' | 'keep';

export interface WebhookFormValues {
  url: string;
  shape: WebhookShape;
  secretMode: SecretMode;
  secret: string;
}

export type WebhookFormErrors = Partial<Record<'url' | 'shape' | 'secret', string>>;

interface FormProps {
  user: WebUser;
  action: string;
  values: WebhookFormValues;
  errors: WebhookFormErrors;
  /** Editing a webhook that has a secret: offer to keep it (shown masked). */
  existingSecret?: string | null;
  editing: boolean;
  previewEvent: EventInput;
  submit: string;
}

function ShapeChoices({ value, error, event }: { value: WebhookShape; error?: string; event: EventInput }) {
  return (
    <fieldset class="choices" aria-describedby={error ? 'shape-error' : undefined}>
      <legend>Payload shape</legend>
      {SHAPES.map((s) => (
        <label key={s} class="choice">
          <input type="radio" name="shape" value={s} checked={value === s} />
          <span class="what">
            <strong>{SHAPE_INFO[s].title}</strong>
            <span class="muted small">{SHAPE_INFO[s].text}</span>
            <details>
              <summary>Preview the body</summary>
              <pre>{JSON.stringify(buildPayload(s, event), null, 2)}</pre>
            </details>
          </span>
        </label>
      ))}
      {error && <p class="field-error" id="shape-error">{error}</p>}
    </fieldset>
  );
}

/**
 * The secret choices. A secret typed into "Own secret" is never rendered back into the page (not
 * even after a validation error elsewhere in the form): the member types it again.
 */
function SecretChoices({ mode, typed, error, existing, editing }: { mode: SecretMode; typed: boolean; error?: string; existing?: string | null; editing: boolean }) {
  const choice = (value: SecretMode, title: string, text: string) => (
    <label class="choice">
      <input type="radio" name="secret_mode" value={value} checked={mode === value} />
      <span class="what"><strong>{title}</strong><span class="muted small">{text}</span></span>
    </label>
  );
  return (
    <fieldset class="choices">
      <legend>Signing secret</legend>
      {editing && existing ? choice('keep', `Keep the current secret (${existing})`, 'Deliveries stay signed with it.') : null}
      {choice('generate', 'Generate a new whsec_ secret', 'Shown once after saving. Works with the Standard Webhooks libraries and X-Service-Signature.')}
      {choice('custom', 'Use my own secret', 'Type it below; it signs X-Service-Signature (and webhook-signature) exactly as entered.')}
      {choice('none', editing && existing ? 'Remove the secret' : 'No secret', 'Deliveries are not signed; a receiver cannot check they came from Vouch.')}
      <InputField label="Own secret" name="secret" type="password" value="" maxLength={512} autocomplete="off" error={error}
        hint={typed ? 'Only used with “Use my own secret”. The secret you typed is not sent back to your browser: type it again.' : 'Only used with “Use my own secret”.'} />
    </fieldset>
  );
}

export function WebhookForm({ user, action, values, errors, existingSecret, editing, previewEvent, submit }: FormProps) {
  return (
    <form method="post" action={action}>
      <CsrfField token={user.csrfToken} />
      <InputField label="Payload URL" name="url" type="url" value={values.url} required maxLength={2048} placeholder="https://example.com/hooks/vouch" error={errors.url}
        hint="Vouch POSTs JSON here when an analysis completes. Only public internet addresses are accepted." />
      <ShapeChoices value={values.shape} error={errors.shape} event={previewEvent} />
      <SecretChoices mode={values.secretMode} typed={values.secret.length > 0} error={errors.secret} existing={existingSecret} editing={editing} />
      <p class="actions"><button type="submit" class="primary">{submit}</button></p>
    </form>
  );
}

function StateBadge({ hook }: { hook: WebhookView }) {
  return hook.enabled ? <span class="badge badge-enabled">Enabled</span> : <span class="badge badge-disabled">Disabled</span>;
}

export interface WebhooksProps {
  user: WebUser;
  hooks: WebhookView[];
  publicUrl: string;
  done?: string;
  values?: WebhookFormValues;
  errors?: WebhookFormErrors;
  problem?: string;
}

export const EMPTY_FORM: WebhookFormValues = { url: '', shape: 'A', secretMode: 'generate', secret: '' };

export function WebhooksPage({ user, hooks, publicUrl, done, values, errors, problem }: WebhooksProps) {
  const form = (
    <WebhookForm user={user} action="/settings/webhooks" values={values ?? EMPTY_FORM} errors={errors ?? {}} editing={false}
      previewEvent={sampleEvent(user.accountId, publicUrl)} submit="Add webhook" />
  );
  return (
    <Layout title="Webhooks" user={user} current="webhooks">
      <SettingsAssets />
      <h1>Webhooks</h1>
      <p class="lede">When an analysis completes, Vouch POSTs an <code>analysis.complete</code> event to each enabled webhook of the account, signed when a secret is set, retried when it fails.</p>
      <DoneFlash code={done} messages={DONE} />
      {problem && <Flash kind="error">{problem}</Flash>}
      {hooks.length === 0
        ? <EmptyState title="No webhooks yet"><p>Add one below to be told when an analysis completes.</p></EmptyState>
        : (
          <Table head={['URL', 'Shape', 'State', 'Secret', 'Added', 'Added by']} caption="Webhooks" class="hooks cards">
            {hooks.map((h) => (
              <tr key={h.id}>
                <td data-label="URL" class="url"><a href={`/settings/webhooks/${h.id}`}>{h.url}</a></td>
                <td data-label="Shape">{h.shape}</td>
                <td data-label="State"><StateBadge hook={h} />{!h.enabled && h.disabled_reason && <span class="why small muted"> {h.disabled_reason}</span>}</td>
                <td data-label="Secret">{h.secret_masked ? <code>{h.secret_masked}</code> : <span class="muted">none</span>}</td>
                <td data-label="Added"><Time iso={h.created_at} /></td>
                <td data-label="Added by"><Creator email={h.created_by_email} /></td>
              </tr>
            ))}
          </Table>
        )}
      <h2 id="add">Add a webhook</h2>
      <div class="panel">{form}</div>
    </Layout>
  );
}

/** What went wrong in an attempt, in words (error_class is the machine's name for it). */
export function describeAttempt(a: Pick<AttemptView, 'status_code' | 'error_class' | 'error' | 'finished_at'>): string {
  if (!a.finished_at) return 'In progress (or the worker stopped during it).';
  switch (a.error_class) {
    case null:
      return `Accepted: the receiver answered HTTP ${a.status_code}.`;
    case 'http_status':
      return `Refused: the receiver answered HTTP ${a.status_code}; only a 2xx answer counts as delivered.`;
    case 'redirect':
      return `The receiver answered with a redirect (HTTP ${a.status_code}); Vouch never follows redirects. Register the final URL instead.`;
    case 'timeout':
      return 'No complete answer in time (VOUCH_WEBHOOK_TIMEOUT_MS).';
    case 'dns':
      return 'The host name could not be resolved.';
    case 'connect':
      return 'The connection failed (nothing listening, or refused).';
    case 'tls':
      return 'The TLS handshake failed (certificate not trusted, expired, or for another name).';
    case 'ssrf_refused':
      return 'Not sent: the host resolves to a private, loopback or otherwise non-public address, which Vouch never calls (protection against server-side request forgery). An operator can allow a private range with VOUCH_WEBHOOK_ALLOW_CIDRS.';
    case 'interrupted':
      return 'Interrupted: the worker stopped during this attempt; the receiver may or may not have received it.';
    default:
      return 'A network error ended the attempt.';
  }
}

function DeliveryStatus({ d }: { d: DeliveryView }) {
  const label = d.status === 'delivered' ? 'Delivered' : d.status === 'failed' ? 'Failed' : 'Pending';
  return <span class={`badge badge-${d.status}`}>{label}</span>;
}

function AttemptsTable({ attempts }: { attempts: AttemptView[] }) {
  if (attempts.length === 0) return <p class="muted">No attempt yet: it is queued.</p>;
  return (
    <Table head={['#', 'Started', 'Status', 'Latency', 'Result', 'Response excerpt']} caption="Attempts" class="attempts cards">
      {attempts.map((a) => (
        <tr key={a.id}>
          <td data-label="#">{a.attempt_no}</td>
          <td data-label="Started"><Time iso={a.started_at} /></td>
          <td data-label="Status">{a.status_code ?? <span class="muted">–</span>}</td>
          <td data-label="Latency">{formatDuration(a.latency_ms)}</td>
          <td data-label="Result">
            <span class="why">{describeAttempt(a)}</span>
            {a.error && a.error_class !== null && <span class="why muted small mono">{a.error}</span>}
          </td>
          <td data-label="Response" class="excerpt">{a.response_excerpt ? <pre>{a.response_excerpt}</pre> : <span class="muted">–</span>}</td>
        </tr>
      ))}
    </Table>
  );
}

function DeliveryItem({ user, hook, d, attempts }: { user: WebUser; hook: WebhookView; d: DeliveryView; attempts: AttemptView[] }) {
  const last = attempts[attempts.length - 1];
  const canRedeliver = d.status !== 'pending' && hook.enabled;
  return (
    <li>
      <details class="delivery" id={`d-${d.id}`}>
        <summary>
          <span class="when"><Time iso={d.created_at} /></span>
          <DeliveryStatus d={d} />
          <span>{d.event}</span>
          <span>{d.session_id ? <a href={`/r/${d.session_id}`}>{d.session_id}</a> : <span class="muted">test event</span>}</span>
          <span class="muted">{d.attempt_count} attempt{d.attempt_count === 1 ? '' : 's'}</span>
          {last && <span class="last">{last.status_code ? `HTTP ${last.status_code}` : last.error_class ?? ''}{last.latency_ms !== null ? ` · ${formatDuration(last.latency_ms)}` : ''}</span>}
        </summary>
        <div class="body">
          <p class="small muted">Delivery <code>{d.id}</code> (the <code>X-Service-Delivery</code> / <code>webhook-id</code> header of every attempt)</p>
          <AttemptsTable attempts={attempts} />
          <details>
            <summary>Body sent</summary>
            <pre>{d.body}</pre>
          </details>
          <div class="actions">
            {canRedeliver ? (
              <form method="post" action={`/settings/webhooks/${hook.id}/deliveries/${d.id}/redeliver`} class="inline">
                <CsrfField token={user.csrfToken} />
                <button type="submit">Redeliver</button>
              </form>
            ) : (
              <span class="muted small">{d.status === 'pending' ? 'Attempts are still running; redelivery is possible once they end.' : 'Enable the webhook to redeliver.'}</span>
            )}
          </div>
        </div>
      </details>
    </li>
  );
}

export interface WebhookPageProps {
  user: WebUser;
  hook: WebhookView;
  deliveries: DeliveryView[];
  attempts: Map<string, AttemptView[]>;
  publicUrl: string;
  done?: string;
  problem?: string;
  values?: WebhookFormValues;
  errors?: WebhookFormErrors;
  /** A secret generated by the save that rendered this page (shown once). */
  newSecret?: string;
}

export function WebhookPage({ user, hook, deliveries, attempts, publicUrl, done, problem, values, errors, newSecret }: WebhookPageProps) {
  const current: WebhookFormValues = values ?? { url: hook.url, shape: hook.shape, secretMode: hook.has_secret ? 'keep' : 'none', secret: '' };
  const base = `/settings/webhooks/${hook.id}`;
  return (
    <Layout title="Webhook" user={user} current="webhooks">
      <SettingsAssets />
      <p class="small"><a href="/settings/webhooks">← All webhooks</a></p>
      <div class="hook-head">
        <h1 class="url">{hook.url}</h1>
        <StateBadge hook={hook} />
      </div>
      <DoneFlash code={done} messages={DONE} />
      {problem && <Flash kind="error">{problem}</Flash>}
      {newSecret && (
        <Reveal id="new-secret" label="The webhook's signing secret. Copy it now: it is shown only this once." value={newSecret}>
          <p class="small">Give it to your receiver to verify <code>webhook-signature</code> (Standard Webhooks) or <code>X-Service-Signature</code>.</p>
        </Reveal>
      )}
      {!hook.enabled && (
        <Flash kind="warn"><strong>Disabled.</strong> {hook.disabled_reason ?? 'No deliveries are made to it.'}</Flash>
      )}
      <p class="muted small">Shape {hook.shape} · secret {hook.secret_masked ? <code>{hook.secret_masked}</code> : 'none (unsigned)'} · added <Time iso={hook.created_at} /> by <Creator email={hook.created_by_email} /></p>
      <div class="actions">
        <form method="post" action={`${base}/test`} class="inline">
          <CsrfField token={user.csrfToken} />
          <button type="submit" class="primary" disabled={!hook.enabled}>Send test event</button>
        </form>
        <form method="post" action={`${base}/${hook.enabled ? 'disable' : 'enable'}`} class="inline">
          <CsrfField token={user.csrfToken} />
          <button type="submit">{hook.enabled ? 'Disable' : 'Enable'}</button>
        </form>
        <a class="button danger" href={`${base}/delete`}>Delete…</a>
      </div>
      <h2>Delivery log</h2>
      {deliveries.length === 0
        ? <EmptyState title="No deliveries yet"><p>Each completed analysis, and each test event, appears here with its attempts.</p></EmptyState>
        : <ul class="deliveries">{deliveries.map((d) => <DeliveryItem key={d.id} user={user} hook={hook} d={d} attempts={attempts.get(d.id) ?? []} />)}</ul>}
      <p class="muted small">The {deliveries.length} most recent deliveries, newest first.</p>
      <h2 id="edit">Edit</h2>
      <div class="panel">
        <WebhookForm user={user} action={base} values={current} errors={errors ?? {}} existingSecret={hook.secret_masked} editing
          previewEvent={sampleEvent(user.accountId, publicUrl)} submit="Save changes" />
      </div>
    </Layout>
  );
}

export function DeleteWebhookPage({ user, hook }: { user: WebUser; hook: WebhookView }) {
  return (
    <ConfirmPage user={user} current="webhooks" title="Delete this webhook?" action={`/settings/webhooks/${hook.id}/delete`} button="Delete webhook" cancelHref={`/settings/webhooks/${hook.id}`}>
      <p class="what url"><strong>{hook.url}</strong></p>
      <p>No more events are sent to it, and its delivery log is deleted. To pause deliveries instead, disable it.</p>
    </ConfirmPage>
  );
}
