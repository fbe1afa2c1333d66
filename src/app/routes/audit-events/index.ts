// GET /v1/audit-events: the account's audit log for its API keys (the same events as Settings →
// Audit log), newest first, paged and filtered like GET /v1/sessions (limit/page, Link header,
// 422 problems with pointers). Registered inside the /v1 scope: bearer key and per-key limit.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { AUDIT_ACTIONS } from '../../../services/audit.ts';
import type { AuditAction } from '../../../services/audit.ts';
import { Nullable, StringEnum } from '../sessions/report-schemas.ts';
import { LIMIT_DEFAULT, PAGE_MAX, commonErrors, jsonResponse, problemResponse, HEADERS } from '../sessions/schemas.ts';
import { needsScope } from '../../plugins/app/api-auth.ts';
import { instantOrProblem, listQueryChecks, pageLinks } from '../sessions/list-query.ts';

const ACTIONS = Object.keys(AUDIT_ACTIONS) as AuditAction[];
const EntityId = Type.String({ maxLength: 40, pattern: '^[a-z]{2,4}_[0-9A-HJKMNP-TV-Z]{26}$', description: 'A prefixed id: usr_…, key_…, wh_…, inv_…, ses_…' });
const Detail = Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]);

export const AuditEventSchema = Type.Object(
  {
    id: Type.String({ pattern: '^aud_[0-9A-HJKMNP-TV-Z]{26}$', examples: ['aud_01JD8X5Q7M3K9V2N4P6R8T0W1Y'] }),
    occurred_at: Type.String({ format: 'date-time' }),
    action: StringEnum(ACTIONS, { description: 'What happened (docs/security.md lists every event)' }),
    actor: Type.Object({
      type: StringEnum(['user', 'key', 'operator', 'anonymous'] as const, { description: 'A member, an API key, the operator\'s command line, or nobody signed in (a failed sign-in)' }),
      id: Nullable(Type.String()),
      label: Nullable(Type.String({ description: 'The member\'s email or the key\'s prefix…last 4' })),
    }, { additionalProperties: false }),
    source_ip: Nullable(Type.String({ description: 'The client address the request came from (null for the command line)' })),
    target: Nullable(Type.Object({
      type: StringEnum(['account', 'user', 'key', 'webhook', 'invitation', 'session', 'delivery'] as const),
      id: Type.String(),
      label: Nullable(Type.String({ description: 'An email, a key\'s prefix…last 4, a webhook\'s origin, a file name' })),
    }, { additionalProperties: false })),
    details: Type.Record(Type.String(), Detail, { description: 'What changed: names, counts, roles; never a secret' }),
  },
  { $id: 'AuditEvent', additionalProperties: false },
);

export const AuditEventListSchema = Type.Object(
  {
    data: Type.Array(Type.Ref('AuditEvent')),
    page: Type.Integer({ minimum: 1 }),
    limit: Type.Integer({ minimum: 1, maximum: 100 }),
    total: Type.Integer({ minimum: 0 }),
    has_more: Type.Boolean(),
  },
  { $id: 'AuditEventList', additionalProperties: false },
);

export const AUDIT_COMPONENTS = [AuditEventSchema, AuditEventListSchema];

const AuditQuerySchema = Type.Object({
  action: Type.Optional(StringEnum(ACTIONS)),
  actor_id: Type.Optional(EntityId),
  target_id: Type.Optional(EntityId),
  occurred_after: Type.Optional(Type.String({ format: 'date-time', description: 'Inclusive; RFC 3339', examples: ['2026-11-01T00:00:00Z'] })),
  occurred_before: Type.Optional(Type.String({ format: 'date-time', description: 'Exclusive; RFC 3339' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: LIMIT_DEFAULT, description: 'Page size (decimal digits only)' })),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: PAGE_MAX, default: 1, description: 'Page number from 1 (decimal digits only)' })),
});
type AuditQuery = Static<typeof AuditQuerySchema>;

const auditEventRoutes: FastifyPluginAsync = async (plain) => {
  const app = plain.withTypeProvider<TypeBoxTypeProvider>();
  const { config, services } = app.deps;

  app.get('/', {
    config: { scope: 'audit:read' },
    schema: {
      operationId: 'listAuditEvents',
      ...needsScope('audit:read'),
      tags: ['audit'],
      summary: 'The account\'s audit log, newest first',
      description: 'Sign-ins, API keys, webhooks, members and roles, redacted or deleted logs: who, when, from which address, on what. Events never hold a secret.',
      querystring: AuditQuerySchema,
      response: {
        200: jsonResponse('One page of audit events', Type.Ref('AuditEventList'), HEADERS.link),
        422: problemResponse('validation_failed: a paging parameter or filter is invalid (errors[] points at it)'),
        ...commonErrors,
      },
    },
    preValidation: listQueryChecks,
  }, async (req, reply) => {
    const query = req.query as AuditQuery;
    const q = { ...query, limit: query.limit ?? LIMIT_DEFAULT, page: query.page ?? 1 };
    const accountId = req.caller?.accountId;
    if (!accountId) throw new Error('audit route reached without an authenticated caller');
    const { rows, total } = await services.audit.listAuditPage(accountId, {
      action: q.action, actorId: q.actor_id, targetId: q.target_id,
      after: instantOrProblem(q.occurred_after, 'occurred_after'), before: instantOrProblem(q.occurred_before, 'occurred_before'),
      limit: q.limit, page: q.page,
    });
    reply.header('link', pageLinks(`${config.publicUrl}/v1/audit-events`, q, total));
    return { data: rows, page: q.page, limit: q.limit, total, has_more: q.page * q.limit < total };
  });
};

export default auditEventRoutes;
