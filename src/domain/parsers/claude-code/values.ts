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
