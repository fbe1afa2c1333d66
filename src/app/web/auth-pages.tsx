// The pages of signing in, signing up, accepting an invitation and signing out. The signed-out
// forms carry a double-submit CSRF token (the same value in a cookie and in the form); sign-out
// carries the session's token.
import type { WebUser } from '../types.ts';
import { Flash } from './components.tsx';
import { CsrfField, Layout } from './page.tsx';
import { InputField as Field, SettingsAssets } from './settings/parts.tsx';
import { PASSWORD_MIN } from '../../services/passwords.ts';

export interface LoginProps {
  csrf: string;
  next: string;
  email?: string;
  error?: string;
  signupOpen: boolean;
  /**
   * `email`: the first step, the email alone (a domain with single sign-on goes to its provider);
   * `password`: the email and the password.
   */
  step?: 'email' | 'password';
}

export function LoginPage({ csrf, next, email, error, signupOpen, step = 'password' }: LoginProps) {
  return (
    <Layout title="Sign in" narrow>
      <SettingsAssets />
      <h1>Sign in to Vouch</h1>
      {error && <Flash kind="error">{error}</Flash>}
      <form method="post" action="/login">
        <CsrfField token={csrf} />
        <input type="hidden" name="next" value={next} />
        <Field label="Email" name="email" type="email" autocomplete="username" required value={email ?? ''}
          hint={step === 'email' ? 'If your company signs in with its identity provider, you continue there.' : undefined} />
        {step === 'password' && <Field label="Password" name="password" type="password" autocomplete="current-password" required />}
        <button type="submit" class="primary">{step === 'email' ? 'Continue' : 'Sign in'}</button>
      </form>
      <p class="auth-links">
        {step === 'email'
          ? <><a href={`/login?method=password&next=${encodeURIComponent(next)}`}>Sign in with a password</a> (owners: also when single sign-on is required). </>
          : <><a href={`/login?next=${encodeURIComponent(next)}`}>Sign in with single sign-on</a>. </>}
        {signupOpen ? <>New to Vouch? <a href="/signup">Create an account</a>. </> : null}
        Joining a team? Open the invitation link a member gave you.
      </p>
    </Layout>
  );
}

/**
 * On the way to the identity provider. A form of this site may not redirect to another origin
 * (the Content-Security-Policy's form-action 'self'), so the email step answers this page, which
 * moves on by itself (a Refresh header) or with the link.
 */
export function SsoContinuePage({ url }: { url: string }) {
  return (
    <Layout title="Continue to sign in" narrow>
      <SettingsAssets />
      <h1>Continue to your identity provider</h1>
      <p>Your organisation signs in to Vouch with its identity provider.</p>
      <p><a class="button primary" id="sso-continue" href={url}>Continue to sign in</a></p>
    </Layout>
  );
}

/** A single sign-on that could not be completed: what happened, and the way back. */
export function SsoRefusedPage({ message }: { message: string }) {
  return (
    <Layout title="Single sign-on refused" narrow>
      <SettingsAssets />
      <h1>Single sign-on did not sign you in</h1>
      <Flash kind="error">{message}</Flash>
      <p><a class="button" href="/login">Back to sign-in</a></p>
    </Layout>
  );
}

export interface SignUpValues {
  name: string;
  email: string;
}

export interface SignUpProps {
  csrf: string;
  values: SignUpValues;
  errors: Partial<Record<'name' | 'email' | 'password' | 'form', string>>;
}

export function SignUpPage({ csrf, values, errors }: SignUpProps) {
  return (
    <Layout title="Create an account" narrow>
      <SettingsAssets />
      <h1>Create a Vouch account</h1>
      <p class="lede">An account holds your team's analysed sessions, API keys and webhooks. You can invite teammates afterwards.</p>
      {errors.form && <Flash kind="error">{errors.form}</Flash>}
      <form method="post" action="/signup">
        <CsrfField token={csrf} />
        <Field label="Team or organisation name" name="name" type="text" autocomplete="organization" maxLength={100} value={values.name}
          hint="Optional; defaults to your email's domain." error={errors.name} />
        <Field label="Email" name="email" type="email" autocomplete="username" required maxLength={254} value={values.email} error={errors.email} />
        <Field label="Password" name="password" type="password" autocomplete="new-password" required minLength={PASSWORD_MIN}
          hint={`At least ${PASSWORD_MIN} characters.`} error={errors.password} />
        <button type="submit" class="primary">Create account</button>
      </form>
      <p class="auth-links">Already have an account? <a href="/login">Sign in</a>.</p>
    </Layout>
  );
}

