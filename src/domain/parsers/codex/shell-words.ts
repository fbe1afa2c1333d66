// Turning Codex's command representations into one command string for the shell parser:
// argv arrays (["bash","-lc","<script>"] → the script; others quoted and joined) and the
// `codex exec --json` string form ("/bin/bash -lc 'ls -la'" → "ls -la").
import { basename } from '../../paths.ts';

const SHELLS = new Set(['bash', 'sh', 'zsh', 'dash', 'ksh']);
const SHELL_C_FLAG = /^-[a-z]*c[a-z]*$/;
const SAFE_WORD = /^[A-Za-z0-9_\-+=.,/:@%^]+$/;

/** POSIX single-quoting, so that joined argv re-parses into the same words. */
export function quoteWord(w: string): string {
  if (w === '') return "''";
  return SAFE_WORD.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`;
}

/** argv → command; `sh -c <script>` (any -lc/-ic spelling) is the script itself. */
export function argvToCommand(argv: readonly unknown[]): string {
  const words = argv.filter((w): w is string => typeof w === 'string');
  if (words.length === 3 && SHELLS.has(basename(words[0])) && SHELL_C_FLAG.test(words[1])) return words[2];
  return words.map(quoteWord).join(' ');
}

const SHELL_PREFIX = /^\s*(?:\/usr)?(?:\/bin\/)?(?:ba|z|da|k)?sh\s+-[a-z]*c[a-z]*\s+/;

/** "bash -lc '<script>'" → script when the rest is exactly one shell word; otherwise unchanged. */
export function unwrapShellString(cmd: string): string {
  const m = SHELL_PREFIX.exec(cmd);
  if (!m) return cmd;
  const word = singleWord(cmd, m[0].length);
  return word ?? cmd;
}

/** Reads one shell word starting at `i` (quotes and backslashes resolved); null if more follows. */
function singleWord(s: string, i: number): string | null {
  let out = '';
  while (i < s.length) {
    const c = s[i];
    if (c === "'") {
      const close = s.indexOf("'", i + 1);
      if (close < 0) return null;
      out += s.slice(i + 1, close);
      i = close + 1;
    } else if (c === '"') {
      const r = doubleQuoted(s, i + 1);
      if (!r) return null;
      out += r.text;
      i = r.next;
    } else if (c === '\\' && i + 1 < s.length) {
      out += s[i + 1];
      i += 2;
    } else if (c === ' ' || c === '\t' || c === '\n') {
      return s.slice(i).trim() === '' ? out : null;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

function doubleQuoted(s: string, i: number): { text: string; next: number } | null {
  let out = '';
  while (i < s.length) {
    const c = s[i];
    if (c === '"') return { text: out, next: i + 1 };
    if (c === '\\' && i + 1 < s.length && '\\"$`\n'.includes(s[i + 1])) {
      out += s[i + 1];
      i += 2;
    } else {
      out += c;
      i++;
    }
  }
  return null;
}
