// `vouch/webhooks`: what a receiver of Vouch webhooks needs, with no dependency beyond
// node:crypto (so it can be copied into any Node.js service).
//
//   verifyServiceSignature(secret, rawBody, req.headers['x-service-signature'])
//   verifyStandardWebhook(secret, rawBody, req.headers)            // replay-protected
//   parseAnalysisComplete(JSON.parse(rawBody))                      // shapes A, B, C → one type
//
// Always verify the RAW body bytes as received, before any JSON parsing or re-serialisation.
// Deliveries are at-least-once: use `x-service-delivery` (= `webhook-id`) as an idempotency key.
import { createHmac, timingSafeEqual } from 'node:crypto';

export type RawBody = string | Uint8Array;

/** Header bag: Node's IncomingHttpHeaders, a plain object, or a fetch `Headers`. */
export type HeaderSource = { get(name: string): string | null } | Record<string, string | string[] | undefined>;

function sameBytes(a: Buffer, b: Buffer): boolean {
  // Lengths are public (every valid signature has the same length); contents are compared in
  // constant time.
  return a.length === b.length && timingSafeEqual(a, b);
}

function toBuffer(raw: RawBody): Buffer {
  return typeof raw === 'string' ? Buffer.from(raw, 'utf8') : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
}

/** Checks `X-Service-Signature: sha256=<hex HMAC-SHA256(secret as UTF-8, raw body)>`. */
export function verifyServiceSignature(secret: string, rawBody: RawBody, header: string | string[] | null | undefined): boolean {
  const value = Array.isArray(header) ? header[0] : header;
  if (!secret || typeof value !== 'string' || !value.startsWith('sha256=')) return false;
  const expected = createHmac('sha256', Buffer.from(secret, 'utf8')).update(toBuffer(rawBody)).digest();
  const hex = value.slice('sha256='.length).trim();
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) return false;
  return sameBytes(expected, Buffer.from(hex, 'hex'));
}

const STRICT_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** `whsec_<base64>` secrets sign with their decoded bytes; any other secret with its UTF-8 bytes. */
function standardKey(secret: string): Buffer {
  const encoded = secret.startsWith('whsec_') ? secret.slice(6) : '';
  return encoded && STRICT_BASE64.test(encoded) ? Buffer.from(encoded, 'base64') : Buffer.from(secret, 'utf8');
}

function header(headers: HeaderSource, name: string): string | undefined {
  if (typeof (headers as { get?: unknown }).get === 'function') {
    return (headers as { get(n: string): string | null }).get(name) ?? undefined;
  }
  const bag = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(bag).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : bag[key];
  return Array.isArray(value) ? value.join(' ') : value;
}

export interface StandardWebhookOptions {
  /** Largest accepted distance between webhook-timestamp and now (replay window). */
  toleranceSeconds?: number;
  /** The receiver's clock: a Date or milliseconds since the epoch (tests). */
  now?: Date | number;
}

/**
 * Checks the Standard Webhooks headers (`webhook-id`, `webhook-timestamp`, `webhook-signature`):
 * the timestamp must be within the tolerance, and one `v1,` signature over
 * "<id>.<timestamp>.<raw body>" must match.
 */
export function verifyStandardWebhook(secret: string, rawBody: RawBody, headers: HeaderSource, options: StandardWebhookOptions = {}): boolean {
  const id = header(headers, 'webhook-id');
  const ts = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!secret || !id || !ts || !signatures || !/^\d{1,12}$/.test(ts)) return false;
  const nowMs = options.now === undefined ? Date.now() : Number(options.now);
  if (Math.abs(nowMs / 1000 - Number(ts)) > (options.toleranceSeconds ?? 300)) return false;
  const expected = createHmac('sha256', standardKey(secret)).update(`${id}.${ts}.`).update(toBuffer(rawBody)).digest();
  return signatures
    .split(' ')
    .filter((s) => s.startsWith('v1,'))
    .some((s) => sameBytes(expected, Buffer.from(s.slice(3), 'base64')));
}

export type PayloadShape = 'A' | 'B' | 'C';

/** Every shape of `analysis.complete`, normalised. Fields a shape does not carry are null. */
export interface NormalisedEvent {
  event: 'analysis.complete';
  shape: PayloadShape;
  sessionId: string | null;
  reportId: string | null;
  orgId: string | null;
  reportUrl: string;
  trustScore: number | null;
  outcome: 'Clear' | 'Review' | 'Blocked' | null;
  headline: string | null;
  reason: string | null;
  summary: string | null;
  agent: string;
  /** "" (unknown) is normalised to null. */
  repo: string | null;
  branch: string | null;
  findingsCount: { critical: number; warning: number; info: number } | null;
}

