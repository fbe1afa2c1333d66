// The role × scope × route matrix: every route of the app (read from Fastify's own route list, so
// a new route without an entry here fails this test). Dashboard routes × every role → allowed /
// 403, plus a signed-out visitor (sent to sign in) and a member of another account (404 for the
// ids of this one). /v1 routes × every scope → allowed only with the route's scope, else 403
// insufficient_scope naming it; × every role → a key made by that role reaches exactly the routes
// the role's dashboard actions allow, also after a demotion; and the OpenAPI document declares the
// same scope per operation. Also: the account always keeps an owner, under concurrent changes.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp } from '../helpers/app.ts';
import type { TestAccount, TestApp } from '../helpers/app.ts';
import { signInAs } from '../helpers/web-forms.ts';
import type { Browser, Res } from '../helpers/web-forms.ts';
import { addMember, signedInMember } from '../helpers/teams.ts';
import type { TestMember } from '../helpers/teams.ts';
import { issueApiKey } from '../../src/services/keys.ts';
import { changeRole, inviteMember, issuePasswordReset, MemberForbiddenError, MemberInputError, removeMember, requestInvitationProof } from '../../src/services/members.ts';
import type { ActingMember } from '../../src/services/members.ts';
import { addWebhook, sendTestEvent } from '../../src/services/webhooks/index.ts';
import { createSsrfPolicy } from '../../src/adapters/outbound/ssrf.ts';
import type { Role } from '../../src/services/roles.ts';
import { ALL_SCOPES, scopesAllowed } from '../../src/services/scopes.ts';
import type { Scope } from '../../src/services/scopes.ts';

type Who = 'owner' | 'admin' | 'member';
type Rule = 'all' | 'owner+admin' | 'owner';
/** How a route is reached: the dashboard with a role, publicly, or the API with a bearer key. */
type Entry = { kind: 'dashboard'; rule: Rule; body?: Record<string, string> } | { kind: 'public' } | { kind: 'api'; scope: Scope };

const ALL: Entry = { kind: 'dashboard', rule: 'all' };
const ADMIN: Entry = { kind: 'dashboard', rule: 'owner+admin' };
const OWNER: Entry = { kind: 'dashboard', rule: 'owner' };
const PUBLIC: Entry = { kind: 'public' };
const api = (scope: Scope): Entry => ({ kind: 'api', scope });

