// The server-rendered part: static assets, sign-in/out, the sessions list, report pages. Everything here knows the
// signed-in user (req.webUser) from the session cookie; grows into the dashboard.
import type { FastifyPluginAsync } from 'fastify';
import { loadWebUser } from '../../web/session-cookie.ts';
import { assetRoutes } from '../../web/assets.ts';
import authRoutes from './auth.tsx';
import settingsRoutes from './settings/index.ts';
import { settingsAssetRoutes } from '../../web/settings-assets.ts';
import reportRoutes from './report.tsx';
import sessionRoutes from './sessions.tsx';

const webRoutes: FastifyPluginAsync = async (app) => {
  const { config, db } = app.deps;
  app.addHook('onRequest', async (req) => {
    await loadWebUser(req, config, db);
  });
  await app.register(assetRoutes);
  await app.register(settingsAssetRoutes);
  await app.register(authRoutes);
  await app.register(settingsRoutes);
  await app.register(sessionRoutes);
  await app.register(reportRoutes);
};

export default webRoutes;
