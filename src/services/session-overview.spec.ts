import { test } from 'node:test';
import assert from 'node:assert/strict';
import { groupTrends, headlineFromPrefix } from './session-overview.ts';

test('the headline is read from the start of the stored report JSON, escapes included', () => {
  const body = JSON.stringify({ session_id: 's', outcome: 'Review', headline: 'Ran "rm -rf" \\ outside <tree>', findings: [] });
  assert.equal(headlineFromPrefix(body), 'Ran "rm -rf" \\ outside <tree>');
  assert.equal(headlineFromPrefix(body.slice(0, 60)), null, 'a prefix cut before the headline ends has none');
});

test('no headline key, or an empty one, gives null', () => {
  assert.equal(headlineFromPrefix('{"outcome":"Clear"}'), null);
  assert.equal(headlineFromPrefix('{"headline":""}'), null);
});

test('trends group by repo, most recent repos first, points oldest first, bounded', () => {
  const rows = [
    { repo: 'a', trust_score: 90, created_at: '2026-01-04' },
    { repo: 'b', trust_score: 40, created_at: '2026-01-03' },
    { repo: 'a', trust_score: 70, created_at: '2026-01-02' },
    { repo: null, trust_score: 10, created_at: '2026-01-02' },
    { repo: 'c', trust_score: 50, created_at: '2026-01-01' },
    { repo: 'a', trust_score: 60, created_at: '2026-01-01' },
  ];
  assert.deepEqual(groupTrends(rows, 2, 2), [
    { repo: 'a', points: [{ at: '2026-01-02', score: 70 }, { at: '2026-01-04', score: 90 }] },
    { repo: 'b', points: [{ at: '2026-01-03', score: 40 }] },
  ]);
  assert.deepEqual(groupTrends([], 3, 3), []);
});
