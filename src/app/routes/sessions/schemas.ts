// TypeBox schemas of the sessions API: they validate requests (→ 422 with pointers), serialise
// responses, and are what /v1/openapi.json publishes.
import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { AGENT_IDS } from '../../../domain/model/events.ts';
import { REPO_MAX } from '../../../services/sessions.ts';

const literals = <T extends string>(values: readonly T[]) => Type.Union(values.map((v) => Type.Literal(v)));

export const AgentSchema = literals(AGENT_IDS);
export const StatusSchema = literals(['analyzing', 'complete', 'failed'] as const);
export const OutcomeSchema = literals(['Clear', 'Review', 'Blocked'] as const);

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

export const FindingsCountSchema = Type.Object({
  critical: Type.Integer(),
  warning: Type.Integer(),
  info: Type.Integer(),
});

export const SessionSchema = Type.Object(
  {
    id: Type.String({ description: 'Session id, "ses_" + a time-ordered ULID' }),
    status: StatusSchema,
    agent: Nullable(Type.String()),
    repo: Nullable(Type.String()),
    branch: Nullable(Type.String()),
    filename: Type.String(),
    size_bytes: Type.Integer(),
    sha256: Type.String(),
    created_at: Type.String({ format: 'date-time' }),
    completed_at: Nullable(Type.String({ format: 'date-time' })),
    trust_score: Nullable(Type.Integer({ minimum: 0, maximum: 100 })),
    outcome: Nullable(OutcomeSchema),
    findings_count: Nullable(FindingsCountSchema),
    report_url: Type.String({ format: 'uri' }),
    failure_reason: Nullable(Type.String()),
  },
  { $id: 'Session' },
);

export const SessionListSchema = Type.Object({
  data: Type.Array(Type.Ref('Session')),
  page: Type.Integer(),
  limit: Type.Integer(),
  total: Type.Integer(),
  has_more: Type.Boolean(),
});

export const ListQuerySchema = Type.Object({
  repo: Type.Optional(Type.String({ minLength: 1, maxLength: REPO_MAX })),
  agent: Type.Optional(AgentSchema),
  outcome: Type.Optional(OutcomeSchema),
  status: Type.Optional(StatusSchema),
  created_after: Type.Optional(Type.String({ format: 'date-time', description: 'inclusive' })),
  created_before: Type.Optional(Type.String({ format: 'date-time', description: 'exclusive' })),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
  page: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 }),
});
export type ListQuery = Static<typeof ListQuerySchema>;

export const IdParamsSchema = Type.Object({ id: Type.String({ description: 'Session id' }) });
export type IdParams = Static<typeof IdParamsSchema>;

export const AnalyzingSchema = Type.Object({
  session_id: Type.String(),
  status: Type.Literal('analyzing'),
});

export const RedactedSchema = Type.Object({
  redacted: Type.Integer({ minimum: 0, description: 'Secrets masked by this call (0 when the stored log had none left)' }),
});

export const ProblemSchema = Type.Object(
  {
    type: Type.String(),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    code: Type.String({ description: 'Stable machine-readable error code' }),
    request_id: Type.String(),
    errors: Type.Optional(Type.Array(Type.Object({ pointer: Type.String(), detail: Type.String() }))),
  },
  { $id: 'Problem', additionalProperties: true },
);

export const ReportSchema = Type.Object(
  {
    session_id: Type.String(),
    report_id: Type.String(),
    status: Type.Literal('complete'),
    trust_score: Type.Integer({ minimum: 0, maximum: 100 }),
    outcome: OutcomeSchema,
    headline: Type.String(),
    reason: Type.String(),
    summary: Type.String(),
    findings_count: FindingsCountSchema,
    findings: Type.Array(Type.Object({}, { additionalProperties: true })),
    timeline: Type.Array(Type.Object({}, { additionalProperties: true })),
  },
  { additionalProperties: true, description: 'The report object (PRODUCT.md §4)' },
);

/** Error responses every /v1 route can give, for the OpenAPI document. */
export const commonErrors = {
  401: Type.Ref('Problem'),
  429: Type.Ref('Problem'),
};
