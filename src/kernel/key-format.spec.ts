import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KEY_LENGTH, KEY_PATTERN, displayKey, generateKey, isWellFormedKey } from './key-format.ts';

test('keys are vk_ + 43 base62 characters + a 6-character checksum, and all different', () => {
  const seen = new Set<string>();
  for (let i = 0; i < 200; i++) {
    const { key, prefix, last4 } = generateKey();
    assert.equal(key.length, KEY_LENGTH);
    assert.match(key, /^vk_[0-9A-Za-z]{49}$/);
    assert.ok(KEY_PATTERN.test(`token=${key};`), 'a scanner finds it inside text');
    assert.ok(isWellFormedKey(key));
    assert.equal(prefix, key.slice(0, 7));
    assert.equal(last4, key.slice(-4));
    seen.add(key);
  }
  assert.equal(seen.size, 200);
});

test('the checksum catches any single-character change', () => {
  const { key } = generateKey();
  for (let i = 3; i < key.length; i++) {
    const c = key[i] === 'a' ? 'b' : 'a';
    assert.equal(isWellFormedKey(key.slice(0, i) + c + key.slice(i + 1)), false, `position ${i}`);
  }
});

test('look-alikes are not keys', () => {
  for (const s of ['', 'vk_', 'vk_this_is_not_a_key', `VK_${'a'.repeat(49)}`, `vk_${'a'.repeat(48)}`, `vk_${'a'.repeat(50)}`, `vk_${'-'.repeat(49)}`]) {
    assert.equal(isWellFormedKey(s), false, s);
  }
});

test('display form keeps only the start and the last four', () => {
  assert.equal(displayKey('vk_AbCd', 'wxyz'), 'vk_AbCd…wxyz');
});
