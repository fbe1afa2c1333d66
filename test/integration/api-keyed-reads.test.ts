// The hot reads (GET /v1/sessions, GET /v1/sessions/{id}/report) check the bearer key inside
// their own statement: one database round trip, and a revoked key still refused at once.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KyselyPlugin } from 'kysely';
import { buildTestApp } from '../helpers/app.ts';
import type { TestAccount, TestApp } from '../helpers/app.ts';
import { hashApiKey } from '../../src/adapters/db/repositories/api-keys.ts';
import { findReportForKey } from '../../src/adapters/db/repositories/sessions.ts';
import { listForKey, reportForKey } from '../../src/services/session-reads.ts';
import { issueApiKey, revokeApiKeyValue } from '../../src/services/keys.ts';

let t: TestApp;
let alice: TestAccount;
let aliceSession: string;

before(async () => {
  t = await buildTestApp();
  alice = await t.account();
  for (let i = 0; i < 3; i++) aliceSession = (await t.upload(alice.apiKey, { fields: { repo: 'acme/keyed' } })).json().id;
  await t.analyzeAll();
});
after(() => t.close());

const get = (url: string, key: string) => t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });

/** The result rows of every statement a block of code runs, captured by a Kysely plugin. */
function resultRecorder(): { plugin: KyselyPlugin; rows: Record<string, unknown>[][] } {
  const rows: Record<string, unknown>[][] = [];
  return {
    plugin: {
      transformQuery: (args) => args.node,
      async transformResult(args) {
        rows.push(args.result.rows as Record<string, unknown>[]);
        return args.result;
      },
    },
    rows,
  };
}

/**
 * The statements a block of code runs, counted by a Kysely plugin on their results
 * (transformQuery also sees every subquery builder, transformResult once per execution).
 */
function statementCounter(): { plugin: KyselyPlugin; count: () => number } {
  let n = 0;
  return {
    plugin: {
      transformQuery: (args) => args.node,
      async transformResult(args) {
        n++;
        return args.result;
      },
    },
    count: () => n,
  };
}

describe('reads with the key check in the same statement', () => {
  test('a full page with its total is one statement; a warm total leaves it one statement', async () => {
    const counter = statementCounter();
    const db = t.db.kysely.withPlugin(counter.plugin);
    const hash = hashApiKey(alice.apiKey);
    const first = await listForKey(db, hash, { repo: 'acme/keyed', limit: 2, page: 1 });
    assert.equal(first.holder?.accountId, alice.accountId);
    assert.equal(first.rows.length, 2);
    assert.equal(first.total, 3);
    assert.equal(counter.count(), 1, 'page, total and key check in one statement');
    await listForKey(db, hash, { repo: 'acme/keyed', limit: 2, page: 1 });
    assert.equal(counter.count(), 2, 'the second read is one statement too');
  });

  test('a report is one statement, the key check included', async () => {
    const counter = statementCounter();
    const read = await reportForKey(t.db.kysely.withPlugin(counter.plugin), hashApiKey(alice.apiKey), aliceSession);
    assert.equal(read.holder?.accountId, alice.accountId);
    assert.equal(read.state?.state, 'complete');
    assert.equal(counter.count(), 1);
  });

  test('an unknown key reads nothing, even for an existing session', async () => {
    const read = await reportForKey(t.db.kysely, hashApiKey('vk_not_issued'), aliceSession);
    assert.equal(read.holder, null);
    assert.equal(read.state, null);
    const list = await listForKey(t.db.kysely, hashApiKey('vk_not_issued'), { limit: 20, page: 1 });
    assert.equal(list.holder, null);
    assert.deepEqual(list.rows, []);
  });

  test('another account\'s key finds the session absent (404), not another account\'s report', async () => {
    const mallory = await t.account();
    const res = await get(`/v1/sessions/${aliceSession}/report`, mallory.apiKey);
    assert.equal(res.statusCode, 404);
    const list = await get('/v1/sessions?repo=acme%2Fkeyed', mallory.apiKey);
    assert.equal(list.statusCode, 200);
    assert.equal(list.json().total, 0);
  });

  test('a key revoked between two requests is refused on the very next list, page past the end and report', async () => {
    const second = await issueApiKey(t.db.kysely, alice.accountId, 'revoked-next');
    const urls = ['/v1/sessions?limit=2', '/v1/sessions?page=50', `/v1/sessions/${aliceSession}/report`, '/v1/sessions/ses_00000000000000000000000000/report', '/v1/sessions/not%00an-id/report'];
    for (const url of urls) assert.notEqual((await get(url, second.key)).statusCode, 401, `${url} with the live key`);
    assert.equal(await revokeApiKeyValue(t.db.kysely, second.key), true);
    for (const url of urls) {
      const res = await get(url, second.key);
      assert.equal(res.statusCode, 401, url);
      assert.match(String(res.headers['www-authenticate']), /error="invalid_token"/, url);
    }
    assert.equal((await get('/v1/sessions?limit=2', alice.apiKey)).statusCode, 200, 'the account\'s other key keeps working');
  });

  test('a dead key is refused with 401 even when the query is invalid: the key is checked before the input is judged', async () => {
    const dead = await issueApiKey(t.db.kysely, alice.accountId, 'dead');
    assert.equal(await revokeApiKeyValue(t.db.kysely, dead.key), true);
    for (const url of ['/v1/sessions?limit=abc', '/v1/sessions?page=0x10', '/v1/sessions/not-an-id/report']) {
      assert.equal((await get(url, dead.key)).statusCode, 401, url);
    }
    assert.equal((await get('/v1/sessions?limit=abc', alice.apiKey)).statusCode, 422, 'a live key gets the validation answer');
  });

  test('an empty account lists an empty page with a live key', async () => {
    const empty = await t.account();
    const res = await get('/v1/sessions', empty.apiKey);
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().total, 0);
    assert.deepEqual(res.json().data, []);
  });
});

