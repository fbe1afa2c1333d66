// Settings → Webhooks: add, edit, enable/disable, delete (confirmed), send a test event, and
// the delivery log with redelivery. The services (services/webhooks) do the work and the checks
// (SSRF policy at registration, tenant scoping); this module maps forms and errors to pages.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { generateWhsecSecret, isShape, toView, WebhookConflictError, WebhookNotFoundError, WebhookValidationError } from '../../../../services/webhooks/index.ts';
import type { SecretChange, WebhookView } from '../../../../services/webhooks/index.ts';
import { sendErrorPage } from '../../../web/error-page.tsx';
import { field, formFields } from '../../../web/form.ts';
import { sendPage } from '../../../web/page.tsx';
import { DeleteWebhookPage, WebhookPage, WebhooksPage } from '../../../web/settings/webhooks.tsx';
import type { SecretMode, WebhookFormErrors, WebhookFormValues, WebhookPageProps } from '../../../web/settings/webhooks.tsx';
import type { WebUser } from '../../../types.ts';
import { memberContext } from '../../../../services/web-auth.ts';
import { attemptLimiter } from '../../../web/attempt-limit.ts';

type IdParams = { Params: { id: string } };
const opts = { schema: { hide: true }, config: { access: 'webhooks.manage' as const } };
const DELIVERIES_SHOWN = 50;
const MODES: SecretMode[] = ['none', 'generate', 'custom', 'keep'];

/** The form as typed, plus what is wrong with it before any service is asked. */
function readForm(body: unknown, editing: boolean): { values: WebhookFormValues; errors: WebhookFormErrors } {
  const f = formFields(body);
  const shape = field(f, 'shape', 10) || 'A';
  const mode = field(f, 'secret_mode', 20) as SecretMode;
  const values: WebhookFormValues = {
    url: field(f, 'url', 4096),
    shape: isShape(shape) ? shape : 'A',
    secretMode: MODES.includes(mode) && (editing || mode !== 'keep') ? mode : editing ? 'keep' : 'none',
    secret: field(f, 'secret', 1000, true),
  };
  const errors: WebhookFormErrors = {};
  if (!values.url) errors.url = 'Enter the URL to send events to.';
  if (!isShape(shape)) errors.shape = 'Choose shape A, B or C.';
  if (values.secretMode === 'custom' && values.secret.length === 0) errors.secret = 'Type the secret, or choose another option.';
  return { values, errors };
}

function secretChange(values: WebhookFormValues): { change: SecretChange; generated?: string } {
  switch (values.secretMode) {
    case 'generate': {
      const generated = generateWhsecSecret();
      return { change: { set: generated }, generated };
    }
    case 'custom':
      return { change: { set: values.secret } };
    case 'none':
      return { change: { clear: true } };
    default:
      return { change: { keep: true } };
  }
}

/** A registration refusal, in words, on the field it concerns (or for the whole form). */
function refusal(reason: string): { errors?: WebhookFormErrors; problem?: string } {
  if (/^an account can have at most/.test(reason)) return { problem: `${reason[0].toUpperCase()}${reason.slice(1)}. Delete one first.` };
  if (/secret/.test(reason)) return { errors: { secret: `${reason[0].toUpperCase()}${reason.slice(1)}.` } };
  const ssrf = /^refused by the SSRF policy: (.*)$/s.exec(reason);
  if (ssrf) {
    return { errors: { url: `Vouch only sends webhooks to public internet addresses (protection against server-side request forgery), and this one is not: ${ssrf[1]}.` } };
  }
  return { errors: { url: `This URL cannot be used: ${reason}.` } };
}

