// Settings → Members: list, invite (the link is shown once in the answer to the POST), withdraw
// an invitation, remove a member after a confirmation step (their web sessions end at once).
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import {
  getMember, inviteMember, listInvitations, listMembers, MemberInputError, MemberNotFoundError, removeMember, revokeInvitation,
} from '../../../../services/members.ts';
import type { IssuedInvitation } from '../../../../services/members.ts';
import { sendErrorPage } from '../../../web/error-page.tsx';
import { field, formFields } from '../../../web/form.ts';
import { sendPage } from '../../../web/page.tsx';
import { MembersPage, RemoveMemberPage } from '../../../web/settings/members.tsx';
import type { MembersProps } from '../../../web/settings/members.tsx';
import type { WebUser } from '../../../types.ts';

type IdParams = { Params: { id: string } };
const opts = { schema: { hide: true } };
const capitalise = (s: string) => `${s[0].toUpperCase()}${s.slice(1)}.`;

const memberRoutes: FastifyPluginAsync = async (app) => {
  const { db, config } = app.deps;
  const member = (req: FastifyRequest) => req.webUser as WebUser; // the settings scope sent visitors away

  async function render(req: FastifyRequest, reply: FastifyReply, status: number, view: Omit<MembersProps, 'user' | 'members' | 'invitations'>) {
    const user = member(req);
    const [members, invitations] = await Promise.all([listMembers(db.kysely, user.accountId), listInvitations(db.kysely, user.accountId)]);
    return sendPage(reply, <MembersPage user={user} members={members} invitations={invitations} {...view} />, status);
  }

  const notFound = (req: FastifyRequest, reply: FastifyReply, what: string) => sendErrorPage(req, reply, 404, { message: `There is no such ${what} in your account.` });

  app.get<{ Querystring: { done?: string } }>('/', opts, async (req, reply) => render(req, reply, 200, { done: req.query.done }));

  app.post('/invite', opts, async (req, reply) => {
    const user = member(req);
    const email = field(formFields(req.body), 'email', 320);
    let invited: IssuedInvitation;
    try {
      invited = await inviteMember(db, user.accountId, user.userId, email);
    } catch (error) {
      if (error instanceof MemberInputError) return render(req, reply, 422, { email, error: capitalise(error.message) });
      throw error;
    }
    req.log.info({ invitation_id: invited.id }, 'member invited');
    return render(req, reply, 200, { invited: { ...invited, link: `${config.publicUrl}/invite/${invited.token}` } });
  });

  app.post<IdParams>('/invitations/:id/withdraw', opts, async (req, reply) => {
    try {
      await revokeInvitation(db.kysely, member(req).accountId, req.params.id);
    } catch (error) {
      if (error instanceof MemberNotFoundError) return notFound(req, reply, 'pending invitation');
      throw error;
    }
    return reply.redirect('/settings/members?done=withdrawn', 303);
  });

  app.get<IdParams>('/:id/remove', opts, async (req, reply) => {
    const user = member(req);
    try {
      const m = await getMember(db.kysely, user.accountId, req.params.id);
      if (m.id === user.userId) return render(req, reply, 409, { problem: 'You cannot remove yourself; ask another member to do it.' });
      return sendPage(reply, <RemoveMemberPage user={user} m={m} />);
    } catch (error) {
      if (error instanceof MemberNotFoundError) return notFound(req, reply, 'member');
      throw error;
    }
  });

  app.post<IdParams>('/:id/remove', opts, async (req, reply) => {
    const user = member(req);
    try {
      const removed = await removeMember(db, user.accountId, user.userId, req.params.id);
      req.log.info({ user_id: removed.id }, 'member removed');
    } catch (error) {
      if (error instanceof MemberNotFoundError) return notFound(req, reply, 'member');
      if (error instanceof MemberInputError) return render(req, reply, 409, { problem: capitalise(error.message) });
      throw error;
    }
    return reply.redirect('/settings/members?done=removed', 303);
  });
};

export default memberRoutes;
