// What `vouch guard` finds on disk about the git worktree a call runs in, for the policy's
// `[worktrees] linked = "disposable"` (domain/guard/worktree.ts decides from these facts). Read
// only when that setting is on, and without running git: a `git` on PATH is the agent's to
// choose, and the guard must not run what it is judging. Configuration is read as git would
// (repository, the worktree's own file, user, system); anything that could make a discard reach
// past this worktree — an include, submodule.recurse, core.worktree, a GIT_DIR-like variable —
// leaves the configuration "not plain", and the relaxation off.
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { homedir } from 'node:os';
import type { WorktreeFacts } from '../../domain/guard/worktree.ts';

type Env = Readonly<Record<string, string | undefined>>;

/** Variables that point git at another repository, work tree, index or configuration. */
const CONTEXT_VARIABLES = [
  'GIT_DIR', 'GIT_WORK_TREE', 'GIT_COMMON_DIR', 'GIT_INDEX_FILE', 'GIT_OBJECT_DIRECTORY', 'GIT_NAMESPACE',
  'GIT_CONFIG', 'GIT_CONFIG_GLOBAL', 'GIT_CONFIG_SYSTEM', 'GIT_CONFIG_PARAMETERS', 'GIT_CONFIG_COUNT',
];

/** The worktree facts for a cwd, or null when it is in no git checkout (or cannot be read). */
export function probeWorktree(cwd: string | null, env: Env): WorktreeFacts | null {
  if (!cwd) return null;
  let dir: string;
  try {
    dir = realpathSync(cwd);
  } catch {
    return null;
  }
  for (let d = dir; ; d = dirname(d)) {
    const dotGit = join(d, '.git');
    const kind = entryKind(dotGit);
    if (kind === 'dir') return { linked: false, plainConfig: false };
    if (kind === 'file') return linkedFacts(d, dotGit, env);
    if (dirname(d) === d) return null;
  }
}

function entryKind(path: string): 'dir' | 'file' | null {
  try {
    const st = statSync(path);
    return st.isDirectory() ? 'dir' : st.isFile() ? 'file' : null;
  } catch {
    return null;
  }
}

/**
 * A `.git` file: a linked worktree when it names `<repo>/.git/worktrees/<name>` and that folder
 * names this `.git` file back (its `gitdir`), as `git worktree` keeps them. A copy of a worktree,
 * or a `.git` file planted in a folder of another checkout, points at a worktree that does not
 * point back; a submodule's names `.git/modules/…`.
 */
function linkedFacts(top: string, dotGit: string, env: Env): WorktreeFacts {
  const NOT = { linked: false, plainConfig: false };
  const gitdir = /^gitdir:\s*(.+?)\s*$/m.exec(readFile(dotGit) ?? '')?.[1];
  if (!gitdir) return NOT;
  const own = realOrNull(resolve(top, gitdir));
  const commondir = own ? readFile(join(own, 'commondir'))?.trim() : undefined;
  if (!own || basename(dirname(own)) !== 'worktrees' || !commondir) return NOT;
  const back = readFile(join(own, 'gitdir'))?.trim();
  if (!back || realOrNull(resolve(own, back)) !== realOrNull(dotGit)) return NOT;
  const common = resolve(own, commondir);
  if (realOrNull(join(common, 'worktrees', basename(own))) !== own) return NOT;
  const files = configFiles(common, own, env);
  return { linked: true, plainConfig: files !== null && CONTEXT_VARIABLES.every((v) => env[v] === undefined) && files.every(plainConfig) };
}

/** The system file's places by install: Debian and most Linux, Homebrew (Apple silicon, Intel), macOS's own. */
const SYSTEM_FILES = ['/etc/gitconfig', '/opt/homebrew/etc/gitconfig', '/usr/local/etc/gitconfig', '/private/etc/gitconfig'];

/** The files git reads configuration from for this worktree, system to local; null where they cannot be located (Windows). */
function configFiles(common: string, own: string, env: Env): string[] | null {
  if (process.platform === 'win32') return null;
  const home = env.HOME || homedir();
  const xdg = env.XDG_CONFIG_HOME || join(home, '.config');
  const files = [join(xdg, 'git', 'config'), join(home, '.gitconfig'), join(common, 'config'), join(own, 'config.worktree')];
  return gitBoolean(env.GIT_CONFIG_NOSYSTEM) ? files : [...SYSTEM_FILES, ...files];
}

/** A variable git reads as a boolean: unset or empty is false; `0`, `false`, `no`, `off` are false. */
function gitBoolean(value: string | undefined): boolean {
  return value !== undefined && value !== '' && !FALSE_WORDS.test(value.trim());
}

const FALSE_WORDS = /^(?:false|no|off|0+)$/i;

/**
 * Whether a configuration file is plain, read to fail closed: git's own grammar has comments
 * after `;` and `#` anywhere outside quotes, values continued over a backslash, any integer as a
 * boolean, quoted subsections with escapes. So: any mention of an include, a line continued, a
 * header that does not read simply, a `worktree` key, or a `recurse` setting whose value is not
 * plainly false makes it not plain. A missing file is plain; one that is not a regular file, or
 * cannot be read, is not.
 */
export function plainConfig(path: string): boolean {
  const kind = entryKind(path);
  if (kind === null) return existsNot(path);
  if (kind !== 'file') return false;
  const text = readFile(path);
  if (text === null) return false;
  if (/include/i.test(text) || /\\\r?$/m.test(text)) return false;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    if (line.startsWith('[') && !/^\[[A-Za-z0-9.-]+(?:\s+"[^"\\]*")?\]$/.test(line.replace(/\s*[#;].*$/, ''))) return false;
    const kv = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*(.*))?$/.exec(line);
    if (!kv) continue;
    const key = kv[1]!.toLowerCase();
    if (key === 'worktree') return false;
    if (key === 'recurse' && !FALSE_WORDS.test((kv[2] ?? '').replace(/^"|"$/g, '').trim())) return false;
  }
  return true;
}

function existsNot(path: string): boolean {
  try {
    statSync(path);
    return false;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR';
  }
}

/** A regular file's text (never a FIFO or a device, which could block the hook), or null. */
function readFile(path: string): string | null {
  if (entryKind(path) !== 'file') return null;
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

function realOrNull(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}
