// The sessions list (GET /, also /sessions) and the dashboard's upload form (POST /sessions).
// Filters and paging follow GET /v1/sessions (same service, same rules); the upload follows
// POST /v1/sessions (same form reader, same checks, same errors), plus a CSRF token.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { isAgentId, repoProblem } from '../../../services/sessions.ts';
import { HttpProblem, toProblem } from '../../problem.ts';
import { readUploadForm } from '../sessions/upload-form.ts';
import { CSRF_FIELD, csrfTokensMatch } from '../../web/csrf.ts';
import { sendPage } from '../../web/page.tsx';
import { SessionsPage } from '../../web/views/sessions-page.tsx';
import type { ListFilters, SessionsView } from '../../web/views/sessions-page.tsx';
import type { WebUser } from '../../types.ts';
import { toLogin } from './guards.ts';
import { sendErrorPage } from '../../web/error-page.tsx';
import { clearCookie, cookieNames } from '../../web/session-cookie.ts';

const ListQuery = Type.Object({
  repo: Type.Optional(Type.String({ maxLength: 1000 })),
  agent: Type.Optional(Type.String({ maxLength: 100 })),
  outcome: Type.Optional(Type.String({ maxLength: 100 })),
  status: Type.Optional(Type.String({ maxLength: 100 })),
  limit: Type.Optional(Type.String({ maxLength: 20 })),
  page: Type.Optional(Type.String({ maxLength: 20 })),
});
type RawQuery = { [K in keyof typeof ListQuery.static]?: string };

const OUTCOMES = ['Clear', 'Review', 'Blocked'];
const STATUSES = ['analyzing', 'complete', 'failed'] as const;

interface ParsedList {
  filters: ListFilters;
  page: number;
  limit: number;
  /** What was wrong with the query (each such value is ignored). */
  errors: string[];
}

function intIn(raw: string | undefined, min: number, max: number, fallback: number, name: string, errors: string[]): number {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (Number.isInteger(n) && n >= min && n <= max) return n;
  errors.push(`${name} must be a whole number from ${min} to ${max}.`);
  return fallback;
}

/** The API's filter rules, applied to a form: empty means "any"; an invalid value is reported and ignored. */
export function parseListQuery(q: RawQuery): ParsedList {
  const errors: string[] = [];
  const filters: ListFilters = {};
  if (q.repo) {
    const problem = repoProblem(q.repo);
    if (problem) errors.push(`Repository ${problem}.`);
    else filters.repo = q.repo;
  }
  if (q.agent) {
    if (isAgentId(q.agent)) filters.agent = q.agent;
    else errors.push('Agent must be one of claude-code, codex, gemini-cli.');
  }
  if (q.outcome) {
    if (OUTCOMES.includes(q.outcome)) filters.outcome = q.outcome;
    else errors.push('Outcome must be Clear, Review or Blocked.');
  }
  if (q.status) {
    const status = STATUSES.find((s) => s === q.status);
    if (status) filters.status = status;
    else errors.push('Status must be analyzing, complete or failed.');
  }
  const limit = intIn(q.limit, 1, 100, 20, 'limit', errors);
  const page = intIn(q.page, 1, 1_000_000, 1, 'page', errors);
  return { filters, page, limit, errors };
}

type Notice = SessionsView['notice'];

async function sendList(req: FastifyRequest, reply: FastifyReply, user: WebUser, list: ParsedList, notice: Notice, status = 200, uploadRepo?: string): Promise<FastifyReply> {
  const { services } = req.server.deps;
  const { filters, page, limit } = list;
  const [{ rows, total }, trends] = await Promise.all([
    services.sessions.list({ accountId: user.accountId }, { ...filters, limit, page }),
    services.sessions.trustTrends(user.accountId),
  ]);
  const headlines = await services.sessions.headlinesOf(user.accountId, rows.filter((r) => r.status === 'complete').map((r) => r.id));
  const view: SessionsView = { user, filters, page, limit, total, rows, headlines, trends, notice, uploadRepo };
  return sendPage(reply, <SessionsPage {...view} />, status);
}

