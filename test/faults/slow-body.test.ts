// Clients that send their body a trickle at a time, over real sockets to a real `vouch serve`
// (embedded SQLite), with a minimum body rate of 1 KiB/s over 1 s windows:
//   - an authenticated upload that trickles is answered 408 request_timeout and its
//     connection closed, and nothing of it is kept (no temp file, no session);
//   - an unauthenticated request that declares a large body gets its 401 and the server closes
//     the connection, without waiting for the body;
//   - the close after such an early answer lingers: a client still writing its body is not reset
//     (reset connections make fetch/undici fail with EPIPE before it reads the answer); what it
//     still sends is read and discarded until it stops, then the connection is closed;
//   - request headers that never end are cut by the same window as a stalled body;
//   - many such connections at once do not stop /healthz from answering, and all are closed.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../src/adapters/db/database.ts';
import { createAccount } from '../../src/services/accounts.ts';
import { startVouch, waitFor } from './harness.ts';
import type { VouchProcess } from './harness.ts';

let dir: string;
let serve: VouchProcess;
let apiKey: string;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'vouch-faults-slow-'));
  const db = await openDatabase({ dataDir: dir });
  await db.migrate();
  apiKey = (await createAccount(db, { email: 'slow@example.test', password: 'correct horse battery staple' })).apiKey;
  await db.close();
  serve = await startVouch('serve', 'serve', { VOUCH_DATA_DIR: dir, DATABASE_URL: '', VOUCH_MIN_BODY_BYTES_PER_SEC: '1024', VOUCH_BODY_RATE_WINDOW_MS: '1000', VOUCH_ANALYSIS_POOL_SIZE: '1' });
});

after(async () => {
  await serve?.kill9();
  rmSync(dir, { recursive: true, force: true });
});

interface SlowClient {
  socket: Socket;
  received: () => string;
  closed: Promise<void>;
  stop(): void;
}

/** Sends `head` at once, then `each` bytes of filler every `everyMs` until the server closes the socket. */
function slowClient(port: number, head: string, each = 1, everyMs = 200): SlowClient {
  const socket = connect(port, '127.0.0.1');
  let data = '';
  socket.on('data', (d) => (data += d.toString()));
  socket.on('error', () => {}); // the server's reset is one of the expected endings
  const closed = new Promise<void>((r) => socket.once('close', () => r()));
  socket.write(head);
  const timer = setInterval(() => {
    if (!socket.destroyed && socket.writable) socket.write('x'.repeat(each));
  }, everyMs);
  void closed.then(() => clearInterval(timer));
  return { socket, received: () => data, closed, stop: () => { clearInterval(timer); socket.destroy(); } };
}

const BOUNDARY = 'faultboundary';
function uploadHead(authorization: string | null, contentLength: number): string {
  const preamble = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="slow.jsonl"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  return [
    'POST /v1/sessions HTTP/1.1', 'Host: 127.0.0.1', `Content-Type: multipart/form-data; boundary=${BOUNDARY}`, `Content-Length: ${contentLength}`,
    ...(authorization ? [`Authorization: ${authorization}`] : []), '', preamble,
  ].join('\r\n');
}

test('an authenticated upload slower than the minimum rate is cut: 408 request_timeout, connection closed, nothing kept', async () => {
  const c = slowClient(serve.port!, uploadHead(`Bearer ${apiKey}`, 100_000), 10, 300); // ~33 bytes/s
  await waitFor(async () => { await Promise.race([c.closed, new Promise((r) => setTimeout(r, 100))]); return c.socket.destroyed; }, 'the server to close the slow upload', 60_000);
  const answer = c.received();
  assert.match(answer, /^HTTP\/1\.1 408 /, answer);
  assert.match(answer, /"code":"request_timeout"/);
  assert.match(answer, /slower than 1024 bytes\/s/);
  await waitFor(() => readdirSync(join(dir, 'uploads')).length === 0, 'the partial upload to be removed', 30_000);
  const db = await openDatabase({ dataDir: dir });
  try {
    assert.equal((await db.kysely.selectFrom('sessions').select('id').execute()).length, 0, 'no session was created');
  } finally {
    await db.close();
  }
});

