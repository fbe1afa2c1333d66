// The sign-in rules that need no provider, with a stand-in relying party that returns the claims
// a test chooses (the real checks of the ID token: test/integration/sso.test.ts).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { serviceFixture } from '../../../test/helpers/services.ts';
import type { ServiceFixture } from '../../../test/helpers/services.ts';
import { silentLog } from '../ports.ts';
import type { Log, OidcRelyingParty } from '../ports.ts';
import { saveSsoSettings, verifySsoDomain } from './settings.ts';
import type { SsoDeps, SsoSettingsInput } from './settings.ts';
import { beginSsoSignIn, completeSsoSignIn } from './sign-in.ts';

let f: ServiceFixture;
let deps: SsoDeps & { log: Log };
let claims: Record<string, unknown> = {};
let accountId: string;
const ctx = { actor: { type: 'operator' as const }, ip: null };

const rp: OidcRelyingParty = {
  check: async () => ({ ok: true }),
  begin: async () => ({ ok: true, url: 'https://idp.spec.test/authorize', state: randomBytes(16).toString('base64url'), nonce: 'n', codeVerifier: 'v' }),
  complete: async () => ({ ok: true, claims }),
  close: async () => {},
};

const input = (over: Partial<SsoSettingsInput> = {}): SsoSettingsInput => ({
  issuer: 'https://idp.spec.test', clientId: 'spec', clientSecret: 'spec secret', domains: 'spec.test', required: false, defaultRole: 'member',
  groupsClaim: '', groupRoles: '', requireGroup: false, ...over,
});

before(async () => {
  f = await serviceFixture({ env: { VOUCH_SSO_SECRET_KEY: randomBytes(32).toString('hex') } });
  const records = new Map<string, string[][]>();
  deps = { sso: f.config.sso, publicUrl: f.config.publicUrl, webSessionTtlMs: f.config.webSessionTtlMs, oidc: rp, resolveTxt: async (n) => records.get(n) ?? [], log: silentLog };
  accountId = (await f.account('boss@spec.test')).accountId;
  const view = await saveSsoSettings(f.db.kysely, deps, accountId, ctx, input());
  records.set(view.domains[0].record.name, [[view.domains[0].record.value]]);
  await verifySsoDomain(f.db.kysely, deps, accountId, 'spec.test', ctx);
});
after(() => f.close());

async function signIn(c: Record<string, unknown>) {
  claims = c;
  const begun = await beginSsoSignIn(f.db.kysely, deps, String(c.email ?? 'x@spec.test'), '/');
  assert.equal(begun.kind, 'redirect');
  const state = begun.kind === 'redirect' ? begun.state : '';
  return completeSsoSignIn(f.db.kysely, deps, { state, cookieState: state, query: `code=c&state=${state}`, ip: null });
}

const roleOf = async (email: string) => (await f.db.kysely.selectFrom('users').select('role').where('email', '=', email).executeTakeFirstOrThrow()).role;

test('an email the provider marks unverified, or none at all, is refused', async () => {
  assert.equal((await signIn({ sub: 's1', email: 'eve@spec.test', email_verified: false })).kind, 'refused');
  const none = await signIn({ sub: 's2' });
  assert.equal(none.kind === 'refused' && none.reason, 'no_email');
});

test('groups that are not a list count as none: the default role', async () => {
  await saveSsoSettings(f.db.kysely, deps, accountId, ctx, input({ clientSecret: '', groupsClaim: 'groups', groupRoles: 'admins = admin' }));
  const r = await signIn({ sub: 's3', email: 'odd@spec.test', groups: { admins: true } });
  assert.equal(r.kind, 'ok');
  assert.equal(await roleOf('odd@spec.test'), 'member');
});

test('the groups never demote the account\'s last owner', async () => {
  const r = await signIn({ sub: 'boss', email: 'boss@spec.test', groups: [] });
  assert.equal(r.kind, 'ok');
  assert.equal(await roleOf('boss@spec.test'), 'owner');
});

test('a member linked to one subject is not taken over by another subject with the same email', async () => {
  assert.equal((await signIn({ sub: 'first', email: 'lin@spec.test' })).kind, 'ok');
  const other = await signIn({ sub: 'second', email: 'lin@spec.test' });
  assert.equal(other.kind === 'refused' && other.reason, 'subject_mismatch');
  assert.equal((await signIn({ sub: 'first', email: 'lin@spec.test' })).kind, 'ok', 'the linked subject still signs in');
});
