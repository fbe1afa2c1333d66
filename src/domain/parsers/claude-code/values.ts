// Claude Code's own readers (token counts, timestamps, message content) and the bounded
// collections the parser keeps. The type-checked readers every parser shares are in
// ../shared/values.ts; like them, nothing here throws.
import { obj, str } from '../shared/values.ts';

/** A non-negative token count; anything else counts as 0. */
export function count(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0;
}

/**
 * The readable text of a message `content`: a string, or an array of parts where text parts
 * (and bare strings) count and images become a marker. Anything else yields ''.
 */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  let out = '';
  for (const part of content) {
    const piece = partText(part);
    if (piece === '') continue;
    out = out === '' ? piece : `${out}\n${piece}`;
  }
  return out;
}

function partText(part: unknown): string {
  if (typeof part === 'string') return part;
  const p = obj(part);
  if (!p) return '';
  if (p.type === 'image') return '[image]';
  return str(p.text) ?? '';
}

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

/** Map.set that evicts the oldest entry once `cap` is reached, so hostile logs cannot grow state. */
export function boundedSet<K, V>(map: Map<K, V>, key: K, value: V, cap: number): void {
  if (!map.has(key) && map.size >= cap) {
    const oldest = map.keys().next();
    if (!oldest.done) map.delete(oldest.value);
    if (evicted(map, cap)) {
      const entries = [...map];
      map.clear();
      for (const [k, v] of entries) map.set(k, v);
    }
  }
  map.set(key, value);
}

/** Set.add with the same eviction rule as boundedSet. */
export function boundedAdd<K>(set: Set<K>, key: K, cap: number): void {
  if (!set.has(key) && set.size >= cap) {
    const oldest = set.values().next();
    if (!oldest.done) set.delete(oldest.value);
    if (evicted(set, cap)) {
      const keys = [...set];
      set.clear();
      for (const k of keys) set.add(k);
    }
  }
  set.add(key);
}
