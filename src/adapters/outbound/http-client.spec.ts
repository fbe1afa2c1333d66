import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createOutboundClient } from './http-client.ts';
import { createSsrfPolicy } from './ssrf.ts';
import type { Resolver } from './ssrf.ts';

interface Hit {
  url: string;
  host: string | undefined;
  body: string;
}

let server: Server;
let base = '';
const hits: Hit[] = [];

// One loopback server; the path chooses the behaviour.
function handle(req: IncomingMessage, res: ServerResponse, body: string): void {
  hits.push({ url: req.url ?? '', host: req.headers.host, body });
  switch (req.url) {
    case '/ok':
      res.writeHead(204).end();
      return;
    case '/fail':
      res.writeHead(500, { 'content-type': 'text/plain' }).end('boom\u0000!');
      return;
    case '/redirect':
      res.writeHead(307, { location: '/elsewhere' }).end();
      return;
    case '/big':
      res.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(200_000));
      return;
    case '/hang':
      return; // never answers
    case '/slow-body-ok':
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('partial'); // then never ends
      return;
    case '/slow-body-error':
      res.writeHead(503, { 'content-type': 'text/plain' });
      res.write('partial');
      return;
    default:
      res.writeHead(200).end('elsewhere');
  }
}

before(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handle(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const allowLoopback = createSsrfPolicy('127.0.0.0/8');

// Tests that are not about the deadline get one that only guards against a hang.
const GUARD_MS = 30_000;
const DEADLINE_MS = 1500;

function client(timeoutMs = GUARD_MS, resolver?: Resolver, policy = allowLoopback) {
  return createOutboundClient({ policy, timeoutMs, resolver });
}

test('2xx is success; the body and headers arrive as given', async () => {
  const c = client();
  const r = await c.post(`${base}/ok`, { 'content-type': 'application/json', 'x-test': '1' }, '{"a":1}');
  await c.close();
  assert.equal(r.ok, true);
  assert.equal(r.statusCode, 204);
  assert.equal(r.errorClass, null);
  assert.ok(r.latencyMs >= 0);
  assert.equal(hits.at(-1)?.body, '{"a":1}');
});

test('a non-2xx status fails; the excerpt is kept without NUL characters', async () => {
  const c = client();
  const r = await c.post(`${base}/fail`, {}, '{}');
  await c.close();
  assert.equal(r.ok, false);
  assert.equal(r.statusCode, 500);
  assert.equal(r.errorClass, 'http_status');
  assert.equal(r.responseExcerpt, 'boom\uFFFD!');
});

test('a redirect is a failure and is not followed', async () => {
  const before = hits.length;
  const c = client();
  const r = await c.post(`${base}/redirect`, {}, '{}');
  await c.close();
  assert.equal(r.ok, false);
  assert.equal(r.statusCode, 307);
  assert.equal(r.errorClass, 'redirect');
  assert.deepEqual(hits.slice(before).map((h) => h.url), ['/redirect'], 'no request went to /elsewhere');
});

test('the response body is capped at 2 KB', async () => {
  const c = client();
  const r = await c.post(`${base}/big`, {}, '{}');
  await c.close();
  assert.equal(r.ok, true);
  assert.equal(r.responseExcerpt?.length, 2048);
});

test('a receiver that never answers is given up after the timeout', async () => {
  const c = client(DEADLINE_MS);
  const t0 = Date.now();
  const r = await c.post(`${base}/hang`, {}, '{}');
  const took = Date.now() - t0;
  await c.close();
  assert.equal(r.ok, false);
  assert.equal(r.errorClass, 'timeout');
  assert.ok(took >= DEADLINE_MS - 50, `not before the deadline: gave up after ${took} ms`);
});

test('the deadline covers the body: 2xx headers then a stalled body is still a success, a 5xx one a timeout', async () => {
  const c = client(DEADLINE_MS);
  const ok = await c.post(`${base}/slow-body-ok`, {}, '{}');
  const bad = await c.post(`${base}/slow-body-error`, {}, '{}');
  await c.close();
  assert.equal(ok.ok, true, 'the receiver accepted with 200');
  assert.equal(ok.statusCode, 200);
  assert.equal(bad.ok, false);
  assert.equal(bad.statusCode, 503);
  assert.equal(bad.errorClass, 'timeout');
  assert.ok(bad.latencyMs >= DEADLINE_MS - 50, `the stalled error body was waited for until the deadline: ${bad.latencyMs} ms`);
});

test('the connect-time check refuses loopback when it is not allowed, without connecting', async () => {
  const before = hits.length;
  const c = client(GUARD_MS, undefined, createSsrfPolicy(''));
  const r = await c.post(`${base}/ok`, {}, '{}');
  await c.close();
  assert.equal(r.ok, false);
  assert.equal(r.errorClass, 'ssrf_refused');
  assert.match(r.error ?? '', /127\.0\.0\.1 is a loopback address/);
  assert.equal(hits.length, before, 'no request reached the server');
});

test('DNS rebinding: the address is re-resolved and re-checked at connect time', async () => {
  // Public at registration time, loopback when the connection is made.
  let calls = 0;
  const rebinding: Resolver = async () => (calls++ === 0 ? [{ address: '93.184.216.34', family: 4 }] : [{ address: '127.0.0.1', family: 4 }]);
  const { checkTargetUrl } = await import('./ssrf.ts');
  const port = new URL(base).port;
  const strict = createSsrfPolicy('');
  const registered = await checkTargetUrl(`http://rebind.test:${port}/ok`, strict, rebinding);
  assert.equal(registered.ok, true, 'the first answer was public');
  const before = hits.length;
  const c = client(GUARD_MS, rebinding, strict);
  const r = await c.post(`http://rebind.test:${port}/ok`, {}, '{}');
  await c.close();
  assert.equal(r.errorClass, 'ssrf_refused');
  assert.equal(hits.length, before);
});

test('the connection goes to the checked address and keeps the Host header', async () => {
  const pinned: Resolver = async () => [{ address: '127.0.0.1', family: 4 }];
  const port = new URL(base).port;
  const c = client(GUARD_MS, pinned);
  const r = await c.post(`http://receiver.test:${port}/ok`, {}, '{}');
  await c.close();
  assert.equal(r.ok, true, `${r.errorClass}: ${r.error}`);
  assert.equal(hits.at(-1)?.host, `receiver.test:${port}`);
});

test('when an address refuses the connection, the next checked address is tried', async () => {
  // Nothing listens on 127.0.0.5 (the server is bound to 127.0.0.1 only).
  const two: Resolver = async () => [{ address: '127.0.0.5', family: 4 }, { address: '127.0.0.1', family: 4 }];
  const port = new URL(base).port;
  const c = client(GUARD_MS, two);
  const r = await c.post(`http://two.test:${port}/ok`, {}, '{}');
  await c.close();
  assert.equal(r.ok, true, `${r.errorClass}: ${r.error}`);
});

test('connection refused and unknown hosts are classified', async () => {
  const c = client(GUARD_MS, async (h) => {
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${h}`), { code: 'ENOTFOUND' });
  });
  const refused = await c.post('http://127.0.0.1:1/x', {}, '{}');
  const unknown = await c.post('http://unknown.test/x', {}, '{}');
  await c.close();
  assert.equal(refused.errorClass, 'connect');
  assert.equal(unknown.errorClass, 'ssrf_refused', 'a name that does not resolve cannot be checked, so it is refused');
  assert.match(unknown.error ?? '', /does not resolve/);
});
