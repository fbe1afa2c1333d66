// Defensive readers for untrusted JSON records, shared by every parser family (Claude Code, Codex,
// Gemini CLI). Every field of a record may be missing or of the wrong type, so nothing here throws
// and nothing trusts a type it has not checked: each helper answers "absent" (undefined) instead.

export type Obj = Record<string, unknown>;

export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function obj(v: unknown): Obj | undefined {
  return isObj(v) ? v : undefined;
}

export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** A string with at least one character (ids, names, paths: an empty one is as good as none). */
export function text(v: unknown): string | undefined {
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}

export function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

export function int(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isInteger(v) ? v : undefined;
}

/** The elements of an array; anything else is an empty list. */
export function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
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

/** JSON text of a value for display; never throws (cycles cannot occur in parsed JSON, depth can). */
export function safeJson(v: unknown): string {
  try {
    return JSON.stringify(v) ?? '';
  } catch {
    return '';
  }
}

// ---- timestamps: the event model carries only ISO-8601 times. Only the shape is checked (cheap);
// composite fixtures put placeholders like "[trimmed]" where a time was.

const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d/;

/** `YYYY-MM-DDThh:mm…` (at most 64 characters), else null: Claude Code and Gemini CLI records. */
export function isoTime(v: unknown): string | null {
  return typeof v === 'string' && v.length <= 64 && ISO_TIME.test(v) ? v : null;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/**
 * `YYYY-MM-DDThh…` or `YYYY-MM-DD hh…` (a space for the T), else null: Codex records. A rule of
 * its own, not isoTime's: it takes the space-separated form and any length, and is read by char
 * codes (rollouts are the largest logs and every record has a time).
 */
export function isoOrSpacedTime(v: unknown): string | null {
  if (typeof v !== 'string' || v.length < 13) return null;
  const sep = v.charCodeAt(10);
  const ok = isDigit(v.charCodeAt(0)) && isDigit(v.charCodeAt(3)) && v.charCodeAt(4) === 45 && v.charCodeAt(7) === 45
    && (sep === 84 /* T */ || sep === 32) && isDigit(v.charCodeAt(11));
  return ok ? v : null;
}
