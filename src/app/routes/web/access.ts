// One place that decides who may use each dashboard route, for every route of the web scope:
//   1. a route must declare its `access` (a route without one fails at start-up, so no page is
//      ever left unchecked by omission);
//   2. a state-changing request sent by another site is refused (web/origin-check.ts);
//   3. a visitor on a page that needs a member is sent to sign in (and back afterwards);
//   4. a member whose role does not allow the route's action gets the 403 page.
// CSRF tokens are checked by the routes' scopes (the token lives in the body, read later).
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { can, rolesAllowed, ROLE_LABELS, ACTIONS } from '../../../services/roles.ts';
import type { Access } from '../../types.ts';
import { sendErrorPage } from '../../web/error-page.tsx';
import { crossSiteReason, STATE_CHANGING } from '../../web/origin-check.ts';

function declaredAccess(route: Pick<RouteOptions, 'config' | 'method' | 'url'>): Access {
  const access = (route.config as { access?: Access } | undefined)?.access;
  if (!access) throw new Error(`dashboard route ${String(route.method)} ${route.url} declares no access (config.access)`);
  return access;
}

function toSignIn(req: FastifyRequest, reply: FastifyReply): FastifyReply {
  const next = req.method === 'GET' ? `?next=${encodeURIComponent(req.url)}` : '';
  return reply.redirect(`/login${next}`, 303);
}

function forbidden(req: FastifyRequest, reply: FastifyReply, access: Access): FastifyReply {
  const role = req.webUser?.role ?? 'member';
  const who = access === 'public' || access === 'signed-in' ? '' : rolesAllowed(access).map((r) => `${ROLE_LABELS[r].toLowerCase()}s`).join(' and ');
  const what = access === 'public' || access === 'signed-in' ? 'do this' : ACTIONS[access].toLowerCase();
  return sendErrorPage(req, reply, 403, {
    title: 'Your role does not allow this',
    message: `You are ${role === 'admin' || role === 'owner' ? 'an' : 'a'} ${role} of this account. Only ${who} can ${what}. Ask an owner of the account if you need it.`,
  });
}

export function enforceAccess(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => void declaredAccess(route));
  app.addHook('onRequest', async (req, reply) => {
    const access = declaredAccess({ config: req.routeOptions.config, method: req.method, url: req.routeOptions.url ?? req.url });
    if (STATE_CHANGING.has(req.method)) {
      const reason = crossSiteReason(req, app.deps.config.publicUrl);
      if (reason) {
        req.log.info({ reason }, 'cross-site form refused');
        return sendErrorPage(req, reply, 403, { title: 'This form came from another site', message: 'Vouch accepts forms only from its own pages. Open Vouch directly and try again.' });
      }
    }
    if (access === 'public') return;
    if (!req.webUser) return toSignIn(req, reply);
    if (access !== 'signed-in' && !can(req.webUser.role, access)) return forbidden(req, reply, access);
  });
}
