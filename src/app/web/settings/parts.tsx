// Pieces the settings and account pages share: their assets, a secret shown once with a copy
// button, a confirmation step for destructive actions (works without JavaScript: a page with
// one POST form), and the result notices carried by a `done` query code.
import type { ComponentChildren } from 'preact';
import type { WebUser } from '../../types.ts';
import { Flash } from '../components.tsx';
import type { FlashKind } from '../components.tsx';
import { CsrfField, Layout, useNonce } from '../page.tsx';
import type { NavKey } from '../page.tsx';
import { settingsAssetUrl } from '../settings-assets.ts';

/** The settings stylesheet and the copy-button script, with this response's nonce. */
export function SettingsAssets() {
  const nonce = useNonce();
  return (
    <>
      <link rel="stylesheet" href={settingsAssetUrl('settings.css')} nonce={nonce} />
      <script src={settingsAssetUrl('settings.js')} nonce={nonce} defer />
    </>
  );
}

/** A secret shown once: a read-only field to select, and a Copy button (JavaScript only). */
export function Reveal({ id, label, value, children }: { id: string; label: string; value: string; children?: ComponentChildren }) {
  return (
    <section class="reveal" aria-labelledby={`${id}-label`}>
      <p id={`${id}-label`}><strong>{label}</strong></p>
      {children}
      <div class="copy-row">
        <input id={id} class="secret-value" type="text" readOnly value={value} aria-labelledby={`${id}-label`} spellcheck={false} autocomplete="off" />
        <button type="button" class="primary" data-copy-target={id} hidden>Copy</button>
      </div>
    </section>
  );
}

export interface ConfirmProps {
  user: WebUser;
  current: NavKey;
  title: string;
  /** What is about to happen, in a sentence or two. */
  children: ComponentChildren;
  action: string;
  button: string;
  cancelHref: string;
}

/** "Are you sure?" as its own page: one POST form (with CSRF) and a way back. */
export function ConfirmPage({ user, current, title, children, action, button, cancelHref }: ConfirmProps) {
  return (
    <Layout title={title} user={user} current={current}>
      <SettingsAssets />
      <div class="confirm">
        <h1>{title}</h1>
        {children}
        <form method="post" action={action} class="actions">
          <CsrfField token={user.csrfToken} />
          <button type="submit" class="danger">{button}</button>
          <a href={cancelHref}>Cancel</a>
        </form>
      </div>
    </Layout>
  );
}

/** The notice for a `?done=` code; unknown codes show nothing (the text is never reflected). */
export function DoneFlash({ code, messages }: { code: string | undefined; messages: Record<string, readonly [FlashKind, string]> }) {
  const m = code ? messages[code] : undefined;
  return m ? <Flash kind={m[0]}>{m[1]}</Flash> : null;
}

export interface InputFieldProps {
  label: string;
  name: string;
  type?: 'text' | 'email' | 'password' | 'url';
  value?: string;
  hint?: string;
  error?: string | null;
  required?: boolean;
  autocomplete?: string;
  maxLength?: number;
  minLength?: number;
  placeholder?: string;
  id?: string;
}

/** A labelled input with its hint and error linked by aria-describedby (all input types). */
export function InputField({ label, name, type = 'text', value, hint, error, id, ...rest }: InputFieldProps) {
  const fieldId = id ?? `f-${name}`;
  const describedBy = [hint ? `${fieldId}-hint` : '', error ? `${fieldId}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div class="field">
      <label for={fieldId}>{label}</label>
      <input id={fieldId} name={name} type={type} value={value} aria-invalid={error ? 'true' : undefined} aria-describedby={describedBy}
        required={rest.required} autocomplete={rest.autocomplete} maxLength={rest.maxLength} minLength={rest.minLength} placeholder={rest.placeholder} />
      {hint && <p class="hint" id={`${fieldId}-hint`}>{hint}</p>}
      {error && <p class="field-error" id={`${fieldId}-error`}>{error}</p>}
    </div>
  );
}

/** Who created a key or webhook: their email, or "unknown" (made before creators were recorded, or by the operator). */
export function Creator({ email }: { email: string | null }) {
  return email ? <>{email}</> : <span class="muted" title="Created before Vouch recorded creators, or by the operator's command line">unknown</span>;
}
