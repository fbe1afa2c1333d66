// Whose changes are in the working tree: the files the agent itself wrote this session, the
// files git showed as modified before the agent touched them (changes someone made before the
// session), and whether the agent ran commands that change files nobody can list from the log
// (installs, formatters, scripts). A rule that judges a discard asks here whether it threw away
// the agent's own work or someone else's.
import type { NormEvent, ToolResultEvent } from '../model/events.ts';
import type { SimpleCommand } from '../shell/types.ts';
import type { EventFacts, SessionFacts } from './types.ts';
import { effectsOf, locate, type FileOp, type Located } from './effects.ts';
import { gitSubcommand, parseArgs } from './commands.ts';
import { addCapped, setCapped } from './util.ts';
import { RUN_START } from '../model/runs.ts';

const FILES_MAX = 5_000;
/** Calls still waiting for their result: the oldest goes past this many. */
const PENDING_MAX = 100;

/** Package managers' subcommands that rewrite manifests and lockfiles. */
const INSTALLS: Record<string, RegExp> = {
  npm: /^(i|install|ci|add|uninstall|remove|rm|un|update|up|upgrade|dedupe|audit|pkg|init|version)$/,
  pnpm: /^(i|install|add|remove|rm|un|uninstall|update|up|upgrade|dedupe|import)$/,
  yarn: /^(install|add|remove|upgrade|up|dedupe|import)$/,
  bun: /^(i|install|add|remove|rm|update|upgrade)$/,
  pip: /^(install|uninstall)$/,
  pip3: /^(install|uninstall)$/,
  uv: /^(add|remove|lock|sync|pip|init)$/,
  poetry: /^(add|remove|lock|install|update|init)$/,
  cargo: /^(add|remove|rm|update|build|b|check|c|fix|fmt|clippy|generate-lockfile|init|new)$/,
  go: /^(get|mod|fmt|generate|work)$/,
  bundle: /^(install|add|update|lock|remove)$/,
  composer: /^(install|require|remove|update)$/,
  gem: /^(install)$/,
  dotnet: /^(add|remove|restore|build|format|new)$/,
  mix: /^(deps\.get|deps\.update|format)$/,
  swift: /^(package|build)$/,
};
/** Tools that rewrite the files they are given (or the whole tree) when asked to fix or format. */
const FORMATTERS = /^(prettier|eslint|biome|black|isort|ruff|autopep8|yapf|gofmt|goimports|rustfmt|clang-format|dprint|stylelint|rubocop|standardrb|swiftformat|ktlint|terraform|shfmt|php-cs-fixer|pre-commit|lint-staged|husky)$/;
/** Git commands that change working-tree files wholesale (their content is not in the log). */
const GIT_REWRITES = /^(pull|merge|rebase|cherry-pick|revert|am|apply|stash|checkout|switch|reset|restore|submodule|subtree)$/;
/** Programs that run code which may write anything: scripts, task runners, generators. */
const RUNNERS = /^(make|just|task|rake|gradle|gradlew|mvn|bazel|cmake|ninja|meson|npx|bunx|pnpx|deno|tsx|ts-node|protoc|buf|sqlc|openapi-generator|prisma|alembic|sh|bash|zsh|python\d*(\.\d+)?|node|ruby|perl|php|patch)$/;

/** A command whose file changes the log cannot list. */
export function writesUnlistedFiles(cmd: SimpleCommand): boolean {
  const { name, args } = cmd;
  const first = args.find((a) => !a.startsWith('-')) ?? '';
  if (Object.hasOwn(INSTALLS, name)) return INSTALLS[name].test(first);
  if ((name === 'npm' || name === 'pnpm' || name === 'yarn' || name === 'bun') && /^(run|run-script|exec|x|dlx)$/.test(first)) return true;
  if (name === 'yarn' && first === '') return true; // bare `yarn` installs
  if (FORMATTERS.test(name)) return true;
  if (RUNNERS.test(name) || name.startsWith('./') || /\.(sh|py|js|mjs|ts|rb|pl)$/.test(name)) return true;
  const git = gitSubcommand(cmd);
  if (!git || !GIT_REWRITES.test(git.sub)) return false;
  // Restoring named files changes just those files, which the restore itself names.
  return !(git.sub === 'restore' || (git.sub === 'checkout' && git.args.includes('--')));
}

