// Bounds on how long a request body may take (docs/decisions.md, "Timeouts"). Node already
// bounds the headers (60 s) and, with Fastify's requestTimeout (VOUCH_REQUEST_TIMEOUT_MS), the
// whole request; neither stops a body that trickles in a byte at a time and holds a socket and a
// pending upload for that long. Two rules here:
//   1. Minimum rate: a body that brings fewer than VOUCH_MIN_BODY_BYTES_PER_SEC over a window of
//      VOUCH_BODY_RATE_WINDOW_MS is cut: 408 request_timeout, connection closed. Only the
//      client's slowness counts: while bytes that arrived wait for us to read them (the handler
//      is busy, e.g. writing to a slow store), the window does not count against the client.
//   2. An answer sent before a large body was read (a 401 from the key check, a 415, a 503, a
//      507) closes the connection (`Connection: close`) instead of reading the whole of a body
//      nobody wants, but closes it the way a web server's "lingering close" does: our side of
//      the connection is ended (FIN) and what the client still sends is read and discarded for
//      up to LINGER_MS, then the socket is destroyed. Node's own close destroys the socket as
//      soon as the answer is written; with unread bytes in the kernel's buffer that resets the
//      connection, and a client still writing its body (fetch/undici, most HTTP libraries)
//      fails with EPIPE before it reads the answer: a 503 or 507 worth retrying never arrives.
//      Smaller bodies are still read to their end (at the rate above).
import { Socket } from 'node:net';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { HttpProblem } from '../../problem.ts';
import { problemResponse } from '../../client-errors.ts';

function hasBody(req: FastifyRequest): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

/** An unread body up to this size is drained after an early answer rather than cut. */
const DRAIN_MAX_BYTES = 1024 * 1024;

/** The declared body size; a chunked body of unknown size counts as large. */
function declaredLength(req: FastifyRequest): number {
  const length = Number(req.headers['content-length'] ?? 0);
  return req.headers['transfer-encoding'] !== undefined ? Infinity : Number.isFinite(length) ? length : 0;
}

/** How long a connection closed before its body was read keeps reading (and discarding) it. */
const LINGER_MS = 5_000;

/**
 * Replaces this socket's close-after-answer (Node's `destroySoon`, which the HTTP server calls
 * once a `Connection: close` answer is written) with a lingering close: end our side, discard the
 * rest of the body until the client stops (it closes) or LINGER_MS passes, then destroy.
 */
function lingerOnClose(req: FastifyRequest, socket: Socket): void {
  socket.destroySoon = () => {
    socket.end();
    req.raw.unpipe(); // a body parser that stopped reading would hold the stream paused
    req.raw.resume();
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
  };
}

/** Bytes received but not yet consumed by us: the server, not the client, is behind. */
function waitingOnUs(req: FastifyRequest, socket: Socket): boolean {
  return req.raw.readableLength > 0 || socket.readableLength > 0;
}

export default fp(async (app) => {
  const { minBodyBytesPerSec, bodyRateWindowMs } = app.deps.config.http;
  const minPerWindow = Math.ceil((minBodyBytesPerSec * bodyRateWindowMs) / 1000);

  app.addHook('onRequest', async (req, reply) => {
    if (minPerWindow === 0 || !hasBody(req)) return;
    const socket = req.raw.socket;
    // An injected request (light-my-request: tests, app.inject) has a stand-in socket with no byte
    // counts and nothing to cut; only a network socket can trickle.
    if (!(socket instanceof Socket)) return;
    let last = socket.bytesRead;
    const timer = setInterval(() => {
      if (req.raw.complete || socket.destroyed) return clearInterval(timer);
      const got = socket.bytesRead - last;
      last = socket.bytesRead;
      if (got >= minPerWindow || waitingOnUs(req, socket)) return;
      clearInterval(timer);
      req.log.info({ bytes_in_window: got, window_ms: bodyRateWindowMs, min_bytes_per_sec: minBodyBytesPerSec }, 'request body too slow: connection cut');
      const p = new HttpProblem(408, 'request_timeout', `The request body arrived slower than ${minBodyBytesPerSec} bytes/s over ${bodyRateWindowMs / 1000} s; the connection is closed and nothing was kept.`);
      // The handler may still be waiting for the body: answer on the socket itself, then close
      // it, which ends the handler's read (it cleans up as for a client that went away).
      if (!reply.raw.headersSent && socket.writable) socket.end(problemResponse(p, app.deps.config.publicUrl, req.id), () => socket.destroy());
      else socket.destroy();
    }, bodyRateWindowMs);
    timer.unref();
    req.raw.once('close', () => clearInterval(timer));
  });

  app.addHook('onSend', async (req, reply) => {
    if (req.raw.complete || declaredLength(req) <= DRAIN_MAX_BYTES) return;
    reply.header('connection', 'close');
    if (req.raw.socket instanceof Socket) lingerOnClose(req, req.raw.socket);
  });
}, { name: 'body-timeouts', fastify: '5.x' });