export function SignUpClosedPage() {
  return (
    <Layout title="Sign-up is closed" narrow>
      <SettingsAssets />
      <h1>Sign-up is closed</h1>
      <p>This Vouch server does not accept new accounts. Ask a member of your team for an invitation link, or your operator for an account.</p>
      <p><a class="button" href="/login">Sign in</a></p>
    </Layout>
  );
}

export interface InviteProps {
  csrf: string;
  token: string;
  email: string;
  accountName: string;
  error?: string;
}

export function InvitePage({ csrf, token, email, accountName, error }: InviteProps) {
  return (
    <Layout title="Join your team" narrow>
      <SettingsAssets />
      <h1>Join {accountName} on Vouch</h1>
      <p class="lede">You were invited as <strong>{email}</strong>. Choose a password to finish; this link works once.</p>
      <form method="post" action={`/invite/${token}`}>
        <CsrfField token={csrf} />
        <input type="hidden" name="email" value={email} autocomplete="username" />
        <Field label="Password" name="password" type="password" autocomplete="new-password" required minLength={PASSWORD_MIN}
          hint={`At least ${PASSWORD_MIN} characters.`} error={error} />
        <button type="submit" class="primary">Join and sign in</button>
      </form>
    </Layout>
  );
}

/** After the invitation form when the address must be proved: the same page for any address. */
export function CheckEmailPage({ email, failed = false }: { email: string; failed?: boolean }) {
  if (failed) {
    return (
      <Layout title="The email could not be sent" narrow>
        <SettingsAssets />
        <h1>The email could not be sent</h1>
        <p class="lede">Vouch could not send the message that confirms <strong>{email}</strong> is yours. Nothing was created; open the invitation link again later to retry.</p>
      </Layout>
    );
  }
  return (
    <Layout title="Check your email" narrow>
      <SettingsAssets />
      <h1>Check your email</h1>
      <p class="lede">We sent a message to <strong>{email}</strong>. Open the link in it to confirm that the address is yours and finish joining.</p>
      <p class="small">Nothing is created until then. The link works once; if the message does not arrive, open the invitation link again to send another.</p>
    </Layout>
  );
}

/** The emailed confirmation link: a button, so that a mail scanner fetching the link joins nobody. */
export function ConfirmJoinPage({ csrf, claim, email }: { csrf: string; claim: string; email: string }) {
  return (
    <Layout title="Confirm and join" narrow>
      <SettingsAssets />
      <h1>Confirm and join</h1>
      <p class="lede">This confirms that <strong>{email}</strong> is yours and signs you in with the password you chose.</p>
      <form method="post" action={`/join/${claim}`}>
        <CsrfField token={csrf} />
        <button type="submit" class="primary">Confirm and sign in</button>
      </form>
    </Layout>
  );
}

export function InvalidInvitePage() {
  return (
    <Layout title="Invitation not valid" narrow>
      <SettingsAssets />
      <h1>This invitation cannot be used</h1>
      <p>The link is mistyped, was already used, was withdrawn, or has expired. Ask a member of your team for a new invitation.</p>
      <p><a class="button" href="/login">Sign in</a></p>
    </Layout>
  );
}

export function SignOutPage({ user }: { user: WebUser }) {
  return (
    <Layout title="Sign out" user={user} narrow>
      <SettingsAssets />
      <h1>Sign out</h1>
      <p>You are signed in as <strong>{user.email}</strong>.</p>
      <form method="post" action="/logout">
        <CsrfField token={user.csrfToken} />
        <button type="submit" class="primary">Sign out of Vouch</button>
      </form>
    </Layout>
  );
}

export interface ResetProps {
  csrf: string;
  token: string;
  email: string;
  accountName: string;
  error?: string;
}

/** The page of an owner-issued password-reset link. */
export function ResetPasswordPage({ csrf, token, email, accountName, error }: ResetProps) {
  return (
    <Layout title="Choose a new password" narrow>
      <SettingsAssets />
      <h1>Choose a new password</h1>
      <p class="lede">For <strong>{email}</strong> in {accountName}. This link works once; every session signed in with the old password ends.</p>
      <form method="post" action={`/reset/${token}`}>
        <CsrfField token={csrf} />
        <input type="hidden" name="email" value={email} autocomplete="username" />
        <Field label="New password" name="password" type="password" autocomplete="new-password" required minLength={PASSWORD_MIN}
          hint={`At least ${PASSWORD_MIN} characters.`} error={error} />
        <button type="submit" class="primary">Set password and sign in</button>
      </form>
    </Layout>
  );
}

export function InvalidResetPage() {
  return (
    <Layout title="Link not valid" narrow>
      <SettingsAssets />
      <h1>This password-reset link cannot be used</h1>
      <p>The link is mistyped, was already used, was replaced by a newer one, or has expired. Ask an owner of your account for a new one.</p>
      <p><a class="button" href="/login">Sign in</a></p>
    </Layout>
  );
}
