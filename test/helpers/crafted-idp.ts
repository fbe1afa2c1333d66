// A hand-made OpenID provider for the ID-token checks: it serves discovery, its key set, an
// authorization endpoint that sends the browser straight back with a code, and a token endpoint
// whose ID token the test shapes (another audience, expired, signed by a key not in the key
// set, another nonce or issuer). Each defect is one the relying party must refuse: removing the
// check makes its test fail. The token endpoint also checks the PKCE verifier and the client's
// credentials, as a real provider does.
import { createHash, createSign, generateKeyPairSync } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Defect = 'none' | 'audience' | 'expired' | 'signature' | 'nonce' | 'issuer';

export interface CraftedIdp {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** What the next ID tokens look like. */
  defect: Defect;
  /** The claims of the person signing in. */
  person: { sub: string; email: string; groups?: string[] };
  /** Requests the token endpoint received (for the PKCE check). */
  tokenRequests: URLSearchParams[];
  close(): Promise<void>;
}

function b64url(value: object | Buffer): string {
  return (Buffer.isBuffer(value) ? value : Buffer.from(JSON.stringify(value))).toString('base64url');
}

function signJwt(payload: object, key: KeyObject, kid: string): string {
  const input = `${b64url({ alg: 'RS256', typ: 'JWT', kid })}.${b64url(payload)}`;
  return `${input}.${createSign('RSA-SHA256').update(input).sign(key).toString('base64url')}`;
}

export async function startCraftedIdp(clientId = 'crafted-client', clientSecret = 'crafted-secret-value'): Promise<CraftedIdp> {
  const good = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const rogue = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const codes = new Map<string, { nonce: string; challenge: string; redirectUri: string }>();
  const server: Server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const idp: CraftedIdp = {
    issuer, clientId, clientSecret, defect: 'none', person: { sub: 'crafted-user', email: 'someone@crafted.test' }, tokenRequests: [],
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
  server.on('request', (req, res) => {
    const url = new URL(req.url ?? '/', issuer);
    const json = (status: number, body: object) => { res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body)); };
    if (url.pathname === '/.well-known/openid-configuration') {
      return json(200, {
        issuer, authorization_endpoint: `${issuer}/authorize`, token_endpoint: `${issuer}/token`, jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'], subject_types_supported: ['public'], id_token_signing_alg_values_supported: ['RS256'],
        code_challenge_methods_supported: ['S256'], token_endpoint_auth_methods_supported: ['client_secret_basic'],
      });
    }
    if (url.pathname === '/jwks') return json(200, { keys: [{ ...good.publicKey.export({ format: 'jwk' }), kid: 'good', use: 'sig', alg: 'RS256' }] });
    if (url.pathname === '/authorize') {
      const code = `code-${Math.random().toString(36).slice(2)}`;
      const redirectUri = url.searchParams.get('redirect_uri') ?? '';
      codes.set(code, { nonce: url.searchParams.get('nonce') ?? '', challenge: url.searchParams.get('code_challenge') ?? '', redirectUri });
      const back = new URL(redirectUri);
      back.searchParams.set('code', code);
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      back.searchParams.set('iss', issuer);
      res.writeHead(302, { location: back.href }).end();
      return;
    }
    if (url.pathname === '/token' && req.method === 'POST') {
      let raw = '';
      req.on('data', (c: Buffer) => { raw += c.toString(); });
      req.on('end', () => {
        const form = new URLSearchParams(raw);
        idp.tokenRequests.push(form);
        // client_secret_basic: both parts form-urlencoded (RFC 6749, 2.3.1), then base64.
        const [id, secret] = Buffer.from((req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString().split(':').map((p) => decodeURIComponent(p.replace(/\+/g, ' ')));
        if (id !== clientId || secret !== clientSecret) return json(401, { error: 'invalid_client' });
        const grant = codes.get(form.get('code') ?? '');
        codes.delete(form.get('code') ?? '');
        const verifier = form.get('code_verifier') ?? '';
        if (!grant || createHash('sha256').update(verifier).digest('base64url') !== grant.challenge || form.get('redirect_uri') !== grant.redirectUri) {
          return json(400, { error: 'invalid_grant' });
        }
        const now = Math.floor(Date.now() / 1000);
        const d = idp.defect;
        const claims = {
          iss: d === 'issuer' ? `${issuer}/other` : issuer, aud: d === 'audience' ? 'another-client' : clientId, sub: idp.person.sub,
          email: idp.person.email, email_verified: true, groups: idp.person.groups ?? [],
          iat: d === 'expired' ? now - 7200 : now, exp: d === 'expired' ? now - 3600 : now + 300, nonce: d === 'nonce' ? 'not-the-nonce' : grant.nonce,
        };
        const idToken = signJwt(claims, d === 'signature' ? rogue.privateKey : good.privateKey, 'good');
        json(200, { access_token: 'at-' + now, token_type: 'Bearer', expires_in: 300, id_token: idToken });
      });
      return;
    }
    res.writeHead(404).end();
  });
  return idp;
}
