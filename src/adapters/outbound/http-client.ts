// The one outbound HTTP client of the service. Every request goes through an undici Agent whose
// connector re-runs the SSRF check at connect time and dials the address it just checked
// (TLS still verifies the certificate against the original host name, sent as SNI).
//
// Behaviour that callers rely on:
//   - redirects are never followed (a 3xx is reported as such);
//   - one deadline covers connect + request + response headers + body;
//   - the response body is read up to a cap: the first `excerptBytes` are kept, reading stops at
//     `drainBytes` (the connection is then dropped instead of being reused);
//   - the result is a value, never an exception: the caller records it as an attempt.
import { isIP } from 'node:net';
import { Agent, buildConnector, request } from 'undici';
import { assertHost, systemResolver, SsrfRefusedError } from './ssrf.ts';
import type { Resolver, SsrfPolicy } from './ssrf.ts';

export type OutboundErrorClass = 'http_status' | 'redirect' | 'timeout' | 'ssrf_refused' | 'dns' | 'connect' | 'tls' | 'network' | 'interrupted';

export interface OutboundResult {
  /** True for a 2xx status received within the deadline. */
  ok: boolean;
  statusCode: number | null;
  latencyMs: number;
  errorClass: OutboundErrorClass | null;
  error: string | null;
  /** The first bytes of the response body, decoded as UTF-8 (NULs replaced), or null. */
  responseExcerpt: string | null;
}

export interface OutboundClientOptions {
  policy: SsrfPolicy;
  timeoutMs: number;
  resolver?: Resolver;
  excerptBytes?: number;
  drainBytes?: number;
  /** Connections kept per origin; the fan-out to one receiver is bounded by this. */
  connectionsPerOrigin?: number;
}

export interface OutboundClient {
  /** `signal` lets the caller abandon the request (shutdown, lost lease): reported as `interrupted`. */
  post(url: string, headers: Record<string, string>, body: string | Uint8Array, signal?: AbortSignal): Promise<OutboundResult>;
  close(): Promise<void>;
}

/** Errors that say "not this address" at once, so the next resolved address is worth a try. */
const NEXT_ADDRESS_CODES = new Set(['ECONNREFUSED', 'ENETUNREACH', 'EHOSTUNREACH', 'EADDRNOTAVAIL']);

/** IPv4 first: an IPv6 answer is often unroutable from inside containers. */
function dialOrder(addresses: string[]): string[] {
  return [...addresses].sort((a, b) => Number(isIP(a) === 6) - Number(isIP(b) === 6));
}

/**
 * An undici connector that checks the host's addresses before opening the socket and dials only
 * addresses it checked (TLS still verifies the certificate for the host name, sent as SNI).
 */
export function guardedConnector(policy: SsrfPolicy, resolver: Resolver, connectTimeoutMs: number): buildConnector.connector {
  const base = buildConnector({ timeout: connectTimeoutMs });
  return (opts, callback) => {
    assertHost(opts.hostname, policy, resolver).then(
      (checked) => {
        const addresses = dialOrder(checked);
        const servername = opts.servername || (isIP(opts.hostname) ? undefined : opts.hostname);
        const dial = (i: number): void =>
          base({ ...opts, hostname: addresses[i], servername }, (...result) => {
            const code = (result[0] as { code?: string } | null)?.code ?? '';
            if (result[0] && i + 1 < addresses.length && NEXT_ADDRESS_CODES.has(code)) return dial(i + 1);
            callback(...result);
          });
        dial(0);
      },
      (err: Error) => callback(err, null),
    );
  };
}

