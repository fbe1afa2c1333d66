// What a tool call does to the world, in one shape every rule can read: files written, read and
// deleted (with their resolved zone), hosts contacted, and each shell command with the directory
// it runs in. Computed once per event and memoised on the event object, so twelve rule modules
// share one pass over the same argv.
import type { NormEvent, ToolCallEvent } from '../model/events.ts';
import type { SimpleCommand } from '../shell/types.ts';
import type { EventFacts, SessionFacts } from './types.ts';
import { classifyPath, resolvePath } from '../paths.ts';
import { CommandTable, type Positional, type Row } from './command-table.ts';
import { gitSubcommand, hostOfUrl, isLocalHost, networkTargets, optionValues, parseArgs, PS_PATH_PARAMS } from './commands.ts';

export type PathInfo = ReturnType<typeof classifyPath>;
export type Zone = PathInfo['zone'];

/** A shell command with the directory it runs in (tool workdir, then any `cd` before it). */
export interface Located {
  cmd: SimpleCommand;
  dir: string | null;
}

export interface FileOp {
  /** The path as the log wrote it. */
  path: string;
  abs: string;
  zone: Zone;
  sensitive: string | null;
  /** In the worktree: the part of the path below the working directory (paths.ts PathClass.rel). */
  rel?: string;
  kind: 'write' | 'create' | 'edit' | 'delete' | 'read';
  via: 'tool' | 'command';
  /** Text the operation adds or removes, when the log shows it (tool edits, echo/heredoc > file). */
  added: string;
  removed: string;
  cmd?: SimpleCommand;
  /** For a delete that is really a rename (apply_patch "Move to"): the new path. */
  movedTo?: string;
}

export interface NetOp {
  host: string;
  url: string | null;
  local: boolean;
  /** The command that dials out, or null for a web_fetch tool call. */
  cmd: SimpleCommand | null;
}

export interface Effects {
  call: ToolCallEvent | null;
  commands: Located[];
  writes: FileOp[];
  reads: FileOp[];
  deletes: FileOp[];
  net: NetOp[];
}

const EMPTY: Effects = Object.freeze({ call: null, commands: [], writes: [], reads: [], deletes: [], net: [] }) as Effects;
const cache = new WeakMap<NormEvent, Effects>();

/** The effects of a tool call (empty for every other event). */
export function effectsOf(event: NormEvent, facts: EventFacts, session: SessionFacts): Effects {
  if (event.kind !== 'tool_call') return EMPTY;
  let fx = cache.get(event);
  if (!fx) {
    fx = compute(event, facts, session);
    cache.set(event, fx);
  }
  return fx;
}

// Rules locate the same paths many times (every rule that looks at a command, every call on the
// same file): a bounded memo of the pure resolve + classify, keyed by all of its inputs.
const LOCATE_CACHE_MAX = 4_096;
const PATH_TEXT_CACHED_MAX = 1_024;
const located = new Map<string, PathInfo>();

/** Resolves a path against a directory and classifies it relative to the session's worktree. */
export function locate(path: string, dir: string | null, session: SessionFacts): PathInfo {
  if (path.length > PATH_TEXT_CACHED_MAX || (dir !== null && dir.length > PATH_TEXT_CACHED_MAX)) return locateUncached(path, dir, session);
  const key = `${session.cwd ?? '\u0001'}\u0000${session.home ?? '\u0001'}\u0000${dir ?? '\u0001'}\u0000${path}`;
  const hit = located.get(key);
  // A copy: callers own what they get, as they did before the memo.
  if (hit) return { ...hit };
  const info = locateUncached(path, dir, session);
  if (located.size >= LOCATE_CACHE_MAX) located.delete(located.keys().next().value as string);
  located.set(key, { ...info });
  return info;
}

/**
 * Where a destination lands as a project path: in the working tree, or — in a log that never gives
 * the shell's directory (Gemini CLI's) — written relative without climbing out (`.gemini\tmp`,
 * `docs/`): the agent's shell starts in the project.
 */
export function landsInProject(path: string, dir: string | null, session: SessionFacts): boolean {
  const where = locate(path, dir, session);
  if (where.zone === 'worktree') return true;
  return where.zone === 'unknown' && session.cwd === null && dir === null && !/^(?:[/\\~$%]|[A-Za-z]:|\.\.(?:[/\\]|$))/.test(path.trim()) && !/(?:^|[/\\])\.\.(?:[/\\]|$)/.test(path);
}

