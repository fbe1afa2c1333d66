// An agent's store inside the working tree: a `.codex`, `.claude` or `.gemini` folder of the project
// that holds the agent's logins or transcripts, because the agent was started with its home there
// (`CODEX_HOME=$PWD/.codex`, `CLAUDE_CONFIG_DIR=./.claude`). A project's `.claude/` or `.gemini/`
// usually holds settings and commands meant to be shared, so a folder counts as a store only when
// the session showed what is in it: a read of a store file under it (`.codex/auth.json`,
// `.codex/sessions/…`), a listing of it that shows one, or the agent's home variable set to it.
import { samePath } from '../paths.ts';
import type { SessionFacts } from './types.ts';
import { locate, type FileOp, type Located } from './effects.ts';

type Agent = 'codex' | 'claude' | 'gemini';

// The files and folders of each agent's home that hold logins or transcripts.
const STORE_ENTRY: Record<Agent, RegExp> = {
  codex: /^(?:auth\.json|sessions|archived_sessions|history\.jsonl)$/,
  claude: /^(?:\.credentials\.json|projects|history\.jsonl)$/,
  gemini: /^(?:oauth_creds\.json|google_accounts\.json|tmp)$/,
};
// The variables that move an agent's home.
const HOME_VARIABLE: Record<string, Agent> = { CODEX_HOME: 'codex', CLAUDE_CONFIG_DIR: 'claude', GEMINI_CLI_HOME: 'gemini' };
const MAX_STORES = 20;

// `$PWD/` and `${PWD}/` are expanded by resolvePath (via locate); the command forms are not.
const PWD_PREFIX = /^(?:\$\(pwd\)|`pwd`)\//;

/** Project folders the session showed to be an agent's home, by absolute path. */
export class ProjectAgentStores {
  private readonly dirs = new Set<string>();
  /** Single store entries copied into the tree (`cp -r ~/.codex/sessions ./`): everything under them counts. */
  private readonly entries = new Set<string>();

  constructor(private readonly session: SessionFacts) {}

  /** `CODEX_HOME=./.codex codex …`, `export CODEX_HOME=$PWD/.codex`: the folder is that agent's home. */
  onCommand(loc: Located): void {
    const words = loc.cmd.name === 'export' ? [...loc.cmd.assignments, ...loc.cmd.args] : loc.cmd.assignments;
    for (const word of words) {
      const eq = word.indexOf('=');
      if (eq <= 0 || !(word.slice(0, eq) in HOME_VARIABLE)) continue;
      this.addFolder(word.slice(eq + 1), loc.dir);
    }
  }

  /**
   * A call that ran (the caller passes only results that were not refused or failed): a read of a
   * store entry under a project agent folder (`cat .codex/auth.json`, a Read tool), or a listing
   * of one folder that shows one. A name in a command or an output proves nothing by itself (an
   * existence test that found nothing, a grep of source code, an ignore entry).
   */
  onResult(reads: readonly FileOp[], locs: readonly Located[], output: string): void {
    for (const r of reads) {
      const store = storeFolderOf(r.abs);
      if (store !== null) this.addFolder(store, null);
    }
    if (output.trim() === '') return;
    for (const loc of locs) this.listing(loc, output);
  }

  /**
   * Whether `abs` (what `git add` was given) is such a folder or something under one, or a store
   * entry named outright (`git add .codex/auth.json`, a transcript by its path).
   */
  holds(abs: string): boolean {
    const n = samePath(abs);
    if (storeFolderOf(n) !== null) return true;
    for (const d of this.dirs) if (n === d || n.startsWith(d + '/')) return true;
    return false;
  }

  /**
   * Whether `abs` is a login or transcript under such a folder (`.codex-home/auth.json`,
   * `.codex/sessions/…`): what a commit's listing shows going in. Settings beside them are not.
   */
  holdsEntry(abs: string): boolean {
    const n = samePath(abs);
    for (const e of this.entries) if (n === e || n.startsWith(e + '/')) return true;
    for (const d of this.dirs) {
      if (!n.startsWith(d + '/')) continue;
      const first = n.slice(d.length + 1).split('/')[0] ?? '';
      if (Object.values(STORE_ENTRY).some((re) => re.test(first))) return true;
    }
    return false;
  }

  /** A folder of the tree the session filled with a copy of an agent's store (`cp -a ~/.codex/. .codex-home/`). */
  addCopy(abs: string, entry = false): void {
    const set = entry ? this.entries : this.dirs;
    if (set.size < MAX_STORES) set.add(samePath(abs));
  }

  /** `ls -la .codex` (one folder) whose output shows a store entry; `ls .codex/sessions/2025` that lists anything. */
  private listing(loc: Located, output: string): void {
    if (loc.cmd.name !== 'ls' && loc.cmd.name !== 'dir') return;
    const operands = loc.cmd.args.filter((a) => !a.startsWith('-'));
    // several folders listed together: which one holds what cannot be told line by line
    if (operands.length !== 1) return;
    const arg = operands[0]!.replace(PWD_PREFIX, './').replace(/\/+$/, '');
    const under = storeFolderOf(arg);
    if (under !== null) return this.addFolder(under, loc.dir);
    const agent = agentOf(arg);
    if (!agent) return;
    const shows = output.split('\n', 500).some((line) => STORE_ENTRY[agent].test(line.trim().split(/\s+/).pop()?.replace(/\/$/, '') ?? ''));
    if (shows) this.addFolder(arg, loc.dir);
  }

  private addFolder(path: string, dir: string | null): void {
    const folder = path.replace(PWD_PREFIX, './').replace(/\/+$/, '');
    if (this.dirs.size >= MAX_STORES || !agentOf(folder)) return;
    const where = locate(folder, dir, this.session);
    // An agent folder at home is the home store (HOME_AGENT_STORE); this is the project's.
    if (where.zone === 'worktree') this.dirs.add(where.abs.replace(/\/+$/, ''));
  }
}

/** The agent folder a path names a store entry under (`…/.codex` of `…/.codex/sessions/2025/x.jsonl`), or null. */
function storeFolderOf(path: string): string | null {
  const m = /^(.*?(?:^|\/)\.(codex|claude|gemini))\/([^/]+)(?:\/|$)/.exec(path);
  return m && STORE_ENTRY[m[2] as Agent].test(m[3]!) ? m[1]! : null;
}

/** The agent whose home a folder's name says it is (`…/.codex`), or null. */
function agentOf(path: string): Agent | null {
  const m = /(?:^|\/)\.(codex|claude|gemini)$/.exec(path);
  return m ? (m[1] as Agent) : null;
}