export class WebhookPayloadError extends Error {
  constructor(message: string) {
    super(`not a Vouch analysis.complete payload: ${message}`);
    this.name = 'WebhookPayloadError';
  }
}

type Obj = Record<string, unknown>;

function str(o: Obj, key: string): string {
  if (typeof o[key] !== 'string') throw new WebhookPayloadError(`"${key}" must be a string`);
  return o[key] as string;
}

function int(o: Obj, key: string): number {
  if (!Number.isInteger(o[key])) throw new WebhookPayloadError(`"${key}" must be an integer`);
  return o[key] as number;
}

function optional(value: string): string | null {
  return value === '' ? null : value;
}

function outcome(o: Obj): NormalisedEvent['outcome'] {
  const v = str(o, 'outcome');
  if (v !== 'Clear' && v !== 'Review' && v !== 'Blocked') throw new WebhookPayloadError(`"outcome" must be Clear, Review or Blocked, not "${v}"`);
  return v;
}

function findings(o: Obj): NonNullable<NormalisedEvent['findingsCount']> {
  const f = o.findings_count;
  if (!f || typeof f !== 'object' || Array.isArray(f)) throw new WebhookPayloadError('"findings_count" must be an object');
  return { critical: int(f as Obj, 'critical'), warning: int(f as Obj, 'warning'), info: int(f as Obj, 'info') };
}

const EMPTY = {
  sessionId: null, reportId: null, orgId: null, trustScore: null, outcome: null, headline: null,
  reason: null, summary: null, repo: null, branch: null, findingsCount: null,
} as const;

function fromA(o: Obj): NormalisedEvent {
  return {
    ...EMPTY, event: 'analysis.complete', shape: 'A', sessionId: str(o, 'session_id'), reportUrl: str(o, 'report_url'),
    trustScore: int(o, 'trust_score'), agent: str(o, 'agent'), repo: optional(str(o, 'repo')), findingsCount: findings(o),
  };
}

function fromB(o: Obj): NormalisedEvent {
  return {
    ...EMPTY, event: 'analysis.complete', shape: 'B', orgId: str(o, 'orgId'), reportId: str(o, 'reportId'), outcome: outcome(o),
    headline: str(o, 'headline'), reason: str(o, 'reason'), reportUrl: str(o, 'reportUrl'), agent: str(o, 'agent'),
    branch: optional(str(o, 'branch')),
  };
}

function fromC(o: Obj): NormalisedEvent {
  // The specification leaves the type of `summary` open; Vouch sends a string, anything else is
  // kept as its JSON text.
  const summary = typeof o.summary === 'string' ? o.summary : o.summary === undefined ? null : JSON.stringify(o.summary);
  if (summary === null) throw new WebhookPayloadError('"summary" is missing');
  return {
    ...EMPTY, event: 'analysis.complete', shape: 'C', orgId: str(o, 'orgId'), reportId: str(o, 'reportId'),
    trustScore: int(o, 'trustScore'), reportUrl: str(o, 'reportUrl'), summary, agent: str(o, 'agent'),
    branch: optional(str(o, 'branch')),
  };
}

/**
 * Accepts a parsed body (or the raw JSON text/bytes) of any shape and returns one type.
 * The shape is recognised by its distinguishing field: `session_id` (A), `outcome` (B),
 * `trustScore` (C). Extra fields are ignored, missing or mistyped ones throw.
 */
export function parseAnalysisComplete(body: unknown): NormalisedEvent {
  let value = body;
  if (typeof value === 'string' || value instanceof Uint8Array) {
    try {
      value = JSON.parse(typeof value === 'string' ? value : toBuffer(value).toString('utf8'));
    } catch {
      throw new WebhookPayloadError('the body is not JSON');
    }
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new WebhookPayloadError('the body is not a JSON object');
  const o = value as Obj;
  if (o.event !== 'analysis.complete') throw new WebhookPayloadError(`unknown event ${JSON.stringify(o.event)}`);
  if ('session_id' in o) return fromA(o);
  if ('outcome' in o) return fromB(o);
  if ('trustScore' in o) return fromC(o);
  throw new WebhookPayloadError('none of shape A (session_id), B (outcome) or C (trustScore)');
}
