// Sets and removes one top-level key of a TOML file (Codex's config.toml) by editing its text:
// comments, tables, order and formatting elsewhere stay byte for byte. Only what Vouch needs:
// a key before the first table header whose value is a string or an array of strings (Codex's
// `notify = ["prog", "arg"]`). Values are read with smol-toml; positions come from a small
// scanner that knows strings, comments and brackets. Pure: text in, text out.
import { parse } from 'smol-toml';
import { SettingsError } from './settings-merge.ts';

interface Span {
  /** Start of the line holding `key =`. */
  lineStart: number;
  valueStart: number;
  valueEnd: number;
  /** After the statement's line ending. */
  lineEnd: number;
}

const BOM = '\uFEFF';

export function parseToml(text: string | null, file: string): Record<string, unknown> {
  if (text === null) return {};
  try {
    return parse(text.replace(/^\uFEFF/, '')) as Record<string, unknown>;
  } catch (e) {
    throw new SettingsError(`${file} is not valid TOML (${(e as Error).message.split('\n')[0]}); nothing was changed.`);
  }
}

/** Index just past a TOML value starting at `i` (string, array, inline table or bare scalar). */
function valueEnd(text: string, i: number): number {
  let depth = 0;
  while (i < text.length) {
    const c = text[i];
    if (text.startsWith('"""', i) || text.startsWith("'''", i)) {
      const q = text.slice(i, i + 3);
      i = text.indexOf(q, i + 3);
      if (i < 0) return text.length;
      i += 3;
    } else if (c === '"') {
      i++;
      while (i < text.length && text[i] !== '"' && text[i] !== '\n') i += text[i] === '\\' ? 2 : 1;
      i++;
    } else if (c === "'") {
      i = text.indexOf("'", i + 1) + 1 || text.length;
    } else if (c === '#') {
      if (depth === 0) return i;
      i = text.indexOf('\n', i);
      if (i < 0) return text.length;
    } else if (c === '[' || c === '{') {
      depth++;
      i++;
    } else if (c === ']' || c === '}') {
      depth--;
      i++;
      if (depth === 0) return i;
    } else if (c === '\n' && depth === 0) {
      return i;
    } else i++;
  }
  return i;
}

/** Where `key = …` sits among the top-level keys (before the first [table]); null if absent. */
export function findTopLevelKey(text: string, key: string): Span | null {
  let i = text.startsWith(BOM) ? 1 : 0;
  while (i < text.length) {
    const lineStart = i;
    const line = /^[ \t]*/.exec(text.slice(i))![0];
    i += line.length;
    if (text[i] === '[') return null; // the first table: top level ends
    const m = /^("?)([A-Za-z0-9_-]+)\1[ \t]*=[ \t]*/.exec(text.slice(i));
    if (m) {
      const start = i + m[0].length;
      const end = valueEnd(text, start);
      const trimmedEnd = start + text.slice(start, end).trimEnd().length;
      const nl = text.indexOf('\n', end);
      const after = nl < 0 ? text.length : nl + 1;
      if (m[2] === key) return { lineStart, valueStart: start, valueEnd: trimmedEnd, lineEnd: after };
      i = after;
      continue;
    }
    const nl = text.indexOf('\n', i);
    i = nl < 0 ? text.length : nl + 1;
  }
  return null;
}

/** A TOML array of basic strings: JSON's string escapes are valid TOML basic-string escapes. */
export function tomlStringArray(words: string[]): string {
  return `[${words.map((w) => JSON.stringify(w)).join(', ')}]`;
}

/** The text with top-level `key` set to `valueText` (replaced in place, or added before the first table). */
export function setTopLevelKey(text: string | null, key: string, valueText: string): string {
  const body = text ?? '';
  const span = findTopLevelKey(body, key);
  if (span) return body.slice(0, span.valueStart) + valueText + body.slice(span.valueEnd);
  const eol = body.includes('\r\n') ? '\r\n' : '\n';
  const statement = `${key} = ${valueText}${eol}`;
  const start = body.startsWith(BOM) ? 1 : 0;
  const header = /^[ \t]*\[/m.exec(body.slice(start));
  if (header) {
    const at = start + header.index;
    return body.slice(0, at) + statement + body.slice(at);
  }
  const sep = body.length > start && !body.endsWith('\n') ? eol : '';
  return body + sep + statement;
}

/** The text without top-level `key` (its whole statement line). */
export function removeTopLevelKey(text: string, key: string): string {
  const span = findTopLevelKey(text, key);
  return span ? text.slice(0, span.lineStart) + text.slice(span.lineEnd) : text;
}
