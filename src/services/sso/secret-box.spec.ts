import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { openSecret, sealSecret } from './secret-box.ts';

const key = randomBytes(32);

test('a sealed secret opens with the same key, provider and account, and is not stored in clear', () => {
  const sealed = sealSecret(key, 'sso_1', 'acc_1', 'client-secret-value');
  assert.ok(!sealed.includes('client-secret-value'));
  assert.equal(openSecret(key, 'sso_1', 'acc_1', sealed), 'client-secret-value');
  assert.notEqual(sealSecret(key, 'sso_1', 'acc_1', 'client-secret-value'), sealed, 'a fresh IV each time');
});

test('it does not open under another key, on another account\'s row, or tampered', () => {
  const sealed = sealSecret(key, 'sso_1', 'acc_1', 's3cret');
  assert.equal(openSecret(randomBytes(32), 'sso_1', 'acc_1', sealed), null);
  assert.equal(openSecret(key, 'sso_1', 'acc_2', sealed), null);
  assert.equal(openSecret(key, 'sso_2', 'acc_1', sealed), null);
  const raw = Buffer.from(sealed.slice(3), 'base64url');
  raw[raw.length - 1] ^= 1;
  assert.equal(openSecret(key, 'sso_1', 'acc_1', `v1.${raw.toString('base64url')}`), null);
  assert.equal(openSecret(key, 'sso_1', 'acc_1', 'plain'), null);
});
