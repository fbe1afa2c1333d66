// What a Claude Code tool_result block (plus the record's structured `toolUseResult`) says about
// the call: output text, exit code, error, denial, interruption, duration, subagent id.
// Claude Code records no numeric exit code for Bash; it is recovered from the text
// ("Exit code 128\n…") or, for a successful shell result, implied by the structured result.
import { SUBAGENT_TOOLS } from './tool-input.ts';
import { num, obj, str, text, type Obj } from '../shared/values.ts';
import { textOf } from './values.ts';

export interface ResultFacts {
  output: string;
  exitCode: number | null;
  isError: boolean;
  denied: boolean;
  interrupted: boolean;
  durationMs?: number;
  /** The subagent a Task/Agent result names (its transcript may or may not be in this file). */
  subagentId?: string;
}

const EXIT_CODE = /^(?:Error: )?Exit code (-?\d{1,9})\b/;

/** Canned texts Claude Code writes when the user or a permission rule refused the call. */
const DENIAL_PREFIXES = [
  "The user doesn't want to proceed with this tool use",
  "The user doesn't want to take this action right now",
  'User rejected tool use',
  'This command requires approval',
  // a command whose shell operators (a heredoc, a redirect, `&&`) need an approval nobody gave
  'This command uses shell operators that require approval',
];

// How far into a result the second half of a two-part denial sentence may be looked for.
const DENIAL_WINDOW = 2000;

export function resultFacts(block: Obj, structured: unknown, name: string | undefined, denialKind: unknown): ResultFacts {
  const tur = obj(structured);
  const turText = str(structured);
  let output = textOf(block.content);
  if (output === '') output = str(block.text) || (tur ? structuredOutput(tur) : '');
  let isError = block.is_error === true || tur?.is_error === true;
  const denied = isDenial(output) || (turText !== undefined && isDenial(turText)) || text(denialKind) !== undefined || (isError && isPermissionReason(output));
  const interrupted = output.startsWith('[Request interrupted by user') || tur?.interrupted === true;
  let exitCode = denied ? null : exitCodeFromText(output) ?? (turText === undefined ? null : exitCodeFromText(turText));
  if (exitCode === null && tur && !denied) exitCode = structuredExitCode(tur, name, isError || interrupted);
  if (exitCode !== null && exitCode !== 0) isError = true;
  const facts: ResultFacts = { output, exitCode, isError, denied, interrupted };
  const durationMs = tur ? durationOf(tur) : undefined;
  if (durationMs !== undefined) facts.durationMs = durationMs;
  const subagentId = tur && (name === undefined || SUBAGENT_TOOLS.has(name)) ? text(tur.agentId) : undefined;
  if (subagentId !== undefined) facts.subagentId = subagentId;
  return facts;
}

export function exitCodeFromText(text: string): number | null {
  const m = EXIT_CODE.exec(text);
  return m ? Number.parseInt(m[1], 10) : null;
}

/**
 * Claude Code's permission checks answer a call they would ask about with a reason of their own
 * (in a run with nobody to ask — `claude -p`, a CI job — the ask is the refusal): "This Bash
 * command contains multiple operations. The following part requires approval: …", "Commands that
 * change directories and write via output redirection require explicit approval …", "cd in '…' was
 * blocked. For security, …", "env with -S flag cannot be statically analyzed", "Command contains
 * quoted characters in flag names". Read in the first line of an error result, by the sentences
 * the checks write (2.1.81's `cli.js`), not by a word a program may print too: Claude Code 1.0.x
 * gives a failed command's output bare, with no exit code ahead of it ("Deploy to production
 * requires approval" is a deploy script's).
 */
