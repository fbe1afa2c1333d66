// Settings → Members: list (everyone), invite and withdraw (owners, admins), change roles and
// issue reset links (owners), remove after a page that says what the removal will revoke,
// disable and withdraw — or transfer (owners). The services re-check the acting member's role
// inside each transaction; a refusal there is the same 403 page as access.ts answers.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { MemberForbiddenError, MemberInputError, MemberNotFoundError } from '../../../../services/members.ts';
import type { ActingMember } from '../../../../services/members.ts';
import { canRemove, isRole } from '../../../../services/roles.ts';
import type { Action } from '../../../../services/roles.ts';
import { memberContext } from '../../../../services/web-auth.ts';
import { sendErrorPage } from '../../../web/error-page.tsx';
import { attemptLimiter } from '../../../web/attempt-limit.ts';
import { field, formFields } from '../../../web/form.ts';
import { sendPage } from '../../../web/page.tsx';
import { MembersPage, RemoveMemberPage } from '../../../web/settings/members.tsx';
import type { MembersProps } from '../../../web/settings/members.tsx';
import type { WebUser } from '../../../types.ts';

type IdParams = { Params: { id: string } };
const route = (access: Action) => ({ schema: { hide: true }, config: { access } });
const capitalise = (s: string) => `${s[0].toUpperCase()}${s.slice(1)}.`;