/** Every route, by `METHOD url` as Fastify registered it. docs/security.md has the same table in words. */
const MATRIX: Record<string, Entry> = {
  'GET /healthz': PUBLIC, 'GET /readyz': PUBLIC, 'GET /metrics': PUBLIC, 'GET /problems/:code': PUBLIC, 'GET /v1/openapi.json': PUBLIC,
  'GET /assets/:name': PUBLIC, 'GET /favicon.ico': PUBLIC, 'GET /static/:name': PUBLIC,
  'GET /login': PUBLIC, 'POST /login': PUBLIC, 'GET /signup': PUBLIC, 'POST /signup': PUBLIC,
  'GET /invite/:token': PUBLIC, 'POST /invite/:token': PUBLIC, 'GET /reset/:token': PUBLIC, 'POST /reset/:token': PUBLIC,
  'GET /join/:claim': PUBLIC, 'POST /join/:claim': PUBLIC,
  'GET /logout': PUBLIC, 'POST /logout': PUBLIC, 'GET /sessions': PUBLIC, 'GET /sso/callback': PUBLIC,
  'POST /v1/sessions': api('sessions:write'), 'GET /v1/sessions': api('sessions:read'), 'GET /v1/sessions/:id': api('sessions:read'),
  'GET /v1/sessions/:id/report': api('sessions:read'), 'GET /v1/sessions/:id/log': api('sessions:read'),
  'POST /v1/sessions/:id/log/redact': api('logs:redact'), 'DELETE /v1/sessions/:id': api('sessions:delete'), 'GET /v1/audit-events': api('audit:read'),
  'GET /': ALL, 'POST /sessions': ALL,
  'GET /r/:id': ALL, 'GET /r/:id/report.json': ALL, 'GET /r/:id/report.sarif': ALL, 'GET /r/:id/log': ALL,
  'POST /r/:id/redact': { kind: 'dashboard', rule: 'owner+admin', body: { confirm: 'yes' } },
  'GET /settings': ALL,
  'GET /settings/members': ALL,
  'POST /settings/members/invite': { kind: 'dashboard', rule: 'owner+admin', body: { email: 'fresh' } },
  'POST /settings/members/invitations/:id/withdraw': ADMIN,
  'GET /settings/members/:id/remove': ADMIN,
  'POST /settings/members/:id/remove': ADMIN,
  'POST /settings/members/:id/role': { kind: 'dashboard', rule: 'owner', body: { role: 'admin' } },
  'POST /settings/members/:id/reset-link': OWNER,
  'GET /settings/api-keys': ADMIN, 'POST /settings/api-keys': { kind: 'dashboard', rule: 'owner+admin', body: { name: 'matrix' } },
  'GET /settings/api-keys/:id/revoke': ADMIN, 'POST /settings/api-keys/:id/revoke': ADMIN,
  'GET /settings/webhooks': ADMIN, 'POST /settings/webhooks': { kind: 'dashboard', rule: 'owner+admin', body: { url: 'http://127.0.0.1:9/matrix', secret_mode: 'none' } },
  'GET /settings/webhooks/:id': ADMIN, 'POST /settings/webhooks/:id': { kind: 'dashboard', rule: 'owner+admin', body: { url: 'http://127.0.0.1:9/edited', secret_mode: 'keep' } },
  'POST /settings/webhooks/:id/enable': ADMIN, 'POST /settings/webhooks/:id/disable': ADMIN, 'POST /settings/webhooks/:id/test': ADMIN,
  'POST /settings/webhooks/:id/deliveries/:dlv/redeliver': ADMIN,
  'GET /settings/webhooks/:id/delete': ADMIN, 'POST /settings/webhooks/:id/delete': ADMIN,
  'GET /settings/audit-log': ADMIN, 'GET /settings/audit-log/export.jsonl': ADMIN,
  'GET /settings/retention': ADMIN, 'POST /settings/retention': { kind: 'dashboard', rule: 'owner+admin', body: { days: '365' } },
  'GET /settings/sso': OWNER, 'POST /settings/sso': { kind: 'dashboard', rule: 'owner', body: { issuer: 'https://idp.invalid', client_id: 'matrix', client_secret: 'matrix secret', domains: 'matrix.invalid' } },
  'POST /settings/sso/verify': { kind: 'dashboard', rule: 'owner', body: { domain: 'matrix.invalid' } }, 'POST /settings/sso/delete': OWNER,
  'GET /settings/account': ALL,
  'POST /settings/account/password': { kind: 'dashboard', rule: 'all', body: { current: 'wrong password', password: 'another password 1' } },
  'POST /settings/account/sign-out-everywhere': ALL,
};

const ALLOWED: Record<Rule, Who[]> = { all: ['owner', 'admin', 'member'], 'owner+admin': ['owner', 'admin'], owner: ['owner'] };

let t: TestApp;
let alice: TestAccount; // the account under test (its founder is its owner)
let bob: TestAccount; // another account
let bobBrowser: Browser;
let owner: ActingMember;
let sessionId: string;
let seq = 0;

before(async () => {
  t = await buildTestApp({
    VOUCH_LOGIN_RATE_LIMIT_MAX: '100000', VOUCH_WEBHOOK_ACTION_RATE_LIMIT_MAX: '100000', VOUCH_INVITATION_RATE_LIMIT_MAX: '100000', VOUCH_WEBHOOK_ALLOW_CIDRS: '127.0.0.0/8',
  });
  alice = await t.account();
  bob = await t.account();
  bobBrowser = await signInAs(t, bob);
  const founder = await t.db.kysely.selectFrom('users').select(['id', 'email']).where('account_id', '=', alice.accountId).executeTakeFirstOrThrow();
  owner = { userId: founder.id, role: 'owner', ctx: { actor: { type: 'user', id: founder.id, label: founder.email }, ip: null } };
  const up = await t.upload(alice.apiKey);
  sessionId = up.json().id;
  await t.analyzeAll();
});
after(() => t.close());

