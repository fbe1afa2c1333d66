// Request signing for webhook deliveries (PRODUCT.md §6).
//
// Two independent schemes, both HMAC-SHA256 over the exact stored body bytes:
//   - X-Service-Signature: sha256=<hex>, keyed with the UTF-8 bytes of the secret as entered
//     (GitHub's convention);
//   - Standard Webhooks: webhook-signature: v1,<base64> over "<id>.<timestamp>.<body>", keyed
//     with the decoded bytes of a `whsec_<base64>` secret, else with the secret's UTF-8 bytes, so
//     that the official libraries verify with their defaults.
import { createHmac, randomBytes } from 'node:crypto';

export const EVENT_ANALYSIS_COMPLETE = 'analysis.complete';

/** A fresh Standard Webhooks secret: `whsec_` + standard base64 of 32 random bytes. */
export function generateWhsecSecret(bytes = 32): string {
  if (bytes < 24 || bytes > 64) throw new RangeError('a whsec_ secret has 24 to 64 bytes');
  return 'whsec_' + randomBytes(bytes).toString('base64');
}

const STRICT_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * The key of the Standard Webhooks signature. Only a `whsec_` secret whose remainder is valid,
 * padded standard base64 is decoded (Buffer.from would silently skip invalid characters).
 */
export function standardWebhooksKey(secret: string): Buffer {
  if (secret.startsWith('whsec_')) {
    const encoded = secret.slice('whsec_'.length);
    if (encoded.length > 0 && STRICT_BASE64.test(encoded)) return Buffer.from(encoded, 'base64');
  }
  return Buffer.from(secret, 'utf8');
}

export function serviceSignature(secret: string, body: string | Uint8Array): string {
  return 'sha256=' + createHmac('sha256', Buffer.from(secret, 'utf8')).update(body).digest('hex');
}

export function standardSignature(secret: string, id: string, timestampSeconds: number, body: string | Uint8Array): string {
  const mac = createHmac('sha256', standardWebhooksKey(secret));
  mac.update(`${id}.${timestampSeconds}.`).update(body);
  return 'v1,' + mac.digest('base64');
}

export interface AttemptHeaderInput {
  deliveryId: string;
  attemptNo: number;
  body: string;
  secret: string | null;
  version: string;
  /** The attempt's clock, in milliseconds (injected in tests). */
  nowMs?: number;
}

/** Every header of one attempt. The signature headers exist only when a secret is set. */
export function attemptHeaders(input: AttemptHeaderInput): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': `Vouch-Webhooks/${input.version}`,
    'x-service-event': EVENT_ANALYSIS_COMPLETE,
    'x-service-delivery': input.deliveryId,
    'x-service-attempt': String(input.attemptNo),
  };
  if (input.secret) {
    const ts = Math.floor((input.nowMs ?? Date.now()) / 1000);
    headers['x-service-signature'] = serviceSignature(input.secret, input.body);
    headers['webhook-id'] = input.deliveryId;
    headers['webhook-timestamp'] = String(ts);
    headers['webhook-signature'] = standardSignature(input.secret, input.deliveryId, ts, input.body);
  }
  return headers;
}

/**
 * How a secret is shown after creation: never in full. The last four characters help tell two
 * secrets apart, but only when they are a small part of a long secret.
 */
export function maskSecret(secret: string | null): string | null {
  if (!secret) return null;
  const prefix = secret.startsWith('whsec_') ? 'whsec_' : '';
  const rest = secret.slice(prefix.length);
  return rest.length >= 16 ? `${prefix}…${rest.slice(-4)}` : `${prefix}…`;
}
