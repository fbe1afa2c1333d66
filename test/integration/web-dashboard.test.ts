// The dashboard's HTML routes through inject(): the sessions list (filters, paging, escaping,
// headlines), the upload form (CSRF, the API's rules and errors), the report page (timeline
// paging and filters, finding links, downloads, security headers) and the redact action.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, multipart, stubReport, uploadForm } from '../helpers/app.ts';
import type { TestAccount, TestApp } from '../helpers/app.ts';
import type { Analyzer } from '../../src/adapters/analysis-pool/index.ts';
import type { Report, TimelineEntry } from '../../src/domain/model/report.ts';
import { FAKE_GITHUB_TOKEN, claudeLog } from '../helpers/claude-log.ts';

let t: TestApp;
let alice: TestAccount;
let bob: TestAccount;
let aliceCookie: string;

type Res = Awaited<ReturnType<TestApp['app']['inject']>>;
const csrfOf = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
const cookieValue = (res: Res, name: string) => (res.cookies as { name: string; value: string }[]).find((c) => c.name === name)?.value ?? '';

async function signIn(who: TestAccount): Promise<string> {
  const page = await t.app.inject({ url: '/login' });
  const res = await t.app.inject({
    method: 'POST', url: '/login',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin', cookie: `vouch_login_csrf=${cookieValue(page, 'vouch_login_csrf')}` },
    payload: new URLSearchParams({ email: who.email, password: who.password, _csrf: csrfOf(page.body) }).toString(),
  });
  return `vouch_session=${cookieValue(res, 'vouch_session')}`;
}

const get = (url: string, cookie = aliceCookie) => t.app.inject({ url, headers: { cookie } });

/** An analyser returning this report for every log. */
const returning = (report: Report): Analyzer => ({
  async analyze(source) {
    for await (const chunk of source) void chunk;
    return report;
  },
  async close() {},
});

function longTimeline(n: number): TimelineEntry[] {
  return Array.from({ length: n }, (_, i) => ({
    index: i, at: new Date(Date.UTC(2026, 2, 2, 9, 0, i)).toISOString(), kind: i % 2 ? 'command' : 'message', actor: 'assistant', summary: i % 2 ? `$ step-${i}` : `message ${i}`,
    tool: i % 2 ? 'Bash' : null, detail: i === 301 ? '\u001b[31mError:\u001b[0m build failed\n' + 'x\n'.repeat(40) : null, status: i % 2 ? 'ok' : null,
    finding_ids: i === 301 ? ['f1'] : [], duration_ms: i % 2 ? 1200 : null,
  }) as TimelineEntry);
}

before(async () => {
  t = await buildTestApp();
  alice = await t.account();
  bob = await t.account();
  aliceCookie = await signIn(alice);
});
after(() => t.close());

describe('sessions list', () => {
  test('rows carry the headline, repo, file name, agent, outcome and score; the list pages like the API', async () => {
    const carol = await t.account();
    for (const repo of ['acme/one', 'acme/two', 'acme/one']) await t.upload(carol.apiKey, { fields: { repo, agent: 'codex' } });
    await t.analyzeAll(returning(stubReport({ headline: 'Ran <b>rm</b> outside the tree', trust_score: 41, outcome: 'Blocked' })));
    const cookie = await signIn(carol);
    const res = await get('/', cookie);
    assert.equal(res.statusCode, 200);
    assert.equal((res.body.match(/<tr>/g) ?? []).length, 1 + 3, 'header + 3 rows');
    assert.ok(res.body.includes('Ran &lt;b>rm&lt;/b> outside the tree'), 'headline, escaped');
    assert.match(res.body, /acme\/one · session\.jsonl/);
    assert.match(res.body, /Codex CLI/);
    assert.match(res.body, /badge-blocked">Blocked/);
    assert.match(res.body, /score-blocked[^>]*>41</);
    assert.match(res.body, /<svg class="spark"/, 'a sparkline per repo');
    const filtered = await get('/?repo=acme%2Ftwo', cookie);
    assert.equal((filtered.body.match(/<tr>/g) ?? []).length, 2);
    const paged = await get('/?limit=2&page=2', cookie);
    assert.equal((paged.body.match(/<tr>/g) ?? []).length, 2, 'the third session on page 2');
    assert.match(paged.body, /rel="prev"/);
    assert.match(paged.body, /3–3 of 3 sessions/);
  });

  test('an invalid filter is reported (422) and ignored, in words', async () => {
    const res = await get('/?agent=%3Cscript%3E&limit=500');
    assert.equal(res.statusCode, 422);
    assert.match(res.body, /Agent must be one of/);
    assert.match(res.body, /limit must be a whole number from 1 to 100/);
    assert.ok(!res.body.includes('<script>'));
  });

  test('a visitor is sent to sign in; /sessions is the same list', async () => {
    const res = await t.app.inject({ url: '/?repo=x' });
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, `/login?next=${encodeURIComponent('/?repo=x')}`);
    const alias = await get('/sessions?repo=x');
    assert.equal(alias.statusCode, 301);
    assert.equal(alias.headers.location, '/?repo=x');
  });

  test('every page carries the security headers', async () => {
    const res = await get('/');
    assert.match(String(res.headers['content-security-policy']), /script-src 'nonce-[^']+'/);
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.equal(res.headers['referrer-policy'], 'no-referrer');
    assert.equal(res.headers['x-frame-options'], 'DENY');
    assert.equal(res.headers['cache-control'], 'no-store');
  });

  test('the stylesheet and script are served with a long cache lifetime; the favicon answers', async () => {
    const home = await get('/');
    const css = /href="(\/assets\/app\.css\?v=[^"]+)"/.exec(home.body)?.[1];
    assert.ok(css);
    const res = await t.app.inject({ url: css });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/css/);
    assert.match(String(res.headers['cache-control']), /immutable/);
    assert.equal((await t.app.inject({ url: '/favicon.ico' })).statusCode, 200);
    assert.equal((await t.app.inject({ url: '/assets/nope.css' })).statusCode, 404);
  });
});

