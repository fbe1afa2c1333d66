// Settings → Members: who is in the account and with which role, pending invitations, inviting,
// role changes (owners), reset links (owners) and removal with its offboarding shown first.
import type { WebUser } from '../../types.ts';
import { handoverTo } from '../../../services/members.ts';
import type { InvitationView, IssuedInvitation, MemberView, OffboardingPlan, ReplacementKey } from '../../../services/members.ts';
import type { MailOutcome } from '../../../services/notifications.ts';
import { can, canRemove, invitableRoles, ROLE_LABELS, ROLES } from '../../../services/roles.ts';
import { keyDisplay } from '../../../services/keys.ts';
import { webhookLabel } from '../../../services/audit.ts';
import { Flash, Table, Time } from '../components.tsx';
import { CsrfField, Layout } from '../page.tsx';
import { DoneFlash, InputField, Reveal, SettingsAssets } from './parts.tsx';

const DONE = {
  removed: ['ok', 'The member was removed and signed out everywhere; what they created was revoked, disabled or withdrawn as shown.'],
  transferred: ['ok', 'The member was removed and signed out everywhere; their keys were revoked, their webhooks disabled (handed over for review when the member you chose manages webhooks) and their invitations withdrawn.'],
  withdrawn: ['ok', 'The invitation was withdrawn; its link no longer works.'],
  role: ['ok', 'The role was changed. What they made that the new role does not allow was narrowed, disabled or withdrawn (see the audit log).'],
} as const;

/** A link just made, shown once, with what became of its email. */
export interface ShownLink {
  email: string;
  link: string;
  expires_at: string;
  mail: MailOutcome;
}

export interface MembersProps {
  user: WebUser;
  members: MemberView[];
  invitations: InvitationView[];
  done?: string;
  /** The invitation just made, with its link (shown once). */
  invited?: Pick<IssuedInvitation, 'email' | 'role'> & ShownLink;
  /** A password-reset link just issued (shown once). */
  reset?: ShownLink;
  email?: string;
  /** A problem with the invitation form's email. */
  error?: string;
  /** A problem with another action (removing yourself, the last owner). */
  problem?: string;
  /** Keys made in a transfer in place of the removed member's (shown once). */
  replacementKeys?: ReplacementKey[];
}

function MailNote({ outcome, email }: { outcome: MailOutcome; email: string }) {
  if (outcome === 'sent') return <p class="small">It was also emailed to {email}.</p>;
  if (outcome === 'failed') return <p class="small"><strong>The email to {email} could not be sent</strong>: copy the link and send it yourself.</p>;
  return null;
}

function RoleForm({ m, user }: { m: MemberView; user: WebUser }) {
  return (
    <form method="post" action={`/settings/members/${m.id}/role`} class="inline role-form">
      <CsrfField token={user.csrfToken} />
      <label class="sr-only" for={`role-${m.id}`}>Role of {m.email}</label>
      <select id={`role-${m.id}`} name="role">
        {ROLES.map((r) => <option key={r} value={r} selected={r === m.role}>{ROLE_LABELS[r]}</option>)}
      </select>
      <button type="submit" aria-label={`Change the role of ${m.email}`}>Change</button>
    </form>
  );
}

function MemberRow({ m, user }: { m: MemberView; user: WebUser }) {
  const me = m.id === user.userId;
  const owner = can(user.role, 'members.roles');
  return (
    <tr>
      <td data-label="Email">{m.email}{me && <span class="muted"> (you)</span>}</td>
      <td data-label="Role">{owner ? <RoleForm m={m} user={user} /> : <span class={`badge role-${m.role}`}>{ROLE_LABELS[m.role]}</span>}</td>
      <td data-label="Member since"><Time iso={m.created_at} /></td>
      <td data-label="">
        <div class="actions">
          {!me && can(user.role, 'members.reset_password') && (
            <form method="post" action={`/settings/members/${m.id}/reset-link`} class="inline">
              <CsrfField token={user.csrfToken} />
              <button type="submit" aria-label={`Issue a password-reset link for ${m.email}`}>Reset link</button>
            </form>
          )}
          {!me && canRemove(user.role, m.role) && <a class="button danger" href={`/settings/members/${m.id}/remove`} aria-label={`Remove ${m.email}`}>Remove…</a>}
        </div>
      </td>
    </tr>
  );
}

