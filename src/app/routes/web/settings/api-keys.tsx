// Settings → API keys (owners and admins). Creating answers the page itself with the new key
// (never a redirect: the key must not land in a URL or in history); revoking goes through a
// confirmation page. Each key records who created it; both actions are in the audit log.
import type { FastifyPluginAsync } from 'fastify';
import { keyNameProblem } from '../../../../services/keys.ts';
import { memberContext } from '../../../../services/web-auth.ts';
import { sendErrorPage } from '../../../web/error-page.tsx';
import { field, formFields } from '../../../web/form.ts';
import { sendPage } from '../../../web/page.tsx';
import { ApiKeysPage, RevokeKeyPage } from '../../../web/settings/api-keys.tsx';
import type { WebUser } from '../../../types.ts';

type IdParams = { Params: { id: string } };
const opts = { schema: { hide: true }, config: { access: 'keys.manage' as const } };

const apiKeyRoutes: FastifyPluginAsync = async (app) => {
  const { services } = app.deps;
  const member = (u: WebUser | null) => u as WebUser; // access.ts sent visitors away

  app.get<{ Querystring: { done?: string } }>('/', opts, async (req, reply) => {
    const user = member(req.webUser);
    return sendPage(reply, <ApiKeysPage user={user} keys={await services.keys.listKeys(user.accountId)} done={req.query.done} />);
  });

  app.post('/', opts, async (req, reply) => {
    const user = member(req.webUser);
    const name = field(formFields(req.body), 'name', 200);
    const problem = keyNameProblem(name);
    if (problem) {
      const keys = await services.keys.listKeys(user.accountId);
      return sendPage(reply, <ApiKeysPage user={user} keys={keys} name={name} error={`${problem[0].toUpperCase()}${problem.slice(1)}.`} />, 422);
    }
    const issued = await services.keys.issueApiKey(user.accountId, name, memberContext(user, req.ip));
    req.log.info({ key_id: issued.id }, 'API key created from the dashboard');
    const keys = await services.keys.listKeys(user.accountId);
    return sendPage(reply, <ApiKeysPage user={user} keys={keys} created={{ name, key: issued.key }} />);
  });

  app.get<IdParams>('/:id/revoke', opts, async (req, reply) => {
    const user = member(req.webUser);
    const k = await services.keys.findKey(user.accountId, req.params.id);
    if (!k) return sendErrorPage(req, reply, 404, { message: 'There is no such API key in your account.' });
    if (k.revoked_at) return reply.redirect('/settings/api-keys?done=already-revoked', 303);
    return sendPage(reply, <RevokeKeyPage user={user} k={k} />);
  });

  app.post<IdParams>('/:id/revoke', opts, async (req, reply) => {
    const user = member(req.webUser);
    const k = await services.keys.findKey(user.accountId, req.params.id);
    if (!k) return sendErrorPage(req, reply, 404, { message: 'There is no such API key in your account.' });
    const revoked = await services.keys.revokeKeyById(user.accountId, k.id, memberContext(user, req.ip));
    if (revoked) req.log.info({ key_id: k.id }, 'API key revoked from the dashboard');
    return reply.redirect(`/settings/api-keys?done=${revoked ? 'revoked' : 'already-revoked'}`, 303);
  });
};

export default apiKeyRoutes;