const policy = () => ({ policy: createSsrfPolicy(['127.0.0.0/8']) });

/** A fresh object of the right kind for each path parameter, in `accountId`'s account. */
async function fill(url: string, accountId: string, apiKey: string): Promise<string> {
  const ids: Record<string, string> = {};
  const hook = async () => {
    await t.db.kysely.deleteFrom('webhooks').where('account_id', '=', accountId).execute(); // at most 20 per account
    return (await addWebhook(t.db.kysely, { accountId, url: 'http://127.0.0.1:9/fixture' }, policy())).id;
  };
  if (url.startsWith('/settings/members/invitations/')) ids.id = (await inviteMember(t.db, accountId, owner, `inv${++seq}@example.test`)).id;
  else if (url.startsWith('/settings/members/')) ids.id = (await addMember(t, accountId, 'member')).userId;
  else if (url.startsWith('/settings/api-keys/')) ids.id = (await issueApiKey(t.db.kysely, accountId, 'fixture')).id;
  else if (url.startsWith('/settings/webhooks/')) {
    ids.id = await hook();
    if (url.includes(':dlv')) {
      ids.dlv = (await sendTestEvent(t.db.kysely, accountId, ids.id)).delivery_id;
      await t.db.kysely.updateTable('deliveries').set({ status: 'failed' }).where('id', '=', ids.dlv).execute();
    }
  } else if (url.startsWith('/r/')) ids.id = sessionId;
  else if (url.startsWith('/v1/sessions/')) ids.id = (await t.upload(apiKey)).json().id;
  else if (url.startsWith('/invite/')) ids.token = (await inviteMember(t.db, alice.accountId, owner, `joiner${++seq}@example.test`)).token;
  else if (url.startsWith('/join/')) {
    const token = (await inviteMember(t.db, alice.accountId, owner, `claimer${++seq}@example.test`)).token;
    ids.claim = (await requestInvitationProof(t.db, token, 'a claimer password'))?.claimToken as string;
  } else if (url.startsWith('/reset/')) ids.token = (await issuePasswordReset(t.db, alice.accountId, owner, (await addMember(t, alice.accountId, 'member')).userId)).token;
  ids.name = url.startsWith('/static/') ? 'settings.css' : 'app.css';
  ids.code = 'not_found';
  return url.replace(/:([a-z]+)/g, (_m, name: string) => ids[name]);
}

function bodyOf(entry: Entry): Record<string, string> {
  const body = entry.kind === 'dashboard' ? { ...entry.body } : {};
  if (body.email === 'fresh') body.email = `invitee${++seq}@example.test`;
  return body;
}

async function asBrowser(b: Browser, method: string, path: string, entry: Entry): Promise<Res> {
  return method === 'GET' ? b.get(path) : b.post(path, bodyOf(entry));
}

// One signed-in member per role for the whole matrix (sign-in hashes are slow on purpose); a
// route that ends the member's sessions gets a fresh one.
const browsers = new Map<Role, Browser>();
async function browserOf(role: Role, fresh: boolean): Promise<Browser> {
  const cached = browsers.get(role);
  if (cached && !fresh) return cached;
  const m = await signedInMember(t, alice.accountId, role);
  if (!fresh) browsers.set(role, m.browser);
  return m.browser;
}

const isSignIn = (res: Res) => res.statusCode === 303 && String(res.headers.location).startsWith('/login');