describe('reports are read once, then served from memory while the session keeps that report', () => {
  test('the read skips the body when the caller holds the session\'s report, and carries it otherwise', async () => {
    const hash = hashApiKey(alice.apiKey);
    const full = await findReportForKey(t.db.kysely, hash, aliceSession);
    assert.ok(full.holder && full.session, 'found');
    const { report_id: reportId, body } = full.session;
    assert.ok(reportId && body, 'a complete session has its report');
    const known = await findReportForKey(t.db.kysely, hash, aliceSession, reportId);
    assert.equal(known.holder && known.session?.body, null, 'the held report is not read again');
    assert.equal(known.holder && known.session?.report_id, reportId);
    const other = await findReportForKey(t.db.kysely, hash, aliceSession, 'rep_00000000000000000000000000');
    assert.equal(other.holder && other.session?.body, body, 'another report id held: the body comes with the read');
  });

  test('a second request for a report gets the same bytes, with no body read from the database', async () => {
    const id = (await t.upload(alice.apiKey, { fields: { repo: 'acme/kept' } })).json().id;
    await t.analyzeAll();
    const first = await get(`/v1/sessions/${id}/report`, alice.apiKey);
    assert.equal(first.statusCode, 200);
    const recorder = resultRecorder();
    const read = await reportForKey(t.db.kysely.withPlugin(recorder.plugin), hashApiKey(alice.apiKey), id);
    assert.equal(read.state?.state, 'complete');
    assert.equal(read.state?.state === 'complete' && read.state.json, first.body, 'the same JSON text');
    assert.equal(recorder.rows.length, 1, 'still one statement, the key check included');
    assert.equal(recorder.rows[0][0].body, null, 'the body was not read');
    const second = await get(`/v1/sessions/${id}/report`, alice.apiKey);
    assert.equal(second.body, first.body);
  });

  test('a kept report is never served to a revoked key or for a deleted session', async () => {
    const key = await issueApiKey(t.db.kysely, alice.accountId, 'kept-then-revoked');
    const id = (await t.upload(alice.apiKey, { fields: { repo: 'acme/kept' } })).json().id;
    await t.analyzeAll();
    assert.equal((await get(`/v1/sessions/${id}/report`, key.key)).statusCode, 200);
    assert.equal((await get(`/v1/sessions/${id}/report`, key.key)).statusCode, 200, 'now kept');
    assert.equal(await revokeApiKeyValue(t.db.kysely, key.key), true);
    assert.equal((await get(`/v1/sessions/${id}/report`, key.key)).statusCode, 401);
    const del = await t.app.inject({ method: 'DELETE', url: `/v1/sessions/${id}`, headers: { authorization: `Bearer ${alice.apiKey}` } });
    assert.equal(del.statusCode, 204);
    assert.equal((await get(`/v1/sessions/${id}/report`, alice.apiKey)).statusCode, 404);
  });

  test('another account never gets a report kept for its owner', async () => {
    const id = (await t.upload(alice.apiKey, { fields: { repo: 'acme/kept' } })).json().id;
    await t.analyzeAll();
    assert.equal((await get(`/v1/sessions/${id}/report`, alice.apiKey)).statusCode, 200);
    const mallory = await t.account();
    assert.equal((await get(`/v1/sessions/${id}/report`, mallory.apiKey)).statusCode, 404);
  });
});
