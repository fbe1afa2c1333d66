// Defensive readers for untrusted JSON values: every field of a Codex record may be missing or of
// the wrong type, so nothing here throws and nothing trusts a type it has not checked.

export type Obj = Record<string, unknown>;

export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** A string with at least one character (empty strings carry no information in these logs). */
export function text(v: unknown): string | undefined {
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}

export function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

export function int(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isInteger(v) ? v : undefined;
}

export function obj(v: unknown): Obj | undefined {
  return isObj(v) ? v : undefined;
}

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

/** JSON.parse for strings that look like an object or array; undefined when they are not JSON. */
export function tryJson(raw: string): unknown {
  let i = 0;
  while (i < raw.length && raw.charCodeAt(i) <= 32) i++;
  const c = raw.charCodeAt(i);
  if (c !== 123 /* { */ && c !== 91 /* [ */) return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
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
