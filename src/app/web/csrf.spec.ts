import { test } from 'node:test';
import assert from 'node:assert/strict';
import { csrfTokensMatch, newCsrfToken } from './csrf.ts';
import { safeNext } from './session-cookie.ts';

test('CSRF tokens compare in constant time and never match empty', () => {
  const t = newCsrfToken();
  assert.ok(csrfTokensMatch(t, t));
  assert.ok(!csrfTokensMatch(t, t + 'x'));
  assert.ok(!csrfTokensMatch('', ''));
  assert.ok(!csrfTokensMatch(undefined, t));
  assert.ok(!csrfTokensMatch(t, ['array']));
});

test('next targets stay on this site', () => {
  assert.equal(safeNext('/r/ses_1?x=1'), '/r/ses_1?x=1');
  for (const bad of ['//evil', '/\\evil', 'https://evil', 'evil', '', '/a\nb', 42, undefined, '/'.padEnd(3000, 'a')]) assert.equal(safeNext(bad), '/');
});
