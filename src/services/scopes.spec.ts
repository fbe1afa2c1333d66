import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ALL_SCOPES, formatScopes, parseScopes, scopesAllowed, withinRole } from './scopes.ts';

test('each role may give the scopes of the dashboard actions it may do', () => {
  assert.deepEqual(scopesAllowed('owner'), ALL_SCOPES);
  assert.deepEqual(scopesAllowed('admin'), ALL_SCOPES);
  assert.deepEqual(scopesAllowed('member'), ['sessions:read', 'sessions:write']);
});

test('stored scopes are canonical; unknown words grant nothing', () => {
  assert.equal(formatScopes(['audit:read', 'sessions:read', 'audit:read']), 'sessions:read audit:read');
  assert.deepEqual(parseScopes('audit:read  admin:all sessions:read'), ['sessions:read', 'audit:read']);
  assert.deepEqual(parseScopes(null), []);
});

test('a demotion keeps only what the new role allows', () => {
  assert.deepEqual(withinRole(ALL_SCOPES, 'member'), ['sessions:read', 'sessions:write']);
  assert.deepEqual(withinRole(['audit:read'], 'member'), []);
});