/** Paths `git status` (short or long form) or a worktree `git diff` lists as changed. */
export function changedPathsIn(output: string, cmd: SimpleCommand): string[] {
  const git = gitSubcommand(cmd);
  if (!git) return [];
  const out: string[] = [];
  if (git.sub === 'status') {
    for (const line of output.split('\n').slice(0, 2_000)) {
      const short = /^[ MADRCU?!][MADRCU ] (?:.+ -> )?(.+)$/.exec(line);
      const long = /^\t(?:modified|deleted|both modified|typechange):\s+(.+)$/.exec(line);
      const path = short?.[1] ?? long?.[1];
      if (path && !/^\?\?/.test(line)) out.push(path.trim().replace(/^"(.*)"$/, '$1'));
    }
  } else if (git.sub === 'diff') {
    // Only a diff of the working tree against the index or HEAD shows uncommitted changes.
    const { operands } = parseArgs(git.args.slice(0, git.args.includes('--') ? git.args.indexOf('--') : undefined));
    if (operands.length > 0 && !(operands.length === 1 && operands[0] === 'HEAD')) return [];
    if (git.args.some((a) => a === '--cached' || a === '--staged')) return [];
    for (const m of output.slice(0, 2_000_000).matchAll(/^diff --git a\/(\S+) b\//gm)) out.push(m[1]);
  }
  return out;
}

/** Paths `git status` shows deleted from the working tree (` D`, `D `, "deleted:"): restoring one brings the committed file back and loses no text. */
export function deletedPathsIn(output: string, cmd: SimpleCommand): string[] {
  if (gitSubcommand(cmd)?.sub !== 'status') return [];
  const out: string[] = [];
  for (const line of output.split('\n').slice(0, 2_000)) {
    const m = /^(?: D|D ) (.+)$/.exec(line) ?? /^\tdeleted:\s+(.+)$/.exec(line);
    if (m) out.push(m[1].trim().replace(/^"(.*)"$/, '$1'));
  }
  return out;
}

/** git's id of the empty file: a change to it empties the file. */
const EMPTY_BLOB = /^index [0-9a-f]{7,40}\.\.e69de29(?:bb2d1d6434b8b29ae775ad8c2e48c5391)?\b/;

/**
 * Files a `git diff` showed with lines taken out and none put in (emptied, or cut down): putting
 * them back as committed loses no text anyone wrote. Read per file section (`diff --git a/… b/…`).
 */
export function emptiedPathsIn(output: string, cmd: SimpleCommand): string[] {
  const git = gitSubcommand(cmd);
  if (git?.sub !== 'diff' || !output.includes('diff --git ')) return [];
  // Only the working tree against the index or HEAD: not staged changes, not two revisions.
  if (git.args.some((a) => a === '--cached' || a === '--staged')) return [];
  const sections = [...output.slice(0, 2_000_000).matchAll(/^diff --git a\/(.+) b\/(.+)$/gm)].map((m) => m[2]!.trim());
  const { operands } = parseArgs(git.args.slice(0, git.args.includes('--') ? git.args.indexOf('--') : undefined));
  if (!operands.every((o) => o === 'HEAD' || o === 'diff' || sections.includes(o.replace(/^\.\//, '')))) return [];
  const out: string[] = [];
  let file: string | null = null;
  let inHunk = false;
  let added = 0;
  let removed = 0;
  let emptied = false;
  const close = () => {
    if (file !== null && added === 0 && (removed > 0 || emptied)) out.push(file);
  };
  for (const line of output.split('\n').slice(0, 20_000)) {
    const head = /^diff --git a\/(.+) b\/(.+)$/.exec(line);
    if (head) {
      close();
      file = head[2]!.trim();
      inHunk = false;
      added = removed = 0;
      emptied = false;
    } else if (file === null) continue;
    else if (line.startsWith('@@')) inHunk = true;
    // before the first hunk: the section's header lines (index, ---, +++)
    else if (!inHunk) emptied ||= EMPTY_BLOB.test(line);
    else if (line.startsWith('+')) added++;
    else if (line.startsWith('-')) removed++;
  }
  close();
  return out;
}

/** Words a tool prints when a path it was given is not there. */
const ABSENT_HINT = /No such file or directory|ENOENT|[Ff]ile does not exist|does not exist\./;
/**
 * The path a line says is not there: `cat: src/a.ts: No such file or directory`, `ls: cannot
 * access 'a'`, `sed: can't read a`, Node's `ENOENT: no such file or directory, open '/x/a'`,
 * Python's `[Errno 2] No such file or directory: 'a'`, `error: File a.ts does not exist.`.
 */
const ABSENT_LINE = [
  /ENOENT: no such file or directory, \w+ '([^'\n]{1,1024})'/,
  /No such file or directory: '([^'\n]{1,1024})'/,
  /(?:cannot access|can't read|cannot open|can't open|cannot stat) '?([^'\n:]{1,1024}?)'?: No such file or directory/,
  /^[\w.-]+: ([^\s':]{1,1024}): No such file or directory/,
  /\b(?:[Ff]ile|[Pp]ath) ['"`]?([^\s'"`]{1,1024}?)['"`]? does not exist\b/,
];

/**
 * Paths a tool's output says are not there. Lines naming two paths (`copyfile 'a' -> 'b'`) are
 * left out: which of the two is missing cannot be told.
 */
export function absentPathsIn(output: string): string[] {
  const text = output.length > 100_000 ? output.slice(0, 100_000) : output;
  if (!ABSENT_HINT.test(text)) return [];
  const out: string[] = [];
  for (const line of text.split('\n').slice(0, 2_000)) {
    if (!ABSENT_HINT.test(line) || line.includes(' -> ')) continue;
    for (const re of ABSENT_LINE) {
      const m = re.exec(line);
      if (m) {
        out.push(m[1].trim());
        break;
      }
    }
  }
  return out;
}

/** Programs that run their arguments somewhere else: what they print is about another machine or container. */
const ELSEWHERE = new Set(['ssh', 'docker', 'podman', 'kubectl', 'oc', 'lxc', 'vagrant', 'gcloud', 'az', 'aws']);

/** Programs whose output is other files' or pages' text: an error line in it can be quoted from anywhere. */
const CONTENT_READERS = new Set(['cat', 'head', 'tail', 'less', 'more', 'grep', 'egrep', 'fgrep', 'rg', 'ag', 'ack', 'awk', 'sed', 'jq', 'bat', 'type', 'get-content', 'gc', 'curl', 'wget', 'journalctl', 'find', 'git', 'gh', 'zcat', 'xxd', 'strings']);

export class WorkLog {
  /** Files the agent wrote, edited or deleted (absolute). */
  readonly touched = new Set<string>();
  /** Files git showed as modified before the agent touched them. */
  readonly dirtyBefore = new Set<string>();
  /** Files git showed deleted (and the agent did not delete): a restore of them loses nothing. */
  readonly missing = new Set<string>();
  /**
   * Files git showed in a merge conflict (`CONFLICT (…): Merge conflict in f`, `both modified: f`,
   * `UU f`) until the merge ends: what such a file holds is both sides' committed text, so taking
   * one side back (`git checkout HEAD -- f`, `--theirs`) loses nothing git does not keep.
   */
  readonly conflicted = new Set<string>();
  /** Calls that ran git, by id, with the folder each ran in (their output may report conflicts). */
  private readonly gitCalls = new Map<string, string | null>();
  /** Calls that end a merge (a commit, a reset, `--abort`/`--continue`), until their result says they ran. */
  private readonly ending = new Set<string>();
  /** The agent ran a command that changes files the log does not list. */
  unlisted = false;
  private readonly calls = new Map<string, { cmd: SimpleCommand; dir: string | null }[]>();
  /** Each recent call's local commands (their paths are read only if its result reports one missing), and the file each recent read asked for. */
  private readonly local = new Map<string, readonly Located[]>();
  private readonly reads = new Map<string, FileOp>();

  constructor(private readonly session: SessionFacts) {}

  /** Record what the event shows; call after the rule judged it. */
  onEvent(event: NormEvent, facts: EventFacts): void {
    // A new run in the same file (the agent quit and was started again) begins with the tree as
    // the earlier run left it: what that run wrote is now work the new run found, not its own.
    if (event.kind === 'system' && event.subtype === RUN_START) {
      this.touched.clear();
      this.missing.clear();
      this.unlisted = false;
      return;
    }
    if (event.kind === 'tool_result') {
      const calls = this.calls.get(event.callId);
      this.calls.delete(event.callId);
      const read = this.reads.get(event.callId);
      this.reads.delete(event.callId);
      const local = this.local.get(event.callId);
      this.local.delete(event.callId);
      const gitDir = this.gitCalls.get(event.callId);
      this.gitCalls.delete(event.callId);
      const ends = this.ending.delete(event.callId);
      const ran = !event.denied && !event.isError && (event.exitCode === null || event.exitCode === 0);
      if (ends && ran) this.conflicted.clear();
      if (event.denied || !event.output) return;
      if (gitDir !== undefined) this.onConflicts(event.output, gitDir);
      this.onAbsence(event, read, local);
      if (!calls) return;
      for (const { cmd, dir } of calls) {
        for (const p of changedPathsIn(event.output, cmd)) {
          const abs = locate(p, dir, this.session).abs;
          // shown modified: whatever said it was missing before, it is there now
          this.missing.delete(abs);
          if (!this.touched.has(abs)) addCapped(this.dirtyBefore, abs, FILES_MAX);
        }
        for (const p of [...deletedPathsIn(event.output, cmd), ...emptiedPathsIn(event.output, cmd)]) addCapped(this.missing, locate(p, dir, this.session).abs, FILES_MAX);
      }
      return;
    }
    if (event.kind !== 'tool_call') return;
    const fx = effectsOf(event, facts, this.session);
    // the paths a missing-file message of its result can be about, and the file a read tool asked for
    if (fx.commands.length > 0 && fx.commands.every(({ cmd }) => cmd.host === undefined && !ELSEWHERE.has(cmd.name))) setCapped(this.local, event.callId, fx.commands, PENDING_MAX);
    if (event.input.type === 'file_read' && fx.reads[0]) setCapped(this.reads, event.callId, fx.reads[0], PENDING_MAX);
    for (const loc of fx.commands) {
      const { cmd } = loc;
      if (!this.unlisted && writesUnlistedFiles(cmd)) this.unlisted = true;
      const sub = cmd.name === 'git' ? gitSubcommand(cmd)?.sub : undefined;
      if (sub !== undefined) {
        // a commit, a reset or an aborted or continued merge ends the conflict (once it ran)
        if (sub === 'commit' || sub === 'reset' || cmd.args.some((a) => a === '--abort' || a === '--continue' || a === '--quit')) {
          if (this.ending.size < PENDING_MAX) this.ending.add(event.callId);
        } else setCapped(this.gitCalls, event.callId, loc.dir, PENDING_MAX);
      }
      if (sub === 'status' || sub === 'diff') {
        setCapped(this.calls, event.callId, [...(this.calls.get(event.callId) ?? []), { cmd, dir: loc.dir }], PENDING_MAX);
      }
    }
    for (const f of fx.writes) addCapped(this.touched, f.abs, FILES_MAX);
    for (const f of fx.deletes) addCapped(this.touched, f.abs, FILES_MAX);
  }

  /**
   * Conflicts a git command reported: `git status` names files from the folder it ran in; git's
   * `CONFLICT … Merge conflict in f` names them from the repository's root, which the log shows
   * only when the command ran in the session's own folder (taken as the root) — elsewhere they
   * are not placed.
   */
  private onConflicts(output: string, dir: string | null): void {
    const { fromRoot, fromHere } = conflictedPathsIn(output);
    const atRoot = dir === null || dir.replace(/\/+$/, '') === (this.session.cwd ?? '').replace(/\/+$/, '');
    for (const p of [...fromHere, ...(atRoot ? fromRoot : [])]) {
      const abs = locate(p, dir, this.session).abs;
      // a file git had shown modified before the conflict (`checkout -m`, a stash pop): its
      // uncommitted changes are one side, and only the working tree held them
      if (!this.dirtyBefore.has(abs) || this.conflicted.has(abs)) addCapped(this.conflicted, abs, FILES_MAX);
    }
  }

  /**
   * A file a failed call was given and its output says is not there (`cat src/a.ts` → "No such
   * file or directory"; a read tool's "File does not exist.") is missing: restoring it from git
   * loses no text. A read that found it says it is there again. Only the call's own paths count:
   * a log or page quoting such a line is about something else.
   */
  private onAbsence(event: ToolResultEvent, read: FileOp | undefined, local: readonly Located[] | undefined): void {
    const failed = event.isError || (event.exitCode !== null && event.exitCode !== 0);
    if (read) {
      if (!failed) this.missing.delete(read.abs);
      else if (/does not exist|No such file|ENOENT/.test(event.output.slice(0, 2_000))) addCapped(this.missing, read.abs, FILES_MAX);
    }
    if (!failed || !local) return;
    const absent = absentPathsIn(event.output);
    if (absent.length === 0) return;
    // the paths the call's commands were given, where each would be (its command's own folder)
    const given = local.flatMap(({ cmd, dir }) => parseArgs(cmd.args).operands.slice(0, 20).map((written) => ({ written, abs: locate(written, dir, this.session).abs })));
    // a build or test run (no reader of other text) may report a path of its own: where it ran
    const ownDir = local.some(({ cmd }) => CONTENT_READERS.has(cmd.name.toLowerCase())) ? undefined : local[0].dir;
    for (const p of absent) {
      const hit = given.find((n) => n.written === p || n.abs === p || n.written.replace(/^\.\//, '') === p.replace(/^\.\//, ''));
      const abs = hit?.abs ?? (ownDir !== undefined ? locate(p, ownDir, this.session).abs : null);
      if (abs) addCapped(this.missing, abs, FILES_MAX);
    }
  }
}

const CONFLICT_LINE = /^CONFLICT \([^)\n]*\): Merge conflict in (.+)$/gm;
const UNMERGED_LONG = /^\t(?:both modified|both added|both deleted|added by us|added by them|deleted by us|deleted by them):[ \t]+(.+)$/gm;
const UNMERGED_SHORT = /^(?:UU|AA|DU|UD|AU|UA|DD) (.+)$/gm;

/** The files a git command's output reports in a merge conflict: named from the repository's root (`CONFLICT` lines) or from where it ran (`git status`). */
export function conflictedPathsIn(output: string): { fromRoot: string[]; fromHere: string[] } {
  const text = output.length > 200_000 ? output.slice(0, 200_000) : output;
  const paths = (matches: Iterable<RegExpMatchArray>) => [...matches].map((m) => m[1]!.trim()).slice(0, 200);
  return { fromRoot: paths(text.matchAll(CONFLICT_LINE)), fromHere: paths([...text.matchAll(UNMERGED_LONG), ...text.matchAll(UNMERGED_SHORT)]) };
}
