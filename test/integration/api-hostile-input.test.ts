// No input gets a 5xx or a bare answer: every case a fuzzer found answers 4xx with a problem
// body and a Request-Id — through inject() for what reaches Fastify, over a real socket for
// what Node's HTTP parser refuses first. Also: client aborts are not logged as errors, and every
// problem `type` URI leads to a page.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { buildTestApp, capturedLogger } from '../helpers/app.ts';
import type { TestAccount, TestApp } from '../helpers/app.ts';
import { PROBLEM_CODES } from '../../src/app/problem.ts';
import { PROBLEM_DOCS } from '../../src/app/problem-catalog.ts';

let t: TestApp;
let alice: TestAccount;
let port: number;
let lines: string[] = [];

before(async () => {
  const captured = capturedLogger('debug');
  lines = captured.lines;
  t = await buildTestApp({}, { logger: captured.logger });
  alice = await t.account();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as net.AddressInfo).port;
});
after(() => t.close());

const get = (url: string) => t.app.inject({ url, headers: { authorization: `Bearer ${alice.apiKey}` } });

function assertProblem(res: { statusCode: number; headers: Record<string, unknown>; body: string }, status: number, code: string): { detail: string; errors?: { pointer: string; detail: string }[] } {
  assert.equal(res.statusCode, status, res.body);
  assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
  const body = JSON.parse(res.body);
  assert.equal(body.code, code);
  assert.match(String(res.headers['request-id']), /^req_/);
  assert.equal(body.request_id, res.headers['request-id']);
  return body;
}