export function createOutboundClient(options: OutboundClientOptions): OutboundClient {
  const { policy, timeoutMs } = options;
  const excerptBytes = options.excerptBytes ?? 2048;
  const drainBytes = options.drainBytes ?? 64 * 1024;
  const agent = new Agent({
    connect: guardedConnector(policy, options.resolver ?? systemResolver, timeoutMs),
    connections: options.connectionsPerOrigin ?? 16,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    keepAliveTimeout: 4_000,
  });

  async function post(url: string, headers: Record<string, string>, body: string | Uint8Array, cancel?: AbortSignal): Promise<OutboundResult> {
    const started = performance.now();
    const latency = () => Math.round(performance.now() - started);
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = cancel ? AbortSignal.any([deadline, cancel]) : deadline;
    let statusCode: number | null = null;
    try {
      const res = await request(url, { method: 'POST', headers, body, signal, dispatcher: agent });
      statusCode = res.statusCode;
      const excerpt = await readExcerpt(res.body, excerptBytes, drainBytes);
      return classifyStatus(res.statusCode, latency(), excerpt);
    } catch (err) {
      // The receiver answered 2xx but the body did not finish in time: it did accept the event,
      // and a retry would only produce a duplicate.
      if (statusCode !== null && statusCode >= 200 && statusCode < 300) return classifyStatus(statusCode, latency(), null);
      const info = cancel?.aborted && !deadline.aborted
        ? { errorClass: 'interrupted' as const, error: 'abandoned by the worker (shutdown or lost lease)' }
        : classifyError(err, deadline, timeoutMs);
      return { ok: false, statusCode, latencyMs: latency(), ...info, responseExcerpt: null };
    }
  }

  return { post, close: () => agent.close() };
}

function classifyStatus(status: number, latencyMs: number, excerpt: string | null): OutboundResult {
  const base = { statusCode: status, latencyMs, responseExcerpt: excerpt };
  if (status >= 200 && status < 300) return { ok: true, errorClass: null, error: null, ...base };
  if (status >= 300 && status < 400) return { ok: false, errorClass: 'redirect', error: `redirect ${status} not followed`, ...base };
  return { ok: false, errorClass: 'http_status', error: `HTTP ${status}`, ...base };
}

/** Keeps the first `keep` bytes, reads on to `limit`, then stops (dropping the connection). */
async function readExcerpt(body: AsyncIterable<Buffer> & { destroy(): void }, keep: number, limit: number): Promise<string | null> {
  const kept: Buffer[] = [];
  let keptBytes = 0;
  let seen = 0;
  for await (const chunk of body) {
    seen += chunk.length;
    if (keptBytes < keep) {
      const part = chunk.subarray(0, keep - keptBytes);
      kept.push(part);
      keptBytes += part.length;
    }
    if (seen >= limit) {
      body.destroy();
      break;
    }
  }
  if (seen === 0) return null;
  // Text columns in PostgreSQL refuse NUL characters.
  return new TextDecoder('utf-8', { fatal: false }).decode(Buffer.concat(kept)).replace(/\u0000/g, '\uFFFD');
}

type ErrorInfo = Pick<OutboundResult, 'errorClass' | 'error'>;

const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);
const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NODATA', 'EAI_NONAME']);
const CONNECT_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'UND_ERR_SOCKET', 'EADDRNOTAVAIL']);

export function classifyError(err: unknown, signal: AbortSignal | null, timeoutMs: number): ErrorInfo {
  if (signal?.aborted) return { errorClass: 'timeout', error: `no complete answer within ${timeoutMs} ms` };
  const e = rootCause(err);
  const message = `${e.code ? e.code + ': ' : ''}${e.message ?? String(err)}`.slice(0, 500);
  if (e instanceof SsrfRefusedError) return { errorClass: 'ssrf_refused', error: `refused by the SSRF policy: ${e.reason}` };
  const code = e.code ?? '';
  if (TIMEOUT_CODES.has(code) || e.name === 'TimeoutError') return { errorClass: 'timeout', error: message };
  if (DNS_CODES.has(code)) return { errorClass: 'dns', error: message };
  if (/^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|HOSTNAME_MISMATCH|ERR_OSSL)/.test(code)) return { errorClass: 'tls', error: message };
  if (CONNECT_CODES.has(code)) return { errorClass: 'connect', error: message };
  return { errorClass: 'network', error: message };
}

interface ErrLike {
  name?: string;
  code?: string;
  message?: string;
  cause?: unknown;
}

/** undici wraps socket errors; the useful code is on the innermost cause. */
function rootCause(err: unknown): ErrLike & Error {
  let e = err as ErrLike;
  for (let depth = 0; depth < 5 && e && typeof e === 'object'; depth++) {
    if (e instanceof SsrfRefusedError || e.code) break;
    if (!e.cause || typeof e.cause !== 'object') break;
    e = e.cause as ErrLike;
  }
  return (e ?? {}) as ErrLike & Error;
}
