import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HttpProblem, problemBody, toProblem } from './problem.ts';

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
