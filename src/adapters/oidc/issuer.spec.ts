import { test } from 'node:test';
import assert from 'node:assert/strict';
import { issuerProblem } from './issuer.ts';

test('issuers are https; http only on a loopback address and only when allowed', () => {
  assert.equal(issuerProblem('https://login.example.com/realms/acme', false), null);
  assert.match(issuerProblem('http://login.example.com', true) ?? '', /https/);
  assert.match(issuerProblem('http://127.0.0.1:8080', false) ?? '', /https/);
  assert.equal(issuerProblem('http://127.0.0.1:8080', true), null);
  assert.equal(issuerProblem('http://[::1]:8080', true), null);
  assert.equal(issuerProblem('http://localhost:8080', true), null);
  assert.match(issuerProblem('http://127.0.0.1.nip.io', true) ?? '', /https/);
  assert.match(issuerProblem('https://user:pw@example.com', false) ?? '', /credentials/);
  assert.match(issuerProblem('https://example.com/?a=1', false) ?? '', /query/);
  assert.match(issuerProblem('ftp://example.com', false) ?? '', /https/);
  assert.match(issuerProblem('not a url', false) ?? '', /not a URL/);
});
