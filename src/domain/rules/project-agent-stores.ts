// An agent's store inside the working tree: a `.codex`, `.claude` or `.gemini` folder of the project
// that holds the agent's logins or transcripts, because the agent was started with its home there
// (`CODEX_HOME=$PWD/.codex`, `CLAUDE_CONFIG_DIR=./.claude`). A project's `.claude/` or `.gemini/`
// usually holds settings and commands meant to be shared, so a folder counts as a store only when
// the session showed what is in it: a store file named under it (`.codex/auth.json`,
// `.codex/sessions/…`), a listing of it that shows one, or the agent's home variable set to it.
import type { ToolCallEvent } from '../model/events.ts';
import type { SessionFacts } from './types.ts';
import { locate, type Located } from './effects.ts';

type Agent = 'codex' | 'claude' | 'gemini';

// The files and folders of each agent's home that hold logins or transcripts.
const STORE_ENTRY: Record<Agent, RegExp> = {
  codex: /^(?:auth\.json|sessions|archived_sessions|history\.jsonl)$/,
  claude: /^(?:\.credentials\.json|projects|history\.jsonl)$/,
  gemini: /^(?:oauth_creds\.json|google_accounts\.json|tmp)$/,
};
// A store entry named under an agent folder, anywhere in a text: `…/.codex/auth.json`, `.codex/sessions/2025/…`.
const NAMED_ENTRY = /(^|[\s'"`(=:])((?:[\w.~$@{}-]*\/)*\.(codex|claude|gemini))\/(auth\.json|\.credentials\.json|oauth_creds\.json|google_accounts\.json|history\.jsonl|(?:archived_)?sessions\/|projects\/|tmp\/)/g;
// The variables that move an agent's home.
const HOME_VARIABLE: Record<string, Agent> = { CODEX_HOME: 'codex', CLAUDE_CONFIG_DIR: 'claude', GEMINI_CLI_HOME: 'gemini' };
const MAX_STORES = 20;

/** Project folders the session showed to be an agent's home, by absolute path. */
export class ProjectAgentStores {
  private readonly dirs = new Set<string>();

  constructor(private readonly session: SessionFacts) {}

  /** `CODEX_HOME=./.codex codex …`, `export CODEX_HOME=$PWD/.codex`: the folder is that agent's home. */
  onCommand(loc: Located): void {
    const words = loc.cmd.name === 'export' ? [...loc.cmd.assignments, ...loc.cmd.args] : loc.cmd.assignments;
    for (const word of words) {
      const eq = word.indexOf('=');
      if (eq <= 0 || !(word.slice(0, eq) in HOME_VARIABLE)) continue;
      this.addIfProject(word.slice(eq + 1).replace(/^(?:\$PWD|\$\{PWD\}|\$\(pwd\)|`pwd`)\//, './'), loc.dir);
    }
  }

  /**
   * The result of a call that ran: store entries its command or output named under a project agent
   * folder (not from a call that failed: "No such file: .codex/auth.json" shows nothing), or a
   * listing of such a folder that shows one.
   */
  onResult(call: ToolCallEvent, output: string, locs: readonly Located[]): void {
    const dir = locs[0]?.dir ?? this.session.cwd;
    const text = output.length > 200_000 ? output.slice(0, 200_000) : output;
    for (const source of [text, call.input.type === 'command' ? call.input.command : '']) {
      if (!source.includes('/.') && !source.startsWith('.')) continue;
      for (const m of source.matchAll(NAMED_ENTRY)) this.addIfProject(m[2], dir);
    }
    for (const loc of locs) this.listing(loc, text);
  }

  /**
   * Whether `abs` (what `git add` was given) is such a folder or a store entry inside one; a store
   * entry named outright (`git add .codex/auth.json`) is one by its name.
   */
  holds(abs: string): boolean {
    const n = abs.replace(/\/+$/, '');
    if (this.dirs.has(n)) return true;
    const slash = n.lastIndexOf('/');
    const agent = agentOf(n.slice(0, slash));
    return agent !== null && STORE_ENTRY[agent].test(n.slice(slash + 1));
  }

  /** `ls -la .codex` whose output shows a store entry. */
  private listing(loc: Located, output: string): void {
    if (loc.cmd.name !== 'ls' && loc.cmd.name !== 'dir') return;
    for (const arg of loc.cmd.args) {
      const agent = agentOf(arg.replace(/\/+$/, ''));
      if (!agent) continue;
      const shows = output.split('\n', 500).some((line) => STORE_ENTRY[agent].test(line.trim().split(/\s+/).pop()?.replace(/\/$/, '') ?? ''));
      if (shows) this.addIfProject(arg, loc.dir);
    }
  }

  private addIfProject(path: string, dir: string | null): void {
    if (this.dirs.size >= MAX_STORES || !agentOf(path.replace(/\/+$/, ''))) return;
    const where = locate(path, dir, this.session);
    // An agent folder at home is the home store (HOME_AGENT_STORE); this is the project's.
    if (where.zone === 'worktree') this.dirs.add(where.abs.replace(/\/+$/, ''));
  }
}

/** The agent whose home a folder's name says it is (`…/.codex`), or null. */
function agentOf(path: string): Agent | null {
  const m = /(?:^|\/)\.(codex|claude|gemini)$/.exec(path);
  return m ? (m[1] as Agent) : null;
}
