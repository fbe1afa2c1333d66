// What the session itself brought into being: directories it made (`mkdir`) or cloned (`git clone
// URL [dir]`, `gh repo clone`), and files its write tool created (the tool's own result says the
// file was new). Rules use it to tell the session's own work from what was there before: removing
// its own scratch directory, rewriting the instruction files of a template it cloned for a new project.
import type { RuleContext } from './types.ts';
import { locate, type FileOp, type Located } from './effects.ts';
import { parseArgs } from './commands.ts';

const DIRS_MAX = 500;
const TOUCHED_MAX = 5_000;

/**
 * A write tool's result for a file that did not exist: Claude Code's Write ("File created
 * successfully at" in its transcript; its terminal shows "Wrote N lines to", and "Updated …" /
 * "Overwrote …" for a file that was there), Gemini CLI's write_file.
 */
export const NEW_FILE_WRITTEN = /^\s*(?:File created successfully at\b|Successfully created and wrote to new file\b|Wrote \d+ lines? to\b)/;
/** git init's report of the repository it created (its path absolute, or as given). */
const GIT_INIT_OUTPUT = /^(?:[└⎿]\s*)?Initialized empty (?:shared )?Git repository in (\S.*?)\/?\s*$/gm;
const CLONE_VALUE_OPTIONS = ['-m', '--mode', '-b', '--branch', '--depth', '-o', '--origin', '-c', '--config', '--reference', '--template', '-j', '--jobs', '--filter'];

/**
 * Directories the session created itself. Bounded. A path that existed before cannot be told from
 * the log, so only these count as the session's own.
 */
export class CreatedPaths {
  private readonly dirs = new Set<string>();
  /** Git directories git's own output says this session initialized. */
  private readonly gitDirs = new Set<string>();
  /** …of them, those an init where the agent works made (no directory named, no cd). */
  private readonly hereGitDirs = new Set<string>();
  /** Folders a clone created (not the working directory itself: `git clone URL .` makes no new project). */
  private readonly clones = new Set<string>();
  /** Whether the session cloned a repository into a new folder (a template or starter for new work, most often). */
  cloned = false;
  /** Files the session's write tool created: its result said the file was new. */
  private readonly files = new Set<string>();
  /** Paths the session's calls read, wrote, edited or deleted, and folders its commands ran in. */
  private readonly touched = new Set<string>();

  constructor(private readonly session: RuleContext['session']) {}

  onCommand(loc: Located): void {
    const { cmd, dir } = loc;
    // Only these make directories; the rest (most commands) are not parsed at all.
    if (this.dirs.size >= DIRS_MAX || (cmd.name !== 'mkdir' && cmd.name !== 'git' && cmd.name !== 'gh')) return;
    const { operands } = parseArgs(cmd.args, CLONE_VALUE_OPTIONS);
    let made: string[] = [];
    if (cmd.name === 'mkdir') made = operands;
    else if (cloneSource(cmd.name, operands) !== null) {
      const source = cloneSource(cmd.name, operands)!;
      made = [operands[cmd.name === 'gh' ? 3 : 2] ?? source.replace(/\/+$/, '').replace(/\.git$/, '').replace(/^.*[/:]/, '')];
      const where = locate(made[0]!, dir, this.session);
      const cwd = this.session.cwd?.replace(/\/+$/, '');
      const into = where.abs.replace(/\/+$/, '');
      // a new folder (in the tree, or anywhere when the log names no working directory)
      if (into !== cwd && made[0] !== '.' && (where.zone === 'worktree' || where.zone === 'unknown' || cwd === undefined)) {
        this.cloned = true;
        if (this.clones.size < DIRS_MAX) this.clones.add(into);
      }
    }
    for (const m of made) {
      const abs = locate(m, dir, this.session).abs.replace(/\/+$/, '');
      if (abs.length > 1 && !/[$`*]/.test(abs)) this.dirs.add(abs);
    }
  }

  /**
   * The output of a `git init` this session ran (or, in a terminal capture that lost the command's
   * line, git's line under the agent's message): "Initialized empty Git repository in
   * /work/app/.git/" made that directory ("Reinitialized existing …" found one there). `here`: the
   * init ran where the agent works (no directory named, no cd), so a relative `.git` in a log
   * with no working directory is that one.
   */
  onGitInit(output: string, here: boolean): void {
    if (this.dirs.size >= DIRS_MAX || !output.includes('Initialized empty')) return;
    for (const m of output.slice(0, 20_000).matchAll(GIT_INIT_OUTPUT)) {
      const abs = locate(m[1]!.trim(), null, this.session).abs.replace(/\/+$/, '');
      if (abs.length <= 1 || /[$`*]/.test(abs)) continue;
      this.dirs.add(abs);
      this.gitDirs.add(abs);
      if (here) this.hereGitDirs.add(abs);
    }
  }

