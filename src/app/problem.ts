// RFC 9457 problem details: the one shape of every error the HTTP app returns. Routes throw an
// HttpProblem; anything else thrown (Fastify's own errors, plugin errors, bugs) is translated
// by toProblem() so that a client never sees a stack trace or an HTML error page.
import { FAULT_RETRY_AFTER_S, classifyFault } from '../kernel/faults.ts';
import type { Fault } from '../kernel/faults.ts';

export interface FieldError {
  /** JSON Pointer into the request: "/query/limit", "/body/repo", "/headers/idempotency-key". */
  pointer: string;
  detail: string;
}

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  request_id: string;
  errors?: FieldError[];
  [extension: string]: unknown;
}

const TITLES: Record<string, string> = {
  bad_request: 'Bad request',
  uri_too_long: 'URI too long',
  headers_too_large: 'Request header fields too large',
  request_timeout: 'Request timeout',
  malformed_body: 'Malformed request body',
  unauthorized: 'Authentication required',
  forbidden: 'Forbidden',
  insufficient_scope: 'Insufficient scope',
  not_found: 'Not found',
  method_not_allowed: 'Method not allowed',
  conflict: 'Conflict',
  idempotency_key_reused: 'Idempotency key reused',
  payload_too_large: 'Payload too large',
  unsupported_media_type: 'Unsupported media type',
  unsupported_file_type: 'Unsupported file type',
  validation_failed: 'Validation failed',
  invalid_agent: 'Invalid agent',
  missing_file: 'Missing file',
  duplicate_file: 'More than one file',
  empty_file: 'Empty file',
  rate_limited: 'Too many requests',
  analysis_failed: 'Analysis failed',
  analysis_running: 'Analysis still running',
  not_ready: 'Not ready',
  service_unavailable: 'Service unavailable',
  insufficient_storage: 'Insufficient storage',
  internal_error: 'Internal server error',
};

/** Every code the API answers with (each has a page at <public url>/problems/<code>). */
export const PROBLEM_CODES: readonly string[] = Object.keys(TITLES);

export function titleFor(code: string): string {
  return TITLES[code] ?? 'Error';
}

export class HttpProblem extends Error {
  readonly status: number;
  readonly code: string;
  readonly errors?: FieldError[];
  readonly headers: Record<string, string>;
  readonly extensions: Record<string, unknown>;
  /** The dependency fault this problem answers (never sent; for logging once per outage). */
  readonly fault?: Fault;

  constructor(
    status: number,
    code: string,
    detail: string,
    opts: { errors?: FieldError[]; headers?: Record<string, string>; extensions?: Record<string, unknown>; fault?: Fault } = {},
  ) {
    super(detail);
    this.name = 'HttpProblem';
    this.status = status;
    this.code = code;
    this.errors = opts.errors;
    this.headers = opts.headers ?? {};
    this.extensions = opts.extensions ?? {};
    this.fault = opts.fault;
  }
}

export const notFound = (what = 'resource') => new HttpProblem(404, 'not_found', `No ${what} with this id exists.`);

export function validationFailed(errors: FieldError[], code = 'validation_failed'): HttpProblem {
  const detail = errors.map((e) => `${e.pointer}: ${e.detail}`).join('; ');
  return new HttpProblem(422, code, detail || 'The request is invalid.', { errors });
}

/** The shape of a Fastify/Ajv validation error, as far as we read it. */
interface ValidationItem {
  keyword?: string;
  instancePath?: string;
  message?: string;
  params?: Record<string, unknown>;
}

interface FastifyLikeError {
  code?: string;
  statusCode?: number;
  message?: string;
  validation?: ValidationItem[];
  validationContext?: string;
}

const PART_NAMES: Record<string, string> = { querystring: 'query', body: 'body', params: 'path', headers: 'headers' };

const PATTERN_DETAILS = new Map<string, string>();

/** Says in words what a schema `pattern` requires, instead of showing the regular expression. */
export function describePattern(pattern: string, detail: string): string {
  PATTERN_DETAILS.set(pattern, detail);
  return pattern;
}

/** What one Ajv error says, in words a client can act on (the allowed values, not "constant"). */
function itemDetail(v: ValidationItem): string {
  const allowed = v.params?.allowedValues;
  if (Array.isArray(allowed)) return `must be one of ${allowed.map(String).join(', ')}`;
  const pattern = typeof v.params?.pattern === 'string' ? PATTERN_DETAILS.get(v.params.pattern) : undefined;
  if (pattern) return pattern;
  return v.message ?? 'is invalid';
}