test('every route the app registers has a row in the matrix (and every row is a route)', () => {
  const routes = t.app.registeredRoutes.filter((r) => r.method !== 'HEAD').map((r) => `${r.method} ${r.url}`);
  assert.ok(routes.length > 50);
  assert.deepEqual(routes.filter((r) => !(r in MATRIX)), [], 'routes without a matrix entry: add them to MATRIX (and to docs/security.md)');
  assert.deepEqual(Object.keys(MATRIX).filter((k) => !routes.includes(k)), [], 'matrix entries that are no route');
});

describe('dashboard routes × roles', () => {
  for (const [key, entry] of Object.entries(MATRIX)) {
    if (entry.kind !== 'dashboard') continue;
    const [method, url] = key.split(' ');
    test(`${key}: allowed for ${ALLOWED[entry.rule].join(', ')}; 403 for the others; a visitor signs in; another account gets 404`, async () => {
      for (const role of ['owner', 'admin', 'member'] as Role[]) {
        const res = await asBrowser(await browserOf(role, url.endsWith('sign-out-everywhere')), method, await fill(url, alice.accountId, alice.apiKey), entry);
        if (ALLOWED[entry.rule].includes(role)) {
          assert.notEqual(res.statusCode, 403, `${role} is allowed: ${res.body.slice(0, 200)}`);
          assert.ok(res.statusCode < 500, `${role}: ${res.statusCode}`);
          assert.ok(!isSignIn(res) || url.endsWith('sign-out-everywhere'), `${role} is not sent to sign in`);
        } else {
          assert.equal(res.statusCode, 403, `${role} is refused`);
          assert.match(res.body, /Your role does not allow this/);
        }
      }
      const visitor = method === 'GET'
        ? await t.app.inject({ url: await fill(url, alice.accountId, alice.apiKey) })
        : await t.app.inject({ method, url: await fill(url, alice.accountId, alice.apiKey), headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' }, payload: '' });
      assert.ok(isSignIn(visitor), `a visitor is sent to sign in (got ${visitor.statusCode})`);
      if (url.includes(':')) {
        const theirs = await asBrowser(bobBrowser, method, await fill(url, alice.accountId, alice.apiKey), entry);
        assert.equal(theirs.statusCode, 404, `the owner of another account gets 404 for this account's ids (got ${theirs.statusCode})`);
      }
    });
  }
});

describe('public and API routes', () => {
  test('public routes answer a visitor without a role refusal or a sign-in redirect (except signing out)', async () => {
    for (const [key, entry] of Object.entries(MATRIX)) {
      if (entry.kind !== 'public') continue;
      const [method, url] = key.split(' ');
      const path = await fill(url, alice.accountId, alice.apiKey);
      const res = method === 'GET' ? await t.app.inject({ url: path }) : await t.app.inject({ method, url: path, headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' }, payload: '' });
      assert.doesNotMatch(res.body, /Your role does not allow this/, key);
      assert.ok(res.statusCode < 500, `${key}: ${res.statusCode}`);
      if (!url.startsWith('/logout')) assert.ok(!isSignIn(res) || url === '/login', `${key} needs no sign-in`);
    }
  });

  test('API routes without a key are 401, and another account\'s ids are 404', async () => {
    for (const [key, entry] of Object.entries(MATRIX)) {
      if (entry.kind !== 'api') continue;
      const [method, url] = key.split(' ');
      const path = await fill(url, alice.accountId, alice.apiKey);
      const none = await t.app.inject({ method: method as 'GET', url: path });
      assert.equal(none.statusCode, 401, `${key} without a key`);
      if (url.includes(':id')) assert.equal((await call(method, url, bob.apiKey)).statusCode, 404, `${key} with another account's key`);
    }
  });
});

const apiRoutes = () => Object.entries(MATRIX).filter((e): e is [string, Extract<Entry, { kind: 'api' }>] => e[1].kind === 'api');

/** Calls an API route (the upload as multipart) with a key, on a fresh object of the account. */
async function call(method: string, url: string, apiKey: string) {
  if (method === 'POST' && url === '/v1/sessions') return t.upload(apiKey);
  return t.app.inject({ method: method as 'GET', url: await fill(url, alice.accountId, alice.apiKey), headers: { authorization: `Bearer ${apiKey}` } });
}

const ok = (status: number) => status < 400 || status === 409; // a redaction still analysing is 409: allowed, not refused

describe('issue 26/1: API routes × scopes × roles', () => {
  test('every API route × every single scope: allowed only with its own scope; otherwise 403 insufficient_scope naming it', async () => {
    const keyWith = new Map<Scope, string>();
    for (const scope of ALL_SCOPES) keyWith.set(scope, (await issueApiKey(t.db.kysely, alice.accountId, `only ${scope}`, undefined, [scope])).key);
    for (const [key, entry] of apiRoutes()) {
      const [method, url] = key.split(' ');
      for (const scope of ALL_SCOPES) {
        const res = await call(method, url, keyWith.get(scope) as string);
        if (scope === entry.scope) {
          assert.ok(ok(res.statusCode), `${key} with ${scope}: ${res.statusCode} ${res.body.slice(0, 200)}`);
        } else {
          assert.equal(res.statusCode, 403, `${key} with only ${scope}`);
          const problem = res.json();
          assert.equal(problem.code, 'insufficient_scope');
          assert.equal(problem.required_scope, entry.scope);
          assert.match(problem.detail, new RegExp(entry.scope));
          assert.match(String(res.headers['www-authenticate']), new RegExp(`error="insufficient_scope", scope="${entry.scope}"`));
        }
      }
    }
  });

  test('a key made on the dashboard by each role reaches exactly what the role may do there; a demoted admin\'s key loses the rest', async () => {
    const keys = new Map<Role, { key: string; member: TestMember }>();
    for (const role of ['owner', 'admin', 'member'] as Role[]) {
      const m = await addMember(t, alice.accountId, role);
      keys.set(role, { key: (await issueApiKey(t.db.kysely, alice.accountId, `${role}'s`, { actor: { type: 'user', id: m.userId, label: m.email }, ip: null })).key, member: m });
    }
    for (const [key, entry] of apiRoutes()) {
      const [method, url] = key.split(' ');
      for (const [role, { key: apiKey }] of keys) {
        const res = await call(method, url, apiKey);
        if (scopesAllowed(role).includes(entry.scope)) assert.ok(ok(res.statusCode), `${key} with a key of a ${role}: ${res.statusCode}`);
        else assert.equal(res.statusCode, 403, `${key} with a key of a ${role}`);
      }
    }
    // The admin becomes a member: their key keeps reading and uploading, and nothing else.
    const admin = keys.get('admin') as { key: string; member: TestMember };
    await changeRole(t.db, alice.accountId, owner, admin.member.userId, 'member');
    for (const [key, entry] of apiRoutes()) {
      const [method, url] = key.split(' ');
      const res = await call(method, url, admin.key);
      if (scopesAllowed('member').includes(entry.scope)) assert.ok(ok(res.statusCode), `${key} after the demotion: ${res.statusCode}`);
      else assert.equal(res.statusCode, 403, `${key} after the demotion`);
    }
  });

  test('a member cannot make a key with more than their role allows, even through the service', async () => {
    const m = await addMember(t, alice.accountId, 'admin');
    const ctx = { actor: { type: 'user' as const, id: m.userId, label: m.email }, ip: null };
    await changeRole(t.db, alice.accountId, owner, m.userId, 'member');
    await assert.rejects(issueApiKey(t.db.kysely, alice.accountId, 'too much', ctx, ['audit:read']), /cannot give a key audit:read/);
    await assert.rejects(issueApiKey(t.db.kysely, alice.accountId, 'nothing', ctx, []), /at least one scope/);
  });

  test('the OpenAPI document declares, per operation, the scope the route requires', async () => {
    const doc = (await t.app.inject({ url: '/v1/openapi.json' })).json() as { paths: Record<string, Record<string, { security?: { bearerAuth: string[] }[] }>> };
    for (const [key, entry] of apiRoutes()) {
      const [method, url] = key.split(' ');
      const op = doc.paths[url.replace(/:([a-z]+)/g, '{$1}')]?.[method.toLowerCase()];
      assert.ok(op, key);
      assert.deepEqual(op.security, [{ bearerAuth: [entry.scope] }], key);
    }
  });
});

describe('an account always keeps an owner', () => {
  const acting = (m: TestMember): ActingMember => ({ userId: m.userId, role: m.role, ctx: { actor: { type: 'user', id: m.userId, label: m.email }, ip: '127.0.0.1' } });

  test('the last owner can neither be demoted nor demote themselves; with two owners one may step down', async () => {
    const acc = await t.account();
    const founder = await t.db.kysely.selectFrom('users').selectAll().where('account_id', '=', acc.accountId).executeTakeFirstOrThrow();
    const me: ActingMember = { userId: founder.id, role: 'owner', ctx: { actor: { type: 'user', id: founder.id, label: founder.email }, ip: null } };
    await assert.rejects(changeRole(t.db, acc.accountId, me, founder.id, 'admin'), MemberInputError);
    const second = await addMember(t, acc.accountId, 'owner');
    await changeRole(t.db, acc.accountId, me, founder.id, 'admin');
    await assert.rejects(changeRole(t.db, acc.accountId, acting(second), second.userId, 'member'), /at least one owner/);
    await assert.rejects(changeRole(t.db, acc.accountId, me, second.userId, 'member'), MemberForbiddenError, 'an admin cannot change roles');
  });

  test('two owners demoting each other at the same moment: exactly one succeeds, one owner is left', async () => {
    for (let round = 0; round < 5; round++) {
      const acc = await t.account();
      await t.db.kysely.deleteFrom('users').where('account_id', '=', acc.accountId).execute();
      const [x, y] = [await addMember(t, acc.accountId, 'owner'), await addMember(t, acc.accountId, 'owner')];
      const results = await Promise.allSettled([changeRole(t.db, acc.accountId, acting(x), y.userId, 'member'), changeRole(t.db, acc.accountId, acting(y), x.userId, 'member')]);
      assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1, `round ${round}: ${JSON.stringify(results.map((r) => r.status))}`);
      const owners = await t.db.kysely.selectFrom('users').select('id').where('account_id', '=', acc.accountId).where('role', '=', 'owner').execute();
      assert.equal(owners.length, 1);
    }
  });

  test('two owners removing each other at the same moment: exactly one succeeds, one owner is left', async () => {
    for (let round = 0; round < 5; round++) {
      const acc = await t.account();
      await t.db.kysely.deleteFrom('users').where('account_id', '=', acc.accountId).execute();
      const [x, y] = [await addMember(t, acc.accountId, 'owner'), await addMember(t, acc.accountId, 'owner')];
      const results = await Promise.allSettled([removeMember(t.db, acc.accountId, acting(x), y.userId), removeMember(t.db, acc.accountId, acting(y), x.userId)]);
      assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1, `round ${round}`);
      const left = await t.db.kysely.selectFrom('users').select('role').where('account_id', '=', acc.accountId).execute();
      assert.deepEqual(left.map((u) => u.role), ['owner']);
    }
  });

  test('an admin removes members only; nobody removes themselves', async () => {
    const acc = await t.account();
    const admin = await addMember(t, acc.accountId, 'admin');
    const otherAdmin = await addMember(t, acc.accountId, 'admin');
    const plain = await addMember(t, acc.accountId, 'member');
    await assert.rejects(removeMember(t.db, acc.accountId, acting(admin), otherAdmin.userId), MemberForbiddenError);
    await assert.rejects(removeMember(t.db, acc.accountId, acting(admin), admin.userId), MemberInputError);
    await removeMember(t.db, acc.accountId, acting(admin), plain.userId);
    const page = await (await signInAs(t, admin)).get(`/settings/members/${otherAdmin.userId}/remove`);
    assert.equal(page.statusCode, 403);
  });
});
