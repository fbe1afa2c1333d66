// Reading sessions: list (paging, Link, filters, bad parameters), one session, its report
// (202/200/409), its masked log, delete; tenant isolation on every route; problem bodies for
// unknown routes and methods; metrics and the OpenAPI document.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, stubReport } from '../helpers/app.ts';
import type { TestAccount, TestApp } from '../helpers/app.ts';
import { AnalysisError } from '../../src/adapters/analysis-pool/index.ts';
import type { Analyzer } from '../../src/adapters/analysis-pool/index.ts';
import { countJobs } from '../../src/adapters/jobs/index.ts';
import { waitFor } from '../helpers/wait.ts';

let t: TestApp;
let alice: TestAccount;
let bob: TestAccount;

before(async () => {
  t = await buildTestApp({ VOUCH_ANALYSIS_MAX_ATTEMPTS: '2' });
  alice = await t.account();
  bob = await t.account();
});
after(() => t.close());

const as = (who: TestAccount, method: 'GET' | 'DELETE' | 'POST', url: string) =>
  t.app.inject({ method, url, headers: { authorization: `Bearer ${who.apiKey}` } });

function links(header: unknown): Map<string, URL> {
  const out = new Map<string, URL>();
  for (const m of String(header ?? '').matchAll(/<([^>]+)>;\s*rel="([^"]+)"/g)) out.set(m[2], new URL(m[1]));
  return out;
}

describe('listing', () => {
  const repo = 'acme/list';
  const ids: string[] = [];
  before(async () => {
    for (let i = 0; i < 5; i++) {
      const r = await t.upload(alice.apiKey, { fields: { repo, agent: i % 2 ? 'codex' : 'gemini-cli' } });
      ids.push(r.json().id);
    }
    await t.upload(alice.apiKey, { fields: { repo: 'acme/other' } });
  });

  test('pages newest first with total, has_more and a Link header keeping the filters', async () => {
    const seen: string[] = [];
    for (const page of [1, 2, 3]) {
      const res = await as(alice, 'GET', `/v1/sessions?repo=${encodeURIComponent(repo)}&limit=2&page=${page}`);
      assert.equal(res.statusCode, 200);
      const body = res.json();
      assert.deepEqual([body.page, body.limit, body.total, body.has_more], [page, 2, 5, page < 3]);
      seen.push(...body.data.map((s: { id: string }) => s.id));
      const l = links(res.headers.link);
      assert.equal(l.get('first')?.searchParams.get('page'), '1');
      assert.equal(l.get('last')?.searchParams.get('page'), '3');
      assert.equal(l.get('first')?.searchParams.get('repo'), repo);
      assert.equal(l.has('prev'), page > 1);
      assert.equal(l.has('next'), page < 3);
      if (page === 2) assert.equal(l.get('next')?.searchParams.get('page'), '3');
    }
    assert.deepEqual(seen, [...ids].reverse());
    const past = await as(alice, 'GET', `/v1/sessions?repo=${encodeURIComponent(repo)}&limit=2&page=40`);
    assert.equal(past.statusCode, 200);
    assert.deepEqual(past.json().data, []);
    assert.equal(links(past.headers.link).get('prev')?.searchParams.get('page'), '3', 'prev of a page past the end is the last page');
  });

  test('defaults: page 1, limit 20', async () => {
    const body = (await as(alice, 'GET', '/v1/sessions')).json();
    assert.equal(body.page, 1);
    assert.equal(body.limit, 20);
    assert.equal(body.total, 6);
  });

  test('filters by agent, status, outcome and creation time', async () => {
    const q = async (qs: string) => (await as(alice, 'GET', `/v1/sessions?${qs}`)).json();
    assert.equal((await q(`repo=${repo}&agent=codex`)).total, 2);
    assert.equal((await q('status=analyzing')).total, 6);
    assert.equal((await q('status=complete')).total, 0);
    assert.equal((await q('outcome=Review')).total, 0);
    const oldest = (await as(alice, 'GET', `/v1/sessions/${ids[0]}`)).json().created_at;
    assert.equal((await q(`created_before=${encodeURIComponent(oldest)}`)).total, 0);
    assert.equal((await q(`created_after=${encodeURIComponent(oldest)}`)).total, 6);
    assert.equal((await q('created_after=2000-01-01T00:00:00%2B02:00')).total, 6, 'any offset is normalised');
  });

  test('malformed paging and filters: 422 with a pointer to the parameter', async () => {
    const cases: [string, string][] = [
      ['limit=0', '/query/limit'], ['limit=-1', '/query/limit'], ['limit=abc', '/query/limit'], ['limit=1e9', '/query/limit'],
      ['limit=101', '/query/limit'], ['page=0', '/query/page'], ['page=-1', '/query/page'], ['page=1.5', '/query/page'],
      ['limit=1&limit=2', '/query/limit'], ['agent=Codex', '/query/agent'], ['status=done', '/query/status'],
      ['created_after=yesterday', '/query/created_after'], [`repo=${'r'.repeat(201)}`, '/query/repo'],
    ];
    for (const [qs, pointer] of cases) {
      const res = await as(alice, 'GET', `/v1/sessions?${qs}`);
      assert.equal(res.statusCode, 422, qs);
      const body = res.json();
      assert.equal(body.code, 'validation_failed');
      assert.equal(body.errors[0].pointer, pointer, qs);
      assert.equal(typeof body.errors[0].detail, 'string');
    }
  });

  test('totals: own writes show at once, writes by another process once the cached total expires', async () => {
    const carol = await t.account();
    for (let i = 0; i < 3; i++) await t.upload(carol.apiKey);
    const total = async () => (await as(carol, 'GET', '/v1/sessions?limit=1')).json().total;
    assert.equal(await total(), 3);
    await t.upload(carol.apiKey);
    assert.equal(await total(), 4, 'an upload through this process is counted at once');
    // Another process (e.g. a second API instance) inserts directly: the cached total may lag.
    const row = await t.db.kysely.selectFrom('sessions').selectAll().where('account_id', '=', carol.accountId).executeTakeFirstOrThrow();
    const { newId } = await import('../../src/kernel/ids.ts');
    await t.db.kysely.insertInto('sessions').values({ ...row, id: newId('ses') }).execute();
    // The list-total cache lives one second: wait on the condition (the bound only ends a hung test).
    await waitFor(async () => (await total()) === 5, 'the total to count the other process\'s session', 60_000);
  });

  test("another account's list never shows these sessions", async () => {
    const body = (await as(bob, 'GET', `/v1/sessions?repo=${repo}`)).json();
    assert.equal(body.total, 0);
    assert.equal((await as(bob, 'GET', '/v1/sessions?limit=100')).json().total, 0);
  });
});

