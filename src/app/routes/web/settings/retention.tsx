// Settings → Retention (owners and admins): the account's log retention period. Each change is
// in the audit log (retention.changed).
import type { FastifyPluginAsync } from 'fastify';
import { parseRetention, retentionProblem } from '../../../../services/retention.ts';
import { memberContext } from '../../../../services/web-auth.ts';
import { field, formFields } from '../../../web/form.ts';
import { sendPage } from '../../../web/page.tsx';
import { RetentionPage } from '../../../web/settings/retention.tsx';
import type { WebUser } from '../../../types.ts';

const opts = { schema: { hide: true }, config: { access: 'retention.manage' as const } };

const retentionRoutes: FastifyPluginAsync = async (app) => {
  const { services } = app.deps;
  const member = (u: WebUser | null) => u as WebUser; // access.ts sent visitors away

  app.get<{ Querystring: { done?: string } }>('/', opts, async (req, reply) => {
    const user = member(req.webUser);
    return sendPage(reply, <RetentionPage user={user} days={await services.retention.getLogRetention(user.accountId)} done={req.query.done} />);
  });

  app.post('/', opts, async (req, reply) => {
    const user = member(req.webUser);
    const days = parseRetention(field(formFields(req.body), 'days', 20));
    const problem = retentionProblem(days);
    if (problem) {
      return sendPage(reply, <RetentionPage user={user} days={await services.retention.getLogRetention(user.accountId)} error={`The period ${problem}.`} />, 422);
    }
    await services.retention.setLogRetention(user.accountId, days, memberContext(user, req.ip));
    req.log.info({ retention_days: days }, 'log retention changed');
    return reply.redirect('/settings/retention?done=saved', 303);
  });
};

export default retentionRoutes;
