import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clientErrorProblem, clientErrorResponse } from './client-errors.ts';

const parserError = (code: string) => Object.assign(new Error('Parse Error'), { code });

test('parser error codes map to precise statuses and codes', () => {
  const cases: [string, number, string][] = [
    ['HPE_HEADER_OVERFLOW', 431, 'headers_too_large'],
    ['HPE_INVALID_CONTENT_LENGTH', 400, 'bad_request'],
    ['ERR_HTTP_REQUEST_TIMEOUT', 408, 'request_timeout'],
    ['HPE_INVALID_METHOD', 400, 'bad_request'],
  ];
  for (const [code, status, problem] of cases) {
    const p = clientErrorProblem(parserError(code));
    assert.deepEqual([p.status, p.code], [status, problem], code);
  }
});

test('the raw answer is a complete HTTP/1.1 problem response that closes the connection', () => {
  const raw = clientErrorResponse(parserError('HPE_HEADER_OVERFLOW'), 'https://vouch.example', 'req_test1');
  const [head, body] = raw.split('\r\n\r\n');
  const lines = head.split('\r\n');
  assert.equal(lines[0], 'HTTP/1.1 431 Request Header Fields Too Large');
  assert.ok(lines.includes('Content-Type: application/problem+json; charset=utf-8'));
  assert.ok(lines.includes('Request-Id: req_test1'));
  assert.ok(lines.includes('Connection: close'));
  assert.ok(lines.includes(`Content-Length: ${Buffer.byteLength(body)}`));
  assert.deepEqual(JSON.parse(body), {
    type: 'https://vouch.example/problems/headers_too_large', title: 'Request header fields too large', status: 431,
    detail: 'The request headers are larger than the server accepts (16 KiB in all).', code: 'headers_too_large', request_id: 'req_test1',
  });
});