const webhookRoutes: FastifyPluginAsync = async (app) => {
  const { services, config } = app.deps;
  const member = (req: FastifyRequest) => req.webUser as WebUser; // access.ts sent visitors away
  const audit = (req: FastifyRequest) => memberContext(member(req), req.ip);
  // Test events and redeliveries POST to a URL of the member's choosing: one limit per account for both.
  const sendLimit = attemptLimiter(app, {
    max: config.rateLimit.webhookActionsMax, windowMs: config.rateLimit.windowMs, key: (req) => `webhook-sends:${member(req).accountId}`,
    message: 'Too many test events and redeliveries for this account.',
  });
  const notFound = (req: FastifyRequest, reply: FastifyReply, what = 'webhook') => sendErrorPage(req, reply, 404, { message: `There is no such ${what} in your account.` });
  const back = (reply: FastifyReply, id: string, done: string) => reply.redirect(`/settings/webhooks/${id}?done=${done}`, 303);

  async function renderList(req: FastifyRequest, reply: FastifyReply, status: number, view: { done?: string; values?: WebhookFormValues; errors?: WebhookFormErrors; problem?: string }) {
    const user = member(req);
    const hooks = await services.webhooks.listWebhooks(user.accountId);
    return sendPage(reply, <WebhooksPage user={user} hooks={hooks} publicUrl={config.publicUrl} {...view} />, status);
  }

  async function renderHook(req: FastifyRequest, reply: FastifyReply, status: number, hook: WebhookView, view: Partial<WebhookPageProps>) {
    const user = member(req);
    const deliveries = await services.webhooks.listDeliveries(user.accountId, hook.id, { limit: DELIVERIES_SHOWN });
    const attempts = await services.webhooks.listAttemptsOf(user.accountId, deliveries.map((d) => d.id));
    return sendPage(reply, <WebhookPage user={user} hook={hook} deliveries={deliveries} attempts={attempts} publicUrl={config.publicUrl} {...view} />, status);
  }

  /** The webhook of this account, or undefined (another account's id looks like no id at all). */
  async function findHook(req: FastifyRequest, id: string): Promise<WebhookView | undefined> {
    try {
      return toView(await services.webhooks.getWebhook(member(req).accountId, id));
    } catch (error) {
      if (error instanceof WebhookNotFoundError) return undefined;
      throw error;
    }
  }

  app.get<{ Querystring: { done?: string } }>('/', opts, async (req, reply) => renderList(req, reply, 200, { done: req.query.done }));

  app.post('/', opts, async (req, reply) => {
    const user = member(req);
    const { values, errors } = readForm(req.body, false);
    if (Object.keys(errors).length) return renderList(req, reply, 422, { values, errors });
    const { change, generated } = secretChange(values);
    let hook: WebhookView;
    try {
      hook = await services.webhooks.addWebhook({ accountId: user.accountId, url: values.url, shape: values.shape, secret: 'set' in change ? change.set : null }, audit(req));
    } catch (error) {
      if (error instanceof WebhookValidationError) return renderList(req, reply, 422, { values, ...refusal(error.reason) });
      throw error;
    }
    req.log.info({ webhook_id: hook.id }, 'webhook added');
    // A generated secret is shown in this answer, once; otherwise back to the page (no re-post on reload).
    if (generated) return renderHook(req, reply, 200, hook, { done: 'created', newSecret: generated });
    return back(reply, hook.id, 'created');
  });

  app.get<IdParams & { Querystring: { done?: string } }>('/:id', opts, async (req, reply) => {
    const hook = await findHook(req, req.params.id);
    if (!hook) return notFound(req, reply);
    return renderHook(req, reply, 200, hook, { done: req.query.done });
  });

  app.post<IdParams>('/:id', opts, async (req, reply) => {
    const user = member(req);
    const hook = await findHook(req, req.params.id);
    if (!hook) return notFound(req, reply);
    const { values, errors } = readForm(req.body, true);
    if (Object.keys(errors).length) return renderHook(req, reply, 422, hook, { values, errors });
    const { change, generated } = secretChange(values);
    let saved: WebhookView;
    try {
      saved = await services.webhooks.editWebhook(user.accountId, hook.id, { url: values.url, shape: values.shape, secret: change }, audit(req));
    } catch (error) {
      if (error instanceof WebhookValidationError) return renderHook(req, reply, 422, hook, { values, ...refusal(error.reason) });
      if (error instanceof WebhookNotFoundError) return notFound(req, reply);
      throw error;
    }
    if (generated) return renderHook(req, reply, 200, saved, { done: 'saved', newSecret: generated });
    return back(reply, hook.id, 'saved');
  });

  for (const [action, enabled] of [['enable', true], ['disable', false]] as const) {
    app.post<IdParams>(`/:id/${action}`, opts, async (req, reply) => {
      try {
        await services.webhooks.setWebhookEnabled(member(req).accountId, req.params.id, enabled, audit(req));
      } catch (error) {
        if (error instanceof WebhookNotFoundError) return notFound(req, reply);
        throw error;
      }
      return back(reply, req.params.id, enabled ? 'enabled' : 'disabled');
    });
  }

  app.post<IdParams>('/:id/test', { ...opts, preHandler: sendLimit }, async (req, reply) => {
    const hook = await findHook(req, req.params.id);
    if (!hook) return notFound(req, reply);
    try {
      await services.webhooks.sendTestEvent(member(req).accountId, hook.id, audit(req));
    } catch (error) {
      if (error instanceof WebhookConflictError) return renderHook(req, reply, 409, hook, { problem: 'The webhook is disabled: enable it before sending a test event.' });
      throw error;
    }
    app.deps.onJobEnqueued?.();
    return back(reply, hook.id, 'tested');
  });

  app.post<{ Params: { id: string; dlv: string } }>('/:id/deliveries/:dlv/redeliver', { ...opts, preHandler: sendLimit }, async (req, reply) => {
    const user = member(req);
    const hook = await findHook(req, req.params.id);
    if (!hook) return notFound(req, reply);
    try {
      const d = await services.webhooks.getDelivery(user.accountId, req.params.dlv);
      if (d.webhook_id !== hook.id) return notFound(req, reply, 'delivery');
      await services.webhooks.redeliver(user.accountId, d.id, audit(req));
    } catch (error) {
      if (error instanceof WebhookNotFoundError) return notFound(req, reply, 'delivery');
      if (error instanceof WebhookConflictError) {
        const why = hook.enabled ? 'Its attempts are still running; redeliver once they end.' : 'The webhook is disabled: enable it before redelivering.';
        return renderHook(req, reply, 409, hook, { problem: `This delivery cannot be sent again now. ${why}` });
      }
      throw error;
    }
    app.deps.onJobEnqueued?.();
    return back(reply, hook.id, 'redelivered');
  });

  app.get<IdParams>('/:id/delete', opts, async (req, reply) => {
    const hook = await findHook(req, req.params.id);
    if (!hook) return notFound(req, reply);
    return sendPage(reply, <DeleteWebhookPage user={member(req)} hook={hook} />);
  });

  app.post<IdParams>('/:id/delete', opts, async (req, reply) => {
    try {
      await services.webhooks.removeWebhook(member(req).accountId, req.params.id, audit(req));
    } catch (error) {
      if (error instanceof WebhookNotFoundError) return notFound(req, reply);
      throw error;
    }
    req.log.info({ webhook_id: req.params.id }, 'webhook deleted');
    return reply.redirect('/settings/webhooks?done=deleted', 303);
  });
};

export default webhookRoutes;
