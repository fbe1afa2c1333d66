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

/** A `.git` file: a linked worktree when it names `<repo>/.git/worktrees/<name>` (a submodule names `.git/modules/…`). */
function linkedFacts(top: string, dotGit: string, env: Env): WorktreeFacts {
  const gitdir = /^gitdir:\s*(.+?)\s*$/m.exec(readOrNull(dotGit) ?? '')?.[1];
  if (!gitdir) return { linked: false, plainConfig: false };
  const own = resolve(top, gitdir);
  const commondir = readOrNull(join(own, 'commondir'))?.trim();
  if (basename(dirname(own)) !== 'worktrees' || !commondir) return { linked: false, plainConfig: false };
  const common = resolve(own, commondir);
  return { linked: true, plainConfig: CONTEXT_VARIABLES.every((v) => env[v] === undefined) && configFiles(common, own, env).every(plainConfig) };
}

/** The files git reads configuration from for this worktree, system to local. */
function configFiles(common: string, own: string, env: Env): string[] {
  const home = env.HOME ?? homedir();
  const xdg = env.XDG_CONFIG_HOME ?? join(home, '.config');
  const files = [join(xdg, 'git', 'config'), join(home, '.gitconfig'), join(common, 'config'), join(own, 'config.worktree')];
  return env.GIT_CONFIG_NOSYSTEM ? files : ['/etc/gitconfig', ...files];
}

const TRUE_WORDS = /^(?:true|yes|on|1|)$/i;

/** No include, no submodule.recurse that is on, no core.worktree; a missing file is plain, an unreadable one is not. */
export function plainConfig(path: string): boolean {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' || (e as NodeJS.ErrnoException).code === 'ENOTDIR';
  }
  let section = '';
  for (const raw of text.split('\n')) {
    const line = raw.replace(/(^|\s)[#;].*$/, '').trim();
    const header = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"[^"]*")?\s*\]\s*(.*)$/.exec(line);
    const body = header ? header[2] : line;
    if (header) section = header[1].toLowerCase();
    if (section === 'include' || section === 'includeif') return false;
    const kv = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*"?([^"]*)"?)?$/.exec(body);
    if (!kv) continue;
    const key = `${section}.${kv[1].toLowerCase()}`;
    if (key === 'submodule.recurse' && TRUE_WORDS.test((kv[2] ?? '').trim())) return false;
    if (key === 'core.worktree') return false;
  }
  return true;
}

function readOrNull(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}