describe('upload form', () => {
  async function post(fields: Record<string, string>, input: Parameters<typeof uploadForm>[0] = {}, cookie = aliceCookie) {
    const { payload, headers } = await multipart(uploadForm({ ...input, fields }));
    return t.app.inject({ method: 'POST', url: '/sessions', payload, headers: { ...headers, 'sec-fetch-site': 'same-origin', cookie } });
  }

  test('with the CSRF token: stored, and the browser goes to the report; empty selects mean "not given"', async () => {
    const home = await get('/');
    const res = await post({ _csrf: csrfOf(home.body), repo: 'acme/form', agent: '' });
    assert.equal(res.statusCode, 303);
    assert.match(String(res.headers.location), /^\/r\/ses_[0-9A-Z]{26}$/);
    const id = String(res.headers.location).slice(3);
    const api = await t.app.inject({ url: `/v1/sessions/${id}`, headers: { authorization: `Bearer ${alice.apiKey}` } });
    assert.equal(api.json().repo, 'acme/form');
  });

  test('without or with a wrong CSRF token: 403, nothing stored, no new form offered, and that cookie is signed out', async () => {
    const before = await t.stored();
    for (const fields of [{ _csrf: 'forged', repo: 'acme/x' }, { repo: 'acme/x' }] as Record<string, string>[]) {
      const cookie = await signIn(alice); // the refusal signs this cookie out: a fresh one each time
      const res = await post(fields, {}, cookie);
      assert.equal(res.statusCode, 403);
      assert.doesNotMatch(res.body, /name="_csrf"/, 'no form to retry under this cookie');
      assert.match(String(res.headers['set-cookie']), /vouch_session=;/);
      assert.equal((await get('/', cookie)).statusCode, 303, 'the cookie no longer signs in');
    }
    assert.deepEqual(await t.stored(), before);
  });

  test("the API's rules and errors: wrong file type 415, bad agent 422, empty file 422 — shown in words", async () => {
    const csrf = csrfOf((await get('/')).body);
    const type = await post({ _csrf: csrf }, { filename: 'notes.pdf' });
    assert.equal(type.statusCode, 415);
    assert.match(type.body, /The upload was refused: The file must end in \.jsonl, \.log, \.txt/);
    const agent = await post({ _csrf: csrf, agent: 'cursor' });
    assert.equal(agent.statusCode, 422);
    assert.match(agent.body, /agent must be exactly one of claude-code, codex, gemini-cli/);
    const empty = await post({ _csrf: csrf }, { content: '' });
    assert.equal(empty.statusCode, 422);
    assert.match(empty.body, /file is empty/);
  });

  test('signed out: sent to sign in', async () => {
    const res = await post({ _csrf: 'x' }, {}, '');
    assert.equal(res.statusCode, 303);
  });
});

