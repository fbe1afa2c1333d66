import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bindFirst } from './bind.ts';

test('bindFirst gives every use case its first argument once; callers pass the rest and get the same result', async () => {
  const seen: unknown[][] = [];
  const db = { name: 'the database' };
  const fns = {
    find: (d: typeof db, id: string) => (seen.push([d, id]), `${d.name}:${id}`),
    count: async (d: typeof db, a: number, b = 2) => (seen.push([d, a, b]), a + b),
  };
  const bound = bindFirst(db, fns);
  assert.equal(bound.find('x'), 'the database:x');
  assert.equal(await bound.count(3), 5, 'defaults of the original still apply');
  assert.equal(await bound.count(3, 4), 7);
  assert.deepEqual(seen, [[db, 'x'], [db, 3, 2], [db, 3, 4]]);
  assert.deepEqual(Object.keys(bound).sort(), ['count', 'find']);
});

test('bindFirst passes errors through unchanged', async () => {
  const bound = bindFirst(1, { fail: async (_n: number) => { throw new RangeError('refused'); } });
  await assert.rejects(bound.fail(), RangeError);
});
