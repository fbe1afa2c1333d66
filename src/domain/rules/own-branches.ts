// Branches this session made itself, and whether their last commit reached a remote (issue 25,
// did the action take effect?). `git branch -D temp-clean` throws away the commits only that
// branch holds; for a branch the session created (`git checkout -b temp-clean origin/main`, `git
// switch -c`, `git branch x`) and then pushed, with no commit on it since, those commits are on
// the remote: nothing is lost. A commit made on it after the push (commit, cherry-pick, merge,
// rebase, revert, am) makes it unpushed again. Read from the commands; a push counts once its
// result shows it was not refused (`pushed` is told which call pushed which branches).
import { optionValues, parseArgs } from './commands.ts';

const BRANCHES_MAX = 100;
const COMMITTING = new Set(['commit', 'cherry-pick', 'merge', 'rebase', 'revert', 'am', 'pull']);
const PUSH_VALUE_OPTS = ['--repo', '-o', '--push-option', '--receive-pack', '--exec'];

export class OwnBranches {
  private readonly made = new Set<string>();
  private readonly pushed = new Set<string>();
  /** Commits made on each own branch so far: a push carries the ones made before it. */
  private readonly commits = new Map<string, number>();
  /** callId → the branches a push in that call carries (with their commit count then), until its result shows it went through. */
  private readonly pending = new Map<string, Array<{ branch: string; commits: number }>>();

  /** Branches renamed by the session (`git branch -m old new`): old name → new name. */
  private readonly renamed = new Map<string, string>();
  /** Every branch a push of the session carried (own or not), once its result showed it went through. */
  private readonly everPushed = new Set<string>();
  private readonly pendingAny = new Map<string, string[]>();

  /** A git subcommand run while `current` was checked out. */
  onGit(callId: string, sub: string, args: string[], current: string | null): void {
    const rename = renameOf(sub, args, current);
    if (rename !== null && this.made.size < BRANCHES_MAX) {
      this.renamed.set(rename.from, rename.to);
      this.made.add(rename.to);
      this.pushed.delete(rename.to);
    }
    const created = createdBranch(sub, args);
    if (created !== null && this.made.size < BRANCHES_MAX) {
      this.made.add(created);
      this.pushed.delete(created);
    }
    if (COMMITTING.has(sub) && current !== null && this.made.has(current)) {
      this.pushed.delete(current);
      this.commits.set(current, (this.commits.get(current) ?? 0) + 1);
    }
    if (sub !== 'push') return;
    // a push that deletes, mirrors, prunes or only tries sends no branch (a delete takes one back)
    const p = parseArgs(args, PUSH_VALUE_OPTS);
    if (p.short.has('d') || p.long.has('--delete') || p.operands.slice(1).some((r) => r.startsWith(':'))) {
      for (const b of p.operands.slice(1)) this.pushed.delete(b.replace(/^:/, ''));
      return;
    }
    if (p.short.has('n') || p.long.has('--dry-run') || p.long.has('--mirror') || p.long.has('--prune')) return;
    const all = pushedSources(args, current);
    if (all.length > 0) {
      if (!this.pendingAny.has(callId) && this.pendingAny.size >= BRANCHES_MAX) this.pendingAny.delete(this.pendingAny.keys().next().value as string);
      this.pendingAny.set(callId, all.slice(0, 20));
    }
    const sources = all.filter((b) => this.made.has(b));
    if (sources.length === 0) return;
    // a push whose result never comes stays pending: the oldest goes first past the cap
    if (!this.pending.has(callId) && this.pending.size >= BRANCHES_MAX) this.pending.delete(this.pending.keys().next().value as string);
    this.pending.set(callId, [...(this.pending.get(callId) ?? []), ...sources.map((branch) => ({ branch, commits: this.commits.get(branch) ?? 0 }))]);
  }

  /** Whether a push of this call waits for its result (onResult does nothing for any other call). */
  awaits(callId: string): boolean {
    return this.pendingAny.has(callId) || this.pending.has(callId);
  }

  /** The result of a call: a push in it that went through carried its branches, unless a commit came since. */
  onResult(callId: string, wentThrough: boolean): void {
    const any = this.pendingAny.get(callId);
    this.pendingAny.delete(callId);
    if (wentThrough && any) for (const b of any) if (this.everPushed.size < BRANCHES_MAX) this.everPushed.add(b);
    const sources = this.pending.get(callId);
    this.pending.delete(callId);
    if (!wentThrough || !sources) return;
    for (const s of sources) if ((this.commits.get(s.branch) ?? 0) === s.commits) this.pushed.add(s.branch);
  }

  /** The session renamed this branch and pushed it under its new name since: deleting the old name on the remote completes the rename. */
  renamedAndPushed(branch: string): string | null {
    const to = this.renamed.get(branch);
    // the remote's old branch is what the session itself pushed there (no commits it never fetched)
    return to !== undefined && this.pushed.has(to) && this.everPushed.has(branch) ? to : null;
  }

  /** Every branch named was made by this session and its last commit pushed since. */
  /** Every branch was made by this session (pushed or not). */
  allOwn(branches: readonly string[]): boolean {
    return branches.length > 0 && branches.every((b) => this.made.has(b));
  }

  allPushedOwn(branches: readonly string[]): boolean {
    return branches.length > 0 && branches.every((b) => this.made.has(b) && this.pushed.has(b));
  }
}

/** `git branch -m old new` (or `-M`, `--move`), or `git branch -m new` for the current branch. */
function renameOf(sub: string, args: string[], current: string | null): { from: string; to: string } | null {
  if (sub !== 'branch' || !args.some((a) => a === '-m' || a === '-M' || a === '--move')) return null;
  const operands = args.filter((a) => !a.startsWith('-'));
  if (operands.length === 2) return { from: operands[0], to: operands[1] };
  return operands.length === 1 && current !== null ? { from: current, to: operands[0] } : null;
}

/** The branch `git checkout -b x`, `git switch -c x` or `git branch x [start]` creates, else null. */
function createdBranch(sub: string, args: string[]): string | null {
  if (sub === 'checkout' || sub === 'switch') return optionValues(args, ['-b', '-B', '-c', '-C', '--create', '--force-create'])[0] ?? null;
  if (sub !== 'branch') return null;
  const p = parseArgs(args, ['-u', '--set-upstream-to', '--format', '--sort', '--points-at', '--contains', '--merged', '--no-merged']);
  // listing, deleting, moving, copying or configuring branches creates none
  if (p.short.size > 0 && [...p.short].some((f) => f !== 'f' && f !== 't')) return null;
  if ([...p.long].some((l) => l !== '--force' && l !== '--track' && l !== '--no-track')) return null;
  return p.operands.length >= 1 && p.operands.length <= 2 ? p.operands[0] : null;
}

/** The local branches a push sends: refspec sources (`x`, `x:y`, `+x:y`), or the current branch for a bare push or HEAD. */
function pushedSources(args: string[], current: string | null): string[] {
  const { operands } = parseArgs(args, PUSH_VALUE_OPTS);
  const refspecs = operands.slice(1);
  if (refspecs.length === 0) return current !== null ? [current] : [];
  return refspecs.map((r) => r.replace(/^\+/, '').split(':')[0]).map((s) => (s === 'HEAD' && current !== null ? current : s)).filter((s) => s !== '' && s !== 'HEAD');
}

/** The branches `git branch -D a b` deletes. */
export function deletedBranches(args: string[]): string[] {
  return parseArgs(args).operands;
}
