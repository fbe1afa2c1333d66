// Shell command parsing with tree-sitter-bash (WebAssembly). Load once with `loadShellParser()`,
// then `parseShell()` is synchronous. Results are cached by source text (agents repeat the same
// commands many times) and frozen, since cached objects are shared between callers.
import { LRUCache } from 'lru-cache';
import type { Parser, Tree } from 'web-tree-sitter';
import { bashGrammarPath } from './grammar.ts';
import type { ParsedShell, Redirect } from './types.ts';
import { walkTree, walkWords, type PlainCommand, type PlainStatement } from './walk.ts';

/** Longest input parsed; the rest is ignored and the result marked hadErrors. */
export const MAX_SHELL_INPUT = 100_000;
const CACHE_ENTRIES = 2_000;
/** Sources longer than this are not cached (bounds the cache's memory to ~2000 × 16 KB). */
const MAX_CACHED_SOURCE = 16_384;

const LIMITS = { maxReparseDepth: 4, maxTreeDepth: 400, maxCommands: 5_000 };

let parser: Parser | null = null;
let loading: Promise<Parser> | null = null;
const cache = new LRUCache<string, ParsedShell>({ max: CACHE_ENTRIES });

/** Loads web-tree-sitter and the bash grammar. Idempotent; concurrent calls share one load. */
export async function loadShellParser(): Promise<void> {
  if (parser) return;
  loading ??= createParser();
  try {
    parser = await loading;
  } catch (err) {
    loading = null; // let a later call retry
    throw err;
  }
}

// web-tree-sitter itself (150 KB of JavaScript) is imported here, not at the top: `vouch guard`
// reads most commands without it (parseShellWithoutTree) and must not pay for loading it.
async function createParser(): Promise<Parser> {
  const { Language, Parser } = await import('web-tree-sitter');
  await Parser.init();
  const language = await Language.load(bashGrammarPath());
  const p = new Parser();
  p.setLanguage(language);
  return p;
}

/** Parses a shell command line or script. Never throws on input; throws if not loaded. */
export function parseShell(source: string): ParsedShell {
  const p = parser;
  if (!p) throw new Error('parseShell: the shell parser is not loaded; await loadShellParser() first');
  const text = typeof source === 'string' ? source : '';
  // Many commands are `ls -la`, `git status`, `cd x && npm test`: nothing that needs a parse
  // tree. Built directly (not cached: cheaper than the cache's upkeep, and it leaves the cache
  // to the commands that need it).
  const plain = plainCommands(text);
  if (plain) return deepFreeze(walkWords(plain, { ...LIMITS, parse: (s) => safeParse(p, s.slice(0, MAX_SHELL_INPUT)) }));
  const hit = cache.get(text);
  if (hit) return hit; // least recently used entries are dropped past CACHE_ENTRIES
  const result = deepFreeze(parseUncached(p, text));
  if (text.length <= MAX_CACHED_SOURCE) cache.set(text, result);
  return result;
}

/**
 * The parse of a command line without loading the WebAssembly parser, or null when the line
 * needs it: `vouch guard` judges most calls (`ls`, `git status`, `npm test`) without paying for
 * tree-sitter, and loads it only for a line the plain path cannot read (or that nests a script).
 * Once the parser is loaded this is parseShell.
 */
export function parseShellWithoutTree(source: string): ParsedShell | null {
  if (parser) return parseShell(source);
  const text = typeof source === 'string' ? source : '';
  const plain = plainCommands(text);
  if (!plain) return null;
  let needsTree = false;
  const result = walkWords(plain, {
    ...LIMITS,
    parse: () => {
      needsTree = true;
      return null;
    },
  });
  return needsTree ? null : deepFreeze(result);
}

/** Always through tree-sitter, never the cache nor the plain-command path (tests compare both). */
export function parseShellWithTree(source: string): ParsedShell {
  if (!parser) throw new Error('parseShell: the shell parser is not loaded; await loadShellParser() first');
  return parseUncached(parser, source);
}

function parseUncached(p: Parser, source: string): ParsedShell {
  const cut = source.length > MAX_SHELL_INPUT;
  const text = cut ? source.slice(0, MAX_SHELL_INPUT) : source;
  const tree = safeParse(p, text);
  if (!tree) return failed();
  try {
    const result = walkTree(tree.rootNode, { ...LIMITS, parse: (s) => safeParse(p, s.slice(0, MAX_SHELL_INPUT)) });
    if (cut) result.hadErrors = true;
    return result;
  } catch {
    return failed(); // a bug or an exhausted wasm heap must not take the analysis down
  } finally {
    tree.delete();
  }
}

