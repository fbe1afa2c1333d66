// Requests that Node's HTTP parser refuses before Fastify sees them (headers over the size
// limit, a malformed Content-Length or request line, a client too slow to send its headers).
// Node and Fastify answer these with a bare status line; here they get the same RFC 9457 body
// and Request-Id header as every other error, written straight to the socket, which is then
// closed (the parser cannot continue on it).
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { HttpProblem, problemBody } from './problem.ts';
import { newRequestId } from './plugins/app/response-headers.ts';

interface ClientError extends Error {
  code?: string;
}

/** The problem for a parser error code (llhttp's HPE_* codes, Node's ERR_HTTP_*). */
export function clientErrorProblem(error: ClientError): HttpProblem {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new HttpProblem(431, 'headers_too_large', 'The request headers are larger than the server accepts (16 KiB in all).');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'ERR_HTTP_HEADERS_TIMEOUT':
      return new HttpProblem(408, 'request_timeout', 'The request was not received in time.');
    case 'HPE_INVALID_CONTENT_LENGTH':
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
      return new HttpProblem(400, 'bad_request', 'The Content-Length header is malformed or contradicts Transfer-Encoding.');
    case 'HPE_INVALID_TRANSFER_ENCODING':
    case 'HPE_INVALID_CHUNK_SIZE':
      return new HttpProblem(400, 'bad_request', 'The chunked transfer encoding of the body is malformed.');
    default:
      return new HttpProblem(400, 'bad_request', 'The request is not valid HTTP/1.1.');
  }
}

export function clientErrorResponse(error: ClientError, publicUrl: string, requestId = newRequestId()): string {
  return problemResponse(clientErrorProblem(error), publicUrl, requestId);
}

/** A whole HTTP/1.1 response carrying a problem, for writing straight to a socket that is then closed. */
export function problemResponse(p: HttpProblem, publicUrl: string, requestId: string): string {
  const body = JSON.stringify(problemBody(p, requestId, publicUrl));
  return [
    `HTTP/1.1 ${p.status} ${STATUS_CODES[p.status]}`,
    'Content-Type: application/problem+json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `Request-Id: ${requestId}`,
    'Cache-Control: no-store',
    'X-Content-Type-Options: nosniff',
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

export function clientErrorHandler(log: FastifyBaseLogger | undefined, publicUrl: string, error: ClientError, socket: Socket): void {
  // A reset or half-sent request (the client went away) has nobody left to answer.
  if (error.code === 'ECONNRESET' || error.code === 'HPE_INVALID_EOF_STATE' || socket.destroyed) {
    log?.debug({ code: error.code }, 'client closed the connection mid-request');
    socket.destroy();
    return;
  }
  // The request was already answered (a 401 sent before its body arrived) and Node's request
  // timeout fired while the body still trickled in: a second response would corrupt the first.
  if ((socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent) {
    log?.debug({ code: error.code }, 'connection closed after its answer: the request never finished arriving');
    socket.destroy();
    return;
  }
  const requestId = newRequestId();
  // Routine client trouble: logged without a stack.
  log?.info({ request_id: requestId, code: error.code }, 'request refused by the HTTP parser');
  if (socket.writable) socket.end(clientErrorResponse(error, publicUrl, requestId));
  else socket.destroy();
}
