// Settings → Single sign-on (owners only, 'sso.manage'): show, save and remove the account's
// OpenID Connect provider (services/sso). Each change is in the audit log.
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { SsoInputError, SsoUnavailableError } from '../../../../services/sso/index.ts';
import type { SsoField, SsoSettingsInput } from '../../../../services/sso/index.ts';
import { memberContext } from '../../../../services/web-auth.ts';
import { field, formFields } from '../../../web/form.ts';
import { sendPage } from '../../../web/page.tsx';
import { SsoPage, valuesOf } from '../../../web/settings/sso.tsx';
import type { SsoFormValues } from '../../../web/settings/sso.tsx';
import type { WebUser } from '../../../types.ts';

const opts = { schema: { hide: true }, config: { access: 'sso.manage' as const } };

const ssoSettingsRoutes: FastifyPluginAsync = async (app) => {
  const { services } = app.deps;
  const member = (u: WebUser | null) => u as WebUser; // access.ts sent visitors away

  async function render(reply: FastifyReply, user: WebUser, status: number, view: { values?: SsoFormValues; errors?: Partial<Record<SsoField, string>>; done?: string }) {
    const saved = await services.sso.getSettings(user.accountId);
    return sendPage(reply, <SsoPage user={user} available={services.sso.available} redirectUri={services.sso.redirectUri} saved={saved}
      values={view.values ?? valuesOf(saved)} errors={view.errors} done={view.done} />, status);
  }

  app.get<{ Querystring: { done?: string } }>('/', opts, async (req, reply) => render(reply, member(req.webUser), 200, { done: req.query.done }));

  app.post('/', opts, async (req, reply) => {
    const user = member(req.webUser);
    const f = formFields(req.body);
    const input: SsoSettingsInput = {
      issuer: field(f, 'issuer', 500), clientId: field(f, 'client_id', 300), clientSecret: field(f, 'client_secret', 1001, true),
      domains: field(f, 'domains', 2000), required: f.required === 'yes', defaultRole: field(f, 'default_role', 20),
      groupsClaim: field(f, 'groups_claim', 101), groupRoles: field(f, 'group_roles', 20_000), requireGroup: f.require_group === 'yes',
    };
    const values: SsoFormValues = {
      issuer: input.issuer, client_id: input.clientId, domains: input.domains, required: input.required, default_role: input.defaultRole,
      groups_claim: input.groupsClaim, group_roles: input.groupRoles, require_group: input.requireGroup,
    };
    try {
      await services.sso.saveSettings(user.accountId, memberContext(user, req.ip), input);
    } catch (error) {
      if (error instanceof SsoInputError) return render(reply, user, 422, { values, errors: error.errors });
      if (error instanceof SsoUnavailableError) return render(reply, user, 409, { values, errors: { form: 'Single sign-on is not available on this server.' } });
      throw error;
    }
    req.log.info('single sign-on saved');
    return reply.redirect('/settings/sso?done=saved', 303);
  });

  app.post('/verify', opts, async (req, reply) => {
    const user = member(req.webUser);
    try {
      await services.sso.verifyDomain(user.accountId, field(formFields(req.body), 'domain', 300), memberContext(user, req.ip));
    } catch (error) {
      if (error instanceof SsoInputError) return render(reply, user, 422, { errors: error.errors });
      throw error;
    }
    return reply.redirect('/settings/sso?done=verified', 303);
  });

  app.post('/delete', opts, async (req, reply) => {
    const user = member(req.webUser);
    await services.sso.removeSettings(user.accountId, memberContext(user, req.ip));
    return reply.redirect('/settings/sso?done=removed', 303);
  });
};

export default ssoSettingsRoutes;
