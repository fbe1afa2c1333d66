// Which of the files a rule watches the session's commits took: a file staged by `git add` (the
// file itself, a folder above it, `.`, `-A`/`--all`) or an edited file committed with
// `git commit -a`, in the repository the file lies in (the command's `-C` folder or the folder it
// ran in must hold it), by a commit that happened — git's own `[main 7c1e110] …` line, or a call
// that succeeded. Rules use it to tell a change that stayed in one working tree from one that went
// into the history everyone who pulls gets.
import type { NormEvent } from '../model/events.ts';
import type { RuleContext } from './types.ts';
import { locate, type Located } from './effects.ts';
import { gitSubcommand, optionValues, parseArgs } from './commands.ts';
import { stages } from './exposure.ts';

const WATCHED_MAX = 500;
const PENDING_MAX = 200;
/** git's line for a commit it made: `[main 7c1e110] message`, `[main (root-commit) 7c1e110] …`. */
const COMMIT_LINE = /^\[[^\]\n]{1,120} [0-9a-f]{7,40}\] /m;

interface Pending {
  /** Files each `git add` of this call stages, with the pathspecs it was given. */
  adds: { files: string[]; specs: string[] }[];
  /** …all of them. */
  staged: string[];
  /** Files a `git commit` of this call takes, once it succeeds. */
  committing: string[];
}

/** `git add` words that stage a file: `stages` where the repository is known; unplaced, a named path is matched by its end. */
function stagesPath(args: string[], rel: string, unplaced: boolean): boolean {
  if (stages(args, rel)) return true;
  if (!unplaced) return false;
  const { operands } = parseArgs(args);
  return operands.some((o) => o.length > 1 && (rel.endsWith('/' + o.replace(/^\.\//, '')) || rel === o.replace(/^\.\//, '')));
}

export class CommittedFiles {
  private readonly watched = new Set<string>();
  private readonly staged = new Set<string>();
  private readonly pending = new Map<string, Pending>();

  constructor(private readonly session: RuleContext['session']) {}

  /** A file whose commit matters (absolute path). */
  watch(abs: string): void {
    if (this.watched.size < WATCHED_MAX) this.watched.add(slashes(abs));
  }

  /** Whether a watched file (as `watch` was given it) is among those a commit took. */
  static same(taken: string, abs: string): boolean {
    return taken === slashes(abs);
  }

  /** The git commands of a call: what they stage and commit, settled by its result. */
  onCall(callId: string, commands: readonly Located[]): void {
    if (this.watched.size === 0) return;
    const p: Pending = { adds: [], staged: [], committing: [] };
    for (const loc of commands) {
      const git = gitSubcommand(loc.cmd);
      if (!git || (git.sub !== 'add' && git.sub !== 'commit')) continue;
      // a log that records no folder for the command (Gemini CLI's) cannot place it: any watched
      // file may be in its repository, and a path is matched by its end
      const where = this.repositoryOf(loc);
      const inside = [...this.watched].filter((f) => where === null || f.startsWith(where + '/'));
      const rel = (f: string) => (where === null ? f.replace(/^\/+/, '') : f.slice(where.length + 1));
      if (git.sub === 'add') {
        const files = inside.filter((f) => stagesPath(git.args, rel(f), where === null));
        p.adds.push({ files, specs: parseArgs(git.args).operands });
        p.staged.push(...files);
        continue;
      }
      const { short, long, operands } = parseArgs(git.args, ['-m', '--message', '-F', '--file', '-C', '-c', '--author', '--date']);
      const all = short.has('a') || long.has('--all');
      // `git commit path`: those paths only; otherwise what is staged, and with -a every edited tracked file
      const named = operands.length > 0 ? inside.filter((f) => operands.some((o) => stagesPath([o], rel(f), where === null))) : [];
      p.committing.push(...(operands.length > 0 ? named : inside.filter((f) => all || this.staged.has(f) || p.staged.includes(f))));
    }
    if ((p.staged.length > 0 || p.committing.length > 0) && this.pending.size < PENDING_MAX) this.pending.set(callId, p);
  }

  /** A call's result: the watched files its commit took (empty when none, or nothing was committed). */
  onResult(event: NormEvent & { kind: 'tool_result' }): string[] {
    const p = this.pending.get(event.callId);
    this.pending.delete(event.callId);
    if (!p || event.denied) return [];
    const out = event.output.slice(0, 20_000);
    const made = COMMIT_LINE.test(out);
    const failed = event.isError || (event.exitCode !== null && event.exitCode !== 0);
    // `git add` is all or nothing: one that failed names a pathspec of its own ("fatal: pathspec
    // '!/' did not match any files"); in a failed call, an add whose pathspecs git did not refuse
    // staged its files (a later step failed)
    for (const add of p.adds) {
      const refused = failed && add.specs.some((spec) => out.includes(`pathspec '${spec}' did not match`) || out.includes(`pathspec '${spec.replace(/^\.\//, '')}' did not match`));
      if (!refused) for (const f of add.files) this.staged.add(f);
    }
    // git's own commit line settles a commit (a later step of the call may have failed); else the call's status
    if (!made && failed) return [];
    const taken = [...new Set(p.committing)];
    for (const f of taken) this.staged.delete(f);
    return taken;
  }

  /** The folder a git command works in (its `-C`, or where it ran), absolute and without a trailing slash, or null. */
  private repositoryOf(loc: Located): string | null {
    const at = optionValues(loc.cmd.args, ['-C'])[0];
    const dir = at ? locate(at, loc.dir, this.session).abs : loc.dir ? locate(loc.dir, null, this.session).abs : this.session.cwd;
    return dir ? slashes(dir) : null;
  }
}

/** A path with forward slashes and no trailing one (`C:\\work\\app\\` is `C:/work/app`): Windows logs mix both. */
function slashes(p: string): string {
  return p.replace(/\\/g, '/').replace(/\/+$/, '');
}
