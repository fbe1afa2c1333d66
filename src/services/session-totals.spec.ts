import { test } from 'node:test';
import assert from 'node:assert/strict';
import { invalidateSessionTotals, recentTotal, rememberTotal } from './session-totals.ts';

test('a counted total is reused per account and filters, and a write to the account drops it', () => {
  rememberTotal('acc_totals_a', '{"repo":"x"}', 42);
  rememberTotal('acc_totals_a', '{}', 7);
  rememberTotal('acc_totals_b', '{}', 9);
  assert.equal(recentTotal('acc_totals_a', '{"repo":"x"}'), 42);
  assert.equal(recentTotal('acc_totals_a', '{"repo":"y"}'), undefined, 'other filters: not counted');
  invalidateSessionTotals('acc_totals_a');
  assert.equal(recentTotal('acc_totals_a', '{"repo":"x"}'), undefined);
  assert.equal(recentTotal('acc_totals_a', '{}'), undefined);
  assert.equal(recentTotal('acc_totals_b', '{}'), 9, 'another account keeps its totals');
});

test('an account id that prefixes another does not drop the other\'s totals', () => {
  rememberTotal('acc_1', '{}', 1);
  rememberTotal('acc_12', '{}', 12);
  invalidateSessionTotals('acc_1');
  assert.equal(recentTotal('acc_12', '{}'), 12);
});
