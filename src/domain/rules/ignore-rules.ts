// The .gitignore entries a session wrote, read as git reads them (a useful subset): `git add .`
// leaves an ignored file out, so a secret written into an ignored `.env` is not committed by it.
// Only what the log shows is known — entries written (or appended) during the session; a
// .gitignore that was there before is not in the log and ignores nothing here.
import { basename } from '../paths.ts';

const PATTERNS_MAX = 500;

/** The folder of a path with `/` separators (the analyser's normal form). */
const dirname = (p: string) => p.slice(0, p.lastIndexOf('/'));

interface Entry {
  /** The .gitignore's path: a rewrite of the file replaces its entries. */
  file: string;
  /** The line as written (trimmed): a removed line takes out the entry it wrote. */
  line: string;
  /** The folder of the .gitignore ('' when the log placed it nowhere: a relative path, no cwd). */
  dir: string;
  re: RegExp;
  negated: boolean;
  /** The pattern had a slash before its end: it is matched from the .gitignore's folder. */
  anchored: boolean;
  /** A trailing slash: only a folder matches (so a file under it). */
  dirOnly: boolean;
}

export class IgnoreRules {
  private readonly entries: Entry[] = [];

  /** Lines added to the .gitignore at `path` (its absolute path, or as written when unplaced). */
  add(path: string, text: string): void {
    const dir = path.includes('/') ? dirname(path) : '';
    for (const raw of text.split('\n')) {
      if (this.entries.length >= PATTERNS_MAX) return;
      const line = raw.replace(/\s+$/, '');
      if (line === '' || line.startsWith('#')) continue;
      const negated = line.startsWith('!');
      let pattern = negated ? line.slice(1) : line;
      const dirOnly = pattern.endsWith('/');
      if (dirOnly) pattern = pattern.replace(/\/+$/, '');
      const anchored = pattern.includes('/');
      pattern = pattern.replace(/^\//, '');
      if (pattern === '') continue;
      this.entries.push({ file: path, line: line.trim(), dir, re: globToRegExp(pattern), negated, anchored, dirOnly });
    }
  }

  /** The file at `path` was written whole: what it said before no longer holds. */
  replace(path: string, text: string): void {
    this.clear(path);
    this.add(path, text);
  }

  /** Lines taken out of a .gitignore (an edit's removed text): they no longer ignore anything. */
  remove(path: string, text: string): void {
    const gone = new Set(text.split('\n').map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#')));
    if (gone.size === 0) return;
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const e = this.entries[i]!;
      if (e.file === path && gone.has(e.line)) this.entries.splice(i, 1);
    }
  }

  private clear(path: string): void {
    for (let i = this.entries.length - 1; i >= 0; i--) if (this.entries[i]!.file === path) this.entries.splice(i, 1);
  }

  get size(): number {
    return this.entries.length;
  }

  /**
   * Whether git would leave the file at `path` out of `git add .` (the last matching entry decides).
   * `within`: only ignore files at or below this folder count (git reads none above the repository).
   */
  ignores(path: string, within?: string): boolean {
    let ignored = false;
    for (const e of this.entries) {
      if (within !== undefined && e.dir !== within && !e.dir.startsWith(`${within}/`)) continue;
      const rel = e.dir === '' ? path.replace(/^\/+/, '') : path.startsWith(`${e.dir}/`) ? path.slice(e.dir.length + 1) : null;
      if (rel === null) continue;
      if (matches(e, rel)) ignored = !e.negated;
    }
    return ignored;
  }
}

/** A pattern matches the path itself or one of its folders (a folder ignored ignores what is in it). */
function matches(e: Entry, rel: string): boolean {
  const parts = rel.split('/');
  for (let n = parts.length; n >= 1; n--) {
    // the whole path (a file, unless only folders match) or a folder above it
    if (e.dirOnly && n === parts.length) continue;
    const candidate = parts.slice(0, n).join('/');
    if (e.anchored ? e.re.test(candidate) : e.re.test(basename(candidate))) return true;
  }
  return false;
}

function globToRegExp(glob: string): RegExp {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      // `**/` is any number of whole folders (none included); a trailing `**` is everything below
      i++;
      if (glob[i + 1] === '/') {
        out += '(?:.*/)?';
        i++;
      } else out += '.*';
    } else if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else if (c === '\\' && i + 1 < glob.length) out += escape(glob[++i]!);
    else out += escape(c);
  }
  return new RegExp(`^${out}$`);
}

function escape(c: string): string {
  return /[.+^${}()|[\]\\]/.test(c) ? `\\${c}` : c;
}