function validationErrors(err: FastifyLikeError): FieldError[] {
  const part = PART_NAMES[err.validationContext ?? 'body'] ?? 'body';
  const seen = new Set<string>();
  const out: FieldError[] = [];
  for (const v of err.validation ?? []) {
    const missing = typeof v.params?.missingProperty === 'string' ? `/${v.params.missingProperty}` : '';
    const error = { pointer: `/${part}${v.instancePath ?? ''}${missing}`, detail: itemDetail(v) };
    // One line per distinct complaint: Ajv repeats itself for unions.
    const id = `${error.pointer}\n${error.detail}`;
    if (!seen.has(id)) out.push(error);
    seen.add(id);
  }
  return out;
}

// Fastify and plugin error codes whose meaning we translate to a stable `code` of our own.
const KNOWN: Record<string, [number, string, string?]> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'unsupported_media_type'],
  FST_INVALID_MULTIPART_CONTENT_TYPE: [415, 'unsupported_media_type'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'payload_too_large'],
  FST_REQ_FILE_TOO_LARGE: [413, 'payload_too_large', 'The file is larger than the upload limit.'],
  FST_PARTS_LIMIT: [422, 'validation_failed', 'Too many parts: send one file and at most the fields agent and repo.'],
  FST_FILES_LIMIT: [422, 'duplicate_file', 'More than one file was sent; send exactly one.'],
  FST_FIELDS_LIMIT: [422, 'validation_failed', 'Too many fields: send one file and at most the fields agent and repo.'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'malformed_body'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'malformed_body'],
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'malformed_body'],
  FST_PROTO_VIOLATION: [400, 'malformed_body'],
  FST_INVALID_JSON_FIELD_ERROR: [400, 'malformed_body'],
  // Neither echoes the path: it can be long, and it is the client's own input anyway.
  FST_ERR_BAD_URL: [400, 'bad_request', 'The URL path is not valid percent-encoding.'],
  FST_ERR_MAX_PARAM_LENGTH: [414, 'uri_too_long', 'A path segment of the URL is longer than 200 characters.'],
  FST_ERR_ASYNC_CONSTRAINT: [400, 'bad_request'],
};

function codeForStatus(status: number): string {
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  if (status === 405) return 'method_not_allowed';
  if (status === 409) return 'conflict';
  if (status === 413) return 'payload_too_large';
  if (status === 414) return 'uri_too_long';
  if (status === 415) return 'unsupported_media_type';
  if (status === 429) return 'rate_limited';
  return status >= 500 ? 'internal_error' : 'bad_request';
}

/**
 * The answer to a dependency's failure: never the client's fault, never the internal message.
 * 503 while something we depend on is unreachable; 507 when storage ran out. Both say when to
 * retry: the request itself was fine. Nothing half-written is kept (the upload path aborts).
 */
export function faultProblem(fault: Fault): HttpProblem {
  const headers = { 'retry-after': String(FAULT_RETRY_AFTER_S) };
  if (fault.kind === 'storage_full') {
    return new HttpProblem(507, 'insufficient_storage', `The service has no storage space left for this request right now; nothing was kept. Retry after ${FAULT_RETRY_AFTER_S} s or later.`, { headers, fault });
  }
  return new HttpProblem(503, 'service_unavailable', `The service cannot reach a system it depends on right now. Retry after ${FAULT_RETRY_AFTER_S} s.`, { headers, fault });
}

/** Any thrown value → an HttpProblem. Messages of server errors are never passed to the client. */
export function toProblem(err: unknown): HttpProblem {
  if (err instanceof HttpProblem) return err;
  const fault = classifyFault(err);
  if (fault) return faultProblem(fault);
  const e = (err ?? {}) as FastifyLikeError;
  // A path id that cannot exist is "not found", exactly like a well-formed id that does not.
  if (Array.isArray(e.validation) && e.validationContext === 'params') return notFound();
  if (Array.isArray(e.validation)) return validationFailed(validationErrors(e));
  const known = e.code ? KNOWN[e.code] : undefined;
  if (known) return new HttpProblem(known[0], known[1], known[2] ?? publicMessage(e, known[0]));
  if (err instanceof SyntaxError && e.statusCode === 400) {
    return new HttpProblem(400, 'malformed_body', 'The request body is not valid JSON.');
  }
  const status = typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 600 ? e.statusCode : 500;
  return new HttpProblem(status, codeForStatus(status), publicMessage(e, status));
}

function publicMessage(e: FastifyLikeError, status: number): string {
  if (status >= 500) return 'The server could not complete the request. Quote the request_id when reporting it.';
  const msg = (e.message ?? '').trim();
  return msg ? msg.charAt(0).toUpperCase() + msg.slice(1) + (msg.endsWith('.') ? '' : '.') : titleFor(codeForStatus(status));
}

export function problemBody(p: HttpProblem, requestId: string, typeBase: string): ProblemBody {
  return {
    type: `${typeBase}/problems/${p.code}`,
    title: titleFor(p.code),
    status: p.status,
    detail: p.message,
    code: p.code,
    request_id: requestId,
    ...(p.errors ? { errors: p.errors } : {}),
    ...p.extensions,
  };
}
