// Settings → Account: the signed-in member's own password and sessions.
import type { WebUser } from '../../types.ts';
import { PASSWORD_MIN } from '../../../services/passwords.ts';
import { ROLE_LABELS } from '../../../services/roles.ts';
import { Flash } from '../components.tsx';
import { CsrfField, Layout } from '../page.tsx';
import { DoneFlash, InputField, SettingsAssets } from './parts.tsx';

const DONE = {
  password: ['ok', 'Your password was changed. Every other session signed in as you has ended.'],
} as const;

export interface AccountProps {
  user: WebUser;
  done?: string;
  errors?: { current?: string; next?: string };
  /** How many other sessions the password change ended (shown once). */
  ended?: number;
}

export function AccountPage({ user, done, errors = {}, ended }: AccountProps) {
  return (
    <Layout title="Your account" user={user} current="account">
      <SettingsAssets />
      <h1>Your account</h1>
      <p class="lede">Signed in as <strong>{user.email}</strong>, {ROLE_LABELS[user.role].toLowerCase()} of this account.</p>
      <DoneFlash code={done} messages={DONE} />
      {ended !== undefined && <Flash kind="ok">Your password was changed. {ended === 0 ? 'You had no other session.' : `${ended} other session${ended === 1 ? '' : 's'} ended.`}</Flash>}
      <h2>Change your password</h2>
      <form method="post" action="/settings/account/password" class="panel">
        <CsrfField token={user.csrfToken} />
        <input type="hidden" name="email" value={user.email} autocomplete="username" />
        <InputField label="Current password" name="current" type="password" autocomplete="current-password" required error={errors.current} />
        <InputField label="New password" name="password" type="password" autocomplete="new-password" required minLength={PASSWORD_MIN}
          hint={`At least ${PASSWORD_MIN} characters. Every other session signed in as you ends; this one stays.`} error={errors.next} />
        <p class="actions"><button type="submit" class="primary">Change password</button></p>
      </form>
      <h2>Sign out everywhere</h2>
      <form method="post" action="/settings/account/sign-out-everywhere" class="panel">
        <CsrfField token={user.csrfToken} />
        <p>Ends every session signed in as you, on every device, this one included (for instance after losing a laptop).</p>
        <p class="actions"><button type="submit" class="danger">Sign out everywhere</button></p>
      </form>
    </Layout>
  );
}
