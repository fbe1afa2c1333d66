// The server-rendered part: static assets, sign-in/out, the sessions list, report pages, settings. Everything here
// knows the signed-in user (req.webUser) from the session cookie, and every route declares who may use it (access.ts).
import type { FastifyPluginAsync } from 'fastify';
import { loadWebUser } from '../../web/session-cookie.ts';
import { refusePlantedCookies } from '../../web/cookie-isolation.ts';
import { enforceAccess } from './access.ts';
import { assetRoutes } from '../../web/assets.ts';
import authRoutes from './auth.tsx';
import settingsRoutes from './settings/index.ts';
import { settingsAssetRoutes } from '../../web/settings-assets.ts';
import reportRoutes from './report.tsx';
import sessionRoutes from './sessions.tsx';
import ssoRoutes from './sso.tsx';

const webRoutes: FastifyPluginAsync = async (app) => {
  const { config, services } = app.deps;
  app.addHook('onRequest', async (req, reply) => {
    // Two cookies of one name: one was planted by another site on this host (cookie-isolation.ts).
    if (refusePlantedCookies(req, reply, config)) return reply;
    await loadWebUser(req, config, services);
  });
  enforceAccess(app);
  await app.register(assetRoutes);
  await app.register(settingsAssetRoutes);
  await app.register(authRoutes);
  await app.register(ssoRoutes);
  await app.register(settingsRoutes);
  await app.register(sessionRoutes);
  await app.register(reportRoutes);
};

export default webRoutes;
