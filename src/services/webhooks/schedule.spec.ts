import { test } from 'node:test';
import assert from 'node:assert/strict';
import { attemptsPerSeries, DEFAULT_RETRY_DELAYS_MS, parseRetryDelays, retryDelayAfter } from './schedule.ts';

test('VOUCH_WEBHOOK_RETRY_DELAYS_MS: unset or blank is the default, "none" is no retries, a typo throws', () => {
  assert.deepEqual(parseRetryDelays(undefined), [...DEFAULT_RETRY_DELAYS_MS]);
  assert.deepEqual(parseRetryDelays('  '), [...DEFAULT_RETRY_DELAYS_MS]);
  assert.deepEqual(parseRetryDelays('None'), []);
  assert.deepEqual(parseRetryDelays('300, 600,900'), [300, 600, 900]);
  assert.throws(() => parseRetryDelays('300,6s'), /"6s" is not a whole number/);
  assert.throws(() => parseRetryDelays('-5'), /not a whole number/);
});

test('a series is one attempt plus one per delay; after the last, no delay (the delivery fails)', () => {
  const delays = [300, 600, 900];
  assert.equal(attemptsPerSeries(delays), 4);
  assert.equal(attemptsPerSeries([]), 1);
  assert.deepEqual([1, 2, 3, 4].map((n) => retryDelayAfter(n, delays)), [300, 600, 900, null]);
  assert.equal(retryDelayAfter(0, delays), null);
});
