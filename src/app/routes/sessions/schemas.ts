// TypeBox schemas of the sessions API: they validate requests (→ 422 with pointers), serialise
// responses, and are what /v1/openapi.json publishes — with the media types, headers and
// examples of every response, so that the document says exactly what the server does.
import { Type } from '@sinclair/typebox';
import type { Static, TSchema } from '@sinclair/typebox';
import { IDEMPOTENCY_KEY_MAX, REPO_MAX } from '../../../services/sessions.ts';
import { describePattern } from '../../problem.ts';
import { AgentSchema, Nullable, OutcomeSchema, StringEnum } from './report-schemas.ts';

export { ReportSchema, REPORT_COMPONENTS } from './report-schemas.ts';

export const StatusSchema = StringEnum(['analyzing', 'complete', 'failed'] as const);

/** Session ids are "ses_" + a ULID (Crockford base32); any other id cannot exist (→ 404). */
export const SESSION_ID_PATTERN = '^ses_[0-9A-HJKMNP-TV-Z]{26}$';
const SessionId = Type.String({ pattern: SESSION_ID_PATTERN, description: 'Session id, "ses_" + a time-ordered ULID', examples: ['ses_01JD8X5Q7M3K9V2N4P6R8T0W1Y'] });

/**
 * Repository names: 1–200 printable characters without leading or trailing white space (no
 * control characters: C0, DEL, C1). services/sessions.ts repoProblem() says the same in code.
 */
export const REPO_PATTERN = describePattern(
  '^(?!\\s)[^\\u0000-\\u001f\\u007f-\\u009f]*(?<!\\s)$',
  'must be printable characters (no control characters such as NUL), without leading or trailing spaces',
);
const Repo = Type.String({ minLength: 1, maxLength: REPO_MAX, pattern: REPO_PATTERN, examples: ['acme/api'] });

export const SessionSchema = Type.Object(
  {
    id: SessionId,
    status: StatusSchema,
    agent: Nullable(AgentSchema),
    repo: Nullable(Type.String()),
    branch: Nullable(Type.String()),
    filename: Type.String({ examples: ['3f2a9c1e.jsonl'] }),
    size_bytes: Type.Integer({ minimum: 0 }),
    sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
    created_at: Type.String({ format: 'date-time' }),
    completed_at: Nullable(Type.String({ format: 'date-time' })),
    trust_score: Nullable(Type.Integer({ minimum: 0, maximum: 100 })),
    outcome: Nullable(OutcomeSchema),
    findings_count: Nullable(Type.Ref('FindingsCount')),
    report_url: Type.String({ format: 'uri', description: 'The report page (sign-in required)' }),
    failure_reason: Nullable(Type.String()),
  },
  { $id: 'Session', additionalProperties: false },
);

export const SessionListSchema = Type.Object(
  {
    data: Type.Array(Type.Ref('Session')),
    page: Type.Integer({ minimum: 1 }),
    limit: Type.Integer({ minimum: 1, maximum: 100 }),
    total: Type.Integer({ minimum: 0 }),
    has_more: Type.Boolean(),
  },
  { $id: 'SessionList', additionalProperties: false },
);

export const LIMIT_DEFAULT = 20;
export const PAGE_MAX = 1_000_000;

export const ListQuerySchema = Type.Object({
  repo: Type.Optional(Repo),
  agent: Type.Optional(AgentSchema),
  outcome: Type.Optional(OutcomeSchema),
  status: Type.Optional(StatusSchema),
  created_after: Type.Optional(Type.String({ format: 'date-time', description: 'Inclusive; RFC 3339 (leap seconds are refused)', examples: ['2026-11-01T00:00:00Z'] })),
  created_before: Type.Optional(Type.String({ format: 'date-time', description: 'Exclusive; RFC 3339 (leap seconds are refused)' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: LIMIT_DEFAULT, description: 'Page size (decimal digits only)' })),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: PAGE_MAX, default: 1, description: 'Page number from 1 (decimal digits only)' })),
});
export type ListQuery = Static<typeof ListQuerySchema>;

export const IdParamsSchema = Type.Object({ id: SessionId });
export type IdParams = Static<typeof IdParamsSchema>;

export const UploadHeadersSchema = Type.Object({
  'Idempotency-Key': Type.Optional(Type.String({
    minLength: 1,
    maxLength: IDEMPOTENCY_KEY_MAX,
    pattern: '^[\\x21-\\x7e]+$',
    description: 'Makes a retried upload return the first response (kept for VOUCH_IDEMPOTENCY_RETENTION_MS); reusing it for a different upload is 422 idempotency_key_reused',
    examples: ['ci-run-4711-attempt'],
  })),
});

export const RedactedSchema = Type.Object(
  { redacted: Type.Integer({ minimum: 0, description: 'Secrets masked by this call (0 when the stored log had none left)' }) },
  { additionalProperties: false, examples: [{ redacted: 3 }] },
);
export const AnalyzingSchema = Type.Object(
  { session_id: SessionId, status: Type.Literal('analyzing') },
  { $id: 'Analyzing', additionalProperties: false },
);

