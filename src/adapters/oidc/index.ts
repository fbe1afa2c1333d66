// The OpenID Connect relying party (services/ports.ts, OidcRelyingParty) over openid-client:
// discovery, the authorization URL (code flow, PKCE S256, state, nonce) and the code exchange,
// in which openid-client checks the state, the ID token's signature against the provider's JWKS
// (enableNonRepudiationChecks), its issuer, audience, expiry, issued-at and nonce. Every request goes through the guarded
// fetch (SSRF policy VOUCH_SSO_ALLOW_CIDRS, a deadline, a body cap).
//
// http:// issuers: refused, except on a loopback address when VOUCH_SSO_ALLOW_HTTP_LOOPBACK is
// set (development and the tests' in-process provider). Everything else must be https.
import { createHash } from 'node:crypto';
import * as oidc from 'openid-client';
import type { GuardedFetch } from '../outbound/guarded-fetch.ts';
import { issuerProblem } from './issuer.ts';

export { issuerProblem };

export interface OidcOptions {
  fetch: GuardedFetch;
  /** Accept http:// issuers whose host is a loopback address (127.0.0.0/8, ::1, localhost). */
  allowHttpLoopback: boolean;
}

interface ClientRef {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

type Failure = { ok: false; reason: 'unreachable' | 'discovery' | 'denied' | 'response' | 'id_token'; detail: string };

const SCOPE = 'openid email profile';

/**
 * A short, log-safe description of an openid-client error: each error of its cause chain (code,
 * the claim that failed, message), and the provider's OAuth error when there is one.
 */
function describe(error: unknown): string {
  const parts: string[] = [];
  let e = error as { code?: string; name?: string; message?: string; cause?: unknown; error?: string; error_description?: string; claim?: string } | undefined;
  for (let depth = 0; e && typeof e === 'object' && depth < 4; depth++) {
    const claim = typeof e.claim === 'string' ? ` (${e.claim})` : '';
    const oauth = e.error ? ` [${e.error}${e.error_description ? `: ${e.error_description}` : ''}]` : '';
    if (e.message || e.code) parts.push(`${e.code ?? e.name ?? 'Error'}${claim}: ${e.message ?? ''}${oauth}`);
    e = e.cause as typeof e;
  }
  return (parts.join(' <- ') || String(error)).slice(0, 500);
}

function failureOf(error: unknown, stage: 'discovery' | 'exchange'): Failure {
  const e = error as { code?: string; name?: string };
  const detail = describe(error);
  if (stage === 'discovery') {
    const network = e.name === 'TypeError' || e.name === 'TimeoutError' || e.name === 'ResponseTooLargeError' || e.code === 'ERR_SSRF_REFUSED';
    return { ok: false, reason: network ? 'unreachable' : 'discovery', detail };
  }
  if (e.code === 'OAUTH_AUTHORIZATION_RESPONSE_ERROR') return { ok: false, reason: 'denied', detail };
  if (/OAUTH_JWT_|OAUTH_KEY_SELECTION|signature|JWS|ID Token/i.test(detail)) {
    return { ok: false, reason: 'id_token', detail };
  }
  return { ok: false, reason: 'response', detail };
}

/** How long a discovered provider (and the key set openid-client caches with it) is reused. */
export const DISCOVERY_TTL_MS = 5 * 60_000;
const CACHE_MAX = 200;

export function createOidcRelyingParty(options: OidcOptions) {
  const fetchImpl = ((url: string, init: Parameters<GuardedFetch['fetch']>[1]) => options.fetch.fetch(url, init)) as unknown as oidc.CustomFetch;
  // A sign-in discovers twice (the redirect, the callback): reuse the configuration for a few
  // minutes, keyed by everything it was built from (a changed secret is a new entry).
  const cache = new Map<string, { at: number; config: Promise<oidc.Configuration> }>();

  function discover(client: ClientRef): Promise<oidc.Configuration> {
    const key = [client.issuer, client.clientId, createHash('sha256').update(client.clientSecret).digest('hex')].join('\n');
    const hit = cache.get(key);
    if (hit && Date.now() - hit.at < DISCOVERY_TTL_MS) return hit.config;
    if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value as string);
    const config = discoverNow(client);
    cache.set(key, { at: Date.now(), config });
    config.catch(() => cache.delete(key)); // a failure is never reused
    return config;
  }

  async function discoverNow(client: ClientRef): Promise<oidc.Configuration> {
    const problem = issuerProblem(client.issuer, options.allowHttpLoopback);
    if (problem) throw Object.assign(new Error(`the issuer ${problem}`), { code: 'VOUCH_ISSUER_REFUSED' });
    const insecure = new URL(client.issuer).protocol === 'http:';
    return oidc.discovery(new URL(client.issuer), client.clientId, { client_secret: client.clientSecret, id_token_signed_response_alg: 'RS256' },
      oidc.ClientSecretBasic(client.clientSecret), {
        [oidc.customFetch]: fetchImpl,
        // The ID token comes straight from the token endpoint, where OpenID Connect lets a client
        // skip its signature; we check it against the provider's JWKS all the same.
        execute: insecure ? [oidc.enableNonRepudiationChecks, oidc.allowInsecureRequests] : [oidc.enableNonRepudiationChecks],
      });
  }

  return {
    async check(client: ClientRef): Promise<{ ok: true } | Failure> {
      try {
        await discoverNow(client);
        return { ok: true };
      } catch (error) {
        return failureOf(error, 'discovery');
      }
    },

    async begin(client: ClientRef, redirectUri: string) {
      let config: oidc.Configuration;
      try {
        config = await discover(client);
      } catch (error) {
        return failureOf(error, 'discovery');
      }
      const state = oidc.randomState();
      const nonce = oidc.randomNonce();
      const codeVerifier = oidc.randomPKCECodeVerifier();
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri, scope: SCOPE, response_type: 'code', state, nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier), code_challenge_method: 'S256',
      });
      return { ok: true as const, url: url.href, state, nonce, codeVerifier };
    },

    async complete(client: ClientRef, callbackUrl: URL, expected: { state: string; nonce: string; codeVerifier: string }) {
      let config: oidc.Configuration;
      try {
        config = await discover(client);
      } catch (error) {
        return failureOf(error, 'discovery');
      }
      try {
        const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
          expectedState: expected.state, expectedNonce: expected.nonce, pkceCodeVerifier: expected.codeVerifier, idTokenExpected: true,
        });
        const claims = tokens.claims();
        if (!claims) return { ok: false as const, reason: 'id_token' as const, detail: 'no ID token in the token response' };
        return { ok: true as const, claims: { ...claims } as Record<string, unknown> };
      } catch (error) {
        return failureOf(error, 'exchange');
      }
    },

    close: () => options.fetch.close(),
  };
}
