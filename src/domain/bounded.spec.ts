// The bounded collections keep the newest `cap` entries in insertion order, exactly as evicting
// the oldest entry one insert at a time does, across the rebuilds that keep eviction cheap.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { boundedAdd, boundedSet } from './bounded.ts';

/** The plain rule: evict the oldest entry when a new key arrives at capacity. */
function reference(keys: string[], cap: number): string[] {
  const kept: string[] = [];
  for (const k of keys) {
    if (kept.includes(k)) continue;
    if (kept.length >= cap) kept.shift();
    kept.push(k);
  }
  return kept;
}

// Repeats and re-adds of evicted keys, over many rebuilds (cap 40: a rebuild every 20 evictions).
const CAP = 40;
const KEYS = Array.from({ length: 2_000 }, (_, i) => `k${(i * 7919) % 173}-${i % 3 === 0 ? 'x' : i}`);

test('boundedAdd keeps the newest `cap` keys in insertion order, a repeated key keeping its place', () => {
  const set = new Set<string>();
  for (const k of KEYS) boundedAdd(set, k, CAP);
  assert.deepEqual([...set], reference(KEYS, CAP));
});

test('boundedSet keeps the newest `cap` keys in insertion order, a repeated key updating its value in place', () => {
  const map = new Map<string, number>();
  KEYS.forEach((k, i) => boundedSet(map, k, i, CAP));
  const kept = reference(KEYS, CAP);
  assert.deepEqual([...map.keys()], kept);
  for (const k of kept) assert.equal(map.get(k), KEYS.lastIndexOf(k), `${k} holds its last value`);
});

test('below capacity nothing is evicted', () => {
  const set = new Set<string>();
  for (let i = 0; i < CAP; i++) boundedAdd(set, `k${i}`, CAP);
  assert.equal(set.size, CAP);
  assert.ok(set.has('k0'));
});