export const ProblemSchema = Type.Object(
  {
    type: Type.String({ format: 'uri', description: 'A page that explains the code: <public url>/problems/<code>' }),
    title: Type.String(),
    status: Type.Integer({ minimum: 400, maximum: 599 }),
    detail: Type.String(),
    code: Type.String({ description: 'Stable machine-readable error code (docs/errors.md)', examples: ['validation_failed'] }),
    request_id: Type.String({ description: 'Also in the Request-Id header and in our logs' }),
    errors: Type.Optional(Type.Array(Type.Object({
      pointer: Type.String({ description: 'JSON Pointer into the request', examples: ['/query/limit'] }),
      detail: Type.String(),
    }, { additionalProperties: false }))),
  },
  {
    $id: 'Problem',
    additionalProperties: true,
    description: 'RFC 9457 problem details; some codes add members (analysis_failed: session_id, reason; payload_too_large: max_bytes)',
    examples: [{
      type: 'https://vouch.example/problems/validation_failed', title: 'Validation failed', status: 422,
      detail: '/query/limit: must be <= 100', code: 'validation_failed', request_id: 'req_Yc2kQ1a9b',
      errors: [{ pointer: '/query/limit', detail: 'must be <= 100' }],
    }],
  },
);

// ---- response headers ----
const header = (description: string, schema: Record<string, unknown> = { type: 'string' }) => ({ ...schema, description });

const REQUEST_ID = { 'Request-Id': header('Identifies this request (also in problem bodies and our logs)') };
const RATE_LIMIT = {
  'RateLimit-Policy': header('The per-key quota, e.g. "per-key";q=1200;w=60'),
  RateLimit: header('What is left of the quota, e.g. "per-key";r=1187;t=42'),
};
export const HEADERS = {
  link: { Link: header('RFC 8288 links to the first, prev, next and last pages, keeping the filters') },
  location: { Location: header('The new session: /v1/sessions/{id}') },
  replayed: { 'Idempotent-Replayed': header('"true" when this is the stored answer to an earlier upload with the same Idempotency-Key') },
  retryAfter: { 'Retry-After': header('Seconds to wait before asking again', { type: 'integer', minimum: 1 }) },
  wwwAuthenticate: { 'WWW-Authenticate': header('Bearer realm="vouch" (with error="invalid_token" for a bad key)') },
  contentDisposition: { 'Content-Disposition': header('attachment; filename="<session id>.log"') },
};

type Headers = Record<string, Record<string, unknown>>;

/** A JSON response: its schema under application/json, with the headers it carries. */
export function jsonResponse(description: string, schema: TSchema, headers: Headers = {}) {
  return { description, headers: { ...REQUEST_ID, ...RATE_LIMIT, ...headers }, content: { 'application/json': { schema } } };
}

export function textResponse(description: string, headers: Headers = {}) {
  return { description, headers: { ...REQUEST_ID, ...RATE_LIMIT, ...headers }, content: { 'text/plain': { schema: Type.String() } } };
}

export function emptyResponse(description: string) {
  return { type: 'null', description, headers: { ...REQUEST_ID, ...RATE_LIMIT } };
}

/**
 * An error response: always the shared Problem component, as application/problem+json. Errors
 * found after authentication carry the caller's RateLimit headers too; `beforeAuth` ones do not.
 */
export function problemResponse(description: string, headers: Headers = {}, beforeAuth = false) {
  return {
    description,
    headers: { ...REQUEST_ID, ...(beforeAuth ? {} : RATE_LIMIT), ...headers },
    content: { 'application/problem+json': { schema: Type.Ref('Problem') } },
  };
}

/** Errors every /v1 operation can answer. */
export const commonErrors = {
  400: problemResponse('bad_request or malformed_body: the request could not be parsed (bad percent-encoding, Content-Length or body)'),
  401: problemResponse('unauthorized: no, a malformed, an unknown or a revoked API key', HEADERS.wwwAuthenticate, true),
  403: problemResponse('insufficient_scope: the key lacks the scope this operation needs (`required_scope` names it; see `security`)', HEADERS.wwwAuthenticate),
  429: problemResponse('rate_limited: the per-key quota is used up', HEADERS.retryAfter),
  503: problemResponse('service_unavailable: the database (or object store) is unreachable right now; retry the same request after Retry-After', HEADERS.retryAfter),
};

/** Errors of operations on one session (the id is in the path). */
export const sessionErrors = {
  ...commonErrors,
  404: problemResponse('not_found: no session with this id in your account (another account\'s session is the same 404)'),
  414: problemResponse('uri_too_long: the id in the path is longer than 200 characters', {}, true),
};

/** Component schemas the routes refer to by $ref, registered once on the app. */
export const API_COMPONENTS: TSchema[] = [SessionSchema, SessionListSchema, AnalyzingSchema, ProblemSchema];
