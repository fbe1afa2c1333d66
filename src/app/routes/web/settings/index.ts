// Settings → Members, API keys, Webhooks: pages for signed-in members only, about their own
// account. Two checks here cover every route of the scope:
//   - a visitor is sent to sign in (and comes back to the page afterwards);
//   - every POST carries the session's CSRF token, or gets the HTML 403 page.
// Ids in URLs are always looked up within the member's account, so another account's key,
// webhook, delivery or member answers the same 404 as an id that does not exist.
import type { FastifyPluginAsync } from 'fastify';
import { CSRF_FIELD, csrfTokensMatch } from '../../../web/csrf.ts';
import { sendCsrfRefused } from '../../../web/error-page.tsx';
import { formFields } from '../../../web/form.ts';
import apiKeyRoutes from './api-keys.tsx';
import memberRoutes from './members.tsx';
import webhookRoutes from './webhooks.tsx';

const settingsRoutes: FastifyPluginAsync = async (app) => {
  app.addHook('preHandler', async (req, reply) => {
    const user = req.webUser;
    if (!user) {
      const next = req.method === 'GET' ? `?next=${encodeURIComponent(req.url)}` : '';
      return reply.redirect(`/login${next}`, 303);
    }
    if (req.method !== 'GET' && req.method !== 'HEAD' && !csrfTokensMatch(user.csrfToken, formFields(req.body)[CSRF_FIELD])) {
      req.log.info('settings form refused: CSRF token missing or wrong');
      return sendCsrfRefused(req, reply);
    }
  });
  app.get('/settings', { schema: { hide: true } }, async (_req, reply) => reply.redirect('/settings/members', 303));
  await app.register(memberRoutes, { prefix: '/settings/members' });
  await app.register(apiKeyRoutes, { prefix: '/settings/api-keys' });
  await app.register(webhookRoutes, { prefix: '/settings/webhooks' });
};

export default settingsRoutes;
