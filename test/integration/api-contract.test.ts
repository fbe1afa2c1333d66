// The OpenAPI document tells the truth: it lints clean with Redocly's recommended rules, it
// lists exactly the /v1 routes the app registers, and the real responses of every operation
// (successes and errors) have a status, media type, headers and body that the document declares.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsPlugin from 'ajv-formats';
import type { LightMyRequestResponse } from 'fastify';
import { buildTestApp, stubAnalyzer, stubReport } from '../helpers/app.ts';
import type { TestAccount, TestApp } from '../helpers/app.ts';
import { AnalysisError } from '../../src/adapters/analysis-pool/index.ts';
import { AGENT_IDS } from '../../src/domain/agents.ts';

const REDOCLY = fileURLToPath(new URL('../../node_modules/@redocly/cli/bin/cli.js', import.meta.url));
// ajv-formats is CommonJS with a default export; under ESM its function may sit one level down.
type AddFormats = (ajv: Ajv2020) => unknown;
const addFormats = ((addFormatsPlugin as unknown as { default?: AddFormats }).default ?? (addFormatsPlugin as unknown as AddFormats));

interface Operation {
  responses: Record<string, { content?: Record<string, unknown>; headers?: Record<string, unknown> }>;
}
type Doc = { paths: Record<string, Record<string, Operation>>; components: Record<string, unknown> };

let t: TestApp;
let limited: TestApp;
let alice: TestAccount;
let doc: Doc;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);

before(async () => {
  t = await buildTestApp({ VOUCH_MAX_UPLOAD_BYTES: '1024', VOUCH_ANALYSIS_MAX_ATTEMPTS: '1' });
  limited = await buildTestApp({ VOUCH_RATE_LIMIT_MAX: '1' });
  alice = await t.account();
  doc = (await t.app.inject({ url: '/v1/openapi.json' })).json();
  ajv.addSchema(doc, 'openapi.json');
});
after(async () => {
  await t.close();
  await limited.close();
});

// Headers a client may rely on; each one a response carries must be declared for it.
const DOCUMENTED_HEADERS = ['request-id', 'ratelimit', 'ratelimit-policy', 'retry-after', 'link', 'location', 'www-authenticate', 'idempotent-replayed', 'content-disposition'];

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/** Asserts that `res` is a response the document declares for this operation. */
function conforms(res: LightMyRequestResponse, path: string, method: string): void {
  const op = doc.paths[path]?.[method];
  assert.ok(op, `${method} ${path} is in the document`);
  const status = String(res.statusCode);
  const declared = op.responses[status];
  assert.ok(declared, `${method} ${path} declares status ${status}`);
  for (const name of DOCUMENTED_HEADERS) {
    if (res.headers[name] === undefined) continue;
    const names = Object.keys(declared.headers ?? {}).map((h) => h.toLowerCase());
    assert.ok(names.includes(name), `${method} ${path} ${status} declares the ${name} header it sends`);
  }
  if (!declared.content) {
    assert.equal(res.body, '', `${method} ${path} ${status} has no body`);
    return;
  }
  const media = String(res.headers['content-type'] ?? '').split(';')[0].trim();
  assert.ok(media in declared.content, `${method} ${path} ${status} declares ${media} (declared: ${Object.keys(declared.content).join(', ')})`);
  const body = media.endsWith('json') ? res.json() : res.body;
  const ref = `openapi.json#/${pointer('paths', path, method, 'responses', status, 'content', media, 'schema')}`;
  const valid = ajv.validate({ $ref: ref }, body);
  assert.ok(valid, `${method} ${path} ${status} body matches its schema: ${ajv.errorsText(ajv.errors)}`);
}

const auth = (who: TestAccount) => ({ authorization: `Bearer ${who.apiKey}` });