function InvitationRow({ inv, user }: { inv: InvitationView; user: WebUser }) {
  return (
    <tr>
      <td data-label="Email">{inv.email}</td>
      <td data-label="Role">{ROLE_LABELS[inv.role]}</td>
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

function InviteForm({ user, email, error }: { user: WebUser; email?: string; error?: string }) {
  const roles = invitableRoles(user.role);
  return (
    <form method="post" action="/settings/members/invite" class="panel">
      <CsrfField token={user.csrfToken} />
      <div class="form-row">
        <InputField label="Their email" name="email" type="email" value={email ?? ''} required maxLength={254} error={error}
          hint="You get a one-time link to send them (also emailed to them when this server sends email)." />
        {roles.length > 1 && (
          <div class="field">
            <label for="f-role">Role</label>
            <select id="f-role" name="role">{roles.map((r) => <option key={r} value={r}>{ROLE_LABELS[r]}</option>)}</select>
          </div>
        )}
        <p class="actions"><button type="submit" class="primary">Create invitation link</button></p>
      </div>
    </form>
  );
}

function ReplacementKeys({ keys }: { keys: ReplacementKey[] }) {
  return (
    <>
      {keys.map((k) => (
        <Reveal key={k.id} id={`key-${k.id}`} label={`New key "${k.name}" in place of ${k.replaces} (revoked). Copy it now and put it where the old key was used: it is shown only this once.`} value={k.key}>
          <p class="small">Scopes: {k.scopes.join(', ')}.</p>
        </Reveal>
      ))}
    </>
  );
}

export function MembersPage({ user, members, invitations, done, invited, reset, email, error, problem, replacementKeys }: MembersProps) {
  const manages = can(user.role, 'members.invite');
  return (
    <Layout title="Members" user={user} current="members">
      <SettingsAssets />
      <h1>Members</h1>
      <p class="lede">
        Everyone listed here signs in to this account and sees all its sessions. Owners manage roles; owners and admins manage members, API keys and webhooks
        (<a href="/settings/account">your account</a>: you are {user.role === 'member' ? 'a' : 'an'} {user.role}).
      </p>
      <DoneFlash code={done} messages={DONE} />
      {problem && <Flash kind="error">{problem}</Flash>}
      {replacementKeys && replacementKeys.length > 0 && <ReplacementKeys keys={replacementKeys} />}
      {invited && (
        <Reveal id="invite-link" label={`Invitation link for ${invited.email} (${ROLE_LABELS[invited.role].toLowerCase()}). Copy it now and send it to them: it is shown only this once.`} value={invited.link}>
          <p class="small">It works once, until <Time iso={invited.expires_at} />. Opening it lets them choose a password and join.</p>
          <MailNote outcome={invited.mail} email={invited.email} />
        </Reveal>
      )}
      {reset && (
        <Reveal id="reset-link" label={`Password-reset link for ${reset.email}. Copy it now and send it to them: it is shown only this once.`} value={reset.link}>
          <p class="small">It works once, until <Time iso={reset.expires_at} />. Using it ends every session signed in with their old password.</p>
          <MailNote outcome={reset.mail} email={reset.email} />
        </Reveal>
      )}
      <Table head={['Email', 'Role', 'Member since', '']} caption="Members" class="members cards">
        {members.map((m) => <MemberRow key={m.id} m={m} user={user} />)}
      </Table>
      {manages && (
        <>
          <h2>Invite a teammate</h2>
          <InviteForm user={user} email={email} error={error} />
        </>
      )}
      {manages && invitations.length > 0 && (
        <>
          <h2>Pending invitations</h2>
          <Table head={['Email', 'Role', 'Invited', 'Link expires', '']} caption="Pending invitations" class="members cards">
            {invitations.map((inv) => <InvitationRow key={inv.id} inv={inv} user={user} />)}
          </Table>
        </>
      )}
    </Layout>
  );
}

function PlanList({ plan }: { plan: OffboardingPlan }) {
  const none = plan.keys.length + plan.webhooks.length + plan.invitations.length === 0;
  if (none) return <p>They created no live API key, no enabled webhook and no pending invitation.</p>;
  return (
    <ul class="plan">
      {plan.keys.length > 0 && (
        <li>
          <strong>{plan.keys.length} API key{plan.keys.length === 1 ? '' : 's'}</strong> they created:{' '}
          {plan.keys.map((k, i) => <span key={k.id}>{i > 0 ? ', ' : ''}{k.name} (<code>{keyDisplay(k)}</code>)</span>)}
        </li>
      )}
      {plan.webhooks.length > 0 && (
        <li>
          <strong>{plan.webhooks.length} webhook{plan.webhooks.length === 1 ? '' : 's'}</strong> they added:{' '}
          {plan.webhooks.map((h, i) => <span key={h.id}>{i > 0 ? ', ' : ''}<code>{webhookLabel(h.url)}</code></span>)}
        </li>
      )}
      {plan.invitations.length > 0 && (
        <li>
          <strong>{plan.invitations.length} pending invitation{plan.invitations.length === 1 ? '' : 's'}</strong> they sent:{' '}
          {plan.invitations.map((inv) => inv.email).join(', ')}
        </li>
      )}
    </ul>
  );
}

/** What a transfer to this member does, in the words of the choice. */
function transferLabel(o: MemberView): string {
  const h = handoverTo(o.role);
  return `${h.keys === 'replaced' ? 'gets new keys' : 'keys revoked'}, ${h.webhooks === 'handed_over' ? 'gets the webhooks disabled' : 'webhooks disabled'}`;
}

/** The removal page: what will happen, then the choice to revoke or (owners) transfer first. */
export function RemoveMemberPage({ user, plan, others }: { user: WebUser; plan: OffboardingPlan; others: MemberView[] }) {
  const m = plan.member;
  const canTransfer = can(user.role, 'members.roles') && others.length > 0;
  return (
    <Layout title="Remove this member?" user={user} current="members">
      <SettingsAssets />
      <div class="confirm">
        <h1>Remove this member?</h1>
        <p class="what"><strong>{m.email}</strong> · {ROLE_LABELS[m.role]} · member since <Time iso={m.created_at} /></p>
        <p>They are signed out at once and can no longer sign in. Nothing they made keeps working for them: their keys are revoked, their webhooks disabled, their pending invitations and the reset links they issued withdrawn.</p>
        <PlanList plan={plan} />
        <form method="post" action={`/settings/members/${m.id}/remove`} class="actions">
          <CsrfField token={user.csrfToken} />
          <button type="submit" class="danger">Remove, revoke their keys, disable their webhooks, withdraw their invitations</button>
          <a href="/settings/members">Cancel</a>
        </form>
        {canTransfer && (
          <form method="post" action={`/settings/members/${m.id}/remove`} class="panel transfer">
            <CsrfField token={user.csrfToken} />
            <h2>Or transfer them first</h2>
            <p class="small">
              They know their keys' secrets, so their keys stop working either way. An owner or admin you choose gets a new key in place of each (same name, the scopes their role allows),
              shown once on the next page to put where the old one was used, and receives their webhooks, disabled, to review and enable again.
              A member may hold neither: their keys are only revoked and their webhooks only disabled. Invitations are withdrawn either way (they may hold the links).
            </p>
            <div class="form-row">
              <div class="field">
                <label for="f-transfer">Transfer to</label>
                <select id="f-transfer" name="transfer_to">{others.map((o) => <option key={o.id} value={o.id}>{o.email} ({ROLE_LABELS[o.role].toLowerCase()}: {transferLabel(o)})</option>)}</select>
              </div>
              <p class="actions"><button type="submit" class="danger">Transfer and remove</button></p>
            </div>
          </form>
        )}
      </div>
    </Layout>
  );
}
