// Exit status that answers a question. Some commands exit 1 to say "no" rather than "error":
// grep/rg found no match, `test`/`[ ]` was false, diff/cmp/`git diff --exit-code` found differences,
// `which` found no such program. Counting those as failed calls inflates failure rates and retries;
// exit 2 and above (grep's and diff's real errors) still fail. Only the command whose status the
// shell returns counts: the last stage of the last pipeline, with nothing before it that could
// itself have failed (`npm test && grep -q ok log` exiting 1 may be the tests).
import type { ToolResultEvent } from '../model/events.ts';
import type { ParsedShell, SimpleCommand } from '../shell/types.ts';
import { parseShell } from '../shell/parse.ts';
import { isPowerShell, shellCommandString } from '../shell/unwrap.ts';
import { gitSubcommand } from './commands.ts';

const SEARCHERS = new Set(['grep', 'egrep', 'fgrep', 'zgrep', 'rg', 'ag', 'ack', 'pgrep']);
const COMPARERS = new Set(['diff', 'cmp', 'colordiff']);
const LOOKUPS = new Set(['which', 'test', '[', '[[']);
/** Commands before the answering one that cannot turn a failure into exit 1 unnoticed (cd's error is checked below). */
const HARMLESS = new Set(['cd', 'pushd', 'export', 'set', 'echo', 'printf', 'true', ':']);
/** What a failed command prints: a real error rather than an empty answer. */
const ERROR_TEXT = /\b(?:error|fatal|no such file|not found|permission denied|cannot|can't|invalid|unrecognized|usage:|not recognized)\b/i;
/** A trailing `[ … ]`, `[[ … ]]` or `test …`: the parser does not list these builtins as commands. */
const TRAILING_TEST = /(?:^|&&|;|\|\||\n)\s*(?:\[\[?\s[^;&|\n]*\]\]?|test\s[^;&|\n]*)\s*$/;

/** Why exit status 1 of `command` is an answer and not a failure ("no match", …), or null. */
export function answerExit(command: string, shell: ParsedShell | undefined, result: ToolResultEvent): string | null {
  if (result.exitCode !== 1 || result.denied || result.interrupted) return null;
  const inner = powershellScript(shell);
  const text = inner ?? command;
  const parsed = inner !== null ? parseShell(inner) : shell;
  if (!parsed || parsed.hadErrors) return null;
  const top = parsed.commands.filter((c) => c.nested === null);
  if (TRAILING_TEST.test(text.trim()) && top.every((c) => HARMLESS.has(c.name))) return quiet(result) ? 'a test that was false' : null;
  const last = top.at(-1);
  if (!last) return null;
  const before = top.slice(0, top.length - 1 - last.pipeIndex);
  if (!before.every((c) => HARMLESS.has(c.name))) return null;
  const kind = answerKind(last);
  if (!kind) return null;
  // A comparer's differences are its output; anything else that exits 1 "with an answer" prints no error.
  if (kind === 'differences found') return /\bcd: /.test(result.output) ? null : kind;
  return quiet(result) ? kind : null;
}

function answerKind(cmd: SimpleCommand): string | null {
  if (SEARCHERS.has(cmd.name) || gitSubcommand(cmd)?.sub === 'grep') return 'no match';
  if (LOOKUPS.has(cmd.name)) return 'a test that was false';
  if (COMPARERS.has(cmd.name)) return 'differences found';
  const git = gitSubcommand(cmd);
  if (git?.sub === 'diff' && git.args.some((a) => a === '--exit-code' || a === '--quiet' || a === '--no-index')) return 'differences found';
  return null;
}

/**
 * What the agents' harnesses wrap around a command's output, not the command's own words: Claude
 * Code's `Error: Exit code 1`, Codex's `failed in sandbox:`, Gemini CLI's `Command:`/`Directory:`/
 * `Stdout: (empty)`/`Error: (none)`/`Exit Code: 1` frame.
 */
const HARNESS_FRAME = /^[ \t]*(?:Error:\s*)?Exit code \d+\s*$|^[ \t]*failed in sandbox:\s*|^(?:Command|Directory|Background PIDs|Process Group PGID|Signal): .*$|^(?:Stdout|Stderr): \(empty\)\s*$|^(?:Error: \(none\)|Exit Code: \d+)\s*$/gim;

function quiet(result: ToolResultEvent): boolean {
  return !ERROR_TEXT.test(result.output.slice(0, 4_000).replace(HARNESS_FRAME, ''));
}

/** `powershell -Command '<script>'`: the script (read as the walker reads it), whose simple pipelines read like a POSIX shell's. */
function powershellScript(shell: ParsedShell | undefined): string | null {
  // The script's own commands are parsed too (nested): the line itself is one top-level command.
  const top = shell?.commands.filter((c) => c.nested === null) ?? [];
  const only = top.length === 1 ? top[0] : null;
  if (!only || !isPowerShell(only.name)) return null;
  return shellCommandString(only.name, only.args);
}
