// Files a `git status` showed untracked. A later `git add -A` (or `git add .`, or of a folder that
// holds them) names none of them, yet stages every one: what the listing showed is what went in.
// Only untracked files are kept (`?? path`, or the long format's "Untracked files:" section): they
// are the ones a commit adds to the repository; a tracked file is in its history already.
import { gitSubcommand, parseArgs } from './commands.ts';
import { locate, type Located } from './effects.ts';
import type { SessionFacts } from './types.ts';

/** One listed file: as git printed it, and where it is. */
export interface ListedFile {
  path: string;
  abs: string;
}

const MAX_LISTED = 500;
const SHORT_UNTRACKED = /^\?\? (.+)$/gm;
// The long format's section: a header, git's hints in parentheses, then one tab-indented path per line.
const LONG_SECTION = /^Untracked files:\n(?:[ \t]+\(use [^\n]*\n)*((?:\t[^\n]+\n?)+)/gm;

export class UntrackedListing {
  private listed: ListedFile[] = [];

  constructor(private readonly session: SessionFacts) {}

  /** A call that ran: when one of its commands is `git status`, its output is the newest listing. */
  onResult(commands: readonly Located[], output: string): void {
    const status = commands.find((l) => gitSubcommand(l.cmd)?.sub === 'status');
    if (!status) return;
    const text = output.length > 500_000 ? output.slice(0, 500_000) : output;
    const paths = [...text.matchAll(SHORT_UNTRACKED)].map((m) => m[1]!);
    for (const m of text.matchAll(LONG_SECTION)) for (const line of m[1]!.split('\n')) if (line.startsWith('\t')) paths.push(line.slice(1));
    this.listed = paths.slice(0, MAX_LISTED).map((p) => unquoted(p.trim())).filter((p) => p !== '').map((path) => ({ path, abs: locate(path, status.dir, this.session).abs }));
  }

  /** An ignore file changed: what a later add takes can no longer be told from the listing. */
  forget(): void {
    this.listed = [];
  }

  /**
   * The listed files that `git add` stages: all of them for `-A`, `--all` or `:/` (the
   * whole tree, those it names or that lie under a folder it names, none when it only updates
   * tracked ones (`-u`) or only shows what it would do (`-n`).
   */
  stagedBy(add: Located): ListedFile[] {
    const git = gitSubcommand(add.cmd);
    if (git?.sub !== 'add' || this.listed.length === 0) return [];
    const { short, long, operands } = parseArgs(git.args);
    if (short.has('u') || long.has('--update') || short.has('n') || long.has('--dry-run')) return [];
    // `-A` without a path, and `:/`, take the whole working tree
    if (operands.length === 0) return short.has('A') || long.has('--all') ? [...this.listed] : [];
    if (operands.some((o) => o === ':/' || o === ':')) return [...this.listed];
    const dirs = operands.map((o) => locate(o, add.dir, this.session).abs.replace(/\/+$/, ''));
    return this.listed.filter((f) => dirs.some((d) => f.abs === d || f.abs.startsWith(d + '/')));
  }
}

/** git quotes a path with unusual characters: `"dir with space/x"`. */
function unquoted(path: string): string {
  return path.length > 1 && path.startsWith('"') && path.endsWith('"') ? path.slice(1, -1) : path;
}