describe('one session, its report and its log', () => {
  test('report: 202 + Retry-After while analysing, then 200 with the stored report', async () => {
    const id = (await t.upload(alice.apiKey, { fields: { repo: 'acme/report', agent: 'codex' } })).json().id;
    const pending = await as(alice, 'GET', `/v1/sessions/${id}/report`);
    assert.equal(pending.statusCode, 202);
    assert.equal(pending.headers['retry-after'], '1');
    assert.deepEqual(pending.json(), { session_id: id, status: 'analyzing' });
    await t.analyzeAll();
    const done = await as(alice, 'GET', `/v1/sessions/${id}/report`);
    assert.equal(done.statusCode, 200);
    assert.match(String(done.headers['content-type']), /^application\/json/);
    const report = done.json();
    assert.equal(report.session_id, id);
    assert.match(report.report_id, /^rep_/);
    assert.equal(report.repo, 'acme/report', 'the repo of the upload');
    assert.equal(report.trust_score, stubReport().trust_score);
    const session = (await as(alice, 'GET', `/v1/sessions/${id}`)).json();
    assert.equal(session.status, 'complete');
    assert.equal(session.trust_score, 72);
    assert.equal(session.outcome, 'Review');
    assert.deepEqual(session.findings_count, { critical: 0, warning: 1, info: 0 });
    assert.equal(session.branch, 'main');
    assert.equal(session.agent, 'claude-code', 'the detected agent once analysed');
    assert.ok(session.completed_at >= session.created_at);
  });

  test('report of a failed analysis: 409 analysis_failed with the reason, after bounded retries', async () => {
    const id = (await t.upload(alice.apiKey)).json().id;
    let calls = 0;
    const crashing: Analyzer = {
      async analyze() {
        calls++;
        throw new AnalysisError('crash', 'the analysis worker crashed: boom');
      },
      async close() {},
    };
    await t.analyzeAll(crashing);
    assert.equal(calls, 2, 'VOUCH_ANALYSIS_MAX_ATTEMPTS attempts, then it stops');
    assert.equal(await countJobs(t.db, { kind: 'analyze' }), 0, 'no job left to loop on');
    const res = await as(alice, 'GET', `/v1/sessions/${id}/report`);
    assert.equal(res.statusCode, 409);
    const body = res.json();
    assert.equal(body.code, 'analysis_failed');
    assert.match(body.detail, /boom/);
    assert.match(body.reason, /gave up after 2 attempts/);
    const session = (await as(alice, 'GET', `/v1/sessions/${id}`)).json();
    assert.equal(session.status, 'failed');
    assert.equal(session.trust_score, null);
    assert.match(session.failure_reason, /boom/);
  });

  test('log: the stored log streamed with secrets masked, line by line', async () => {
    const token = 'ghp_' + 'Zq7Xc2Vb9Nm4Lk8Jh3Gf6Ds1Aw5Er0Ty2Ui7';
    const content = `{"type":"user","text":"push with ${token} now"}\nplain line\n`;
    const id = (await t.upload(alice.apiKey, { content })).json().id;
    const res = await as(alice, 'GET', `/v1/sessions/${id}/log`);
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/plain/);
    assert.ok(!res.body.includes(token), 'the secret is masked');
    assert.equal(res.body.split('\n').length, 3, 'same number of lines');
    assert.ok(res.body.includes('plain line'));
  });

  test('log: a value detected on one line is masked on every line (issue 15: masked everywhere)', async () => {
    const password = 'Qv7-' + 'Rt2Lm9Xc4Nb8Kp3W';
    const content = `{"type":"user","text":"DB_PASSWORD=${password}"}\n{"type":"user","text":"connecting as app with ${password}"}\n`;
    const id = (await t.upload(alice.apiKey, { content })).json().id;
    const res = await as(alice, 'GET', `/v1/sessions/${id}/log`);
    assert.equal(res.statusCode, 200);
    assert.ok(!res.body.includes(password), 'the bare repeat on the second line is masked too');
    assert.equal(res.body.split('\n').length, 3, 'same number of lines');
    assert.ok(res.body.includes('connecting as app with'));
  });

  test('delete: 204, then 404 everywhere, and the stored log is gone', async () => {
    const id = (await t.upload(alice.apiKey)).json().id;
    assert.equal((await as(bob, 'DELETE', `/v1/sessions/${id}`)).statusCode, 404, 'not by another account');
    const del = await as(alice, 'DELETE', `/v1/sessions/${id}`);
    assert.equal(del.statusCode, 204);
    assert.equal(del.body, '');
    for (const suffix of ['', '/report', '/log']) assert.equal((await as(alice, 'GET', `/v1/sessions/${id}${suffix}`)).statusCode, 404);
    assert.equal((await as(alice, 'DELETE', `/v1/sessions/${id}`)).statusCode, 404);
    await assert.rejects(t.logStore.open(id));
    await t.analyzeAll(); // its queued job finds no session and just goes away
    assert.equal(await countJobs(t.db, { kind: 'analyze' }), 0);
  });

  test("another account's session is a 404 exactly like a missing one, on every route", async () => {
    const id = (await t.upload(alice.apiKey)).json().id;
    const missing = 'ses_01ZZZZZZZZZZZZZZZZZZZZZZZZ';
    for (const [method, suffix] of [['GET', ''], ['GET', '/report'], ['GET', '/log'], ['DELETE', '']] as const) {
      const theirs = await as(bob, method, `/v1/sessions/${id}${suffix}`);
      const none = await as(bob, method, `/v1/sessions/${missing}${suffix}`);
      assert.equal(theirs.statusCode, 404);
      assert.equal(none.statusCode, 404);
      const strip = (b: Record<string, unknown>) => ({ ...b, request_id: undefined });
      assert.deepEqual(strip(theirs.json()), strip(none.json()), `${method} ${suffix}: same body`);
    }
    assert.equal((await as(alice, 'GET', `/v1/sessions/${id}`)).statusCode, 200, 'still there for its owner');
  });

  test('SQL-looking and absurd ids are plain 404s', async () => {
    const dave = await t.account();
    const mine = (await t.upload(dave.apiKey)).json().id;
    for (const id of ["'%20OR%201=1--", 'ses_%27%3B%20DROP%20TABLE%20sessions%3B--', '..%2F..%2Fetc%2Fpasswd', 'x'.repeat(150), '%00']) {
      const res = await as(alice, 'GET', `/v1/sessions/${id}/report`);
      assert.equal(res.statusCode, 404, id);
      assert.equal(res.json().code, 'not_found');
    }
    const list = (await as(dave, 'GET', '/v1/sessions')).json();
    assert.deepEqual([list.total, list.data[0]?.id], [1, mine], 'the table and its rows are still there');
  });
});

