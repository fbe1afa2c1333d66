// Settings → Members: who is in the account, pending invitations, inviting and removing.
import type { WebUser } from '../../types.ts';
import type { InvitationView, IssuedInvitation, MemberView } from '../../../services/members.ts';
import { Flash, Table, Time } from '../components.tsx';
import { CsrfField, Layout } from '../page.tsx';
import { ConfirmPage, DoneFlash, InputField, Reveal, SettingsAssets } from './parts.tsx';

const DONE = {
  removed: ['ok', 'The member was removed and signed out everywhere.'],
  withdrawn: ['ok', 'The invitation was withdrawn; its link no longer works.'],
} as const;

export interface MembersProps {
  user: WebUser;
  members: MemberView[];
  invitations: InvitationView[];
  done?: string;
  /** The invitation just made, with its link (shown once). */
  invited?: IssuedInvitation & { link: string };
  email?: string;
  /** A problem with the invitation form's email. */
  error?: string;
  /** A problem with another action (removing yourself). */
  problem?: string;
}

function MemberRow({ m, user }: { m: MemberView; user: WebUser }) {
  const me = m.id === user.userId;
  return (
    <tr>
      <td data-label="Email">{m.email}{me && <span class="muted"> (you)</span>}</td>
      <td data-label="Member since"><Time iso={m.created_at} /></td>
      <td data-label="">{me ? null : <a class="button danger" href={`/settings/members/${m.id}/remove`} aria-label={`Remove ${m.email}`}>Remove…</a>}</td>
    </tr>
  );
}

function InvitationRow({ inv, user }: { inv: InvitationView; user: WebUser }) {
  return (
    <tr>
      <td data-label="Email">{inv.email}</td>
      <td data-label="Invited"><Time iso={inv.created_at} /></td>
      <td data-label="Link expires"><Time iso={inv.expires_at} /></td>
      <td data-label="">
        <form method="post" action={`/settings/members/invitations/${inv.id}/withdraw`} class="inline">
          <CsrfField token={user.csrfToken} />
          <button type="submit" class="danger" aria-label={`Withdraw the invitation of ${inv.email}`}>Withdraw</button>
        </form>
      </td>
    </tr>
  );
}

export function MembersPage({ user, members, invitations, done, invited, email, error, problem }: MembersProps) {
  return (
    <Layout title="Members" user={user} current="members">
      <SettingsAssets />
      <h1>Members</h1>
      <p class="lede">Everyone listed here signs in to this account and sees all its sessions, API keys and webhooks.</p>
      <DoneFlash code={done} messages={DONE} />
      {problem && <Flash kind="error">{problem}</Flash>}
      {invited && (
        <Reveal id="invite-link" label={`Invitation link for ${invited.email}. Copy it now and send it to them: it is shown only this once.`} value={invited.link}>
          <p class="small">It works once, until <Time iso={invited.expires_at} />. Opening it lets them choose a password and join.</p>
        </Reveal>
      )}
      <Table head={['Email', 'Member since', '']} caption="Members" class="members cards">
        {members.map((m) => <MemberRow key={m.id} m={m} user={user} />)}
      </Table>
      <h2>Invite a teammate</h2>
      <form method="post" action="/settings/members/invite" class="panel">
        <CsrfField token={user.csrfToken} />
        <div class="form-row">
          <InputField label="Their email" name="email" type="email" value={email ?? ''} required maxLength={254} error={error}
            hint="You get a one-time link to send them; Vouch sends no email." />
          <p class="actions"><button type="submit" class="primary">Create invitation link</button></p>
        </div>
      </form>
      {invitations.length > 0 && (
        <>
          <h2>Pending invitations</h2>
          <Table head={['Email', 'Invited', 'Link expires', '']} caption="Pending invitations" class="members cards">
            {invitations.map((inv) => <InvitationRow key={inv.id} inv={inv} user={user} />)}
          </Table>
        </>
      )}
    </Layout>
  );
}

export function RemoveMemberPage({ user, m }: { user: WebUser; m: MemberView }) {
  return (
    <ConfirmPage user={user} current="members" title="Remove this member?" action={`/settings/members/${m.id}/remove`} button="Remove member" cancelHref="/settings/members">
      <p class="what"><strong>{m.email}</strong> · member since <Time iso={m.created_at} /></p>
      <p>They are signed out at once and can no longer sign in. The account's sessions, keys and webhooks stay as they are.</p>
    </ConfirmPage>
  );
}
