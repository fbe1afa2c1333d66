// Settings → Audit log (owners and admins): the page with filters and paging, and the JSONL
// export of everything the filters select, streamed in batches (services/audit.ts).
import { Readable } from 'node:stream';
import type { FastifyPluginAsync } from 'fastify';
import { isAuditAction } from '../../../../services/audit.ts';
import type { AuditFilters } from '../../../../services/audit.ts';
import { sendPage } from '../../../web/page.tsx';
import { AuditLogPage } from '../../../web/settings/audit-log.tsx';
import type { AuditFilterValues } from '../../../web/settings/audit-log.tsx';
import type { WebUser } from '../../../types.ts';

const opts = { schema: { hide: true }, config: { access: 'audit.read' as const } };
const PAGE_SIZE = 50;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const ACTOR = /^(usr|key)_[0-9A-HJKMNP-TV-Z]{26}$/;

type RawQuery = Partial<Record<'action' | 'actor' | 'from' | 'to' | 'page', unknown>>;

const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v.slice(0, 100) : undefined);

function dayStart(day: string): string | null {
  const ms = Date.parse(`${day}T00:00:00.000Z`);
  return DAY.test(day) && Number.isFinite(ms) ? new Date(ms).toISOString() : null;
}

/** The filters of the query; an invalid value is reported and ignored (a page, not an API). */
export function parseAuditQuery(q: RawQuery): { values: AuditFilterValues; filters: AuditFilters; page: number; errors: string[] } {
  const values: AuditFilterValues = {};
  const filters: AuditFilters = {};
  const errors: string[] = [];
  const action = text(q.action);
  if (action !== undefined) {
    if (isAuditAction(action)) filters.action = values.action = action;
    else errors.push('Unknown event.');
  }
  const actor = text(q.actor);
  if (actor !== undefined) {
    if (ACTOR.test(actor)) filters.actorId = values.actor = actor;
    else errors.push('Unknown actor.');
  }
  for (const [name, bound] of [['from', 'after'], ['to', 'before']] as const) {
    const day = text(q[name]);
    if (day === undefined) continue;
    const start = dayStart(day);
    if (start === null) {
      errors.push(`${name === 'from' ? 'From' : 'To'} must be a date (YYYY-MM-DD).`);
      continue;
    }
    values[name] = day;
    // "To" includes its whole day: events before the start of the next one.
    filters[bound] = bound === 'after' ? start : new Date(Date.parse(start) + 86_400_000).toISOString();
  }
  const pageText = text(q.page);
  const page = pageText && /^\d{1,6}$/.test(pageText) && Number(pageText) >= 1 ? Number(pageText) : 1;
  return { values, filters, page, errors };
}

const auditRoutes: FastifyPluginAsync = async (app) => {
  const { services } = app.deps;
  const member = (u: WebUser | null) => u as WebUser; // access.ts sent visitors away

  app.get<{ Querystring: RawQuery }>('/', opts, async (req, reply) => {
    const user = member(req.webUser);
    const { values, filters, page, errors } = parseAuditQuery(req.query ?? {});
    const [{ rows, total }, members] = await Promise.all([
      services.audit.listAuditPage(user.accountId, { ...filters, limit: PAGE_SIZE, page }),
      services.members.listMembers(user.accountId),
    ]);
    const pageCount = Math.max(1, Math.ceil(total / PAGE_SIZE));
    return sendPage(reply, <AuditLogPage user={user} rows={rows} members={members} filters={values} page={page} pageCount={pageCount} total={total} errors={errors} />, errors.length ? 422 : 200);
  });

  app.get<{ Querystring: RawQuery }>('/export.jsonl', opts, async (req, reply) => {
    const user = member(req.webUser);
    const { filters } = parseAuditQuery(req.query ?? {});
    const day = new Date().toISOString().slice(0, 10);
    return reply
      .type('application/x-ndjson; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('content-disposition', `attachment; filename="vouch-audit-${day}.jsonl"`)
      .send(Readable.from(services.audit.exportAuditJsonl(user.accountId, filters)));
  });
};

export default auditRoutes;
