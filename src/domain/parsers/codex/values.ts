// Codex's own readers (timestamps, content parts, durations). The type-checked readers every
// parser shares are in ../shared/values.ts; like them, nothing here throws.
import { isObj, num, str } from '../shared/values.ts';

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** The record's time when it looks like ISO-8601 (YYYY-MM-DDThh…); anything else ("[trimmed]") is null. */
export function isoTime(v: unknown): string | null {
  if (typeof v !== 'string' || v.length < 13) return null;
  const sep = v.charCodeAt(10);
  const ok = isDigit(v.charCodeAt(0)) && isDigit(v.charCodeAt(3)) && v.charCodeAt(4) === 45 && v.charCodeAt(7) === 45
    && (sep === 84 /* T */ || sep === 32) && isDigit(v.charCodeAt(11));
  return ok ? v : null;
}

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
