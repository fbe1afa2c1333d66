// Pages for signed-in members: the home page (latest sessions) and the report page at
// report_url (/r/:id). Visitors are sent to sign in; a member of another account gets the same
// 404 as for an id that does not exist.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { renderReportHtml } from '../../../domain/render/html.ts';
import type { Report } from '../../../domain/model/report.ts';
import type { Session } from '../../../adapters/db/schema.ts';
import { findReport, findSession } from '../../../services/sessions.ts';
import { listSessionPage } from '../../../services/session-list.ts';
import { csrfField } from '../../web/csrf.ts';
import { html } from '../../web/html.ts';
import { errorPage, newNonce, page, sendHtml } from '../../web/layout.ts';
import type { WebUser } from '../../types.ts';

/** Sends a visitor to sign in, coming back here afterwards. */
function toLogin(req: FastifyRequest, reply: FastifyReply): FastifyReply {
  return reply.redirect(`/login?next=${encodeURIComponent(req.url)}`, 303);
}

function sendNotFound(reply: FastifyReply, user: WebUser): FastifyReply {
  const { markup, nonce } = errorPage(404, 'Not found', 'There is no report with this id in your account.', user);
  return sendHtml(reply, 404, markup, nonce);
}

function progressPage(reply: FastifyReply, user: WebUser, session: Session): FastifyReply {
  const nonce = newNonce();
  const body = html`<h1>Analysing…</h1>
<p>The log <strong>${session.filename}</strong> is being analysed. This page refreshes itself every few seconds.</p>
<p class="muted">Session ${session.id}</p>`;
  return sendHtml(reply, 200, page({ title: 'Analysing', nonce, body, user, refreshSeconds: 2 }), nonce);
}

function failedPage(reply: FastifyReply, user: WebUser, session: Session, reason: string): FastifyReply {
  const nonce = newNonce();
  const body = html`<h1>The analysis failed</h1>
<p>The log <strong>${session.filename}</strong> could not be analysed: ${reason}</p>
<p class="muted">Session ${session.id}</p>`;
  return sendHtml(reply, 200, page({ title: 'Analysis failed', nonce, body, user }), nonce);
}

function navHtml(user: WebUser): string {
  return html`<nav class="vouch-nav"><a href="/">Vouch</a> · ${user.email} ·
<form method="post" action="/logout">${csrfField(user.csrfToken)}<button type="submit">Sign out</button></form></nav>`.value;
}

function reportPage(reply: FastifyReply, user: WebUser, json: string): FastifyReply {
  const nonce = newNonce();
  const markup = renderReportHtml(JSON.parse(json) as Report, { nonce, headerHtml: navHtml(user) });
  return sendHtml(reply, 200, markup, nonce);
}

const pageRoutes: FastifyPluginAsync = async (plain) => {
  const app = plain.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.deps;

  app.get('/r/:id', { schema: { hide: true, params: Type.Object({ id: Type.String() }) } }, async (req, reply) => {
    const user = req.webUser;
    if (!user) return toLogin(req, reply);
    const session = await findSession(db.kysely, user.accountId, req.params.id);
    if (!session) return sendNotFound(reply, user);
    const found = await findReport(db.kysely, user.accountId, session.id);
    if (!found || found.state === 'analyzing') return progressPage(reply, user, session);
    if (found.state === 'failed') return failedPage(reply, user, session, found.reason);
    return reportPage(reply, user, found.json);
  });

  app.get('/', { schema: { hide: true } }, async (req, reply) => {
    const user = req.webUser;
    if (!user) return toLogin(req, reply);
    const { rows } = await listSessionPage(db.kysely, user.accountId, { limit: 20, page: 1 });
    const nonce = newNonce();
    const items = rows.map((s) => html`<li><a href="/r/${s.id}">${s.repo ?? s.filename}</a>
      <span class="muted">${s.status === 'complete' ? `${s.outcome} · ${s.trust_score}` : s.status} · ${s.created_at}</span></li>`);
    const body = html`<h1>Sessions</h1>${rows.length ? html`<ul>${items}</ul>` : html`<p class="muted">No sessions yet. Upload one with <code>vouch upload FILE</code>.</p>`}`;
    return sendHtml(reply, 200, page({ title: 'Sessions', nonce, body, user }), nonce);
  });
};

export default pageRoutes;