const memberRoutes: FastifyPluginAsync = async (app) => {
  const { services, config } = app.deps;
  const member = (req: FastifyRequest) => req.webUser as WebUser; // access.ts sent visitors away
  const acting = (req: FastifyRequest): ActingMember => ({ userId: member(req).userId, role: member(req).role, ctx: memberContext(member(req), req.ip) });
  const mailError = (req: FastifyRequest) => (error: unknown) => req.log.warn({ err: error }, 'email not sent');
  const nameOf = (accountId: string) => services.accounts.accountName(accountId);
  // Invitations send email: bounded per account and per client address (besides the cap on
  // invitations waiting, members.ts), so no account can make Vouch an open relay.
  const invitationLimits = { max: config.rateLimit.invitationsMax, windowMs: config.rateLimit.invitationWindowMs };
  const perAccount = attemptLimiter(app, { ...invitationLimits, key: (req) => `invite-account:${member(req).accountId}`, message: 'This account made too many invitations.' });
  const perAddress = attemptLimiter(app, { ...invitationLimits, key: (req) => `invite-address:${req.ip}`, message: 'Too many invitations from this address.' });

  async function render(req: FastifyRequest, reply: FastifyReply, status: number, view: Omit<MembersProps, 'user' | 'members' | 'invitations'>) {
    const user = member(req);
    const [members, invitations] = await Promise.all([services.members.listMembers(user.accountId), services.members.listInvitations(user.accountId)]);
    return sendPage(reply, <MembersPage user={user} members={members} invitations={invitations} {...view} />, status);
  }

  const notFound = (req: FastifyRequest, reply: FastifyReply, what: string) => sendErrorPage(req, reply, 404, { message: `There is no such ${what} in your account.` });
  const forbidden = (req: FastifyRequest, reply: FastifyReply, error: MemberForbiddenError) =>
    sendErrorPage(req, reply, 403, { title: 'Your role does not allow this', message: capitalise(error.message) });

  /** The refusals every member action can meet, as pages; anything else is rethrown. */
  async function refused(req: FastifyRequest, reply: FastifyReply, error: unknown, what = 'member') {
    if (error instanceof MemberNotFoundError) return notFound(req, reply, what);
    if (error instanceof MemberForbiddenError) return forbidden(req, reply, error);
    if (error instanceof MemberInputError) return render(req, reply, 409, { problem: capitalise(error.message) });
    throw error;
  }

  app.get<{ Querystring: { done?: string } }>('/', route('members.read'), async (req, reply) => render(req, reply, 200, { done: req.query.done }));

  app.post('/invite', { ...route('members.invite'), preHandler: [perAddress, perAccount] }, async (req, reply) => {
    const user = member(req);
    const f = formFields(req.body);
    const email = field(f, 'email', 320);
    const role = field(f, 'role', 20) || 'member';
    if (!isRole(role)) return render(req, reply, 422, { email, error: 'Choose a role: member or admin.' });
    let invited;
    try {
      invited = await services.members.inviteMember(user.accountId, acting(req), email, role);
    } catch (error) {
      if (error instanceof MemberInputError) return render(req, reply, 422, { email, error: capitalise(error.message) });
      return refused(req, reply, error);
    }
    req.log.info({ invitation_id: invited.id }, 'member invited');
    const link = `${config.publicUrl}/invite/${invited.token}`;
    const mail = await services.notifications.sendInvitationMail({
      to: invited.email, link, accountName: await nameOf(user.accountId), invitedBy: user.email, expiresAt: invited.expires_at, hasAccount: invited.emailHasAccount,
    }, mailError(req));
    // The same answer whatever the email (docs/security.md, "Enumeration"): a link, and whether it was emailed.
    return render(req, reply, 200, { invited: { email: invited.email, role: invited.role, link, expires_at: invited.expires_at, mail } });
  });

  app.post<IdParams>('/invitations/:id/withdraw', route('members.invite'), async (req, reply) => {
    try {
      await services.members.revokeInvitation(member(req).accountId, acting(req), req.params.id);
    } catch (error) {
      return refused(req, reply, error, 'pending invitation');
    }
    return reply.redirect('/settings/members?done=withdrawn', 303);
  });

  app.get<IdParams>('/:id/remove', route('members.remove'), async (req, reply) => {
    const user = member(req);
    try {
      const m = await services.members.getMember(user.accountId, req.params.id);
      if (m.id === user.userId) return render(req, reply, 409, { problem: 'You cannot remove yourself; ask an owner to do it.' });
      if (!canRemove(user.role, m.role)) throw new MemberForbiddenError(`an ${user.role} cannot remove an ${m.role}`);
      const [plan, all] = await Promise.all([services.members.offboardingPlan(user.accountId, m.id), services.members.listMembers(user.accountId)]);
      return sendPage(reply, <RemoveMemberPage user={user} plan={plan} others={all.filter((o) => o.id !== m.id)} />);
    } catch (error) {
      return refused(req, reply, error);
    }
  });

  app.post<IdParams>('/:id/remove', route('members.remove'), async (req, reply) => {
    const transferTo = field(formFields(req.body), 'transfer_to', 100) || undefined;
    try {
      const removed = await services.members.removeMember(member(req).accountId, acting(req), req.params.id, { transferTo });
      req.log.info({ user_id: removed.member.id, keys_revoked: removed.keysRevoked, webhooks_disabled: removed.webhooksDisabled }, 'member removed');
      // New keys are answered in the page itself (never a redirect: a key must not land in a URL).
      if (removed.replacementKeys.length > 0) return render(req, reply, 200, { done: 'transferred', replacementKeys: removed.replacementKeys });
      return reply.redirect(`/settings/members?done=${removed.transferredTo ? 'transferred' : 'removed'}`, 303);
    } catch (error) {
      return refused(req, reply, error);
    }
  });

  app.post<IdParams>('/:id/role', route('members.roles'), async (req, reply) => {
    const role = field(formFields(req.body), 'role', 20);
    if (!isRole(role)) return render(req, reply, 422, { problem: 'Choose a role: owner, admin or member.' });
    try {
      await services.members.changeRole(member(req).accountId, acting(req), req.params.id, role);
    } catch (error) {
      return refused(req, reply, error);
    }
    return reply.redirect('/settings/members?done=role', 303);
  });

  app.post<IdParams>('/:id/reset-link', route('members.reset_password'), async (req, reply) => {
    const user = member(req);
    let issued;
    try {
      issued = await services.members.issuePasswordReset(user.accountId, acting(req), req.params.id);
    } catch (error) {
      return refused(req, reply, error);
    }
    const link = `${config.publicUrl}/reset/${issued.token}`;
    const mail = await services.notifications.sendResetMail({
      to: issued.email, link, accountName: await nameOf(user.accountId), issuedBy: user.email, expiresAt: issued.expires_at,
    }, mailError(req));
    return render(req, reply, 200, { reset: { email: issued.email, link, expires_at: issued.expires_at, mail } });
  });
};

export default memberRoutes;
