// The work probe used by "stays linear" tests must tell linear from quadratic code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { countWork } from './work-counter.testing.ts';

const linear = (n: number) => () => {
  const seen = new Map<number, number>();
  for (let i = 0; i < n; i++) seen.set(i, i);
};
const quadratic = (n: number) => () => {
  const seen: number[] = [];
  for (let i = 0; i < n; i++) if (!seen.includes(i)) seen.push(i);
};

test('linear code: 4× the input is about 4× the work', () => {
  const ratio = countWork(linear(4_000)) / countWork(linear(1_000));
  assert.ok(ratio > 3.5 && ratio < 4.5, String(ratio));
});

test('quadratic code: 4× the input is about 16× the work', () => {
  const ratio = countWork(quadratic(4_000)) / countWork(quadratic(1_000));
  assert.ok(ratio > 12, String(ratio));
});

test('splice and slice count what they move or copy, not the whole array', () => {
  const big = Array.from({ length: 10_000 }, (_, i) => i);
  const tail = countWork(() => {
    for (let i = 0; i < 1_000; i++) {
      big.push(i);
      big.splice(big.length - 1);
    }
  });
  assert.ok(tail < 5_000, `removing the last element 1000 times: ${tail}`);
  const head = countWork(() => {
    big.splice(0, 1);
  });
  assert.ok(head >= 9_999, `removing the first element moves the rest: ${head}`);
  const slice = countWork(() => big.slice(10, 20));
  assert.ok(slice >= 10 && slice < 100, `copying 10 of 10 000 elements: ${slice}`);
});

test('the prototypes are restored, also when the code throws', () => {
  const get = Map.prototype.get;
  assert.throws(() => countWork(() => {
    throw new Error('boom');
  }), /boom/);
  assert.equal(Map.prototype.get, get);
});