describe('the document', () => {
  test('lints clean with @redocly/cli and the recommended rules (no errors, no warnings)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vouch-openapi-'));
    try {
      const file = join(dir, 'openapi.json');
      await writeFile(file, JSON.stringify(doc));
      const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
      const { stdout } = await promisify(execFile)(process.execPath, [REDOCLY, 'lint', '--extends', 'recommended', '--format', 'json', file], { env });
      const report = JSON.parse(stdout) as { totals: { errors: number; warnings: number }; problems: { message: string }[] };
      assert.deepEqual(report.problems.map((p) => p.message), []);
      assert.deepEqual(report.totals, { ...report.totals, errors: 0, warnings: 0 });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('every agent enum in the document is the agent registry, in its order', () => {
    const enums: unknown[][] = [];
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) return v.forEach(walk);
      if (!v || typeof v !== 'object') return;
      const e = (v as { enum?: unknown }).enum;
      if (Array.isArray(e) && e.some((x) => typeof x === 'string' && AGENT_IDS.some((a) => a === x))) enums.push(e);
      Object.values(v).forEach(walk);
    };
    walk(doc);
    // The upload form's hint (documented by hand) and the reports' and sessions' agent (from the schemas).
    assert.ok(enums.length >= 2, `agent enums found: ${enums.length}`);
    for (const e of enums) assert.deepEqual(e, [...AGENT_IDS]);
  });

  test('every /v1 route the app registers is documented, and every documented operation is a route', () => {
    const template = (url: string) => url.replace(/:([A-Za-z_]+)/g, '{$1}').replace(/\/$/, '');
    const registered = new Set(
      t.app.registeredRoutes
        .filter((r) => r.url.startsWith('/v1/') && r.url !== '/v1/openapi.json' && r.method !== 'HEAD')
        .map((r) => `${r.method} ${template(r.url)}`),
    );
    const documented = new Set(Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`)));
    assert.ok(registered.size >= 6, 'the sessions routes are registered');
    assert.deepEqual([...registered].filter((r) => !documented.has(r)), [], 'registered but not documented (declare a schema, without hide)');
    assert.deepEqual([...documented].filter((d) => !registered.has(d)), [], 'documented but not registered');
  });

  test('errors are application/problem+json with the one shared Problem component', () => {
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        for (const [status, r] of Object.entries(op.responses)) {
          if (Number(status) < 400) continue;
          assert.deepEqual(r.content, { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } }, `${method} ${path} ${status}`);
        }
      }
    }
  });

  test('limit and page are optional, with their defaults', () => {
    const params = (doc.paths['/v1/sessions'].get as unknown as { parameters: { name: string; required?: boolean; schema: { default?: number } }[] }).parameters;
    for (const [name, def] of [['limit', 20], ['page', 1]] as const) {
      const p = params.find((x) => x.name === name);
      assert.equal(p?.required ?? false, false, `${name} is not required`);
      assert.equal(p?.schema.default, def);
    }
  });
});

describe('real responses match the document', () => {
  test('upload: 202 (and its replay), 400, 401, 413, 415, 422 idempotency_key_reused', async () => {
    const post = '/v1/sessions';
    const first = await t.upload(alice.apiKey, { headers: { 'idempotency-key': 'contract-1' }, fields: { repo: 'acme/contract' } });
    assert.equal(first.statusCode, 202);
    conforms(first, post, 'post');
    const replay = await t.upload(alice.apiKey, { headers: { 'idempotency-key': 'contract-1' }, fields: { repo: 'acme/contract' } });
    assert.equal(replay.headers['idempotent-replayed'], 'true');
    conforms(replay, post, 'post');
    const reused = await t.upload(alice.apiKey, { headers: { 'idempotency-key': 'contract-1' }, content: 'other\n' });
    assert.equal(reused.json().code, 'idempotency_key_reused');
    conforms(reused, post, 'post');
    const tooBig = await t.upload(alice.apiKey, { content: 'x'.repeat(4096) });
    assert.equal(tooBig.statusCode, 413);
    conforms(tooBig, post, 'post');
    const json = await t.upload(alice.apiKey, { filename: 'gemini-session.json' });
    assert.equal(json.statusCode, 415);
    conforms(json, post, 'post');
    const broken = await t.app.inject({ method: 'POST', url: post, headers: { ...auth(alice), 'content-type': 'multipart/form-data; boundary=x' }, payload: '--x\r\nContent-Disposition: form-data; name="file"; filename="a.jsonl"\r\n\r\n{}\n' });
    assert.equal(broken.statusCode, 400);
    conforms(broken, post, 'post');
    const anonymous = await t.app.inject({ method: 'POST', url: post });
    assert.equal(anonymous.statusCode, 401);
    conforms(anonymous, post, 'post');
  });

  test('list: 200 with Link, 422 for a bad filter, 429 when the quota is used up', async () => {
    const list = await t.app.inject({ url: '/v1/sessions?limit=1', headers: auth(alice) });
    assert.equal(list.statusCode, 200);
    conforms(list, '/v1/sessions', 'get');
    const bad = await t.app.inject({ url: '/v1/sessions?outcome=Maybe', headers: auth(alice) });
    assert.equal(bad.statusCode, 422);
    conforms(bad, '/v1/sessions', 'get');
    const bob = await limited.account();
    await limited.app.inject({ url: '/v1/sessions', headers: auth(bob) });
    const over = await limited.app.inject({ url: '/v1/sessions', headers: auth(bob) });
    assert.equal(over.statusCode, 429);
    conforms(over, '/v1/sessions', 'get');
  });

  test('one session, its report (202, 200, 409), its log and delete (204, 404, 414)', async () => {
    const id = (await t.upload(alice.apiKey, { content: '{"type":"user"}\n' })).json().id as string;
    const one = `/v1/sessions/${id}`;
    conforms(await t.app.inject({ url: one, headers: auth(alice) }), '/v1/sessions/{id}', 'get');
    const analysing = await t.app.inject({ url: `${one}/report`, headers: auth(alice) });
    assert.equal(analysing.statusCode, 202);
    conforms(analysing, '/v1/sessions/{id}/report', 'get');
    await t.analyzeAll({ ...stubAnalyzer, analyze: async (src) => { for await (const c of src) void c; return stubReport({ findings: [{ ...stubReport().findings[0], evidence: [{ timeline_index: 0, excerpt: 'hello' }] }] }); } });
    const report = await t.app.inject({ url: `${one}/report`, headers: auth(alice) });
    assert.equal(report.statusCode, 200);
    conforms(report, '/v1/sessions/{id}/report', 'get');
    const log = await t.app.inject({ url: `${one}/log`, headers: auth(alice) });
    assert.equal(log.statusCode, 200);
    conforms(log, '/v1/sessions/{id}/log', 'get');
    const deleted = await t.app.inject({ method: 'DELETE', url: one, headers: auth(alice) });
    assert.equal(deleted.statusCode, 204);
    conforms(deleted, '/v1/sessions/{id}', 'delete');
    conforms(await t.app.inject({ url: one, headers: auth(alice) }), '/v1/sessions/{id}', 'get');
    conforms(await t.app.inject({ url: '/v1/sessions/not-an-id', headers: auth(alice) }), '/v1/sessions/{id}', 'get');
    const long = await t.app.inject({ url: `/v1/sessions/${'a'.repeat(300)}/log`, headers: auth(alice) });
    assert.equal(long.statusCode, 414);
    conforms(long, '/v1/sessions/{id}/log', 'get');

    const failing = (await t.upload(alice.apiKey)).json().id as string;
    await t.analyzeAll({ ...stubAnalyzer, analyze: async () => { throw new AnalysisError('failed', 'the analysis failed: boom'); } });
    const failed = await t.app.inject({ url: `/v1/sessions/${failing}/report`, headers: auth(alice) });
    assert.equal(failed.statusCode, 409);
    conforms(failed, '/v1/sessions/{id}/report', 'get');
  });
});
