// Files a `git status` showed untracked. A later `git add -A` (or `git add .`, or of a folder that
// holds them) names none of them, yet stages every one: what the listing showed is what went in.
// Only untracked files are kept (`?? path`, or the long format's "Untracked files:" section): they
// are the ones a commit adds to the repository; a tracked file is in its history already. The
// listing belongs to the folder it was taken in, and files the session removed since, or a change
// to what git ignores, take it back.
import { gitSubcommand, optionValues, parseArgs } from './commands.ts';
import { locate, type Effects, type Located } from './effects.ts';
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
// Files staged as new (not in any commit yet): the short format's `A ` column, the long format's
// "new file:" lines under "Changes to be committed:". The next commit takes them, whatever `git add` put them there.
const SHORT_ADDED = /^A[ MD] (.+)$/gm;
const LONG_STAGED = /^Changes to be committed:\n(?:[ \t]+\(use [^\n]*\n)*((?:\t[^\n]+\n?)+)/gm;
const NEW_FILE = /^\tnew file:[ \t]+(.+)$/;
// Beside `git status` in one call, only commands whose output cannot look like its lines: quiet
// ones, filters of the status itself (`| head -50`), and git commands that print no file's text
// (`git log --oneline`, `git diff --stat`).
const QUIET = new Set(['cd', 'echo', 'printf', 'pwd', 'true']);
const FILTERS = new Set(['head', 'tail', 'sort', 'uniq']);
const GIT_PRINTS_FILES = new Set(['show', 'blame', 'grep', 'cat-file', 'format-patch']);
const DIFF_SUMMARY = /^--(?:stat|shortstat|numstat|name-only|name-status|summary)\b/;
const IGNORE_FILE = /(?:^|\/)(?:\.gitignore|\.git\/info\/exclude)$/;

export class UntrackedListing {
  private listed: ListedFile[] = [];
  /** The files the newest listing showed staged as new. */
  private added: ListedFile[] = [];
  /** The folder the listing was taken in. */
  private root = '';

  constructor(private readonly session: SessionFacts) {}

  /** A call that ran: when it is a `git status` (beside quiet commands only), its output is the newest listing (true). */
  onResult(commands: readonly Located[], output: string): boolean {
    const status = commands.find((l) => gitSubcommand(l.cmd)?.sub === 'status');
    if (!status || !commands.every(printsNoFile)) return false;
    const text = output.length > 500_000 ? output.slice(0, 500_000) : output;
    const paths = [...text.matchAll(SHORT_UNTRACKED)].map((m) => m[1]!);
    for (const m of text.matchAll(LONG_SECTION)) for (const line of m[1]!.split('\n')) if (line.startsWith('\t')) paths.push(line.slice(1));
    this.root = this.folderOf(status);
    const at = (list: string[]) => list.slice(0, MAX_LISTED).map((p) => unquoted(p.trim())).filter((p) => p !== '').map((path) => ({ path, abs: locate(path, this.root, this.session).abs }));
    this.listed = at(paths);
    this.added = at(stagedNew(text));
    return true;
  }

  /** The files the newest `git status` showed staged as new: the next commit takes them. */
  stagedNewFiles(): readonly ListedFile[] {
    return this.added;
  }

  /** The harness's own listing of untracked files, relative to the working directory (Codex's undo snapshot). */
  onSnapshot(paths: readonly string[]): void {
    this.root = this.session.cwd ?? '';
    this.listed = paths.slice(0, MAX_LISTED).map((path) => ({ path, abs: locate(path, this.root, this.session).abs }));
  }

  /** The files the newest listing showed untracked that are still there to stage. */
  files(): readonly ListedFile[] {
    return this.listed;
  }

  /**
   * A call: files it deleted or moved are no longer there to stage; a change to what git ignores,
   * `git clean` or `git stash` (which may take untracked files) leave the listing unknown.
   */
  onCall(fx: Effects): void {
    if (this.listed.length === 0) return;
    if (fx.writes.some((w) => IGNORE_FILE.test(w.abs)) || fx.commands.some(takesUntracked)) {
      this.listed = [];
      return;
    }
    for (const d of fx.deletes) this.listed = this.listed.filter((f) => f.abs !== d.abs && !f.abs.startsWith(d.abs.replace(/\/+$/, '') + '/'));
  }

  /**
   * The listed files that `git add` stages, in the listing's own repository: all of them for `-A`,
   * `--all` or `:/` (the whole tree), those it names or that lie under a folder it names; none
   * when it only updates tracked files (`-u`) or only shows what it would do (`-n`).
   */
  stagedBy(add: Located): ListedFile[] {
    const git = gitSubcommand(add.cmd);
    if (git?.sub !== 'add' || this.listed.length === 0) return [];
    const here = this.folderOf(add);
    if (!(here === this.root || here.startsWith(this.root + '/') || this.root.startsWith(here + '/'))) return [];
    const { short, long, operands } = parseArgs(git.args);
    if (short.has('u') || long.has('--update') || short.has('n') || long.has('--dry-run')) return [];
    // `-A` without a path, and `:/`, take the whole working tree
    if (operands.length === 0) return short.has('A') || long.has('--all') ? [...this.listed] : [];
    if (operands.some((o) => o === ':/' || o === ':')) return [...this.listed];
    const dirs = operands.map((o) => locate(o, here, this.session).abs.replace(/\/+$/, ''));
    return this.listed.filter((f) => dirs.some((d) => f.abs === d || f.abs.startsWith(d + '/')));
  }

  /** Where a git command runs: its `-C` folder, else the folder its shell was in. */
  private folderOf(loc: Located): string {
    const dir = loc.dir ?? this.session.cwd ?? '';
    const named = optionValues(loc.cmd.args, ['-C'])[0];
    return (named !== undefined ? locate(named, dir, this.session).abs : dir).replace(/\/+$/, '');
  }
}

/** A command beside `git status` whose output cannot hold a line that looks like the listing's. */
function printsNoFile(l: Located): boolean {
  const { name, args } = l.cmd;
  if (QUIET.has(name)) return true;
  // a filter of the status output, not a reader of a file
  if (FILTERS.has(name)) return l.cmd.pipeIndex > 0 && args.every((a) => a.startsWith('-') || /^\d+$/.test(a));
  const git = gitSubcommand(l.cmd);
  if (name !== 'git' || !git) return false;
  if (git.sub === 'diff' || git.sub === 'log') return git.sub === 'log' ? !git.args.some((a) => a === '-p' || a === '--patch') : git.args.some((a) => DIFF_SUMMARY.test(a));
  return !GIT_PRINTS_FILES.has(git.sub);
}

/** `git clean` (not a dry run), `git stash` that may take untracked files (not list/show). */
function takesUntracked(l: Located): boolean {
  const git = gitSubcommand(l.cmd);
  if (git?.sub === 'clean') return !git.args.some((a) => a === '-n' || a === '--dry-run' || /^-\w*n/.test(a));
  if (git?.sub === 'stash') return !['list', 'show'].includes(git.args.find((a) => !a.startsWith('-')) ?? '');
  return false;
}

/** The paths a status output shows staged as new files (short or long format). */
export function stagedNew(text: string): string[] {
  const paths = [...text.matchAll(SHORT_ADDED)].map((m) => m[1]!);
  for (const m of text.matchAll(LONG_STAGED)) for (const line of m[1]!.split('\n')) {
    const file = NEW_FILE.exec(line);
    if (file) paths.push(file[1]!);
  }
  return paths;
}

/** git quotes a path with unusual characters: `"dir with space/x"`. */
function unquoted(path: string): string {
  return path.length > 1 && path.startsWith('"') && path.endsWith('"') ? path.slice(1, -1) : path;
}
