import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HttpProblem, describePattern, problemBody, toProblem } from './problem.ts';

test('validation errors become 422 with JSON pointers into the request', () => {
  const p = toProblem({ validation: [{ instancePath: '/limit', message: 'must be <= 100' }, { instancePath: '', params: { missingProperty: 'email' }, message: 'is required' }], validationContext: 'querystring' });
  assert.equal(p.status, 422);
  assert.equal(p.code, 'validation_failed');
  assert.deepEqual(p.errors, [{ pointer: '/query/limit', detail: 'must be <= 100' }, { pointer: '/query/email', detail: 'is required' }]);
});

test('server errors never leak their message', () => {
  const p = toProblem(new Error('connect ECONNREFUSED 10.0.0.5:5432 password=hunter2'));
  assert.equal(p.status, 500);
  assert.equal(p.code, 'internal_error');
  assert.ok(!p.message.includes('hunter2'));
});

test('known framework errors map to stable codes', () => {
  assert.equal(toProblem({ code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE', statusCode: 415, message: 'Unsupported Media Type' }).code, 'unsupported_media_type');
  assert.equal(toProblem({ code: 'FST_ERR_CTP_BODY_TOO_LARGE', statusCode: 413, message: 'too large' }).status, 413);
  assert.equal(toProblem({ statusCode: 404, message: 'gone' }).code, 'not_found');
});

test('the body has the RFC 9457 members and our extensions', () => {
  const body = problemBody(new HttpProblem(409, 'analysis_failed', 'it failed', { extensions: { reason: 'x' } }), 'req_1', 'http://h');
  assert.deepEqual(body, { type: 'http://h/problems/analysis_failed', title: 'Analysis failed', status: 409, detail: 'it failed', code: 'analysis_failed', request_id: 'req_1', reason: 'x' });
});

test('an enum error names the allowed values once, however often Ajv repeats it', () => {
  const item = { instancePath: '/status', keyword: 'enum', params: { allowedValues: ['analyzing', 'complete', 'failed'] }, message: 'must be equal to one of the allowed values' };
  const p = toProblem({ validation: [item, item], validationContext: 'querystring' });
  assert.deepEqual(p.errors, [{ pointer: '/query/status', detail: 'must be one of analyzing, complete, failed' }]);
});

test('a described pattern is explained in words; an undescribed one keeps Ajv\'s message', () => {
  const pattern = describePattern('^spec-test-[a-z]+$', 'must be spec-test- and lower-case letters');
  const described = toProblem({ validation: [{ instancePath: '/name', keyword: 'pattern', params: { pattern }, message: `must match pattern "${pattern}"` }], validationContext: 'body' });
  assert.deepEqual(described.errors, [{ pointer: '/body/name', detail: 'must be spec-test- and lower-case letters' }]);
  const plain = toProblem({ validation: [{ instancePath: '/x', keyword: 'pattern', params: { pattern: '^y$' }, message: 'must match pattern "^y$"' }], validationContext: 'body' });
  assert.deepEqual(plain.errors, [{ pointer: '/body/x', detail: 'must match pattern "^y$"' }]);
});

test('a path parameter that fails its schema is a 404, not a 422', () => {
  const p = toProblem({ validation: [{ instancePath: '/id', keyword: 'pattern', message: 'must match pattern' }], validationContext: 'params' });
  assert.deepEqual([p.status, p.code], [404, 'not_found']);
});

test('an over-long path segment is 414 uri_too_long and the path is not echoed', () => {
  const path = `/v1/sessions/${'a'.repeat(500)}`;
  const p = toProblem({ code: 'FST_ERR_MAX_PARAM_LENGTH', statusCode: 414, message: `'${path}' is exceeding the max param length` });
  assert.deepEqual([p.status, p.code], [414, 'uri_too_long']);
  assert.ok(!p.message.includes('aaaa'));
});

test('dependency faults are never the client\'s: 503 service_unavailable / 507 insufficient_storage, Retry-After, no internal message', () => {
  const lost = toProblem(new Error('Connection terminated unexpectedly'));
  assert.equal(lost.status, 503);
  assert.equal(lost.code, 'service_unavailable');
  assert.equal(lost.headers['retry-after'], '5');
  assert.doesNotMatch(lost.message, /terminated/);
  const full = toProblem(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }));
  assert.equal(full.status, 507);
  assert.equal(full.code, 'insufficient_storage');
  assert.equal(full.headers['retry-after'], '5');
  assert.doesNotMatch(full.message, /ENOSPC|device/);
});
