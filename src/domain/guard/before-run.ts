// What the guard asks about before a call runs when no rule has a finding on it: code it cannot
// read before it runs, a delete it cannot place, and what the policy's strict settings name. The
// analyser reports what a finished session did; these are questions only worth asking while the
// call can still be stopped, so they live in the guard and never in a report.
import type { ToolCallEvent } from '../model/events.ts';
import type { SimpleCommand } from '../shell/types.ts';
import type { Located } from '../rules/effects.ts';
import { deletionOf } from '../rules/destructive.ts';
import { inlineProgram, interpreterLanguage, interpreterReadsStdin } from '../shell/interpreters.ts';
import type { GuardPolicy } from './policy.ts';

export interface Concern {
  /** Short title, as a finding's would be. */
  title: string;
  /** What the call would do, for the reason the agent shows. */
  detail: string;
}

const SHELLS = /^(?:sh|bash|zsh|dash|ksh|mksh|ash|busybox)$/;
const CWD_WORD = /^(?:\$\(pwd\)|`pwd`|\$PWD|\$\{PWD\})(?:\/|$)/;

/** The first thing worth asking about in the call's commands, or null. */
export function concernBeforeRun(call: ToolCallEvent, commands: Located[], cwd: string | null, policy: GuardPolicy): Concern | null {
  if (call.input.type !== 'command') return null;
  for (const [i, loc] of commands.entries()) {
    const concern = scriptFromInput(loc.cmd, commands[i - 1]?.cmd) ?? unplacedDelete(i, commands, cwd) ?? strictConcern(i, commands, policy);
    if (concern) return concern;
  }
  return null;
}

/**
 * `… | xargs bash -c`, `xargs -I{} sh -c {}`, `… | parallel bash -c {}`: the script the shell runs
 * is read from input and split by xargs' or parallel's own rules when it runs (`echo 'rm -rf x' |
 * xargs bash -c` runs `rm` with `-rf` as $0: not what the echo shows). Asked about whatever the
 * input shows, as both public guards do. Inputs written on the line after parallel's `:::` are
 * read by the rules.
 */
function scriptFromInput(cmd: SimpleCommand, before: SimpleCommand | undefined): Concern | null {
  // `… | parallel` with no command of its own runs each input line as a command; what echo or
  // printf feeds it is written on the line, and the rules read it
  const fed = before !== undefined && before.pipeIndex === cmd.pipeIndex - 1 ? before : undefined;
  const literal = fed !== undefined && (fed.name === 'echo' || fed.name === 'printf') && fed.nested === null;
  if (cmd.name === 'parallel' && cmd.wrappers.length === 0 && cmd.pipeIndex > 0 && !literal && !cmd.args.some((a) => !a.startsWith('-'))) {
    return { title: 'Shell script taken from input', detail: `\`${cmd.text}\` runs each line of its input as a command: the commands are only known when it runs.` };
  }
  if (!SHELLS.test(cmd.name) || !(cmd.wrappers.includes('xargs') || cmd.wrappers.includes('parallel'))) return null;
  if (cmd.args.includes(':::')) return null;
  const c = cmd.args.findIndex((a) => /^-[A-Za-z]*c[A-Za-z]*$/.test(a));
  // no -c: a shell reading its script from the arguments xargs appends (`xargs sh`) runs them as a file name; still input
  const script = c < 0 ? (cmd.args.length === 0 ? undefined : null) : cmd.args[c + 1] === '--' ? cmd.args[c + 2] : cmd.args[c + 1];
  if (script === null) return null;
  // a script of its own (`sh -c 'echo hi'`) is read by the rules; a missing one, or one holding the
  // replacement string (xargs' -I value, parallel's {…}), is put together from input
  if (script !== undefined && !holdsPlaceholder(script, cmd)) return null;
  const via = cmd.wrappers.includes('xargs') ? 'xargs' : 'parallel';
  return {
    title: 'Shell script taken from input',
    detail: `\`${cmd.text}\` runs, as a ${cmd.name} script, whatever ${via} reads from its input: the script is only put together when it runs.`,
  };
}

