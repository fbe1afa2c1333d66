// Shell command parsing with tree-sitter-bash (WebAssembly). Load once with `loadShellParser()`,
// then `parseShell()` is synchronous. Results are cached by source text (agents repeat the same
// commands many times) and frozen, since cached objects are shared between callers.
import { createRequire } from 'node:module';
import { Language, Parser, type Tree } from 'web-tree-sitter';
import type { ParsedShell } from './types.ts';
import { walkTree, walkWords, type PlainCommand } from './walk.ts';

/** Longest input parsed; the rest is ignored and the result marked hadErrors. */
export const MAX_SHELL_INPUT = 100_000;
const CACHE_ENTRIES = 2_000;
/** Sources longer than this are not cached (bounds the cache's memory to ~2000 × 16 KB). */
const MAX_CACHED_SOURCE = 16_384;

const LIMITS = { maxReparseDepth: 4, maxTreeDepth: 400, maxCommands: 5_000 };

let parser: Parser | null = null;
let loading: Promise<Parser> | null = null;
const cache = new Map<string, ParsedShell>();

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

async function createParser(): Promise<Parser> {
  await Parser.init();
  const wasm = createRequire(import.meta.url).resolve('tree-sitter-bash/tree-sitter-bash.wasm');
  const language = await Language.load(wasm);
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
  if (hit) {
    cache.delete(text); // refresh its LRU position
    cache.set(text, hit);
    return hit;
  }
  const result = deepFreeze(parseUncached(p, text));
  if (text.length <= MAX_CACHED_SOURCE) remember(text, result);
  return result;
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

/**
 * A command line made of simple commands of plain words joined by `&&`, `||`, `;` and `|`,
 * optionally followed by a ` # …` comment: per pipeline, its commands' words (unquoted) and texts
 * as the parse tree would give them (each command without the blanks around it). Null when the
 * line needs the parser.
 *
 * A plain word is made of the characters in PLAIN, 'single-quoted' text without a newline, and
 * "double-quoted" text without `$`, backquotes, backslashes, `!` or a newline: its value is then
 * the text without the quotes. `=` is allowed after a command's first word only (before it, it
 * would be an assignment). Everything else — expansions, escapes, globs, redirections, `&`, `|&`,
 * `;;`, braces, `~`, newlines, non-ASCII, an empty command — needs the parser.
 */
export function plainCommands(source: string): PlainCommand[][] | null {
  const n = source.length;
  if (n === 0 || n > 4_096) return null;
  const list: PlainCommand[][] = [];
  let pipeline: PlainCommand[] = [];
  let words: string[] = [];
  let word = '';
  let inWord = false;
  let raw = 0; // where the current word starts in the source
  let first = -1; // where the current command starts
  let last = -1; // where its last word ends
  const endWord = (at: number): boolean => {
    if (!inWord) return true;
    const rawWord = source.slice(raw, at);
    if (SPECIAL_WORDS.has(word) || SPECIAL_WORDS.has(rawWord)) return false;
    if (words.length === 0 && rawWord.includes('=')) return false;
    words.push(word);
    last = at;
    word = '';
    inWord = false;
    return true;
  };
  const endCommand = (): boolean => {
    if (words.length === 0) return false;
    pipeline.push({ words, text: source.slice(first, last) });
    words = [];
    first = -1;
    return true;
  };
  for (let i = 0; i < n; i++) {
    const c = source.charCodeAt(i);
    if (c === SPACE || c === TAB) {
      if (!endWord(i)) return null;
      continue;
    }
    if (c === AMP || c === BAR || c === SEMI) {
      const next = source.charCodeAt(i + 1);
      // `&&`, `||`, `|` and `;` only: `&` (background), `|&` and `;;` go to the parser.
      if (c === AMP && next !== AMP) return null;
      if (c === BAR && next === AMP) return null;
      if (c === SEMI && next === SEMI) return null;
      if (!endWord(i) || !endCommand()) return null;
      const pipe = c === BAR && next !== BAR; // `|` joins stages; `&&`, `||`, `;` end a pipeline
      if (!pipe) {
        list.push(pipeline);
        pipeline = [];
      }
      if (c !== SEMI && next === c) i++;
      continue;
    }
    if (!inWord) {
      if (c === HASH) {
        // ` # …` to the end of the line: a comment (it starts a word, outside quotes).
        if (i === 0 || source.includes('\n', i) || source.includes('\r', i)) return null;
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
  if (!endWord(n) || !endCommand()) return null;
  list.push(pipeline);
  return list;
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

function remember(text: string, result: ParsedShell): void {
  cache.set(text, result);
  if (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value as string);
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