function locateUncached(path: string, dir: string | null, session: SessionFacts): PathInfo {
  const abs = resolvePath(path, dir ?? session.cwd, session.home);
  const info = classifyPath(abs, { cwd: session.cwd, home: session.home });
  if (!/[$`]/.test(info.abs)) return info;
  // A variable we could not expand: "dir/$f.svg" is still placed by its directory, but "$DIR/x"
  // or "/$X" cannot be placed at all, and a path we cannot place is never judged.
  const known = info.abs.slice(0, info.abs.search(/[$`]/)).replace(/\/[^/]*$/, '');
  if (known.length <= 1) return { ...info, zone: 'unknown' };
  return { ...classifyPath(known, { cwd: session.cwd, home: session.home }), abs: info.abs, sensitive: info.sensitive };
}

function compute(call: ToolCallEvent, facts: EventFacts, session: SessionFacts): Effects {
  const fx: Effects = { call, commands: [], writes: [], reads: [], deletes: [], net: [] };
  const i = call.input;
  const op = (path: string, kind: FileOp['kind'], added = '', removed = '', dir: string | null = null, cmd?: SimpleCommand): FileOp => {
    const info = locate(path, dir, session);
    return { path, abs: info.abs, zone: info.zone, sensitive: info.sensitive, kind, via: cmd ? 'command' : 'tool', added, removed, cmd, ...(info.rel !== undefined ? { rel: info.rel } : {}) };
  };
  switch (i.type) {
    case 'command':
      // Codex records workdir as given, often "." or a relative path: resolve it against the cwd.
      commandEffects(i.command, i.workdir ? locate(i.workdir, null, session).abs : session.cwd, facts, session, fx, op);
      break;
    case 'file_read':
      fx.reads.push(op(i.path, 'read'));
      break;
    case 'search':
      if (i.path) fx.reads.push(op(i.path, 'read'));
      break;
    case 'file_write':
      fx.writes.push(op(i.path, 'write', i.content, i.replaced));
      break;
    case 'file_edit':
      fx.writes.push(op(i.path, 'edit', i.edits.map((e) => e.newText).join('\n'), i.edits.map((e) => e.oldText).join('\n')));
      break;
    case 'patch':
      for (const f of i.files) {
        if (f.op === 'delete') fx.deletes.push(op(f.path, 'delete', '', f.removed));
        else fx.writes.push(op(f.moveTo ?? f.path, f.op === 'add' ? 'create' : 'edit', f.added, f.removed));
        if (f.moveTo && f.op !== 'delete') fx.deletes.push({ ...op(f.path, 'delete'), movedTo: f.moveTo });
      }
      break;
    case 'web_fetch': {
      const host = hostOfUrl(i.url);
      if (host) fx.net.push({ host, url: i.url, local: isLocalHost(host), cmd: null });
      break;
    }
    default:
      break;
  }
  return fx;
}

type MakeOp = (path: string, kind: FileOp['kind'], added?: string, removed?: string, dir?: string | null, cmd?: SimpleCommand) => FileOp;

function commandEffects(raw: string, startDir: string | null, facts: EventFacts, session: SessionFacts, fx: Effects, op: MakeOp): void {
  const commands = facts.shell?.commands ?? [];
  const bodies = heredocBodies(raw);
  let dir = startDir;
  // `$( cd ..; rm -rf build )`: a cd inside a substitution moves the commands after it in that
  // substitution, not the rest of the line.
  let subDir = dir;
  // PowerShell variables the command line sets (`$path = 'x.md'; Set-Content -Path $path …`).
  const psVars = new Map<string, string>();
  for (const cmd of commands) {
    const inSub = cmd.nested === 'substitution';
    if (PS_VARIABLE.test(cmd.name) && cmd.args[0] === '=' && cmd.args.length === 2 && psVars.size < PS_VARS_MAX) psVars.set(cmd.name.toLowerCase(), cmd.args[1]);
    if (cmd.name === 'cd' || cmd.name === 'pushd') {
      const to = cmd.args.find((a) => !a.startsWith('-'));
      const target = to ? locate(to, inSub ? subDir : dir, session).abs : session.home ?? dir;
      if (inSub) subDir = target;
      else dir = subDir = target;
      continue;
    }
    if (!inSub) subDir = dir;
    fx.commands.push({ cmd, dir: inSub ? subDir : dir });
    const heredoc = cmd.text.includes('<<') ? bodies.join('\n') : '';
    for (const w of commandWrites(cmd, heredoc)) fx.writes.push(op(w.path, w.kind, w.added, '', dir, cmd));
    for (const w of powershellWrites(cmd, psVars)) fx.writes.push(op(w.path, w.kind, w.added, '', dir, cmd));
    for (const r of commandReads(cmd)) fx.reads.push(op(r, 'read', '', '', dir, cmd));
    for (const d of commandDeletes(cmd)) fx.deletes.push(op(d, 'delete', '', '', dir, cmd));
    for (const t of networkTargets(cmd)) fx.net.push({ host: t.host, url: t.url, local: isLocalHost(t.host), cmd });
  }
}