describe('report page', () => {
  let id: string;
  before(async () => {
    const report = stubReport({
      timeline: longTimeline(450),
      findings: [{ id: 'f1', rule: 'integrity/claim-contradicted', category: 'integrity', severity: 'critical', title: 'Success claimed, but the build failed', detail: 'd <i>x</i>', evidence: [{ timeline_index: 301, excerpt: 'npm run build → Error: build failed' }], remediation: 'Run it.' }],
      findings_count: { critical: 1, warning: 0, info: 0 }, outcome: 'Blocked', trust_score: 35,
      files: [{ path: 'src/app.ts', reads: 1, writes: 1, created: false, deleted: false }],
      commands: [{ timeline_index: 1, command: 'npm test', exit_code: 0 }, { timeline_index: 3, command: 'npm run build', exit_code: 1 }],
    });
    id = (await t.upload(alice.apiKey, { fields: { repo: 'acme/report' } })).json().id;
    await t.analyzeAll(returning(report));
  });

  test('the first timeline page has 200 entries; the finding links to page 2 at its entry', async () => {
    const res = await get(`/r/${id}`);
    assert.equal(res.statusCode, 200);
    assert.equal((res.body.match(/<li id="t\d+"/g) ?? []).length, 200);
    assert.ok(res.body.includes(`href="/r/${id}?tl_page=2#t301"`));
    const two = await get(`/r/${id}?tl_page=2`);
    assert.match(two.body, /<li id="t301" class="entry flagged">/);
    assert.match(two.body, /Entries 201–400 of 450/);
    assert.ok(!two.body.includes('\u001b'), 'ANSI codes stripped');
    assert.match(two.body, /<details class="detail"><summary>Show 41 lines<\/summary>/, 'long output collapsed');
  });

  test('filters by kind and to entries with findings', async () => {
    const cmds = await get(`/r/${id}?kind=command`);
    assert.match(cmds.body, /Entries 1–200 of 225 \(of 450 in all\)/);
    const flagged = await get(`/r/${id}?flagged=1`);
    assert.equal((flagged.body.match(/<li id="t\d+"/g) ?? []).length, 1);
    const junk = await get(`/r/${id}?kind=%3Cx%3E&tl_page=-3`);
    assert.equal(junk.statusCode, 200, 'unknown values are ignored');
  });

  test('verdict up front, commands with exit codes, downloads of JSON and SARIF', async () => {
    const res = await get(`/r/${id}`);
    assert.ok(res.body.indexOf('class="verdict') < res.body.indexOf('id="findings"'));
    assert.match(res.body, /aria-label="Trust score 35 of 100"/);
    assert.match(res.body, /class="exit-fail">1</);
    assert.ok(res.body.includes('d &lt;i>x&lt;/i>'), 'finding detail escaped');
    const json = await get(`/r/${id}/report.json`);
    assert.equal(json.statusCode, 200);
    assert.match(String(json.headers['content-disposition']), /attachment; filename="vouch-ses_/);
    assert.equal(json.json().trust_score, 35);
    const sarif = await get(`/r/${id}/report.sarif`);
    assert.equal(sarif.statusCode, 200);
    assert.equal(sarif.json().version, '2.1.0');
  });

  test('downloads: visitors to sign in, other accounts 404', async () => {
    assert.equal((await t.app.inject({ url: `/r/${id}/report.json` })).statusCode, 303);
    const bobCookie = await signIn(bob);
    for (const path of ['', '/report.json', '/report.sarif', '/log']) {
      const res = await get(`/r/${id}${path}`, bobCookie);
      assert.equal(res.statusCode, 404, path);
      assert.match(String(res.headers['content-type']), /^text\/html/);
    }
  });
});

describe('redact action', () => {
  test('needs the CSRF token and the confirmation; then masks the stored log', async () => {
    const content = claudeLog([{ prompt: 'push' }, { bash: `GITHUB_TOKEN=${FAKE_GITHUB_TOKEN} git push`, output: 'ok' }]);
    const id = (await t.upload(alice.apiKey, { content })).json().id;
    await t.analyzeAll();
    const page = await get(`/r/${id}`);
    const csrf = csrfOf(page.body);
    const post = (fields: Record<string, string>, cookie = aliceCookie) =>
      t.app.inject({ method: 'POST', url: `/r/${id}/redact`, headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' }, payload: new URLSearchParams(fields).toString() });
    const log = async () => (await t.app.inject({ url: `/r/${id}/log`, headers: { cookie: aliceCookie } })).body;
    const stored = async () => {
      const chunks: Buffer[] = [];
      for await (const c of await t.logStore.open(id)) chunks.push(Buffer.from(c));
      return Buffer.concat(chunks).toString();
    };
    assert.equal((await post({ _csrf: 'forged', confirm: 'yes' })).headers.location, `/r/${id}#redact`);
    assert.equal((await post({ _csrf: csrf })).headers.location, `/r/${id}#redact`, 'not confirmed');
    assert.ok((await stored()).includes(FAKE_GITHUB_TOKEN), 'untouched so far');
    assert.ok(!(await log()).includes(FAKE_GITHUB_TOKEN), 'the download is masked anyway');
    assert.equal((await post({ _csrf: csrfOf((await get('/')).body) }, await signIn(bob))).statusCode, 404, 'another account');
    const done = await post({ _csrf: csrf, confirm: 'yes' });
    assert.equal(done.statusCode, 303);
    assert.equal(done.headers.location, `/r/${id}?redacted=1#redact`);
    assert.ok(!(await stored()).includes(FAKE_GITHUB_TOKEN));
    assert.match((await get(`/r/${id}?redacted=1`)).body, /The stored log was redacted: 1 secret masked/);
  });
});