  /**
   * Whether `abs` is a git directory git said this session initialized: only that, not a `.git`
   * under a folder the session `mkdir -p`'d (a no-op on a folder that was there). A log that
   * records no working directory leaves a relative `.git` unplaced: it is the one an init where
   * the agent works created.
   */
  initializedGit(abs: string): boolean {
    const p = abs.replace(/\/+$/, '');
    if (this.gitDirs.has(p)) return true;
    return !this.session.cwd && p.replace(/^(?:\.\/)+/, '') === '.git' && this.hereGitDirs.size === 1;
  }

  /**
   * The result of a call that wrote files with the agent's own tool: a file the tool says it
   * created (Claude Code's "File created successfully at", Gemini CLI's "Successfully created and
   * wrote to new file") did not exist before. (Codex's `*** Add File:` is no such word: apply_patch
   * writes the file whether or not it was there.)
   */
  onWriteResult(writes: readonly FileOp[], output: string, failed: boolean): void {
    if (failed || this.files.size >= DIRS_MAX) return;
    if (writes.length === 1 && writes[0]!.via === 'tool' && writes[0]!.kind === 'write' && NEW_FILE_WRITTEN.test(output)) this.files.add(writes[0]!.abs.replace(/\/+$/, ''));
  }

  /** Every path a call of the session read, wrote, edited or deleted, and every folder it ran a command in: what it saw or touched. */
  onTouched(paths: readonly string[]): void {
    for (const p of paths) if (this.touched.size < TOUCHED_MAX) this.touched.add(p.replace(/\/+$/, ''));
  }

  /** Whether `abs` is a file the session's write tool created. */
  createdFile(abs: string): boolean {
    return this.files.has(abs.replace(/\/+$/, ''));
  }

  /**
   * Whether `abs` is a folder whose only contents the log shows are files the session's write tool
   * created in it (directly, not deeper), and that the session saw or touched nothing else in: as
   * far as the log goes, the folder is the session's own. Not proof — the folder may have held more.
   */
  holdsOnlyCreatedFiles(abs: string): boolean {
    const p = abs.replace(/\/+$/, '');
    if (p.split('/').filter(Boolean).length < 2) return false;
    const direct = [...this.files].filter((f) => f.startsWith(p + '/') && !f.slice(p.length + 1).includes('/'));
    if (direct.length === 0) return false;
    for (const t of this.touched) if ((t === p || t.startsWith(p + '/')) && !this.files.has(t)) return false;
    return true;
  }

  /** Whether `abs` is inside a folder a clone of this session created. */
  inClone(abs: string): boolean {
    const p = abs.replace(/\/+$/, '');
    for (const d of this.clones) if (p.startsWith(d + '/')) return true;
    return false;
  }

  /**
   * Whether the session made a folder one or two levels inside `abs` (`mkdir -p abs/sub`): it put
   * its own work there. Whether `abs` held anything before is not shown, so this is no proof of
   * ownership — only that the loss known from the log is the session's own.
   */
  madeInside(abs: string): boolean {
    const p = abs.replace(/\/+$/, '');
    for (const d of this.dirs) {
      if (!d.startsWith(p + '/')) continue;
      if (d.slice(p.length + 1).split('/').length <= 2) return true;
    }
    return false;
  }

  covers(abs: string): boolean {
    const p = abs.replace(/\/+$/, '');
    for (const d of this.dirs) if (p === d || p.startsWith(d + '/')) return true;
    return false;
  }
}

/** The repository a clone command copies (`git clone URL`, `gh repo clone owner/name`), or null. */
function cloneSource(name: string, operands: string[]): string | null {
  if (name === 'git' && operands[0] === 'clone' && operands[1]) return operands[1];
  if (name === 'gh' && operands[0] === 'repo' && operands[1] === 'clone' && operands[2]) return operands[2];
  return null;
}
