// Shannon entropy in bits per character. Random tokens score high (base62 ≈ 5.9 in the limit,
// hex ≈ 4); words and identifiers score low. The maximum for a string is log2(its length), so
// short strings can never reach high absolute values: callers compare against `maxEntropy`.

/** Bits of entropy per character of `s` (0 for the empty string). */
export function shannonEntropy(s: string): number {
  const n = s.length;
  if (n === 0) return 0;
  const counts = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  let bits = 0;
  for (const k of counts.values()) {
    const p = k / n;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/** The highest entropy a string of this length can have (every character distinct). */
export function maxEntropy(length: number): number {
  return length > 1 ? Math.log2(length) : 0;
}
