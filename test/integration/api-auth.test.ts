// Authentication and rate limiting of /v1: hostile and broken credentials.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp } from '../helpers/app.ts';
import type { TestAccount, TestApp } from '../helpers/app.ts';
import { revokeApiKeyValue } from '../../src/services/keys.ts';
import { generateKey } from '../../src/kernel/key-format.ts';

let t: TestApp;
let alice: TestAccount;

before(async () => {
  t = await buildTestApp();
  alice = await t.account();
});
after(() => t.close());

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

function assertProblem(res: { headers: Record<string, unknown>; json(): unknown }, status: number, code: string): Record<string, unknown> {
  assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
  const body = res.json() as Record<string, unknown>;
  assert.equal(body.status, status);
  assert.equal(body.code, code);
  assert.equal(typeof body.detail, 'string');
  assert.equal(body.request_id, res.headers['request-id']);
  assert.ok(!JSON.stringify(body).includes('    at '), 'no stack trace');
  return body;
}

describe('bearer keys', () => {
  test('a request without a key: 401 with the Bearer challenge and no error attribute', async () => {
    for (const url of ['/v1/sessions', '/v1/sessions/ses_x', '/v1/sessions/ses_x/report', '/v1/sessions/ses_x/log']) {
      const res = await get(url);
      assert.equal(res.statusCode, 401, url);
      assert.equal(res.headers['www-authenticate'], 'Bearer realm="vouch"');
      assertProblem(res, 401, 'unauthorized');
    }
  });

  test('malformed, unknown and checksum-failing keys: 401 with error="invalid_token"', async () => {
    const real = alice.apiKey;
    const flipped = real.slice(0, 10) + (real[10] === 'a' ? 'b' : 'a') + real.slice(11); // checksum no longer matches
    const unknown = generateKey().key; // well formed, never issued
    for (const auth of ['Bearer vk_this_is_not_a_key', 'Bearer', 'Bearer  ', `Bearer ${flipped}`, `Bearer ${unknown}`, `Bearer ${real}x`, 'Bearer a b c']) {
      const res = await get('/v1/sessions', { authorization: auth });
      assert.equal(res.statusCode, 401, auth);
      assert.match(String(res.headers['www-authenticate']), /^Bearer realm="vouch", error="invalid_token"/, auth);
      assertProblem(res, 401, 'unauthorized');
    }
  });

  test('only the Bearer scheme is accepted', async () => {
    for (const auth of [`Basic ${Buffer.from(`${alice.apiKey}:`).toString('base64')}`, `Token ${alice.apiKey}`, alice.apiKey]) {
      const res = await get('/v1/sessions', { authorization: auth });
      assert.equal(res.statusCode, 401, auth);
      assertProblem(res, 401, 'unauthorized');
    }
    const ok = await get('/v1/sessions', { authorization: `bearer ${alice.apiKey}` });
    assert.equal(ok.statusCode, 200, 'the scheme is case-insensitive (RFC 7235)');
  });

  test('a key in the query string is refused, even with a valid header', async () => {
    for (const q of [`api_key=${alice.apiKey}`, `access_token=${alice.apiKey}`, `repo=${alice.apiKey}`, 'token=anything']) {
      const res = await get(`/v1/sessions?${q}`, { authorization: `Bearer ${alice.apiKey}` });
      assert.equal(res.statusCode, 401, q);
      assert.match(String(res.headers['www-authenticate']), /error="invalid_request"/);
      const body = assertProblem(res, 401, 'unauthorized');
      assert.match(String(body.detail), /Authorization header/);
      assert.ok(!JSON.stringify(body).includes(alice.apiKey), 'the key is not echoed back');
    }
  });

  test('a revoked key is refused on the very next request; the other keys keep working', async () => {
    const bob = await t.account();
    const { issueApiKey } = await import('../../src/services/keys.ts');
    const second = await issueApiKey(t.db.kysely, bob.accountId, 'second');
    assert.equal((await get('/v1/sessions', { authorization: `Bearer ${second.key}` })).statusCode, 200);
    assert.equal(await revokeApiKeyValue(t.db.kysely, second.key), true);
    const res = await get('/v1/sessions', { authorization: `Bearer ${second.key}` });
    assert.equal(res.statusCode, 401);
    assert.match(String(res.headers['www-authenticate']), /error="invalid_token"/);
    assert.equal((await get('/v1/sessions', { authorization: `Bearer ${bob.apiKey}` })).statusCode, 200);
    assert.equal(await revokeApiKeyValue(t.db.kysely, second.key), false, 'revoking twice reports nothing revoked');
  });

  test('keys are stored only as their sha256, with a display prefix and last 4', async () => {
    const rows = await t.db.kysely.selectFrom('api_keys').selectAll().where('account_id', '=', alice.accountId).execute();
    assert.equal(rows.length, 1);
    assert.notEqual(rows[0].hash, alice.apiKey);
    assert.match(rows[0].hash, /^[0-9a-f]{64}$/);
    assert.equal(rows[0].last4, alice.apiKey.slice(-4));
    assert.ok(alice.apiKey.startsWith(rows[0].prefix));
    assert.ok(!JSON.stringify(rows).includes(alice.apiKey));
  });

  test('health endpoints need no key', async () => {
    assert.equal((await get('/healthz')).statusCode, 200);
    assert.equal((await get('/readyz')).statusCode, 200);
  });
});

describe('rate limiting per key', () => {
  let limited: TestApp;
  before(async () => {
    limited = await buildTestApp({ VOUCH_RATE_LIMIT_MAX: '3', VOUCH_RATE_LIMIT_WINDOW_MS: '60000' });
  });
  after(() => limited.close());

  test('the fourth request in the window is 429 with Retry-After and RateLimit headers; another key is not affected', async () => {
    const a = await limited.account();
    const b = await limited.account();
    const call = (key: string) => limited.app.inject({ url: '/v1/sessions', headers: { authorization: `Bearer ${key}` } });
    for (let i = 0; i < 3; i++) {
      const ok = await call(a.apiKey);
      assert.equal(ok.statusCode, 200);
      assert.equal(ok.headers['ratelimit-policy'], '"per-key";q=3;w=60');
      assert.match(String(ok.headers.ratelimit), new RegExp(`^"per-key";r=${2 - i};t=\\d+$`));
    }
    const res = await call(a.apiKey);
    assert.equal(res.statusCode, 429);
    assert.match(String(res.headers['retry-after']), /^\d+$/);
    assert.ok(Number(res.headers['retry-after']) >= 1);
    assert.match(String(res.headers.ratelimit), /^"per-key";r=0;t=\d+$/);
    assertProblem(res, 429, 'rate_limited');
    assert.equal((await call(b.apiKey)).statusCode, 200, 'limits are per key');
  });

  test('requests without a valid key are refused before they count against anyone', async () => {
    const c = await limited.account();
    for (let i = 0; i < 5; i++) await limited.app.inject({ url: '/v1/sessions', headers: { authorization: 'Bearer vk_nope' } });
    assert.equal((await limited.app.inject({ url: '/v1/sessions', headers: { authorization: `Bearer ${c.apiKey}` } })).statusCode, 200);
  });
});