test('an unauthenticated request declaring a large body gets 401 and the server closes the connection without waiting for the body', async () => {
  const c = slowClient(serve.port!, uploadHead(null, 10_000_000), 1, 200);
  await waitFor(async () => { await Promise.race([c.closed, new Promise((r) => setTimeout(r, 100))]); return c.socket.destroyed; }, 'the server to close the connection', 60_000);
  assert.match(c.received(), /^HTTP\/1\.1 401 /);
  assert.match(c.received(), /connection: close/i);
});

test('the close after an early answer lingers: a client still writing is not reset, reads the whole answer, and is closed once it stops', async () => {
  // allowHalfOpen: like an HTTP client, keep sending after the server's FIN (its answer is done).
  const socket = connect({ port: serve.port!, host: '127.0.0.1', allowHalfOpen: true });
  let data = '';
  let failure: Error | null = null;
  socket.on('data', (d) => (data += d.toString()));
  socket.on('error', (e) => (failure = e));
  const closed = new Promise<void>((r) => socket.once('close', () => r()));
  const chunk = Buffer.alloc(64 * 1024, 'x');
  const write = () => new Promise<void>((resolve, reject) => socket.write(chunk, (e) => (e ? reject(e) : resolve())));
  socket.write(uploadHead(null, 10_000_000));
  // Keep writing the body until the whole answer (headers and its JSON problem body) is in.
  await waitFor(async () => {
    await write();
    return /^HTTP\/1\.1 401 [^]*\r\n\r\n\{[^]*\}$/.test(data);
  }, 'the 401 answer while the body is still being sent', 60_000, 20);
  assert.match(data, /connection: close/i);
  // Another MiB after the answer, a chunk every 20 ms: each write is taken, nothing is reset.
  for (let i = 0; i < 16; i++) {
    await write();
    await new Promise((r) => setTimeout(r, 20));
  }
  assert.equal(failure, null, 'no reset while the client was still writing');
  assert.equal(socket.destroyed, false);
  socket.end();
  await closed;
  assert.equal(failure, null);
});

test('request headers that never end are cut by the same limit as a stalled body (VOUCH_BODY_RATE_WINDOW_MS), not Node\'s 60–90 s', async () => {
  // Both clients start together: a body trickling below the minimum rate, and headers trickling
  // a byte at a time without ever ending. Each is timed from its start to the server's close.
  const timed = (c: SlowClient) => {
    const started = performance.now();
    return c.closed.then(() => performance.now() - started);
  };
  const body = slowClient(serve.port!, uploadHead(`Bearer ${apiKey}`, 100_000), 10, 300);
  const headers = slowClient(serve.port!, 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ', 1, 200);
  try {
    const [bodyMs, headersMs] = await Promise.all([timed(body), timed(headers)]);
    assert.match(headers.received(), /^HTTP\/1\.1 408 /, headers.received());
    // One limit for both (checked each second): the headers go within a few seconds of the body.
    assert.ok(headersMs <= bodyMs * 3 + 3_000, `incomplete headers held ${Math.round(headersMs)} ms, a stalled body ${Math.round(bodyMs)} ms`);
  } finally {
    body.stop();
    headers.stop();
  }
});

test('50 trickling connections at once: /healthz keeps answering, and every one of them is closed by the server', async () => {
  const clients = Array.from({ length: 50 }, (_, i) => slowClient(serve.port!, uploadHead(i % 2 === 0 ? `Bearer ${apiKey}` : null, 5_000_000), 1, 500));
  try {
    const health = await fetch(`http://127.0.0.1:${serve.port}/healthz`, { signal: AbortSignal.timeout(30_000) });
    assert.equal(health.status, 200);
    await waitFor(() => clients.every((c) => c.socket.destroyed), 'the server to close all 50 connections', 90_000);
    for (const c of clients) assert.match(c.received(), /^HTTP\/1\.1 (401|408) /, c.received().slice(0, 200));
  } finally {
    for (const c of clients) c.stop();
  }
  assert.equal(serve.unexpectedExit, null);
});
