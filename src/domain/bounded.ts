// Bounded collections for state that a hostile or huge log could otherwise grow without end:
// the oldest entry goes once the cap is reached (insertion order; a repeated key keeps its place).
// Every parser and report builder that keeps "open" items (calls awaiting a result, commands
// awaiting an exit code, …) bounds them with these.

/**
 * Evictions since a collection was last compacted. V8 leaves a deleted entry's slot in place
 * until the table is rebuilt, and finding the oldest live entry walks over those slots: evicting
 * one entry per insert from a full collection gets slower the longer it runs. Rebuilding the
 * collection after `cap / 2` evictions (same entries, same order) keeps each eviction O(1)
 * amortised.
 */
const evictions = new WeakMap<object, number>();

function evicted(collection: Map<unknown, unknown> | Set<unknown>, cap: number): boolean {
  const n = (evictions.get(collection) ?? 0) + 1;
  const compact = n >= Math.max(16, cap / 2);
  evictions.set(collection, compact ? 0 : n);
  return compact;
}

/** Rebuilds a collection with the same entries in the same order (drops V8's deleted slots). */
function compact<K, V>(collection: Map<K, V> | Set<K>): void {
  if (collection instanceof Map) {
    const entries = [...collection];
    collection.clear();
    for (const [k, v] of entries) collection.set(k, v);
  } else {
    const keys = [...collection];
    collection.clear();
    for (const k of keys) collection.add(k);
  }
}

/** Makes room for `key`: when it is new and the collection is full, the oldest entry goes. */
function makeRoom<K, V>(collection: Map<K, V> | Set<K>, key: K, cap: number): void {
  if (collection.has(key) || collection.size < cap) return;
  const oldest = collection.keys().next();
  if (!oldest.done) collection.delete(oldest.value);
  if (evicted(collection, cap)) compact(collection);
}

/** Map.set that evicts the oldest entry once `cap` is reached, so hostile logs cannot grow state. */
export function boundedSet<K, V>(map: Map<K, V>, key: K, value: V, cap: number): void {
  makeRoom(map, key, cap);
  map.set(key, value);
}

/**
 * The answer of a pure function of `key`, kept in `map` (at most `cap` answers; the oldest goes):
 * for questions asked of the same few values over and over (a path, a model's name, a request).
 */
export function memoized<V>(map: Map<string, V>, key: string, make: (key: string) => V, cap: number): V {
  let v = map.get(key);
  if (v === undefined) {
    v = make(key);
    boundedSet(map, key, v, cap);
  }
  return v;
}

/** Set.add with the same eviction rule as boundedSet. */
export function boundedAdd<K>(set: Set<K>, key: K, cap: number): void {
  makeRoom(set, key, cap);
  set.add(key);
}