const PS_VARIABLE = /^\$[A-Za-z_]\w*$/;
const PS_VARS_MAX = 50;

// PowerShell's file writers (names case-insensitive, aliases included): the file they write.
const PS_CONTENT = new Set(['set-content', 'sc', 'add-content', 'ac', 'out-file']);
const PS_COPY = new Set(['copy-item', 'cpi', 'copy', 'move-item', 'mi', 'move']);
const PS_VALUE_OPTS = ['-path', '-literalpath', '-filepath', '-destination', '-value', '-encoding', '-itemtype', '-name', '-include', '-exclude', '-filter', '-inputobject', '-width', '-stream', '-delimiter'];

/**
 * Files a PowerShell cmdlet writes: `Set-Content -Path x -Value …` / `Add-Content` / `Out-File
 * -FilePath x` (or the first positional argument), `New-Item -ItemType File x`, `Copy-Item a b`.
 * Variables set earlier on the command line are resolved. Without these, a Windows session that
 * wrote every file through PowerShell reported "no files changed".
 */
export function powershellWrites(cmd: SimpleCommand, vars: ReadonlyMap<string, string>): CmdWrite[] {
  const name = cmd.name.toLowerCase();
  const isContent = PS_CONTENT.has(name);
  if (!isContent && name !== 'new-item' && name !== 'ni' && !PS_COPY.has(name)) return [];
  const { named, positional } = powershellArgs(cmd);
  const resolve = (p: string | undefined) => (p === undefined ? undefined : PS_VARIABLE.test(p) ? vars.get(p.toLowerCase()) : p);
  let target: string | undefined;
  let kind: FileOp['kind'] = 'write';
  if (isContent) {
    target = resolve(named(['-path', '-literalpath', '-filepath']) ?? positional[0]);
    if (name === 'add-content' || name === 'ac') kind = 'edit';
  } else if (name === 'new-item' || name === 'ni') {
    const type = named(['-itemtype'])?.toLowerCase();
    if (type !== undefined && type !== 'file') return [];
    target = resolve(named(['-path']) ?? positional[0]);
    kind = 'create';
  } else {
    target = resolve(named(['-destination']) ?? positional[1]);
  }
  if (!target || /^\$|^@|[\n*?]/.test(target)) return [];
  const value = named(['-value']);
  return [{ path: target, kind, added: value && !PS_VARIABLE.test(value) ? value : '' }];
}

/** A PowerShell cmdlet's arguments: the value of a named parameter (`-Path x`), and the positional ones. */
function powershellArgs(cmd: SimpleCommand): { named: (opt: string[]) => string | undefined; positional: string[] } {
  const named = (opt: string[]): string | undefined => {
    const at = cmd.args.findIndex((a) => opt.includes(a.toLowerCase()));
    return at >= 0 ? cmd.args[at + 1] : undefined;
  };
  const positional: string[] = [];
  for (let i = 0; i < cmd.args.length; i++) {
    const a = cmd.args[i];
    if (a.startsWith('-')) {
      if (PS_VALUE_OPTS.includes(a.toLowerCase())) i++;
      continue;
    }
    positional.push(a);
  }
  return { named, positional };
}