describe('the rest of the surface', () => {
  test('unknown routes are 404 and wrong methods 405 (with Allow), as problem bodies', async () => {
    const nf = await as(alice, 'GET', '/v1/nope');
    assert.equal(nf.statusCode, 404);
    assert.equal(nf.json().code, 'not_found');
    assert.match(String(nf.headers['content-type']), /^application\/problem\+json/);
    const webhooks = await t.app.inject({ method: 'POST', url: '/v1/webhooks', payload: { url: 'http://x' }, headers: { authorization: `Bearer ${alice.apiKey}` } });
    assert.equal(webhooks.statusCode, 404, 'no webhook endpoint in the API');
    const wrong = await t.app.inject({ method: 'PATCH', url: '/v1/sessions/ses_x' });
    assert.equal(wrong.statusCode, 405);
    assert.equal(wrong.headers.allow, 'DELETE, GET, HEAD');
    assert.equal(wrong.json().code, 'method_not_allowed');
    for (const res of [nf, wrong]) assert.match(String(res.headers['request-id']), /^req_/);
  });

  test('malformed JSON bodies and bad URLs get problem bodies too', async () => {
    const bad = await t.app.inject({ method: 'POST', url: '/login', payload: '{"a":', headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' } });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().code, 'malformed_body');
    const url = await t.app.inject({ method: 'GET', url: '/v1/sessions/%E0%A4%A' });
    assert.ok([400, 401, 404].includes(url.statusCode));
    assert.equal(typeof url.json().code, 'string');
  });

  test('metrics count the requests, upload bytes, uploads and analyses this test makes', async () => {
    const value = (body: string, series: string) => {
      const line = body.split('\n').find((l) => l.startsWith(`${series} `));
      return line === undefined ? 0 : Number(line.slice(series.length + 1));
    };
    const BYTES = 'vouch_upload_bytes_total';
    const ACCEPTED = 'vouch_uploads_total{result="accepted"}';
    const ANALYSED = 'vouch_analysis_duration_seconds_count{result="complete"}';
    const LISTED = 'vouch_http_requests_total{method="GET",route="/v1/sessions",status="200"}';
    const read = async () => {
      const body = (await t.app.inject({ url: '/metrics' })).body;
      return { body, bytes: value(body, BYTES), accepted: value(body, ACCEPTED), analysed: value(body, ANALYSED), listed: value(body, LISTED) };
    };
    const before = await read();
    const content = 'a line of the log for the metrics test\n'.repeat(500);
    const up = await t.upload(alice.apiKey, { content });
    assert.equal(up.statusCode, 202, up.body);
    await t.analyzeAll();
    assert.equal((await as(alice, 'GET', '/v1/sessions')).statusCode, 200);
    // One more upload, left queued: the queue gauges must show it.
    assert.equal((await t.upload(alice.apiKey)).statusCode, 202);
    const res = await t.app.inject({ url: '/metrics' });
    assert.equal(res.statusCode, 200);
    const after = await read();
    assert.ok(after.bytes - before.bytes >= Buffer.byteLength(content), `upload bytes grew by ${after.bytes - before.bytes}, the file has ${Buffer.byteLength(content)}`);
    assert.equal(after.accepted - before.accepted, 2);
    assert.ok(after.analysed - before.analysed >= 1, 'the analysis of the first upload is counted');
    assert.equal(after.listed - before.listed, 1);
    assert.ok(value(after.body, 'vouch_queue_depth{kind="analyze"}') >= 1, 'the queued upload is in the queue depth');
    assert.ok(value(after.body, 'vouch_queue_oldest_age_seconds{kind="analyze"}') >= 0);
    assert.match(after.body, /^vouch_queue_oldest_age_seconds\{kind="analyze"\} [\d.e-]+$/m);
    assert.ok(!after.body.includes('ses_'), 'no ids in label values');
  });

  test('the OpenAPI 3.1 document describes every /v1 route', async () => {
    const res = await t.app.inject({ url: '/v1/openapi.json' });
    assert.equal(res.statusCode, 200);
    const doc = res.json();
    assert.equal(doc.openapi, '3.1.0');
    assert.deepEqual(Object.keys(doc.paths).sort(), ['/v1/audit-events', '/v1/sessions', '/v1/sessions/{id}', '/v1/sessions/{id}/log', '/v1/sessions/{id}/log/redact', '/v1/sessions/{id}/report']);
    assert.ok(doc.paths['/v1/sessions'].post.requestBody.content['multipart/form-data']);
    assert.deepEqual(doc.security, [{ bearerAuth: [] }]);
    assert.ok(doc.components.schemas.Session);
  });
});
