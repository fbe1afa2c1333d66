// Settings → Members, API keys, Webhooks, Audit log, Retention, Single sign-on, Account: pages about the member's own
// account. Who may open each page is declared on each route (access.ts sends visitors to sign in
// and refuses roles); here every POST of the scope must carry the session's CSRF token, or gets
// the HTML 403 page. Ids in URLs are always looked up within the member's account, so another
// account's key, webhook, delivery or member answers the same 404 as an id that does not exist.
import type { FastifyPluginAsync } from 'fastify';
import { CSRF_FIELD, csrfTokensMatch } from '../../../web/csrf.ts';
import { sendCsrfRefused } from '../../../web/error-page.tsx';
import { formFields } from '../../../web/form.ts';
import accountRoutes from './account.tsx';
import apiKeyRoutes from './api-keys.tsx';
import auditRoutes from './audit-log.tsx';
import memberRoutes from './members.tsx';
import retentionRoutes from './retention.tsx';
import ssoSettingsRoutes from './sso.tsx';
import webhookRoutes from './webhooks.tsx';

const settingsRoutes: FastifyPluginAsync = async (app) => {
  app.addHook('preHandler', async (req, reply) => {
    const user = req.webUser;
    if (user && req.method !== 'GET' && req.method !== 'HEAD' && !csrfTokensMatch(user.csrfToken, formFields(req.body)[CSRF_FIELD])) {
      req.log.info('settings form refused: CSRF token missing or wrong');
      return sendCsrfRefused(req, reply);
    }
  });
  app.get('/settings', { schema: { hide: true }, config: { access: 'signed-in' } }, async (_req, reply) => reply.redirect('/settings/members', 303));
  await app.register(memberRoutes, { prefix: '/settings/members' });
  await app.register(apiKeyRoutes, { prefix: '/settings/api-keys' });
  await app.register(webhookRoutes, { prefix: '/settings/webhooks' });
  await app.register(auditRoutes, { prefix: '/settings/audit-log' });
  await app.register(retentionRoutes, { prefix: '/settings/retention' });
  await app.register(ssoSettingsRoutes, { prefix: '/settings/sso' });
  await app.register(accountRoutes, { prefix: '/settings/account' });
};

export default settingsRoutes;
