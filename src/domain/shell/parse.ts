// Shell command parsing with tree-sitter-bash (WebAssembly). Load once with `loadShellParser()`,
// then `parseShell()` is synchronous. Results are cached by source text (agents repeat the same
// commands many times) and frozen, since cached objects are shared between callers.
import { createRequire } from 'node:module';
import { Language, Parser, type Tree } from 'web-tree-sitter';
import type { ParsedShell } from './types.ts';
import { walkTree, walkWords } from './walk.ts';

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
  // Most commands are `ls -la`, `git status`, `cat x`: no syntax to parse. Built directly (not
  // cached: cheaper than the cache's upkeep, and it leaves the cache to the commands that need it).
  const plain = plainCommand(text);
  if (plain) return deepFreeze(walkWords(plain.words, plain.text, { ...LIMITS, parse: (s) => safeParse(p, s.slice(0, MAX_SHELL_INPUT)) }));
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

/**
 * Characters of a plain word: nothing the shell treats specially anywhere in a word (quotes,
 * escapes, expansions, globs, operators, redirections, assignments, comments, `!`, `^`, control
 * characters and any non-ASCII character are all out). Space and tab separate words.
 */
const PLAIN_LINE = /^[ \t]*[A-Za-z0-9_./:@%+,-]+(?:[ \t]+[A-Za-z0-9_./:@%+,-]+)*[ \t]*$/;
/**
 * Bash's reserved words and the declaration builtins tree-sitter-bash parses as their own node
 * types: a line with one of them as a word goes through the parser (`if`, `time`, `export A`…).
 */
const SPECIAL_WORDS = new Set(['if', 'then', 'else', 'elif', 'fi', 'case', 'esac', 'for', 'select', 'while', 'until', 'do', 'done', 'in', 'function', 'time', 'coproc', 'declare', 'typeset', 'export', 'readonly', 'local', 'unset', 'unsetenv']);

/**
 * A command line that is one simple command of plain words, optionally followed by a ` # …`
 * comment: its words and its text as the parse tree would give them (the command without the
 * comment and the surrounding blanks). Null when the line needs the parser.
 */
export function plainCommand(source: string): { words: string[]; text: string } | null {
  if (source.length === 0 || source.length > 4_096) return null;
  let line = source;
  const hash = line.indexOf('#');
  if (hash !== -1) {
    // ` # …` to the end of the line is a comment: it follows a blank and nothing before it is
    // quoted (PLAIN_LINE checks that below). A `#` inside a word is not a comment: not plain.
    const before = line.charCodeAt(hash - 1);
    if ((before !== 0x20 && before !== 0x09) || line.includes('\n', hash) || line.includes('\r', hash)) return null;
    line = line.slice(0, hash);
  }
  if (!PLAIN_LINE.test(line)) return null;
  const text = line.replace(/^[ \t]+|[ \t]+$/g, '');
  const words = text.split(/[ \t]+/);
  for (const w of words) if (SPECIAL_WORDS.has(w)) return null;
  return { words, text };
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
