// Settings → Account (every member, for themselves): change the password (every other session
// ends) and sign out everywhere (every session ends, this one included).
import type { FastifyPluginAsync } from 'fastify';
import { field, formFields } from '../../../web/form.ts';
import { sendPage } from '../../../web/page.tsx';
import { AccountPage } from '../../../web/settings/account.tsx';
import { clearCookie, cookieNames } from '../../../web/session-cookie.ts';
import type { WebUser } from '../../../types.ts';

const opts = { schema: { hide: true }, config: { access: 'account.self' as const } };

const accountRoutes: FastifyPluginAsync = async (app) => {
  const { services, config } = app.deps;
  const member = (u: WebUser | null) => u as WebUser; // access.ts sent visitors away

  app.get<{ Querystring: { done?: string } }>('/', opts, async (req, reply) => sendPage(reply, <AccountPage user={member(req.webUser)} done={req.query.done} />));

  app.post('/password', opts, async (req, reply) => {
    const user = member(req.webUser);
    const f = formFields(req.body);
    const result = await services.webAuth.changePassword(user, field(f, 'current', 4096, true), field(f, 'password', 4096, true), req.ip);
    if (result.kind === 'backoff') {
      const minutes = Math.max(1, Math.ceil(result.retryAfterMs / 60_000));
      reply.header('retry-after', String(Math.ceil(result.retryAfterMs / 1000)));
      return sendPage(reply, <AccountPage user={user} errors={{ current: `Too many wrong passwords. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.` }} />, 429);
    }
    if (result.kind === 'wrong_current') return sendPage(reply, <AccountPage user={user} errors={{ current: 'This is not your current password.' }} />, 422);
    if (result.kind === 'weak') return sendPage(reply, <AccountPage user={user} errors={{ next: `Choose another password: ${result.problem}.` }} />, 422);
    req.log.info({ other_sessions_ended: result.otherSessionsEnded }, 'password changed');
    return sendPage(reply, <AccountPage user={user} ended={result.otherSessionsEnded} />);
  });

  app.post('/sign-out-everywhere', opts, async (req, reply) => {
    const ended = await services.webAuth.signOutEverywhere(member(req.webUser), req.ip);
    req.log.info({ sessions_ended: ended }, 'signed out everywhere');
    clearCookie(reply, config, cookieNames(config).session);
    return reply.redirect('/login', 303);
  });
};

export default accountRoutes;
