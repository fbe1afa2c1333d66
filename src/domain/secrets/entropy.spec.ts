import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { maxEntropy, shannonEntropy } from './entropy.ts';

describe('shannonEntropy', () => {
  it('is 0 for empty and constant strings', () => {
    assert.equal(shannonEntropy(''), 0);
    assert.equal(shannonEntropy('aaaaaa'), 0);
  });
  it('is log2(n) for n distinct characters', () => {
    assert.equal(shannonEntropy('ab'), 1);
    assert.equal(shannonEntropy('abcd'), 2);
    assert.ok(Math.abs(shannonEntropy('abcdefghijkl') - maxEntropy(12)) < 1e-9);
  });
  it('ranks random tokens above words', () => {
    assert.ok(shannonEntropy('q8Vz3LpW0xT7rN2mK5sB9dF1') > shannonEntropy('passwordpassword'));
  });
});