/** Sends raw bytes and reads the whole answer (the server closes, or the body is complete). */
function rawRequest(bytes: string | Buffer): Promise<{ statusCode: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let data = '';
    const parse = () => {
      const [head, ...rest] = data.split('\r\n\r\n');
      const [statusLine, ...headerLines] = head.split('\r\n');
      const headers = Object.fromEntries(headerLines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      return { statusCode: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') };
    };
    socket.on('data', (chunk) => {
      data += chunk;
      const r = parse();
      // Complete once the body has its Content-Length: no waiting for the socket to close.
      if (r.headers['content-length'] !== undefined && Buffer.byteLength(r.body) >= Number(r.headers['content-length'])) {
        socket.destroy();
        resolve(r);
      }
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(parse()));
    socket.write(bytes);
  });
}

describe('query parameters that used to reach the database', () => {
  test('a leap second in created_after or created_before is 422, not 500', async () => {
    for (const name of ['created_after', 'created_before']) {
      const body = assertProblem(await get(`/v1/sessions?${name}=2016-12-31T23:59:60Z`), 422, 'validation_failed');
      assert.deepEqual(body.errors?.map((e) => e.pointer), [`/query/${name}`]);
      assert.match(body.detail, /leap second/);
    }
  });

  test('a real instant in created_after is still accepted', async () => {
    assert.equal((await get('/v1/sessions?created_after=2016-12-31T23:59:59Z')).statusCode, 200);
  });

  test('Infinity, -Infinity, 1e309, 0x10, 1.5 and negative numbers for limit or page are 422 naming the parameter', async () => {
    for (const [name, value] of [['page', 'Infinity'], ['page', '-Infinity'], ['limit', '1e309'], ['page', '0x10'], ['limit', '0x10'], ['limit', '1.5'], ['page', '-1'], ['page', ' 2'], ['limit', '']]) {
      const body = assertProblem(await get(`/v1/sessions?${name}=${encodeURIComponent(value)}`), 422, 'validation_failed');
      assert.deepEqual(body.errors?.map((e) => e.pointer), [`/query/${name}`], `${name}=${value}`);
      assert.match(body.errors?.[0].detail ?? '', /decimal integer/);
    }
  });

  test('decimal limit and page within range are accepted; out of range is 422', async () => {
    const ok = await get('/v1/sessions?limit=100&page=1000000');
    assert.equal(ok.statusCode, 200);
    assert.deepEqual([ok.json().limit, ok.json().page], [100, 1_000_000]);
    assertProblem(await get('/v1/sessions?limit=101'), 422, 'validation_failed');
    assertProblem(await get('/v1/sessions?page=0'), 422, 'validation_failed');
  });

  test('a repo filter with NUL or another control character is 422 on every backend', async () => {
    for (const value of ['%00', 'acme%2Fapi%00', '%1B%5B31m', 'a%7Fb', '%20acme']) {
      const body = assertProblem(await get(`/v1/sessions?repo=${value}`), 422, 'validation_failed');
      assert.deepEqual(body.errors?.map((e) => e.pointer), ['/query/repo']);
      assert.match(body.errors?.[0].detail ?? '', /printable/);
    }
    assert.equal((await get('/v1/sessions?repo=acme%2Fapi')).statusCode, 200);
  });

  test('a bad enum filter names the allowed values once', async () => {
    const body = assertProblem(await get('/v1/sessions?status=done'), 422, 'validation_failed');
    assert.deepEqual(body.errors, [{ pointer: '/query/status', detail: 'must be one of analyzing, complete, failed' }]);
    assert.doesNotMatch(body.detail, /constant/);
  });
});

describe('paths', () => {
  test('an over-long path segment is 414 uri_too_long without echoing the path', async () => {
    const long = 'x'.repeat(5000);
    const body = assertProblem(await get(`/v1/sessions/${long}`), 414, 'uri_too_long');
    assert.ok(!JSON.stringify(body).includes(long.slice(0, 300)), 'the path is not echoed');
  });

  test('a session id that cannot exist is a 404 like a missing one', async () => {
    assertProblem(await get('/v1/sessions/ses_0000'), 404, 'not_found');
    assertProblem(await get('/v1/sessions/ses_01JD8X5Q7M3K9V2N4P6R8T0W1Y'), 404, 'not_found');
  });
});

describe("requests Node's HTTP parser refuses", () => {
  test('a 70 KB header gets 431 headers_too_large as a problem body with a Request-Id', async () => {
    const res = await rawRequest(`GET /v1/sessions HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(70_000)}\r\n\r\n`);
    assertProblem(res, 431, 'headers_too_large');
  });

  test('a malformed Content-Length gets 400 bad_request as a problem body with a Request-Id', async () => {
    const res = await rawRequest('POST /v1/sessions HTTP/1.1\r\nHost: x\r\nContent-Length: 12abc\r\n\r\nhello');
    const body = assertProblem(res, 400, 'bad_request');
    assert.match(body.detail, /Content-Length/);
  });

  test('a well-formed request on a real socket still gets its ordinary answer', async () => {
    const res = await rawRequest('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    assert.equal(res.statusCode, 200);
  });
});

describe('multipart bodies', () => {
  const boundary = 'vouchTestBoundary';
  const upload = (body: string) => rawRequest([
    'POST /v1/sessions HTTP/1.1', 'Host: x', `Authorization: Bearer ${alice.apiKey}`,
    `Content-Type: multipart/form-data; boundary=${boundary}`, `Content-Length: ${Buffer.byteLength(body)}`, '', body,
  ].join('\r\n'));
  const filePart = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="s.jsonl"\r\nContent-Type: application/octet-stream\r\n\r\n{"type":"user"}\n`;

  test('a body without its closing boundary is answered 400 malformed_body as soon as it has arrived', async () => {
    for (const body of [filePart, `${filePart}\r\n--${boundary}\r\n`, `--${boundary}\r\nContent-Disposition: form-data; name="repo"\r\n\r\nacme`]) {
      const res = await upload(body);
      assertProblem(res, 400, 'malformed_body');
    }
    assert.equal((await t.stored()).tempFiles, 0, 'nothing of the broken uploads is kept');
  });

  test('the same body with its closing boundary is accepted', async () => {
    const res = await upload(`${filePart}\r\n--${boundary}--\r\n`);
    assert.equal(res.statusCode, 202, res.body);
  });

  test('a Gemini .json log is refused with 415 whose detail says how to upload it', async () => {
    const body = assertProblem(await t.upload(alice.apiKey, { filename: 'session-2026.json', content: '{"sessionId":"x","messages":[]}' }), 415, 'unsupported_file_type');
    assert.match(body.detail, /rename|renamed/i);
    assert.match(body.detail, /\.jsonl/);
    assert.match(body.detail, /detected from the content/);
  });
});

describe('client aborts', () => {
  test('an upload the client abandons mid-body is logged at info without a stack, never at error', async () => {
    const before = lines.length;
    const socket = net.connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write([
      'POST /v1/sessions HTTP/1.1', 'Host: x', `Authorization: Bearer ${alice.apiKey}`,
      'Content-Type: multipart/form-data; boundary=b', 'Content-Length: 100000', '',
      '--b\r\nContent-Disposition: form-data; name="file"; filename="s.jsonl"\r\n\r\n{"type":"user"}\n',
    ].join('\r\n'));
    // Wait until the server is reading the body, then go away.
    while (!lines.slice(before).some((l) => l.includes('starting multipart parsing'))) await new Promise((r) => setImmediate(r));
    socket.destroy();
    while (!lines.slice(before).some((l) => l.includes('client closed the connection before the answer'))) await new Promise((r) => setTimeout(r, 10));
    const logged = lines.slice(before).map((l) => JSON.parse(l) as { level: number; err?: unknown; msg: string });
    assert.deepEqual(logged.filter((l) => l.level >= 50).map((l) => l.msg), [], 'nothing at error level');
    const abort = logged.find((l) => l.msg === 'client closed the connection before the answer');
    assert.equal(abort?.level, 30);
    assert.equal(abort?.err, undefined, 'no error object (and no stack)');
  });
});

describe('problem type pages', () => {
  test('every code the API uses has a page at its type URI', async () => {
    for (const code of PROBLEM_CODES) {
      assert.ok(PROBLEM_DOCS.has(code), `${code} is documented`);
      const res = await t.app.inject({ url: `/problems/${code}` });
      assert.equal(res.statusCode, 200, code);
      assert.match(String(res.headers['content-type']), /^text\/html/);
      assert.match(String(res.headers['content-security-policy']), /default-src 'none'/);
      assert.ok(res.body.includes(`<code>${code}</code>`), code);
    }
  });

  test('the type URI of a real problem answers 200, an unknown code 404', async () => {
    const problem = (await get('/v1/sessions?limit=0')).json();
    const res = await t.app.inject({ url: new URL(problem.type).pathname });
    assert.equal(res.statusCode, 200);
    assert.equal((await t.app.inject({ url: '/problems/no_such_code' })).statusCode, 404);
  });
});
