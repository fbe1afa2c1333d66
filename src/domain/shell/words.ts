// Shell words → the literal string the program receives, as far as it can be known statically.
// Quotes are removed and escapes decoded; expansions ($VAR, ${…}, $(…), $((…))) cannot be known,
// so they are kept exactly as written and the word is marked non-literal.
import type { Node } from 'web-tree-sitter';

export interface WordValue {
  value: string;
  /** False when the value contains an expansion whose result is unknown. */
  literal: boolean;
}

const EXPANSIONS = new Set([
  'simple_expansion',
  'expansion',
  'command_substitution',
  'process_substitution',
  'arithmetic_expansion',
]);

/** The value of a word-like node (word, string, raw_string, concatenation, expansion, …). */
export function wordValue(node: Node): WordValue {
  switch (node.type) {
    case 'word':
      // unquoted globs and a leading ~ are expanded by the shell: not literal
      return { value: unescapeBare(node.text), literal: !/(?:^|[^\\])[*?[]|^~/.test(node.text) };
    case 'number':
    case 'file_descriptor':
    case 'variable_name':
      return { value: node.text, literal: true };
    case 'raw_string':
      return { value: node.text.slice(1, -1), literal: true };
    case 'ansi_c_string':
      return { value: decodeAnsiC(node.text.slice(2, -1)), literal: true };
    case 'string':
    case 'translated_string':
      return doubleQuoted(node);
    case 'concatenation':
      return joinParts(node.namedChildren);
    default:
      return { value: node.text, literal: !EXPANSIONS.has(node.type) && node.type !== 'brace_expression' };
  }
}

function joinParts(parts: (Node | null)[]): WordValue {
  let value = '';
  let literal = true;
  for (const part of parts) {
    if (!part) continue;
    const v = wordValue(part);
    value += v.value;
    literal &&= v.literal;
  }
  return { value, literal };
}

/** "…": text between the quotes, with the escapes double quotes honour, expansions as written. */
function doubleQuoted(node: Node): WordValue {
  let value = '';
  let literal = true;
  for (const child of node.children) {
    if (!child || child.type === '"' || child.type === '$"') continue;
    if (child.type === 'string_content') {
      value += child.text.replace(/\\([$`"\\\n])/g, (_m, c: string) => (c === '\n' ? '' : c));
    } else {
      value += child.text;
      if (EXPANSIONS.has(child.type)) literal = false;
    }
  }
  return { value, literal };
}

/** Outside quotes a backslash quotes the next character; backslash-newline joins lines. */
function unescapeBare(text: string): string {
  if (!text.includes('\\')) return text;
  return text.replace(/\\(\n|.)/gs, (_m, c: string) => (c === '\n' ? '' : c));
}

const ANSI_C: Record<string, string> = { n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', v: '\v', '\\': '\\', "'": "'", '"': '"', '?': '?' };

/** $'…' escapes, roughly as bash decodes them. */
function decodeAnsiC(body: string): string {
  return body.replace(/\\(x[0-9A-Fa-f]{1,2}|u[0-9A-Fa-f]{1,4}|U[0-9A-Fa-f]{1,8}|[0-7]{1,3}|c.|.)/gs, (m, e: string) => {
    if (e[0] === 'x' || e[0] === 'u' || e[0] === 'U') return fromCode(parseInt(e.slice(1), 16), m);
    if (/^[0-7]/.test(e)) return fromCode(parseInt(e, 8), m);
    if (e[0] === 'c') return String.fromCharCode(e.charCodeAt(1) & 0x1f);
    return ANSI_C[e] ?? m;
  });
}

function fromCode(code: number, fallback: string): string {
  return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : fallback;
}
