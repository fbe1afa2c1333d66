import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { serviceFixture } from '../../test/helpers/services.ts';
import type { ServiceFixture } from '../../test/helpers/services.ts';

let f: ServiceFixture;
before(async () => (f = await serviceFixture()));
after(() => f.close());

test('hits add up within a window, per key; the counters are shared only in PostgreSQL mode', async () => {
  const { rateLimits } = f.services;
  assert.equal(rateLimits.shared, f.db.dialect === 'postgres');
  const first = await rateLimits.add('rl:key-a', 60_000, 3);
  const second = await rateLimits.add('rl:key-a', 60_000, 2);
  const other = await rateLimits.add('rl:key-b', 60_000, 1);
  assert.equal(first.hits, 3);
  assert.equal(second.hits, 5);
  assert.equal(second.resetAtMs, first.resetAtMs, 'the same window');
  assert.ok(first.resetAtMs > Date.now() && first.resetAtMs <= Date.now() + 60_000);
  assert.equal(other.hits, 1);
});
