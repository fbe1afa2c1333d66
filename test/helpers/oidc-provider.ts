// A real OpenID Connect provider in process for the single sign-on tests: `oidc-provider` (the
// certified Node.js implementation) on a loopback port, with a directory of people the tests
// change while it runs (add, change groups, remove). Its development login form takes any login
// name (the person's id here) and password; consent is given automatically for the test client.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import type { KoaContextWithOIDC } from 'oidc-provider';

export interface Person {
  email: string;
  groups?: string[];
  emailVerified?: boolean;
}

export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The people the provider signs in, by login name (their subject). Change it at will. */
  people: Map<string, Person>;
  close(): Promise<void>;
}

export async function startTestProvider(opts: { redirectUri: string; clientId?: string; clientSecret?: string }): Promise<TestProvider> {
  const clientId = opts.clientId ?? `vouch-${Math.random().toString(36).slice(2, 8)}`;
  const clientSecret = opts.clientSecret ?? `secret-${Math.random().toString(36).slice(2)}-${Date.now()}`;
  const people = new Map<string, Person>();
  // The issuer is known only once the port is: listen on a free port first, then build the provider on it.
  const probe = (await import('node:net')).createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((r) => probe.close(() => r()));
  const issuer = `http://127.0.0.1:${port}`;
  const provider = new Provider(issuer, {
    clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: [opts.redirectUri], grant_types: ['authorization_code'], response_types: ['code'] }],
    // Claims in the ID token itself (Vouch reads the ID token, not the userinfo endpoint).
    conformIdTokenClaims: false,
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['groups'] },
    features: { devInteractions: { enabled: true } },
    cookies: { keys: ['test-cookie-key-0123456789abcdef'] },
    pkce: { required: () => true },
    async findAccount(_ctx: unknown, id: string) {
      const person = people.get(id);
      if (!person) return undefined;
      return { accountId: id, claims: async () => ({ sub: id, email: person.email, email_verified: person.emailVerified ?? true, groups: person.groups ?? [] }) };
    },
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId });
      grant.addOIDCScope('openid email profile');
      grant.addOIDCClaims(['email', 'email_verified', 'groups']);
      await grant.save();
      return grant;
    },
  });
  const server: Server = await new Promise((resolve) => {
    const s = provider.listen(port, '127.0.0.1', () => resolve(s));
  });
  return {
    issuer, clientId, clientSecret, people,
    close: () => new Promise<void>((r) => {
      server.closeAllConnections?.();
      server.close(() => r());
    }),
  };
}
