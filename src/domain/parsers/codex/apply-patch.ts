// The apply_patch envelope Codex uses for file edits, parsed into per-file operations:
//
//   *** Begin Patch
//   *** Add File: <path>        followed by "+line" lines (the whole new file)
//   *** Delete File: <path>
//   *** Update File: <path>     optionally "*** Move to: <path>", then hunks:
//   @@ [context]                 "+added", "-removed", " context" lines; "*** End of File"
//   *** End Patch
//
// Like Codex itself this is lenient (whitespace around markers, a missing "@@" before the first
// hunk, blank lines) and, unlike Codex, it never fails: junk lines are ignored and whatever file
// operations are recognisable are returned, because a half-valid patch still tells us what the
// agent tried to write.
import type { PatchFile } from '../../model/events.ts';

interface Building {
  path: string;
  op: PatchFile['op'];
  moveTo?: string;
  removed: string[];
  added: string[];
}

const MARKERS: [string, PatchFile['op']][] = [
  ['*** Add File:', 'add'],
  ['*** Delete File:', 'delete'],
  ['*** Update File:', 'update'],
];

export function parseApplyPatch(patch: string): PatchFile[] {
  const files: PatchFile[] = [];
  let cur: Building | null = null;
  const flush = (): void => {
    if (cur) files.push(finish(cur));
    cur = null;
  };
  // Lines are visited by index and only sliced when they matter: patches can be megabytes.
  const len = patch.length;
  let start = 0;
  while (start <= len) {
    let end = patch.indexOf('\n', start);
    if (end < 0) end = len;
    const stop = end > start && patch.charCodeAt(end - 1) === 13 /* \r */ ? end - 1 : end;
    const c = patch.charCodeAt(start);
    if (c === 43 /* + */ || c === 45 /* - */) {
      if (cur) addBodyLine(cur, c === 43, patch.slice(start + 1, stop));
    } else {
      const m = markerAt(patch, start, stop);
      if (m !== null) {
        const opened = openFile(m);
        if (opened) {
          flush();
          cur = opened;
        } else if (cur) applyMarker(cur, m, flush);
      }
    }
    start = end + 1;
  }
  flush();
  return files;
}

/** The trimmed line when it is a "***" marker (leading blanks allowed), else null. */
function markerAt(s: string, start: number, stop: number): string | null {
  let i = start;
  while (i < stop && (s.charCodeAt(i) === 32 || s.charCodeAt(i) === 9)) i++;
  return i + 3 <= stop && s.startsWith('***', i) ? s.slice(i, stop).trim() : null;
}

function openFile(marker: string): Building | null {
  for (const [prefix, op] of MARKERS) {
    if (!marker.startsWith(prefix)) continue;
    const path = marker.slice(prefix.length).trim();
    return path ? { path, op, removed: [], added: [] } : null;
  }
  return null;
}

/** Markers that do not open a file: Move to (renames the current update), End Patch, End of File. */
function applyMarker(cur: Building, marker: string, flush: () => void): void {
  if (marker.startsWith('*** Move to:')) {
    const to = marker.slice('*** Move to:'.length).trim();
    if (to && cur.op === 'update') cur.moveTo = to;
  } else if (marker.startsWith('*** End Patch')) {
    flush();
  }
}

/** "+" adds (in added files and updates); "-" removes (updates only); context lines do not matter. */
function addBodyLine(cur: Building, plus: boolean, body: string): void {
  if (plus) {
    if (cur.op !== 'delete') cur.added.push(body);
  } else if (cur.op === 'update') cur.removed.push(body);
}

function finish(b: Building): PatchFile {
  const file: PatchFile = { path: b.path, op: b.op, removed: b.removed.join('\n'), added: b.added.join('\n') };
  if (b.moveTo !== undefined) file.moveTo = b.moveTo;
  return file;
}

/** The patch text when a string is an apply_patch envelope (possibly wrapped in a <<'EOF' heredoc). */
export function looksLikePatch(s: string): boolean {
  return s.includes('*** Begin Patch') || /\*\*\* (?:Add|Update|Delete) File:/.test(s.slice(0, 4096));
}

// A shell invocation Codex intercepts and applies itself instead of running a shell:
//   apply_patch <<'EOF'\n…\nEOF     (also applypatch, "cd dir && " first, << "EOF", <<EOF)
const HEREDOC_HEAD = /^(?:cd\s+("[^"\n]*"|'[^'\n]*'|[^\s;&|]+)\s*&&\s*)?(?:apply_patch|applypatch)\s*<<-?\s*(['"]?)([A-Za-z_][A-Za-z0-9_]*)\2[ \t]*\r?\n/;

export interface ShellPatch {
  patch: string;
  /** The directory of a leading `cd dir &&`, against which the patch paths resolve. */
  dir?: string;
}

/** The patch of a script that is exactly one apply_patch heredoc, else null (then it is a command). */
export function patchFromScript(script: string): ShellPatch | null {
  const s = script.trimStart();
  const m = HEREDOC_HEAD.exec(s);
  if (!m) return null;
  const delim = m[3];
  const body = s.slice(m[0].length);
  const close = findDelimiterLine(body, delim);
  if (close < 0) return null;
  // Anything after the terminator would be a real command: then it is not a pure patch.
  const rest = body.slice(close).replace(/^[^\n]*\n?/, '');
  if (rest.trim() !== '') return null;
  const patch = body.slice(0, close);
  if (!looksLikePatch(patch)) return null;
  const dir = m[1] ? unquote(m[1]) : undefined;
  return dir ? { patch, dir } : { patch };
}

function findDelimiterLine(body: string, delim: string): number {
  let start = 0;
  while (start < body.length) {
    let end = body.indexOf('\n', start);
    if (end < 0) end = body.length;
    if (body.slice(start, end).trim() === delim) return start;
    start = end + 1;
  }
  return -1;
}

function unquote(s: string): string {
  const q = s[0];
  return (q === '"' || q === "'") && s.endsWith(q) && s.length >= 2 ? s.slice(1, -1) : s;
}

/** Resolve patch paths against the `cd` directory of a heredoc invocation. */
export function withDir(files: PatchFile[], dir: string | undefined): PatchFile[] {
  if (!dir || dir === '.') return files;
  const base = dir.endsWith('/') ? dir.slice(0, -1) : dir;
  const join = (p: string): string => (p.startsWith('/') || p.startsWith('~') ? p : `${base}/${p}`);
  for (const f of files) {
    f.path = join(f.path);
    if (f.moveTo !== undefined) f.moveTo = join(f.moveTo);
  }
  return files;
}