/** Characters of a plain word: nothing the shell treats specially anywhere in a word. */
const PLAIN = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./:@%+,-=') PLAIN[c.charCodeAt(0)] = 1;
/**
 * Bash's reserved words and the declaration builtins tree-sitter-bash parses as their own node
 * types: a line with one of them as a word goes through the parser (`if`, `time`, `export A`…).
 */
const SPECIAL_WORDS = new Set(['if', 'then', 'else', 'elif', 'fi', 'case', 'esac', 'for', 'select', 'while', 'until', 'do', 'done', 'in', 'function', 'time', 'coproc', 'declare', 'typeset', 'export', 'readonly', 'local', 'unset', 'unsetenv']);

const TAB = 0x09;
const SPACE = 0x20;
const SQ = 0x27;
const DQ = 0x22;
const HASH = 0x23;
const AMP = 0x26;
const BAR = 0x7c;
const SEMI = 0x3b;
const GT = 0x3e;
const LT = 0x3c;
const ZERO = 0x30;
const NINE = 0x39;

/**
 * A command line made of simple commands of plain words joined by `&&`, `||`, `;` and `|`, with
 * simple redirections, optionally followed by a ` # …` comment: per statement (what `;` or the
 * end separates), its pipelines, their commands' words (unquoted) and texts as the parse tree
 * would give them (each command without the blanks around it), and the redirects. Null when the
 * line needs the parser.
 *
 * A plain word is made of the characters in PLAIN, 'single-quoted' text without a newline, and
 * "double-quoted" text without `$`, backquotes, backslashes, `!` or a newline: its value is then
 * the text without the quotes. `=` is allowed after a command's first word only (before it, it
 * would be an assignment). Everything else — expansions, escapes, globs, `&`, `|&`, `;;`, braces,
 * `~`, newlines, non-ASCII, an empty command — needs the parser.
 *
 * A simple redirection is `>`, `>>`, `>|`, `<`, `&>`, `&>>` (optionally after a descriptor's
 * digits: `2>`) to a plain word, or `>&`/`<&` to a descriptor's digits (`2>&1`, `>&2`), after
 * the command's last word. tree-sitter-bash attaches a redirection after a statement's later
 * command to everything before it in the statement (`a && b 2>&1` redirects both), so it is
 * accepted on a statement's first command (its own) or its last (the statement's); one on a
 * command in between needs the parser.
 */
