// Codex's own readers (content parts, durations); its timestamps are read by
// ../shared/values.ts isoOrSpacedTime. The type-checked readers every
// parser shares are in ../shared/values.ts; like them, nothing here throws.
import { isObj, num, str } from '../shared/values.ts';

/**
 * Text of a content value: a string, or an array of parts ({text}, {type:"input_text",text},
 * MCP {type:"text",text}); non-text parts (images, encrypted blobs) are dropped.
 */
export function partsText(v: unknown, sep = '\n'): string {
  if (typeof v === 'string') return v;
  if (isObj(v)) return str(v.text) ?? '';
  if (!Array.isArray(v)) return '';
  const out: string[] = [];
  for (const part of v) {
    if (typeof part === 'string') out.push(part);
    else if (isObj(part) && typeof part.text === 'string') out.push(part.text);
  }
  return out.join(sep);
}

/** Milliseconds from seconds (number) or a Rust Duration {secs, nanos}. */
export function durationMs(v: unknown, unit: 's' | 'ms' = 's'): number | undefined {
  const n = num(v);
  if (n !== undefined) return n >= 0 ? Math.round(unit === 's' ? n * 1000 : n) : undefined;
  if (!isObj(v)) return undefined;
  const secs = num(v.secs);
  const nanos = num(v.nanos) ?? 0;
  return secs !== undefined && secs >= 0 ? Math.round(secs * 1000 + nanos / 1e6) : undefined;
}