const PERMISSION_REASON = new RegExp([
  // "This Bash command contains multiple operations. The following part(s) require(s) approval: …"
  String.raw`^This \w+ command contains multiple operations\b.{0,80}\brequires? approval\b`,
  // "Commands that change directories and write via output redirection require explicit approval …"
  String.raw`^Commands that change directories and (?:write|perform)\b.{0,80}\brequire explicit approval\b`,
  String.raw`^(?:Compound commands? (?:with|contains) cd\b|Multiple directory changes in one command\b).{0,120}\b(?:require|required)\b`,
  // "Command contains quoted characters in flag names", "… newlines that could separate multiple commands"
  String.raw`^Command contains [a-zA-Z(][^\n]{0,200}$`,
  String.raw`^(?:Contains shell syntax|\w+ with \S+ flag|timeout duration '[^']*')\b.{0,80}\bcannot be statically analyzed\b`,
  // "Shell expansion syntax in paths requires manual approval", "UNC network paths require manual approval"
  String.raw`^[A-Z][\w ]{0,60} requires? manual approval$`,
  // "cd in '/x' was blocked. For security, Claude Code may only …", "Output redirection to '…' was blocked. …"
  String.raw`\bwas blocked(?: by a deny rule)?\. For security, Claude Code\b`,
  String.raw`^(?:Permission rule|Hook|Classifier|Tool) '.{1,200}'(?: from [^\n]{1,80})? (?:requires approval for this \w+ command|blocked this action)\b`,
  String.raw`^Current permission mode \([^)]{1,40}\) requires approval\b`,
  String.raw`^sed command requires approval\b`,
].join('|'));
const REASON_WINDOW = 300;

/** An error result that is a permission check's reason: the call never ran. */
export function isPermissionReason(text: string): boolean {
  const at = text.startsWith('Error: ') ? 7 : 0;
  if (EXIT_CODE.test(text) || text.startsWith('<tool_use_error>', at)) return false;
  const first = text.slice(at, at + REASON_WINDOW).split('\n', 1)[0]!;
  return PERMISSION_REASON.test(first);
}

export function isDenial(text: string): boolean {
  const at = text.startsWith('Error: ') ? 7 : 0;
  for (const prefix of DENIAL_PREFIXES) if (text.startsWith(prefix, at)) return true;
  if (text.startsWith('Claude requested permissions to ', at)) {
    return text.slice(at, at + DENIAL_WINDOW).includes("but you haven't granted it yet");
  }
  if (text.startsWith('Permission to use ', at)) return text.slice(at, at + DENIAL_WINDOW).includes('has been denied');
  return false;
}

/**
 * A shell result's structured form: {stdout, stderr, interrupted, …}. A finished, successful,
 * foreground command exited 0; `returnCodeInterpretation` marks a non-zero code Claude Code chose
 * not to treat as failure (grep's "No matches found"), so the exact code is unknown.
 */
function structuredExitCode(tur: Obj, name: string | undefined, failed: boolean): number | null {
  const explicit = num(tur.exitCode) ?? num(tur.exit_code);
  if (explicit !== undefined) return explicit;
  if (failed || !isShellResult(tur, name)) return null;
  if (tur.backgroundTaskId !== undefined || tur.returnCodeInterpretation !== undefined) return null;
  return 0;
}

function isShellResult(tur: Obj, name: string | undefined): boolean {
  if (typeof tur.stdout !== 'string' || typeof tur.stderr !== 'string') return false;
  if (name !== undefined) return name === 'Bash' || name === 'bash' || name === 'PowerShell';
  return 'interrupted' in tur;
}

/** Output recovered from the structured result when the tool_result block carried none. */
function structuredOutput(tur: Obj): string {
  const stdout = str(tur.stdout);
  const stderr = str(tur.stderr);
  if (stdout !== undefined || stderr !== undefined) {
    if (!stdout) return stderr ?? '';
    return stderr ? `${stdout}\n${stderr}` : stdout;
  }
  const file = obj(tur.file);
  const fileContent = file ? str(file.content) : undefined;
  if (fileContent !== undefined) return fileContent;
  return str(tur.result) ?? textOf(tur.content);
}

function durationOf(tur: Obj): number | undefined {
  const ms = num(tur.durationMs) ?? num(tur.totalDurationMs);
  if (ms !== undefined) return ms;
  const seconds = num(tur.durationSeconds);
  return seconds === undefined ? undefined : Math.round(seconds * 1000);
}