export function plainCommands(source: string): PlainStatement[] | null {
  const n = source.length;
  if (n === 0 || n > 4_096) return null;
  const statements: PlainStatement[] = [];
  let statement: PlainStatement = { pipelines: [], redirects: [] };
  let commands = 0; // commands so far in this statement
  let pipeline: PlainCommand[] = [];
  let words: string[] = [];
  let redirects: Redirect[] = [];
  let op: string | null = null; // a redirection waiting for its target word
  let word = '';
  let inWord = false;
  let raw = 0; // where the current word starts in the source
  let first = -1; // where the current command starts
  let lastWord = -1; // where its last word ends
  let last = -1; // where its last word or redirection ends
  const endWord = (at: number): boolean => {
    if (!inWord) return true;
    const rawWord = source.slice(raw, at);
    if (SPECIAL_WORDS.has(word) || SPECIAL_WORDS.has(rawWord)) return false;
    if (op !== null) {
      if ((op.endsWith('>&') || op.endsWith('<&')) && !isDigits(rawWord)) return false;
      redirects.push({ op, target: word });
      op = null;
    } else {
      // After a redirection, tree-sitter takes further words as more targets (`a >f b`).
      if (redirects.length > 0) return false;
      if (words.length === 0 && rawWord.includes('=')) return false;
      words.push(word);
      lastWord = at;
    }
    last = at;
    word = '';
    inWord = false;
    return true;
  };
  /** `endsStatement`: followed by `;` or the end, not by `&&`, `||` or `|`. */
  const endCommand = (endsStatement: boolean): boolean => {
    if (words.length === 0 || op !== null) return false;
    if (redirects.length === 0 || commands === 0) {
      pipeline.push({ words, text: source.slice(first, last), redirects });
    } else if (endsStatement) {
      pipeline.push({ words, text: source.slice(first, lastWord), redirects: [] });
      statement.redirects = redirects;
    } else {
      return false;
    }
    commands++;
    words = [];
    redirects = [];
    first = -1;
    return true;
  };
  const endStatement = (): void => {
    statements.push(statement);
    statement = { pipelines: [], redirects: [] };
    commands = 0;
  };
  for (let i = 0; i < n; i++) {
    const c = source.charCodeAt(i);
    if (c === SPACE || c === TAB) {
      if (!endWord(i)) return null;
      continue;
    }
    if (!inWord && op === null && first !== -1) {
      const redirect = redirectOperator(source, i);
      if (redirect) {
        if (words.length === 0) return null; // before the command's name: the parser
        op = redirect;
        i += redirect.length - 1;
        continue;
      }
    }
    if (c === AMP || c === BAR || c === SEMI) {
      const next = source.charCodeAt(i + 1);
      // `&&`, `||`, `|` and `;` only: `&` (background), `|&` and `;;` go to the parser.
      if (c === AMP && next !== AMP) return null;
      if (c === BAR && next === AMP) return null;
      if (c === SEMI && next === SEMI) return null;
      if (!endWord(i) || !endCommand(c === SEMI)) return null;
      const pipe = c === BAR && next !== BAR; // `|` joins stages; `&&`, `||`, `;` end a pipeline
      if (!pipe) {
        statement.pipelines.push(pipeline);
        pipeline = [];
      }
      if (c === SEMI) endStatement();
      if (c !== SEMI && next === c) i++;
      continue;
    }
    if (!inWord) {
      if (c === HASH) {
        // ` # …` to the end of the line: a comment (it starts a word, outside quotes).
        if (i === 0 || op !== null || source.includes('\n', i) || source.includes('\r', i)) return null;
        break;
      }
      inWord = true;
      raw = i;
      if (first === -1) first = i;
    }
    if (c < 128 && PLAIN[c] === 1) {
      word += source[i];
    } else if (c === SQ) {
      const close = source.indexOf("'", i + 1);
      if (close === -1) return null;
      const body = source.slice(i + 1, close);
      if (body.includes('\n')) return null;
      word += body;
      i = close;
    } else if (c === DQ) {
      const close = source.indexOf('"', i + 1);
      if (close === -1) return null;
      const body = source.slice(i + 1, close);
      if (/[$`\\!\n]/.test(body)) return null;
      word += body;
      i = close;
    } else {
      return null;
    }
  }
  if (!endWord(n) || !endCommand(true)) return null;
  statement.pipelines.push(pipeline);
  endStatement();
  return statements;
}

/**
 * The simple redirection operator at `i` (descriptor digits included: `2>&`), or null: `>`,
 * `>>`, `>|`, `>&`, `<`, `<&`, `&>`, `&>>`. `<<`, `<<<`, `<>`, `>(`, `<(` and the rest: null.
 */
function redirectOperator(source: string, i: number): string | null {
  let j = i;
  while (j < source.length && source.charCodeAt(j) >= ZERO && source.charCodeAt(j) <= NINE) j++;
  const c = source.charCodeAt(j);
  const next = source.charCodeAt(j + 1);
  let end: number;
  if (c === GT) end = next === GT || next === BAR || next === AMP ? j + 2 : j + 1;
  else if (c === LT) end = next === AMP ? j + 2 : next === LT || next === GT ? -1 : j + 1;
  else if (c === AMP && j === i && next === GT) end = source.charCodeAt(j + 2) === GT ? j + 3 : j + 2;
  else return null;
  if (end === -1) return null;
  const after = source.charCodeAt(end);
  if (after === GT || after === LT || after === AMP || after === BAR || after === 0x28 /* ( */) return null;
  return source.slice(i, end);
}

function isDigits(text: string): boolean {
  if (text.length === 0) return false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < ZERO || c > NINE) return false;
  }
  return true;
}

function safeParse(p: Parser, text: string): Tree | null {
  try {
    return p.parse(text);
  } catch {
    return null;
  }
}

function failed(): ParsedShell {
  return { commands: [], pipelines: [], hasHeredoc: false, hadErrors: true };
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    // (what Object.values gives, without an array per object: plain objects and arrays only)
    if (Array.isArray(value)) for (let i = 0; i < value.length; i++) deepFreeze(value[i]);
    else for (const k in value) deepFreeze((value as Record<string, unknown>)[k]);
  }
  return value;
}
