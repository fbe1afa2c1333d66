// A Fetch API function over the SSRF-guarded connector (http-client.ts), for libraries that take
// a custom fetch (openid-client: discovery, JWKS, token endpoint). Every connection is checked
// against the policy at connect time and dials the address it checked; redirects are not
// followed; one deadline covers the whole exchange; a body larger than `maxBodyBytes` is cut
// (the request fails) so a hostile server cannot make us buffer without bound.
import { Agent, fetch as undiciFetch } from 'undici';
import { guardedConnector } from './http-client.ts';
import { systemResolver } from './ssrf.ts';
import type { Resolver, SsrfPolicy } from './ssrf.ts';

export interface GuardedFetchOptions {
  policy: SsrfPolicy;
  timeoutMs: number;
  resolver?: Resolver;
  /** Default 1 MiB: discovery documents, key sets and token responses are a few KiB. */
  maxBodyBytes?: number;
}

export interface FetchInit {
  method?: string;
  headers?: Record<string, string> | Headers | [string, string][];
  body?: string | URLSearchParams | Uint8Array | null;
  redirect?: 'manual' | 'error' | 'follow';
  signal?: AbortSignal | null;
}

export interface GuardedFetch {
  fetch(url: string | URL, init?: FetchInit): Promise<Response>;
  close(): Promise<void>;
}

export class ResponseTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`the response is larger than ${limit} bytes`);
    this.name = 'ResponseTooLargeError';
  }
}

async function readCapped(body: ReadableStream<Uint8Array> | null, limit: number): Promise<Buffer | null> {
  if (!body) return null;
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > limit) {
      await body.cancel().catch(() => {});
      throw new ResponseTooLargeError(limit);
    }
    parts.push(chunk);
  }
  return Buffer.concat(parts);
}

export function createGuardedFetch(options: GuardedFetchOptions): GuardedFetch {
  const limit = options.maxBodyBytes ?? 1024 * 1024;
  const agent = new Agent({ connect: guardedConnector(options.policy, options.resolver ?? systemResolver, options.timeoutMs), connections: 8 });
  async function guardedFetch(url: string | URL, init: FetchInit = {}): Promise<Response> {
    const deadline = AbortSignal.timeout(options.timeoutMs);
    const signal = init.signal ? AbortSignal.any([deadline, init.signal]) : deadline;
    const res = await undiciFetch(url, { ...init, redirect: 'manual', signal, dispatcher: agent } as Parameters<typeof undiciFetch>[1]);
    const body = await readCapped(res.body as ReadableStream<Uint8Array> | null, limit);
    // A standard Response (the caller's own class), with the body already read and bounded.
    return new Response(body ? new Blob([new Uint8Array(body)]) : null, { status: res.status, statusText: res.statusText, headers: new Headers([...res.headers]) });
  }
  return { fetch: guardedFetch, close: () => agent.close() };
}