/**
 * xargs' replacement string (`-I %`, `-I{}`, `-i`, `--replace`) or parallel's `{…}` where the
 * script runs a command: the whole script, or after `;`, `&&`, `||`, `|`, `(` or a line break
 * (`sh -c 'set -e; {}'`). As an argument (`sh -c 'wc -l {}'`) it is a name, not code.
 */
function holdsPlaceholder(script: string, cmd: SimpleCommand): boolean {
  const at = cmd.wrappers.indexOf('xargs');
  const token = at >= 0 ? replaceTokenOf(cmd.wrapperArgs?.[at] ?? []) : null;
  const pattern = token !== null ? token.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') : at >= 0 ? null : '\\{[^}\\s]*\\}';
  return pattern !== null && new RegExp(`(?:^|[;&|(\\n])\\s*(?:${pattern})`).test(script.trim());
}

function replaceTokenOf(args: string[]): string | null {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-I' || a === '-J') return args[i + 1] ?? null;
    if (/^-[IJ]./.test(a)) return a.slice(2);
    if (a === '-i' || a === '--replace') return '{}';
    if (a.startsWith('--replace=')) return a.slice('--replace='.length) || '{}';
    if (/^-i./.test(a)) return a.slice(2);
  }
  return null;
}

/**
 * A recursive delete of a relative path when the hook named no working directory (or only a
 * relative `cd` came first): where it lands cannot be told, so the guard asks rather than vouch
 * for it. `~` and absolute paths are placed by the rules; `rm -rf .` and `rm -rf *` are "the whole
 * working directory" to them, and other relative names (`build`, `find . -name x`) are asked
 * about here. The analyser, reading a finished log without a cwd, reports only what it can place.
 */
function unplacedDelete(index: number, all: Located[], cwd: string | null): Concern | null {
  if (cwd !== null) return null;
  const { cmd, dir } = all[index];
  // a `cd` to an absolute place placed it; `cd ..` or `cd build` with no cwd did not
  if (dir !== null && /^(?:\/|~|[A-Za-z]:)/.test(dir)) return null;
  const deletion = deletionOf(index, all);
  if (!deletion || deletion.recursive === false) return null;
  // a relative name, or the working directory by its expansions; other variables ($TMPDIR) and
  // absolute paths and `~` are placed by the rules
  const relative = deletion.targets.find((t) => CWD_WORD.test(t) || !/^[/~$`]/.test(t));
  if (relative === undefined) return null;
  return {
    title: 'Recursive delete in an unknown directory',
    detail: `\`${cmd.text}\` recursively deletes ${relative}, and the hook did not say which directory it runs in.`,
  };
}

/** The policy's `[strict]` settings: every recursive delete, every inline interpreter program. */
function strictConcern(index: number, all: Located[], policy: GuardPolicy): Concern | null {
  const { cmd } = all[index];
  if (policy.strict.deletes) {
    const deletion = deletionOf(index, all);
    if (deletion && deletion.recursive !== false && deletion.targets.length > 0) {
      return { title: 'Recursive delete (strict policy)', detail: `\`${cmd.text}\` recursively deletes ${deletion.targets.join(', ')}; the policy asks before every recursive delete ([strict] deletes).` };
    }
  }
  if (policy.strict.interpreters) {
    const lang = interpreterLanguage(cmd.name);
    // a program on the line (-c, -e), a heredoc, or one piped in (`echo "print(1)" | python`)
    const inline = lang !== null && lang !== 'awk' && (inlineProgram(lang, cmd.args) !== null || (interpreterReadsStdin(lang, cmd.args) && (cmd.redirects.some((r) => r.op.startsWith('<<')) || cmd.pipeIndex > 0)));
    if (inline) return { title: 'Inline program (strict policy)', detail: `\`${cmd.text}\` runs a program written on the command line; the policy asks before every one ([strict] interpreters).` };
  }
  return null;
}