/** `Copy-Item -Path a -Destination b` (or `copy a b`, `Move-Item`): what it copies and where, as written. */
export function powershellCopy(cmd: SimpleCommand): { from: string; to: string } | null {
  if (!PS_COPY.has(cmd.name.toLowerCase())) return null;
  const { named, positional } = powershellArgs(cmd);
  const path = named(['-path', '-literalpath']);
  const from = path ?? positional[0];
  const to = named(['-destination']) ?? (path === undefined ? positional[1] : positional[0]);
  return from && to ? { from, to } : null;
}

/** Heredoc bodies in a command string, in order (they are data, but data that is written). */
export function heredocBodies(raw: string): string[] {
  const out: string[] = [];
  const re = /<<-?\s*(['"]?)([A-Za-z_][\w-]*)\1[^\n]*\n([\s\S]*?)\n[ \t]*\2[ \t]*(?:\n|$)/g;
  for (let m = re.exec(raw); m; m = re.exec(raw)) out.push(m[3]);
  return out;
}

interface CmdWrite {
  path: string;
  kind: FileOp['kind'];
  added: string;
}

interface WriteView extends Positional {
  cmd: SimpleCommand;
  args: string[];
  /** The heredoc bodies of the tool call: what `tee` writes. */
  heredoc: string;
}

interface Writer extends Row<WriteView> {
  writes: (v: WriteView) => CmdWrite[];
}

const written = (kind: FileOp['kind'], added = '') => (path: string): CmdWrite => ({ path, kind, added });

/** Commands that write files named in their arguments: tool → the files written. */
export const WRITERS = new CommandTable<WriteView, Writer>([
  { tools: ['tee'], path: [], writes: (v) => parseArgs(v.args).operands.map(written('write', v.heredoc)) },
  // A remote destination (`host:path`) is not a local write.
  { tools: ['cp', 'mv', 'install', 'ln', 'rsync'], path: [], writes: (v) => copiedTo(v.cmd.name, v.args).filter((d) => !/^[^/\s]*[a-z0-9]:/i.test(d)).map(written('write')) },
  { tools: ['touch'], path: [], writes: (v) => parseArgs(v.args, ['-d', '-t', '-r']).operands.map(written('create')) },
  { tools: ['sed', 'perl'], path: [], writes: (v) => inPlaceEdits(v.cmd) },
  { tools: ['dd'], path: [], writes: (v) => [v.args.find((a) => a.startsWith('of='))?.slice(3)].filter((f) => f !== undefined).map(written('write')) },
  { tools: ['curl'], path: [], writes: (v) => optionValues(v.args, ['-o', '--output']).filter((f) => f !== '-').map(written('write')) },
  { tools: ['wget'], path: [], writes: (v) => optionValues(v.args, ['-O', '--output-document']).filter((f) => f !== '-').map(written('write')) },
]);

export function commandWrites(cmd: SimpleCommand, heredoc: string): CmdWrite[] {
  const out: CmdWrite[] = [];
  const echoed = cmd.name === 'echo' || cmd.name === 'printf' ? cmd.args.filter((a) => !/^-[neE]+$/.test(a)).join(' ') : heredoc;
  for (const r of cmd.redirects) {
    if (!/>/.test(r.op) || r.op.includes('<')) continue;
    if (/^&?\d*-?$/.test(r.target) || r.target.startsWith('&')) continue; // 2>&1 and friends
    out.push({ path: r.target, kind: 'write', added: echoed });
  }
  const found = WRITERS.match(cmd.name, () => ({ cmd, args: cmd.args, heredoc, operands: cmd.args }));
  if (found) out.push(...found.row.writes(found.view));
  return out.filter((w) => !CLIPPED.test(w.path));
}

/**
 * A path a terminal capture cut short (`npm ls -g x 2>/…`: the screen ended there): where it
 * pointed is unknown, so it is no write anyone can place.
 */
const CLIPPED = /…$/;

/** The destination of cp/mv/install/ln/rsync: `-t dir`, else the last operand. */
/** Options of cp, mv, install, ln and rsync that take a value (the value is no operand). */
const COPY_VALUE_OPTS = ['-m', '-o', '-g', '-S', '--suffix', '-e', '--exclude', '--include', '--mode', '--owner', '--group', '-t', '--target-directory'];

/**
 * The files a copy or move writes: into a folder written as one (`mv a.csv b.csv ../tmp/`, `cp -t
 * dir a b`), each source's name in it — the files that land there, one per source; else the
 * destination as written. (`ln` and `rsync` give their last operand other meanings: as written.)
 */
function copiedTo(tool: string, args: string[]): string[] {
  const target = optionValues(args, ['-t', '--target-directory'])[0];
  const { operands } = parseArgs(args, COPY_VALUE_OPTS);
  const dest = target ?? (operands.length >= 2 ? operands[operands.length - 1]! : null);
  if (!dest) return [];
  if (!(tool === 'cp' || tool === 'mv' || tool === 'install') || (target === undefined && !dest.endsWith('/'))) return [dest];
  const sources = target !== undefined ? operands : operands.slice(0, -1);
  const names = sources.map((s) => s.replace(/\/+$/, '').replace(/^.*\//, '')).filter((n) => n !== '' && !/[*?[]/.test(n) && n !== '.' && n !== '..');
  return names.length === sources.length && names.length > 0 ? names.slice(0, 50).map((n) => `${dest.replace(/\/+$/, '')}/${n}`) : [dest];
}

/**
 * BSD (macOS) sed takes `-i`'s backup suffix as the next argument (`sed -i '' 's/a/b/' f`, `sed -i
 * .bak …`); GNU sed takes only an attached one and would read `''` as the script, which no one
 * writes. An empty or dot-led word right after `-i` is that suffix, not the script.
 */
function withoutBsdSuffix(cmd: SimpleCommand): string[] {
  const { args } = cmd;
  if (cmd.name !== 'sed') return args;
  const at = args.findIndex((a) => /^-[a-zA-Z]*i$/.test(a));
  if (at < 0 || at + 1 >= args.length || !/^(?:|\.[\w.~-]*)$/.test(args[at + 1])) return args;
  const rest = [...args.slice(0, at + 1), ...args.slice(at + 2)];
  // GNU sed's `sed -e '…' -i .bashrc` edits the dot-file: a suffix needs a file after it to edit
  const { operands } = parseArgs(rest, ['-e', '--expression', '-f', '--file', '-l']);
  const scripted = rest.some((a) => a === '-e' || a === '--expression' || a === '-f' || a === '--file' || a.startsWith('--expression=') || a.startsWith('--file='));
  return operands.length >= (scripted ? 1 : 2) ? rest : args;
}

function inPlaceEdits(cmd: SimpleCommand): CmdWrite[] {
  const args = withoutBsdSuffix(cmd);
  const inPlace = args.some((a) => /^-[a-zA-Z]*i/.test(a) && !a.startsWith('--')) || args.some((a) => a.startsWith('--in-place'));
  if (!inPlace) return [];
  const scripts = optionValues(args, ['-e', '--expression']);
  const { operands } = parseArgs(args, ['-e', '--expression', '-f', '--file', '-l']);
  const hasScriptOpt = scripts.length > 0 || args.some((a) => a === '-f' || a === '--file');
  const files = cmd.name === 'sed' && !hasScriptOpt ? operands.slice(1) : operands;
  const script = cmd.name === 'sed' && !hasScriptOpt ? (operands[0] ?? '') : scripts.join('\n');
  return files.map((path) => ({ path, kind: 'edit' as const, added: script }));
}

const SIMPLE_READERS = new Set([
  'cat', 'tac', 'less', 'more', 'head', 'tail', 'bat', 'batcat', 'nl', 'strings', 'xxd', 'hexdump', 'od',
  'base64', 'base32', 'cut', 'sort', 'uniq', 'diff', 'cmp', 'md5sum', 'sha1sum', 'sha256sum', 'shasum',
  'xclip', 'pbcopy', 'view', 'column', 'fold', 'iconv', 'tr',
]);
const PATTERN_FIRST = new Set(['grep', 'egrep', 'fgrep', 'rg', 'ag', 'ack', 'awk', 'gawk', 'mawk', 'sed', 'jq', 'yq']);
const GREP_VALUE_OPTS = [
  '-e', '-f', '-m', '-A', '-B', '-C', '-g', '-t', '-T', '--regexp', '--file', '--max-count', '--include', '--exclude',
  '--glob', '--type', '--type-not', '-v', '--arg', '--argjson', '-F', '-n', '-c',
];

/** Files whose contents a command prints or copies (where secrets would be exposed). */
export function commandReads(cmd: SimpleCommand): string[] {
  const { name, args } = cmd;
  const out = cmd.redirects.filter((r) => r.op === '<' || r.op === '0<').map((r) => r.target);
  if (SIMPLE_READERS.has(name)) {
    out.push(...parseArgs(args, ['-n', '-c', '-w', '-k', '-t', '-o', '-s']).operands.filter((o) => o !== '-'));
  } else if (PATTERN_FIRST.has(name)) {
    const opts = name === 'grep' || name === 'rg' || name === 'egrep' || name === 'fgrep' || name === 'ag' || name === 'ack'
      ? GREP_VALUE_OPTS.filter((o) => o !== '-v' && o !== '-F' && o !== '-n' && o !== '-c')
      : ['-e', '-f', '-F', '-v', '--arg', '--argjson', '--expression', '--file'];
    const { operands } = parseArgs(args, opts);
    const patternGiven = args.some((a) => a === '-e' || a === '-f' || a.startsWith('--regexp') || a.startsWith('--file') || a === '--expression');
    if (name === 'sed' && args.some((a) => /^-[a-zA-Z]*i/.test(a) && !a.startsWith('--'))) return out;
    out.push(...(patternGiven ? operands : operands.slice(1)));
  } else if (name === 'cp' || name === 'scp' || name === 'rsync') {
    const { operands } = parseArgs(args, ['-t', '-S', '-e', '-i', '-P', '-o', '--exclude', '--include']);
    out.push(...operands.slice(0, -1).filter((o) => !/^[^/\s]*[a-z0-9]:/i.test(o)));
  } else if (name === 'openssl') {
    out.push(...optionValues(args, ['-in']));
  } else if (name === 'tar' && (args[0] ?? '').replace(/^-/, '').includes('c')) {
    const archive = optionValues(args, ['-f']);
    const ops = parseArgs(args.slice(1), ['-f', '-C', '--exclude']).operands;
    out.push(...ops.filter((o) => !archive.includes(o)));
  } else if (name === 'zip') {
    out.push(...parseArgs(args, ['-x', '-i']).operands.slice(1));
  } else if (PS_READERS.test(name)) {
    out.push(...powershellReads(name, args));
  }
  return out;
}

// PowerShell's readers: Get-Content prints files, Select-String prints their matching lines.
// (`type` and `gc`, Get-Content's aliases, are left out: in a POSIX shell they are other programs.)
const PS_READERS = /^(?:get-content|select-string|sls)$/i;
const PS_VALUE_PARAMS = /^-(?:totalcount|head|first|tail|last|encoding|delimiter|readcount|stream|pattern|context|include|exclude|filter|erroraction|ea)$/i;

/** The files `Get-Content x, y -TotalCount 5` or `Select-String -Pattern p -Path x` reads. */
function powershellReads(name: string, args: string[]): string[] {
  const paths: string[] = [];
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (PS_PATH_PARAMS.test(a)) paths.push(args[++i] ?? '');
    else if (PS_VALUE_PARAMS.test(a)) i++;
    else if (!a.startsWith('-')) positional.push(a);
  }
  // Select-String's first positional word is its pattern, unless -Pattern gave it
  const patternGiven = args.some((a) => /^-pattern$/i.test(a));
  const files = /^get-content$/i.test(name) || patternGiven ? positional : positional.slice(1);
  return [...paths, ...files].flatMap((p) => p.split(',')).map((p) => p.trim()).filter(Boolean);
}

function commandDeletes(cmd: SimpleCommand): string[] {
  if (cmd.name === 'rm' || cmd.name === 'unlink' || cmd.name === 'shred') return parseArgs(cmd.args, ['-n', '-s']).operands;
  // `git rm f` deletes f from the tree as well as the index; `--cached` keeps the file, `-n` is a dry run
  const git = gitSubcommand(cmd);
  if (git?.sub === 'rm') {
    const { short, long, operands } = parseArgs(git.args, ['--pathspec-from-file']);
    if (long.has('--cached') || long.has('--dry-run') || short.has('n') || long.has('--pathspec-from-file')) return [];
    // `git -C dir rm f` removes dir/f
    const at = cmd.args.indexOf('-C');
    const base = at >= 0 && at < cmd.args.length - 1 ? cmd.args[at + 1]!.replace(/\/+$/, '') : null;
    return base === null ? operands : operands.map((o) => (o.startsWith('/') ? o : `${base}/${o}`));
  }
  return [];
}