/** A refused upload, told in the words of the API's problem (and its field errors). */
function uploadNotice(p: HttpProblem): Notice {
  const details = (p.errors ?? []).map((e) => `${e.pointer.replace(/^\/body\//, '')} ${e.detail}`);
  return { kind: 'error', text: details.length > 0 ? 'The upload was refused:' : `The upload was refused: ${p.message}`, details };
}

function refusedStatus(error: unknown): HttpProblem {
  return error instanceof HttpProblem ? error : toProblem(error);
}

const sessionRoutes: FastifyPluginAsync = async (plain) => {
  const app = plain.withTypeProvider<TypeBoxTypeProvider>();
  const { config, services, metrics } = app.deps;

  app.get('/', { schema: { hide: true, querystring: ListQuery }, config: { access: 'sessions.read' } }, async (req, reply) => {
    const user = req.webUser;
    if (!user) return toLogin(req, reply);
    const list = parseListQuery(req.query);
    const notice: Notice = list.errors.length ? { kind: 'error', text: 'Some filters were not understood and are ignored:', details: list.errors } : null;
    return sendList(req, reply, user, list, notice, list.errors.length ? 422 : 200);
  });

  app.get('/sessions', { schema: { hide: true }, config: { access: 'public' } }, async (req, reply) => {
    const q = req.url.indexOf('?');
    return reply.redirect(q >= 0 ? `/${req.url.slice(q)}` : '/', 301);
  });

  app.post('/sessions', { schema: { hide: true }, config: { access: 'sessions.upload' } }, async (req, reply) => {
    const user = req.webUser;
    if (!user) return reply.redirect('/login', 303);
    const empty = parseListQuery({});
    if (!req.isMultipart()) {
      return sendList(req, reply, user, empty, { kind: 'error', text: 'The upload was refused: send the form as multipart/form-data.' }, 415);
    }
    let form;
    try {
      form = await readUploadForm(req, { uploads: services.sessions.logStore, maxBytes: config.maxUploadBytes, metrics, extraFields: [CSRF_FIELD], emptyMeansAbsent: true });
    } catch (error) {
      metrics.uploads.inc({ result: error instanceof HttpProblem ? 'rejected' : 'aborted' });
      const p = refusedStatus(error);
      if (p.status >= 500) throw error;
      for (const [name, value] of Object.entries(p.headers)) reply.header(name, value);
      return sendList(req, reply, user, empty, uploadNotice(p), p.status);
    }
    const { extra, ...upload } = form;
    if (!csrfTokensMatch(user.csrfToken, extra.get(CSRF_FIELD))) {
      await upload.sink.abort();
      metrics.uploads.inc({ result: 'rejected' });
      // The form was made for another sign-in than the cookie now carries: the cookie may have
      // been replaced by another site on this host (docs/security.md, "Cookie isolation"). A
      // new form under this cookie would send the retry to that account: sign this cookie out
      // and offer no form; signing in again puts the member back in their own account.
      req.log.info('upload refused: its form belongs to another sign-in; the cookie is signed out');
      await services.webAuth.signOut(user.sessionId);
      clearCookie(reply, config, cookieNames(config).session);
      req.webUser = null;
      return sendErrorPage(req, reply, 403, {
        title: 'This upload form belongs to another sign-in',
        message: 'Your sign-in changed after the page was loaded (another tab, or another site on this host replacing your cookie), so nothing was uploaded and this browser was signed out. Sign in again, check the email shown at the top, and upload again.',
      });
    }
    const result = await services.sessions.acceptUpload({ accountId: user.accountId, ...upload, idempotencyKey: null, maxAttempts: config.analysis.maxAttempts });
    if (result.kind !== 'created') throw new Error('an upload without an idempotency key cannot be a replay');
    metrics.uploads.inc({ result: 'accepted' });
    app.deps.onJobEnqueued?.();
    return reply.redirect(`/r/${result.session.id}`, 303);
  });
};

export default sessionRoutes;
