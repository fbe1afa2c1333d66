import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hashPassword, PASSWORD_MAX, PASSWORD_MIN, passwordProblem, verifyPassword } from './passwords.ts';

test('a new password has between PASSWORD_MIN and PASSWORD_MAX characters', () => {
  assert.match(passwordProblem('x'.repeat(PASSWORD_MIN - 1)) ?? '', /at least 8/);
  assert.equal(passwordProblem('x'.repeat(PASSWORD_MIN)), null);
  assert.match(passwordProblem('x'.repeat(PASSWORD_MAX + 1)) ?? '', /at most/);
});

test('a hash verifies its password only; no hash, a malformed hash or an oversized password never do', async () => {
  const stored = await hashPassword('correct horse battery staple');
  assert.ok(stored.startsWith('$argon2id$'));
  assert.equal(await verifyPassword(stored, 'correct horse battery staple'), true);
  assert.equal(await verifyPassword(stored, 'correct horse battery stapler'), false);
  assert.equal(await verifyPassword(undefined, 'correct horse battery staple'), false, 'unknown email: the decoy');
  assert.equal(await verifyPassword('not a hash', 'anything'), false);
  assert.equal(await verifyPassword(stored, 'x'.repeat(PASSWORD_MAX + 1)), false);
});
