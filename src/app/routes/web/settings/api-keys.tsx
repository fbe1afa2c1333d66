// Settings → API keys (owners and admins). Creating answers the page itself with the new key
// (never a redirect: the key must not land in a URL or in history); revoking goes through a
// confirmation page. Each key records who created it; both actions are in the audit log.
import type { FastifyPluginAsync } from 'fastify';
import { KeyScopeError, keyNameProblem } from '../../../../services/keys.ts';
import { isScope, scopesAllowed } from '../../../../services/scopes.ts';
import type { Scope } from '../../../../services/scopes.ts';
import { memberContext } from '../../../../services/web-auth.ts';
import { sendErrorPage } from '../../../web/error-page.tsx';
import { field, fieldValues, formFields } from '../../../web/form.ts';
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
    const f = formFields(req.body);
    const name = field(f, 'name', 200);
    // The page's form always says it lists scopes (every box unticked is then refused); a post
    // without any gets what the member's role allows, as a key made without choosing.
    const chosen = f.scopes_listed === '1' || fieldValues(req.body, 'scope').length > 0 ? fieldValues(req.body, 'scope') : undefined;
    const again = async (error: { name?: string; scopes?: string }) =>
      sendPage(reply, <ApiKeysPage user={user} keys={await services.keys.listKeys(user.accountId)} name={name} chosen={chosen?.filter(isScope)} error={error.name} scopeError={error.scopes} />, 422);
    const problem = keyNameProblem(name);
    if (problem) return again({ name: `${problem[0].toUpperCase()}${problem.slice(1)}.` });
    const unknown = chosen?.find((s) => !isScope(s));
    if (unknown !== undefined) return again({ scopes: `There is no scope ${JSON.stringify(unknown.slice(0, 40))}.` });
    let issued;
    try {
      issued = await services.keys.issueApiKey(user.accountId, name, memberContext(user, req.ip), chosen as Scope[] | undefined);
    } catch (error) {
      if (error instanceof KeyScopeError) return again({ scopes: `${error.message[0].toUpperCase()}${error.message.slice(1)} (${user.role}s may give ${scopesAllowed(user.role).join(', ')}).` });
      throw error;
    }
    req.log.info({ key_id: issued.id, scopes: issued.scopes }, 'API key created from the dashboard');
    const keys = await services.keys.listKeys(user.accountId);
    return sendPage(reply, <ApiKeysPage user={user} keys={keys} created={{ name, key: issued.key, scopes: issued.scopes }} />);
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
