// The report page at report_url (/r/:id) and what hangs off it for signed-in members: the JSON
// report and SARIF downloads, the stored log (masked) and the redact action. Visitors are sent
// to sign in (and come back); a member of another account gets the same 404 page as for an id
// that does not exist.
import { Readable } from 'node:stream';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Report, TimelineKind } from '../../../domain/model/report.ts';
import { renderSarif } from '../../../domain/render/sarif.ts';
import { memberContext } from '../../../services/web-auth.ts';
import { CSRF_FIELD, csrfTokensMatch } from '../../web/csrf.ts';
import { sendPage } from '../../web/page.tsx';
import { FailedPage, ProgressPage, ReportNotFound, ReportPage } from '../../web/views/report-page.tsx';
import type { ReportView } from '../../web/views/report-page.tsx';
import { KINDS } from '../../web/views/report-timeline.tsx';
import type { TimelineQuery } from '../../web/views/report-timeline.tsx';
import type { WebUser } from '../../types.ts';
import { toLogin } from './guards.ts';

const Params = Type.Object({ id: Type.String({ maxLength: 100 }) });
const ReportQuery = Type.Object({
  tl_page: Type.Optional(Type.String({ maxLength: 10 })),
  kind: Type.Optional(Type.Union([Type.String({ maxLength: 20 }), Type.Array(Type.String({ maxLength: 20 }), { maxItems: 20 })])),
  flagged: Type.Optional(Type.String({ maxLength: 5 })),
  redacted: Type.Optional(Type.String({ maxLength: 10 })),
});
const RedactBody = Type.Object({ [CSRF_FIELD]: Type.String({ maxLength: 200 }), confirm: Type.Optional(Type.String({ maxLength: 10 })) });

const KNOWN_KINDS = new Set<string>(KINDS.map((k) => k.kind));

/** Timeline paging and filters from the query; anything unknown is ignored (a link, not an API). */
export function timelineQuery(q: typeof ReportQuery.static): TimelineQuery {
  const page = Number(q.tl_page);
  const kinds = [q.kind ?? []].flat().filter((k): k is TimelineKind => KNOWN_KINDS.has(k));
  return { page: Number.isInteger(page) && page >= 1 ? page : 1, kinds: [...new Set(kinds)], flagged: q.flagged === '1' || q.flagged === 'on' };
}

function notFound(reply: FastifyReply, user: WebUser): FastifyReply {
  return sendPage(reply, <ReportNotFound user={user} />, 404);
}

function redactedNotice(raw: string | undefined): ReportView['notice'] {
  if (raw === undefined || !/^\d{1,9}$/.test(raw)) return null;
  const n = Number(raw);
  return n === 0
    ? { kind: 'info', text: 'The stored log had no secret left to mask: it is unchanged.' }
    : { kind: 'ok', text: `The stored log was redacted: ${n} secret${n === 1 ? '' : 's'} masked.` };
}

const reportRoutes: FastifyPluginAsync = async (plain) => {
  const app = plain.withTypeProvider<TypeBoxTypeProvider>();
  const { services } = app.deps;

  /** The signed-in member's complete report, or the reply already sent (sign-in, 404, progress). */
  async function loadReport(req: FastifyRequest, id: string, reply: FastifyReply, pages = true) {
    const user = req.webUser;
    if (!user) return { sent: toLogin(req, reply) };
    const session = await services.sessions.findSession(user.accountId, id);
    if (!session) return { sent: notFound(reply, user) };
    const found = await services.sessions.report({ accountId: user.accountId }, session.id);
    if (!found || found.state === 'analyzing') return { sent: pages ? sendPage(reply, <ProgressPage user={user} session={session} />) : notFound(reply, user) };
    if (found.state === 'failed') return { sent: pages ? sendPage(reply, <FailedPage user={user} session={session} reason={found.reason} />) : notFound(reply, user) };
    return { user, session, json: found.json };
  }

  app.get('/r/:id', { schema: { hide: true, params: Params, querystring: ReportQuery }, config: { access: 'sessions.read' } }, async (req, reply) => {
    const r = await loadReport(req, req.params.id, reply);
    if ('sent' in r) return r.sent;
    const report = JSON.parse(r.json) as Report;
    return sendPage(reply, <ReportPage user={r.user} session={r.session} report={report} q={timelineQuery(req.query)} notice={redactedNotice(req.query.redacted)} />);
  });

  app.get('/r/:id/report.json', { schema: { hide: true, params: Params }, config: { access: 'sessions.read' } }, async (req, reply) => {
    const r = await loadReport(req, req.params.id, reply, false);
    if ('sent' in r) return r.sent;
    return reply
      .type('application/json; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('content-disposition', `attachment; filename="vouch-${r.session.id}.json"`)
      .serializer((s: unknown) => s as string)
      .send(r.json);
  });

  app.get('/r/:id/report.sarif', { schema: { hide: true, params: Params }, config: { access: 'sessions.read' } }, async (req, reply) => {
    const r = await loadReport(req, req.params.id, reply, false);
    if ('sent' in r) return r.sent;
    const sarif = renderSarif(JSON.parse(r.json) as Report, r.session.filename);
    return reply
      .type('application/sarif+json; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('content-disposition', `attachment; filename="vouch-${r.session.id}.sarif"`)
      .send(JSON.stringify(sarif, null, 2));
  });

  app.get('/r/:id/log', { schema: { hide: true, params: Params }, config: { access: 'sessions.read' } }, async (req, reply) => {
    const user = req.webUser;
    if (!user) return toLogin(req, reply);
    const session = await services.sessions.findSession(user.accountId, req.params.id);
    if (!session) return notFound(reply, user);
    const { maskText } = await import('../../../domain/secrets/mask.ts');
    const log = await services.sessions.openMaskedLog(session.id, maskText);
    if (!log) return notFound(reply, user);
    return reply
      .type('text/plain; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('content-disposition', `attachment; filename="${session.id}.log"`)
      .send(Readable.from(log));
  });

  app.post('/r/:id/redact', { schema: { hide: true, params: Params, body: RedactBody }, config: { access: 'logs.redact_delete' } }, async (req, reply) => {
    const user = req.webUser;
    if (!user) return toLogin(req, reply);
    const session = await services.sessions.findSession(user.accountId, req.params.id);
    if (!session) return notFound(reply, user);
    if (!csrfTokensMatch(user.csrfToken, req.body[CSRF_FIELD]) || req.body.confirm !== 'yes') {
      // Expired form or no confirmation: back to the report, where the action can be confirmed again.
      return reply.redirect(`/r/${session.id}#redact`, 303);
    }
    const result = await services.sessions.redactStoredLog(user.accountId, session.id, memberContext(user, req.ip));
    if (result.kind !== 'redacted') return reply.redirect(`/r/${session.id}`, 303);
    return reply.redirect(`/r/${session.id}?redacted=${result.redacted}#redact`, 303);
  });
};

export default reportRoutes;
