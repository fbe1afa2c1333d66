// The single sign-on callback: the identity provider sends the browser back here with `code` and
// `state` (services/sso/sign-in.ts checks them, the code exchange and the ID token). Success
// starts a web session bounded by the SSO session lifetime; a refusal is a 401 page that says
// what to do, never the technical reason (that is in the log and the audit event).
import type { FastifyPluginAsync } from 'fastify';
import { SsoRefusedPage } from '../../web/auth-pages.tsx';
import { sendPage } from '../../web/page.tsx';
import { safeNext } from '../../web/session-cookie.ts';
import { clearSsoStateCookie, readSsoStateCookie } from '../../web/sso-cookie.ts';
import { startSession } from './auth.tsx';

const ssoRoutes: FastifyPluginAsync = async (app) => {
  const { config, services } = app.deps;
  app.get<{ Querystring: { state?: string } }>('/sso/callback', { schema: { hide: true }, config: { access: 'public' } }, async (req, reply) => {
    const query = req.url.includes('?') ? req.url.slice(req.url.indexOf('?') + 1) : '';
    const state = typeof req.query.state === 'string' ? req.query.state : undefined;
    const result = await services.sso.complete({ state, cookieState: readSsoStateCookie(req, config), query, ip: req.ip });
    clearSsoStateCookie(reply, config);
    if (result.kind === 'refused') {
      req.log.info({ reason: result.reason }, 'single sign-on refused');
      return sendPage(reply, <SsoRefusedPage message={result.message} />, 401);
    }
    await startSession(req, reply, result);
    return reply.redirect(safeNext(result.next), 303);
  });
};

export default ssoRoutes;
