// What the session itself brought into being: directories it made (`mkdir`) or cloned (`git clone
// URL [dir]`, `gh repo clone`). Rules use it to tell the session's own work from what was there
// before: removing its own scratch directory, rewriting the instruction files of a template it
// cloned for a new project.
import type { RuleContext } from './types.ts';
import { locate, type Located } from './effects.ts';
import { parseArgs } from './commands.ts';

const DIRS_MAX = 500;
const CLONE_VALUE_OPTIONS = ['-m', '--mode', '-b', '--branch', '--depth', '-o', '--origin', '-c', '--config', '--reference', '--template', '-j', '--jobs', '--filter'];

/**
 * Directories the session created itself. Bounded. A path that existed before cannot be told from
 * the log, so only these count as the session's own.
 */
export class CreatedPaths {
  private readonly dirs = new Set<string>();
  /** Whether the session cloned a repository (a template or starter for the work, most often). */
  cloned = false;

  constructor(private readonly session: RuleContext['session']) {}

  onCommand(loc: Located): void {
    const { cmd, dir } = loc;
    if (this.dirs.size >= DIRS_MAX) return;
    const { operands } = parseArgs(cmd.args, CLONE_VALUE_OPTIONS);
    let made: string[] = [];
    if (cmd.name === 'mkdir') made = operands;
    else if (cloneSource(cmd.name, operands) !== null) {
      this.cloned = true;
      const source = cloneSource(cmd.name, operands)!;
      made = [operands[cmd.name === 'gh' ? 3 : 2] ?? source.replace(/\/+$/, '').replace(/\.git$/, '').replace(/^.*[/:]/, '')];
    }
    for (const m of made) {
      const abs = locate(m, dir, this.session).abs.replace(/\/+$/, '');
      if (abs.length > 1 && !/[$`*]/.test(abs)) this.dirs.add(abs);
    }
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
