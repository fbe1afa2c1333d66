// Defensive readers for Gemini CLI records. Every field of a record may be missing or of the
// wrong type, so nothing here trusts a shape: each helper answers "absent" instead of throwing.

export type Obj = Record<string, unknown>;

export function obj(v: unknown): Obj | null {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : null;
}

export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** A non-empty string, or undefined. */
export function text(v: unknown): string | undefined {
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}

export function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

export function num(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** An ISO-8601 timestamp, or null (the event model only carries ISO times). */
export function isoTime(v: unknown): string | null {
  return typeof v === 'string' && v.length <= 64 && ISO_TIME.test(v) ? v : null;
}

/** JSON text of a value for display; never throws (cycles cannot occur, depth can). */
export function safeJson(v: unknown): string {
  try {
    return JSON.stringify(v) ?? '';
  } catch {
    return '';
  }
}

/** What a Gemini `PartListUnion` (string | Part | (string | Part)[]) holds. */
export interface PartsContent {
  /** Text parts (not marked `thought`), joined as Gemini CLI joins them: with nothing. */
  text: string;
  /** Text parts marked `thought: true`. */
  thoughts: string[];
  /** `functionResponse` objects (tool responses the harness fed back to the model). */
  responses: Obj[];
}

export function readParts(content: unknown): PartsContent {
  const out: PartsContent = { text: '', thoughts: [], responses: [] };
  const parts = Array.isArray(content) ? content : [content];
  const texts: string[] = [];
  for (const part of parts) {
    if (typeof part === 'string') {
      texts.push(part);
      continue;
    }
    const p = obj(part);
    if (!p) continue;
    const t = str(p.text);
    if (t !== undefined) {
      if (p.thought === true) out.thoughts.push(t);
      else texts.push(t);
    }
    const response = obj(p.functionResponse);
    if (response) out.responses.push(response);
  }
  out.text = texts.join('');
  return out;
}
