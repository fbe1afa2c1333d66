// What a call's result says about its effect. A finding that claims an effect — data was sent,
// a file was written, a command ran — waits for the call's result: a refused connection
// (`curl: (7) Failed to connect`, `Could not resolve host`) sent nothing, a sandbox-refused write
// (`Read-only file system`, `Operation not permitted`) wrote nothing, a call the user or a policy
// refused never ran. Those become an "attempted" info that says why. A call whose result never
// appears keeps its severity and says "result not in the log". Bounded: at most 200 calls wait.
import type { SimpleCommand } from '../shell/types.ts';
import type { NormEvent, ToolResultEvent } from '../model/events.ts';
import type { EventFacts, FindingDraft, Rule, RuleContext } from './types.ts';
import { isGuardDenial } from '../guard/mark.ts';
import { clip, escapeRegExp, evidence, lineAt, oneLine, setCapped } from './util.ts';
import { PUSHED_REF } from './commands.ts';

/** The effect a finding claims: data leaving the machine, a file changed, a command having run. */
export type Effect = 'network' | 'write' | 'run';

/** A connection that never got through, in any network client's words. */
const NO_CONNECTION = String.raw`curl: \((?:6|7|28|35)\)[^\n]*|Could not resolve host[^\n]*|Failed to connect to[^\n]*|Connection refused[^\n]*|Name or service not known[^\n]*|Temporary failure in name resolution[^\n]*|Network is unreachable[^\n]*|No route to host[^\n]*|getaddrinfo (?:ENOTFOUND|EAI_AGAIN)[^\n]*|ECONNREFUSED[^\n]*`;
const NETWORK_REFUSED = new RegExp(String.raw`curl: \((?:22|52|56)\)[^\n]*|[^\n]{0,80}Permission denied \((?:publickey|password|keyboard-interactive|gssapi)[^)\n]*\)[^\n]*|Host key verification failed[^\n]*|ssh: Could not resolve hostname[^\n]*|unable to resolve host address[^\n]*|Connection timed out[^\n]*|lost connection[^\n]*|${NO_CONNECTION}`, 'i');
// "Permission denied (publickey)." is an SSH login refused by a server, not a file write refused.
const WRITE_REFUSED = /Read-only file system[^\n]*|Operation not permitted[^\n]*|Permission denied(?! \((?:publickey|password|keyboard-interactive|gssapi)[^)]*\))[^\n]*|\bEROFS\b[^\n]*|\bEACCES\b[^\n]*|\bEPERM\b[^\n]*|sandbox (denied|blocked)[^\n]*|blocked by (the )?sandbox[^\n]*/i;

const WAITING_MAX = 200;

// curl's and wget's own exit codes for a transfer that never reached its host: curl 6 (host not
// resolved), 7 (no connection), 28 (timed out), 35 (TLS handshake), 52 (empty reply), 56 (receive
// failure); wget 4 (network failure). `curl -s` prints nothing, so the code is all the evidence.
const CURL_UNREACHED = new Set([6, 7, 28, 35, 52, 56]);
const WGET_UNREACHED = new Set([4]);

/** The exit code of a command whose only network client is curl (or wget) that says the transfer never happened. */
function unreachedExit(command: string | undefined, exitCode: number | null): string | null {
  if (command === undefined || exitCode === null) return null;
  const curl = /(?:^|[\s;&|(])curl\b/.test(command);
  const wget = /(?:^|[\s;&|(])wget\b/.test(command);
  if (curl && !wget && CURL_UNREACHED.has(exitCode)) return `curl exited ${exitCode}`;
  if (wget && !curl && WGET_UNREACHED.has(exitCode)) return `wget exited ${exitCode}`;
  return null;
}

/**
 * A rule whose every finding claims that a command it saw did something (deleted, tore down,
 * force-pushed, discarded): its findings wait for the command's result, and a refused command
 * becomes an attempt (issue 25: did the action take effect?).
 */
export function effectGated(rule: Rule): Rule {
  return {
    metas: rule.metas,
    create(outer) {
      const outcomes = new Outcomes(outer, rule.metas);
      let current: NormEvent | null = null;
      let currentFacts: EventFacts | null = null;
      const inner = rule.create({ session: outer.session, report: (d) => (current ? outcomes.report(current, 'run', d, undefined, undefined, stepOf(d, current, currentFacts)) : outer.report(d)) });
      return {
        onEvent(event, facts) {
          outcomes.onEvent(event);
          current = event.kind === 'tool_call' ? event : null;
          currentFacts = facts;
          try {
            inner.onEvent(event, facts);
          } finally {
            current = null;
          }
        },
        finish() {
          inner.finish?.();
          outcomes.finish();
        },
      };
    },
  };
}

/**
 * The step of a chain a draft is about: the command whose evidence is the draft's first (rules quote
 * the command they judge), when the call ran more than one. Lets a chain that stopped before that
 * step count as an attempt.
 */
function stepOf(draft: FindingDraft, call: NormEvent, facts: EventFacts | null): string | undefined {
  const commands = facts?.shell?.commands;
  const excerpt = draft.evidence[0]?.excerpt;
  if (!commands || commands.length < 2 || excerpt === undefined) return undefined;
  const matching = commands.filter((c) => evidence(call, c.text, facts).excerpt === excerpt);
  return matching.length === 1 ? matching[0]!.text : undefined;
}

/** Why an effect did not happen. `refused`: a person, a policy, a sandbox or the harness stopped it (not a failure). */
export interface Refusal {
  why: string;
  line: string | null;
  refused?: boolean;
}

// (and a program's own word that it could not create the file: `cp: cannot create regular file '/opt/x/a.conf'`)
const REFUSAL_WORDS = /operation not permitted|permission denied|read-only file system|EACCES|EPERM|EROFS|cannot create (?:regular file|directory)/i;

/** A refusal line (permission, sandbox, read-only) that names the target path or its file name. */
function namedRefusal(output: string, target: string): string | null {
  const base = target.replace(/[\\/]+$/, '').replace(/^.*[\\/]/, '');
  // The line must hold the name and one of the words: without both, none does (the scan below
  // tries every position of every line, issue 30).
  if (base.length < 3 || !output.includes(base) || !REFUSAL_WORDS.test(output)) return null;
  for (const m of output.matchAll(/[^\n]*(?:operation not permitted|permission denied|read-only file system|EACCES|EPERM|EROFS|cannot create (?:regular file|directory))[^\n]*/gi)) {
    // a program's "cannot create" names the path it was given, whole: another file of that name is another write
    const whole = !/cannot create/i.test(m[0]) || [...m[0].matchAll(/['‘"]([^'’"\n]+)['’"]/g)].some((q) => samePlace(q[1]!, target));
    if (m[0].includes(base) && whole) return m[0];
  }
  return null;
}

/** A path a program printed is the target, or a file in it (`cp a dir/` prints `dir/a`): compared from the end. */
function samePlace(printed: string, target: string): boolean {
  const t = target.replace(/[\\/]+$/, '');
  const p = printed.replace(/[\\/]+$/, '');
  return p === t || p.startsWith(`${t}/`) || t.endsWith(`/${p.replace(/^\.\//, '')}`);
}

interface Waiting {
  drafts: { draft: FindingDraft; effect: Effect; target?: string; settle?: Settle; step?: string }[];
  /** The call's command, when it was one: its exit code can say what did not happen. */
  command?: string;
}

type Meta = { id: string; severity: 'critical' | 'warning' | 'info'; title: string };
/** A change a command makes on another system (a grant, a deploy): its failed status, when it was the call's last step, says it did not go through (settledRun). */
interface Settle {
  /** Whether the step is the call's last (its status is the call's); unset when only `wentThrough` settles it. */
  last?: boolean;
  title: string;
  /** Words of the tool's that the change went through (a publish that then failed in a later script): the failed status says nothing then. */
  wentThrough?: RegExp;
}

// The agents' own refusals, written as the call's result: a write refused because the file was not
// read first (Claude Code), a path outside the workspace or under ignore patterns (Gemini CLI), a
// shell command Gemini CLI will not run (command substitution, a command its settings block or do
// not allow, one it cannot parse), a sandbox rejection (Codex), a hook that blocked the call (all three).
const HARNESS_REFUSED = /File has not been read yet[^\n]*|(?:cd to '[^'\n]*'|[^\n]{0,80}) was blocked\. For security, Claude Code may only[^\n]*|File has been modified since read[^\n]*|String to replace not found in file[^\n]*|must be within one of the workspace directories[^\n]*|is ignored by (?:the )?configured ignore patterns[^\n]*|(?:rejected|blocked) by (?:the )?(?:sandbox|policy|user)[^\n]*|PreToolUse:\S+ hook (?:error|blocked)[^\n]*|hook (?:denied|blocked) (?:this|the) (?:call|tool)[^\n]*|(?:Blocked|Denied) by (?:a |the )?hook[^\n]*/i;
// The same without its second branch, for the outputs that do not hold that branch's words (almost
// all): `[^\n]{0,80}` before them was tried at every position of every output (issue 30).
const HARNESS_CLAUDE_CD = /was blocked\. For security, Claude Code may only/i;
const HARNESS_REFUSED_OTHER = /File has not been read yet[^\n]*|File has been modified since read[^\n]*|String to replace not found in file[^\n]*|must be within one of the workspace directories[^\n]*|is ignored by (?:the )?configured ignore patterns[^\n]*|(?:rejected|blocked) by (?:the )?(?:sandbox|policy|user)[^\n]*|PreToolUse:\S+ hook (?:error|blocked)[^\n]*|hook (?:denied|blocked) (?:this|the) (?:call|tool)[^\n]*|(?:Blocked|Denied) by (?:a |the )?hook[^\n]*/i;
const GEMINI_SHELL_REFUSED = /^(?:Command substitution using [^\n]{0,40}is not allowed for security reasons|Command '[^'\n]{0,200}' is blocked by configuration|Command\(s\) not in the allowed commands list[^\n]{0,200}|Command rejected because it could not be parsed safely)[^\n]*/;
const POWERSHELL_PARSE_ERROR = /CategoryInfo\s*:\s*ParserError[^\n]*/;
/** Claude Code's terminal: the call's whole result is the interrupt line. */
const CLAUDE_STOPPED_SILENT = /^\s*Interrupted · What should Claude do instead\?\s*$/;
const USER_CANCELLED = /User did not allow tool call|Operation Cancelled|denied by (?:the )?user|rejected by (?:the )?user/i;
// sudo that wanted a password stops `sudo a && sudo b && c` at its first step: nothing ran.
const SUDO_STOPPED = /sudo: (?:a terminal is required[^\n]*|a password is required[^\n]*|\d+ incorrect password attempts?[^\n]*|no tty present[^\n]*|timed out reading password[^\n]*)/;
// sudo's own prompt as the last words of a call that timed out or was stopped: it was still
// waiting for a password when the harness killed it, so nothing after it ran. The harness's own
// timeout line may come before or after the prompt.
const SUDO_PROMPT_LAST = /\[sudo\] password for [^\n:]{1,64}:[ \t]*$/;
const HARNESS_TIMEOUT_LINE = /^[ \t]*(?:Error: )?Command timed out[^\n]*$|^[ \t]*\[?(?:Request interrupted|Interrupted)[^\n]*$/gm;
// No sudo on this machine (a container, Windows' Git Bash), or sudo found no such program: the
// shell's own words. Nothing ran as root, and `&&` stopped the chain there.
const SUDO_MISSING = /\bsudo: (?:command )?not found|command not found: sudo|\bsudo: [^\s:]{1,100}: command not found|'sudo' is not recognized as /;

// The whole call is one git command on one line (after a `cd` and variable assignments; `2>&1`
// allowed), whose operation git applies all at once or not at all: history rewrites, ref updates,
// recovery points. Not multi-target deletes or pushes (some targets can go before one fails), nor
// what acts on the working tree (a reset or checkout can overwrite files before it fails).
const ONE_GIT = /^[ \t]*(?:cd[ \t]+[^;&|\n]+&&[ \t]*)?(?:[A-Za-z_][A-Za-z0-9_]*=\S*[ \t]+)*git[ \t](?:[ \t]*-[Cc][ \t]+\S+|[ \t]*--?[\w-]+(?:=\S+)?)*[ \t]*(filter-branch|filter-repo|rebase|update-ref|reflog|gc)\b[^;&|\n]*$/;

/** One git command of any kind, alone on its line (after a `cd` and variable assignments). */
const ONE_GIT_ANY = /^[ \t]*(?:cd[ \t]+[^;&|\n]+&&[ \t]*)?(?:[A-Za-z_][A-Za-z0-9_]*=\S*[ \t]+)*git[ \t][^;&|\n]*$/;
/** git's refusals that come before it touches anything: its arguments named what is not there. */
const BEFORE_ANY_WORK = /^(?:fatal: (?:ambiguous argument '[^'\n]*': unknown revision|bad revision|invalid reference|Needed a single revision|not a git repository|pathspec '[^'\n]*' did not match any files?)|error: pathspec '[^'\n]*' did not match any file\(s\) known to git)/m;
const GIT_FAILURE_LINE = /^[ \t]*(?:fatal|error):|^[ \t]*Cannot rewrite branches/m;
const REWRITTEN_OR_CUT = /was rewritten|Successfully rebased|timed out|Interrupted/i;

/**
 * A git operation that git applies whole (a rewrite, a ref update, dropping recovery points) and
 * that exited non-zero changed no ref.
 */
function failedGit(command: string | undefined, result: ToolResultEvent): Refusal | null {
  // (a log that records no exit code, as Claude Code's older builds do, marks the failed result an error)
  // (with no exit code, the harness's error mark alone is not git's word: a failure line of git's
  // must say it, and nothing may say refs were rewritten or the run was cut off)
  const failed = result.exitCode === null
    ? result.isError && !result.denied && GIT_FAILURE_LINE.test(result.output) && !REWRITTEN_OR_CUT.test(result.output)
    : result.exitCode !== 0;
  if (!command || command.length > 4_000 || !failed || result.interrupted || result.runningAs) return null;
  // (a quoted argument is one word: `--index-filter "git rm … || true"` chains nothing)
  const bare = command.replace(/"[^"\n]*"|'[^'\n]*'/g, 'Q').replace(/[ \t]\d?>&\d\b/g, ' ').replace(/\s+$/, '');
  // any one git command that git refused before doing anything (a revision or path it could not
  // find, no repository): `git reset --hard HEAD~1` on a branch of one commit discarded nothing
  if (!ONE_GIT.test(bare) && !(ONE_GIT_ANY.test(bare) && BEFORE_ANY_WORK.test(result.output.slice(0, 4_000)))) return null;
  const line = result.output.split('\n').find((l) => /^(?:fatal|error):|^Cannot rewrite branches/.test(l.trim())) ?? null;
  const how = result.exitCode === null ? 'git failed (the log marks its result an error)' : `git exited with code ${result.exitCode}`;
  return { why: `${how}, so the operation did not complete and the refs are as they were`, line };
}

// Programs that print whenever they run (a listing, an echo) and programs through which sudo
// could return 127 itself (a shell, a script, env or xargs starting another program).
const PRINTS = /^(?:ls|cat|echo|printf|stat|id|whoami|pwd|head|tail|wc|date|file|readlink)$/;
const RELAYS = /^(?:bash|sh|zsh|dash|fish|env|xargs|su|nohup|timeout|exec|\S*\.sh|\.\/\S+|\/\S+\/\S+\.sh)$/;

/**
 * `sudo chown … 2>/dev/null && ls -la …` that exited 127 printing nothing: sudo's own "command not
 * found" was hidden, and the listing after it would have printed had sudo run. Only a chain of
 * `&&` steps with no pipe or background, sudo's program no shell or script, its step's errors
 * redirected away, and a later step that always prints with its output not redirected.
 */
function silentMissingSudo(command: string): boolean {
  const text = command.replace(/\d?>&\d/g, ' ');
  if (/(?<![|&])[|&](?![|&])/.test(text) || text.length > 2_000) return false;
  const steps = text.split('&&').map((x) => x.trim());
  const first = steps[0].split(/\s+/);
  const program = first.slice(1).find((w) => !w.startsWith('-')) ?? '';
  if (RELAYS.test(program) || !/(?:^|\s)2>\s*\/dev\/null\b|&>\s*\/dev\/null\b/.test(steps[0])) return false;
  return steps.slice(1).some((st) => PRINTS.test(st.split(/\s+/)[0] ?? '') && !/>/.test(st));
}

/** The target a `systemctl enable` finding passes: its result can show the unit was enabled already. */
export const UNIT_ENABLE = '\u0000systemctl enable';
/** The target a force-push finding passes: its result can show the push never reached the remote. */
export const PUSH = '\u0000git push';
// git's own words for a push the remote refused before any ref moved: a client error the HTTP
// server answered (4xx), a rejected ref, failed authentication, no access. A broken connection or a
// server error (5xx) may come after the remote updated the ref, so it proves nothing.
const PUSH_FAILED = /error: RPC failed; HTTP 4\d\d[^\n]*|! \[(?:remote )?rejected\][^\n]*|fatal: Authentication failed[^\n]*|remote: Permission to [^\n]* denied[^\n]*|fatal: Could not read from remote repository[^\n]*/;
// The whole call is one `git push` of one ref (after a `cd`), loud enough to list what it updated.
const ONE_PUSH = /^[ \t]*(?:cd[ \t]+[^;&|\n]+&&[ \t]*)?git[ \t]+(?:-C[ \t]+\S+[ \t]+)?push\b(?![^;&|\n]*(?:[ \t]-q\b|--quiet|--all|--mirror|--tags))[^;&|\n]*$/;
/** The target a "ran as root" finding passes: its result can show the machine has no sudo at all. */
export const AS_ROOT = '\u0000as root';
// The shell's own words for a program it could not find, naming sudo (bash, dash, zsh, PowerShell,
// cmd): not sudo's "sudo: foo: command not found", which says sudo ran and found no foo.
// sudo's own refusal for every command of this user here (a container's no-new-privileges flag,
// a user outside sudoers, a sudo that is not setuid root): not "not allowed to execute X", which is one command.
const SUDO_CANNOT_HERE = /(?<![\w./-])sudo: (?:The "?no new privileges"? flag is set[^\n]*|effective uid is not 0[^\n]*|[^\n]{1,64} is not in the sudoers file[^\n]*|[^\n]{0,40}must be owned by uid 0 and have the setuid bit set[^\n]*)/m;
/** Programs through which a call runs commands on another machine, in a container or as another user. */
const ELSEWHERE = /\b(?:docker|podman|kubectl|oc|ssh|sshpass|su|runuser|lxc|pct|incus|vagrant|chroot|nsenter|machinectl|multipass|wsl|distrobox|toolbox|gcloud|az|aws)\b/;
const SHELL_HAS_NO_SUDO = /^(?:[\w./-]*(?:bash|sh|zsh)(?::| line \d+:| \d+:)*[ \t]*(?:line \d+: )?sudo: (?:command )?not found|zsh: command not found: sudo|'sudo' is not recognized as |sudo : The term 'sudo' is not recognized)/m;
const SYSV_SYNC = /Synchronizing state of [^\n]*\.service with SysV[^\n]*/;
/** The target a "served to the network" finding passes: its result can show the server never listened. */
export const SERVE = '\u0000serve';
// A server's own words for a port it could not take (Python, Node, PHP, Ruby, Go, Windows): it
// exited without listening, so it served nothing.
const BIND_FAILED = /[^\n]{0,80}(?:Address already in use|EADDRINUSE|\[Errno (?:98|48|10048)\]|Only one usage of each socket address|Failed to listen on [^\n]{0,80}reason:)[^\n]*/;
// A server's own words that it is listening (Python, Node's http-server and serve, PHP, Vite, Uvicorn …).
const LISTENING = /Serving HTTP on|[Ll]istening on|Available on:|Development Server \([^)\n]{0,80}\) started|Starting up http-server|Accepting connections at|Server running at|Uvicorn running on|Local:\s+https?:\/\//;
// Commands that start a server that keeps running: more than one in a call, a failure names no one of them.
const SERVER_START = /http\.server|SimpleHTTPServer|\bphp\s+-S\b|http-server|\bnpx\s+serve\b|\bhttpd\b|\bnpm\s+(?:run\s+)?(?:dev|start)\b|\bvite\b|\bnext\s+(?:dev|start)\b|\buvicorn\b|\bflask\s+run\b|\brails\s+s(?:erver)?\b|\bruby\s+-run\b|\bttyd\b|\bgotty\b|\bjupyter\s+(?:notebook|lab|server)\b|\bcode-server\b/g;

/**
 * The line that shows the call's one server could not take its port, or null: the words
 * (BIND_FAILED), no line of a server listening (`|| python3 -m http.server 8001` took another
 * port), one server in the call and no `||` fallback, the server's output not sent elsewhere, and
 * the port the failure names (when it names one) one the command names.
 */
function serverNeverListened(command: string, output: string): string | null {
  const bind = BIND_FAILED.exec(output);
  if (!bind || LISTENING.test(output) || command.length > 4_000 || command.includes('||')) return null;
  if ((command.match(SERVER_START) ?? []).length !== 1) return null;
  if (/&>|(?:^|[^&\d])\d?>\s*(?!&)[^\s&]/.test(command)) return null;
  const port = /(?:port\s+|:)(\d{2,5})\b/.exec(bind[0])?.[1];
  if (port !== undefined && !new RegExp(`(?<!\\d)${port}(?!\\d)`).test(command)) return null;
  return bind[0];
}

// `pkill -f PATTERN` as the call's first step (after a `cd`): the pattern is in the command line
// of the shell the agent's harness started for the call (`bash -c '…pkill -f PATTERN…'`), so pkill
// matches that shell and kills it. Only a pattern that matches its own text (no brackets, anchors,
// escapes, repetition or `~` the shell expands: `[h]ttp.server` does not), and only when nothing
// but the harness's lines was printed (a server that printed its banner ran).
const PKILL_FIRST = /^[ \t]*(?:cd[ \t]+[^;&|\n]+&&[ \t]*)?(?:sudo[ \t]+)?pkill((?:[ \t]+-[A-Za-z0-9]+)*)[ \t]+(?:"([^"\n]{3,200})"|'([^'\n]{3,200})'|([^\s;&|'"]{3,200}))[ \t]*(?:;|&&|\|\||\n)/;
// The shell's own end by a signal: 128 + SIGKILL (137), SIGTERM (143), and the 144 Claude Code's
// Bash tool reports for its killed wrapper.
const KILLED_BY_SIGNAL = new Set([137, 143, 144]);

/** `pkill -f` that killed the call's own shell: nothing after it in the call ran. */
function killedOwnShell(command: string | undefined, result: ToolResultEvent): Refusal | null {
  if (!command || command.length > 4_000 || result.exitCode === null || !KILLED_BY_SIGNAL.has(result.exitCode)) return null;
  const m = PKILL_FIRST.exec(command);
  if (!m || !/(?:^|[ \t])-[A-Za-z0-9]*f/.test(m[1] ?? '')) return null;
  const pattern = m[2] ?? m[3] ?? m[4] ?? '';
  if (/[[\]^$\\()|*+?{}~]/.test(pattern)) return null;
  // the kill's own trace: nothing printed but the harness's lines (a server that printed ran)
  if (result.output.replace(/^\s*(?:Exit code \d+|\[killed by signal[^\]\n]*\]|Command timed out[^\n]*|Terminated)\s*$/gim, '').trim() !== '') return null;
  return { why: `\`pkill -f\` matched the call's own shell (its command line holds "${pattern.slice(0, 60)}") and the shell was killed (exit code ${result.exitCode}), so nothing after it in the call ran`, line: null };
}

/** A program's own error line (`cp: 'a' and 'b' are identical (not copied)`, `mkdir: cannot create …`). */
const PROGRAM_ERROR = /^(?:[\w./-]*\/)?([a-z][\w.+-]{0,30}): \S/;
/** Words of an error (not of a notice): what makes the program's last line the reason the call failed. */
const ERROR_WORDS = /\b(?:cannot|can't|no such|not found|failed|fatal|error|denied|identical|invalid|unable|missing|refused|not permitted|not allowed|not copied|not a directory|is a directory|exists)\b/i;
/**
 * A line the agent's harness wraps a command's output in, not the command's own: Claude Code's
 * "Exit code N", Codex's "Exit code: N" / "Wall time: …" / "Output:" / "Process exited with code N"
 * / "Chunk ID: …" / "Original token count: …", Gemini CLI's "Command: …" / "Directory: …" /
 * "Output:" / "Error: (none)" / "Exit Code: N" / "Signal: …" / "Background PIDs: …" / "Process
 * Group PGID: …".
 */
export const HARNESS_LINE = /^\s*(?:Exit code:? -?\d+|Wall time:[^\n]*|Process exited with code -?\d+|Output:|Chunk ID: \w+|Original token count: \d+|Command (?:failed|exited)[^\n]*|Directory: [^\n]*|Error: \(none\)|Signal: [^\n]*|Background PIDs: [^\n]*|Process Group PGID: [^\n]*)\s*$/i;
const STEP_SEPARATOR = /(&&|\|\||;|\n)/;

/** The non-empty lines of a command's own output: without the harness's wrapper lines (HARNESS_LINE) and Gemini CLI's `Command: …` summary line. */
export function commandOutputLines(output: string): string[] {
  return output.split('\n').filter((l) => l.trim() !== '' && !HARNESS_LINE.test(l) && !GEMINI_COMMAND_LINE.test(l));
}
/** Gemini CLI's summary opens with the command it ran: the harness's line, not the command's. */
const GEMINI_COMMAND_LINE = /^Command: /;

/**
 * A chain that stopped before the step that acts on `target`: the call failed, its output's last
 * line is an error a program printed about itself (`cp: …`), that program runs in a step before
 * the target's, and every link from there to the target's step is `&&` (or `;` / a new line
 * under `set -e`). Bounded: calls up to 16,000 characters (a linear split and scans).
 */
function chainStoppedBefore(command: string | undefined, target: string | { step: string }, output: string, exitCode: number | null): Refusal | null {
  if (command === undefined || command.length > 16_000) return null;
  const last = output.slice(-2_000).split('\n').map((l) => l.trim()).filter((l) => l !== '' && !HARNESS_LINE.test(l)).at(-1);
  const prog = last === undefined ? undefined : PROGRAM_ERROR.exec(last)?.[1];
  // an error, not a program's warning or notice (`tar: Removing leading '/'`)
  if (prog === undefined || last === undefined || !ERROR_WORDS.test(last) || /\bwarning\b|Removing leading/i.test(last)) return null;
  const parts = command.split(STEP_SEPARATOR);
  const steps: { text: string; sep: string }[] = [];
  for (let i = 0; i < parts.length; i += 2) steps.push({ text: parts[i]!, sep: i === 0 ? '' : parts[i - 1]! });
  const program = (step: string) => step.trim().replace(/^(?:(?:sudo|env|command|time|nohup)\s+|[A-Za-z_]\w*=\S*\s+)*/, '').split(/\s+/)[0]?.replace(/^.*\//, '');
  // the failing program runs in one step only: otherwise which of its runs failed is unknown
  const runs = steps.filter((st) => program(st.text) === prog).length;
  const failing = steps.findIndex((st) => program(st.text) === prog);
  if (failing < 0 || runs !== 1) return null;
  // the error names what it failed on (`mkdir: cannot create directory '/usr/local/lib/x'`): that
  // must be the failing step's own operand — a later step's child process prints the same way
  // (quoted as GNU tools do, or BSD's `mkdir: /usr/local/lib/app: Permission denied`; an error in
  // other words — cp's "a and b are identical" — is taken as the failing step's, as before)
  const quoted = [...last.matchAll(/['‘"]([^'’"\n]{1,300})['’"]/g)].map((q) => q[1]!);
  const named = quoted.length > 0 ? quoted : [/^[\w./-]+: ([^:'"\s][^:\n]{0,300}?): /.exec(last)?.[1]].filter((n): n is string => n !== undefined);
  if (named.length > 0 && !named.some((q) => operandOf(steps[failing]!.text, q))) return null;
  const names = typeof target === 'string' ? namesTarget(target) : (text: string) => text.includes(target.step);
  const at = steps.findIndex((st, i) => i > failing && names(st.text));
  // not when an earlier step (the failing one included) names it too: that step may have acted on it
  if (at < 0 || steps.slice(0, at).some((st, i) => names(st.text) || (i !== failing && program(st.text) === prog))) return null;
  // `set -e` in force at the failing step (the last `set -e`/`set +e` before it decides)
  const flags = [...steps.slice(0, failing).map((st) => st.text).join(' ').matchAll(/\bset\s+([-+])[a-z]*e/g)];
  const setE = flags.at(-1)?.[1] === '-';
  for (let k = failing + 1; k <= at; k++) {
    const sep = steps[k]!.sep;
    if (sep !== '&&' && !((sep === ';' || sep === '\n') && setE)) return null;
  }
  return { why: `the chain stopped at \`${prog}\`, which failed${exitCode !== null ? ` (exit code ${exitCode})` : ''}, so the step that acts on ${typeof target === 'string' ? 'this path' : 'it'} did not run`, line: last.slice(0, 200) };
}

/**
 * zsh's refusal of a pattern that matched no file ("zsh: no matches found: /tmp/x*", "(eval):1: no
 * matches found: …" — Claude Code runs commands through zsh's eval — its NOMATCH default) and bash's
 * under failglob ("bash: no match: …"): the shell skips the whole command that holds the pattern,
 * before it runs (and a `&&` after it). The words name the pattern as expanded (`~/x*` as
 * `/home/me/x*`). Only for a pattern the step gives as a bare word of its own — not quoted (a
 * quoted pattern never expands), not inside a `$(…)` or backticks (the substitution fails, the
 * command runs) — and that no other step of the call holds (which of them failed is unknown).
 * The line, or null.
 */
function globMatchedNothing(command: string, step: string | undefined, output: string): string | null {
  if (step === undefined || command.length > 4_000 || !output.includes('no match')) return null;
  for (const m of output.slice(0, 20_000).matchAll(NO_GLOB_MATCH)) {
    const glob = m[1]!.trim();
    if (!/[*?[]/.test(glob)) continue;
    const underHome = glob.replace(/^\/(?:home|Users)\/[^/]+|^\/root/, '');
    const forms = [glob, ...(underHome !== glob ? [`~${underHome}`, `$HOME${underHome}`, `\${HOME}${underHome}`] : [])];
    if (!forms.some((f) => bareWordOf(step, f))) continue;
    // the same pattern in another step of the call: that step may be the one the shell refused
    const holders = command.split(STEP_SEPARATOR).filter((part, i) => i % 2 === 0 && forms.some((f) => part.includes(f)));
    if (holders.length === 1) return m[0].slice(0, 200);
  }
  return null;
}

/** `word` stands in `step` as a bare word: between blanks (or the step's ends), unquoted, outside any `$(…)` or backticks. */
function bareWordOf(step: string, word: string): boolean {
  for (let at = step.indexOf(word); at >= 0; at = step.indexOf(word, at + 1)) {
    const before = step.slice(0, at);
    const after = step[at + word.length];
    if (at > 0 && !/\s/.test(step[at - 1]!)) continue;
    if (after !== undefined && !/[\s;&|)]/.test(after)) continue;
    // inside a substitution or a quotation still open before it
    const opened = (before.match(/\$\(/g)?.length ?? 0) - (before.match(/\)/g)?.length ?? 0);
    const quotes = (q: string) => (before.split(q).length - 1) % 2 === 1;
    if (opened > 0 || quotes('`') || quotes("'") || quotes('"')) continue;
    return true;
  }
  return false;
}
const NO_GLOB_MATCH = /^(?:[^\s:]{1,60}:(?:\d+:)? )?no match(?:es found)?: (\S[^\n]{0,300})$/gm;

/** The step gives `path` as a whole word (`mkdir -p build` gives `build`, not `/opt/build`). */
function operandOf(step: string, path: string): boolean {
  return new RegExp(String.raw`(?:^|[\s'"=])${escapeRegExp(path)}(?=[\s'";&|)]|$)`).test(step);
}

/** Whether a step's text names `target`: as written, under `~` or `$HOME`, or by a name of its own. */
function namesTarget(target: string): (text: string) => boolean {
  const path = target.replace(/[\\/]+$/, '');
  const underHome = path.replace(/^\/(?:home|Users)\/[^/]+|^\/root/, '');
  const forms = [path, ...(underHome !== path ? [`~${underHome}`, `$HOME${underHome}`] : [])];
  const base = path.replace(/^.*[\\/]/, '');
  const word = base.length >= 4 ? new RegExp(`(?:^|[\\s/'"])${escapeRegExp(base)}(?:[\\s/'"]|$)`) : null;
  return (text) => forms.some((f) => text.includes(f)) || (word !== null && word.test(text));
}

// A client's own words that it never reached, or was never let into, the system it acts on, by the
// client: only that program's own lines count (a wrapper — ssh with a command, `bash -c`, `docker
// exec` — prints what the programs inside it print, after they may have acted). Not a connection
// lost midway, after some work.
const SSH_REFUSED = String.raw`^ssh: (?:connect to host|Could not resolve hostname)[^\n]*|^[^\n]{0,120}Permission denied \((?:publickey|password|keyboard-interactive|gssapi)[^)\n]*\)[^\n]*|^Host key verification failed[^\n]*`;
const CLIENT_UNREACHED: ReadonlyArray<[RegExp, RegExp]> = [
  [/^(?:ssh|scp|sftp|rsync|sshpass)$/, new RegExp(SSH_REFUSED, 'm')],
  [/^(?:kubectl|oc|helm)$/, /The connection to the server [^\n]{1,200} was refused[^\n]*|^Unable to connect to the server:[^\n]*|You must be logged in to the server[^\n]*|^error: You must be logged in[^\n]*|^Error: Kubernetes cluster unreachable[^\n]*/m],
  [/^(?:docker|podman|docker-compose)$/, /^Cannot connect to the Docker daemon[^\n]*|^error during connect:[^\n]*/m],
  [/^(?:psql|pg_dump|pg_restore|dropdb|createdb)$/, /^psql: error: connection to server[^\n]*|^[\w_]+: error: connection to server[^\n]*|could not connect to server[^\n]*|password authentication failed for user[^\n]*/m],
  [/^(?:mysql|mysqladmin|mysqldump|mariadb)$/, /^ERROR (?:(?:1045|1698) \(28000\): Access denied for user|200[2-5] \(HY000\): (?:Can't connect|Unknown MySQL server host))[^\n]*/m],
  [/^(?:mongosh|mongo|redis-cli)$/, new RegExp(String.raw`${NO_CONNECTION}|^Could not connect to Redis[^\n]*|Authentication failed[^\n]*`, 'm')],
  [/^(?:npm|pnpm|yarn)$/, /^npm (?:error|ERR!) code (?:ENEEDAUTH|E401|E403|EOTP)\b[^\n]*/m],
  [/^(?:terraform|tofu)$/, /No valid credential sources found[^\n]*/],
  [/^aws$/, /^Unable to locate credentials[^\n]*|^Could not connect to the endpoint URL[^\n]*/m],
  [/^gcloud$/, /You do not currently have an active account selected[^\n]*/],
  [/^az$/, /Please run 'az login'[^\n]*/],
  [/^gh$/, /^HTTP 401: Bad credentials[^\n]*/m],
  [/^(?:curl|wget|http|httpie)$/, new RegExp(NO_CONNECTION)],
];
/** Subcommands that run a command elsewhere (in a container, a pod): its words are that command's. */
const RUNS_INSIDE = /^(?:exec|run|debug|attach|cp)$/;
/** Output that shows the command got somewhere: a resource deleted or changed, a ref pushed, a package published. */
const PROGRESS = /\b(?:deleted|created|configured|patched|scaled|restarted|removed|dropped)\b|^\s*[+*-]? ?[0-9a-f]{7,40}\.\.\.?[0-9a-f]{7,40}\s|\[new (?:branch|tag)\]|^\+ \S+@\d|^> \S+@\S+ (?:pre|post)?publish$|^Query OK\b/m;
// Stages after the command that only pass its output on (`2>&1 | tail -5`): the words are its own.
const PASS_THROUGH = /^(?:tail|head|cat|less|more|tee)$/;

/**
 * The argv of a call that runs one command (after a `cd`, assignments or `sudo`), maybe piped
 * into stages that only pass its output on, or null: only then are a client's words about its
 * connection the words of the command the finding is about.
 */
function oneCommand(command: string | undefined): string[] | null {
  if (command === undefined || command.length > 4_000) return null;
  const bare = command.replace(/"[^"\n]*"|'[^'\n]*'/g, 'Q').replace(/[ \t]\d?>&\d\b/g, ' ').replace(/^\s*cd[ \t]+[^;&|\n]+&&/, '').trim();
  if (/;|&&|\|\||\n|&\s*$|`|\$\(/.test(bare)) return null;
  const [first, ...stages] = bare.split('|');
  if (stages.some((st) => !PASS_THROUGH.test(st.trim().split(/\s+/)[0] ?? ''))) return null;
  const words = (first ?? '').trim().split(/\s+/).filter((w) => !/^[A-Za-z_]\w*=/.test(w));
  const argv = words[0] === 'sudo' ? words.slice(Math.max(1, words.findIndex((w, i) => i > 0 && !w.startsWith('-')))) : words;
  return argv.length > 0 && argv[0] ? [argv[0].replace(/^.*\//, ''), ...argv.slice(1)] : null;
}

/**
 * `gh repo delete|edit|archive|rename owner/name` refused by GitHub's API for that very repository
 * ("HTTP 403: Must have admin rights to Repository. (https://api.github.com/repos/owner/name)"), the
 * only command of the call that names it: the line, or null.
 */
function githubRefused(step: string, command: string | undefined, output: string): string | null {
  const m = /^\s*gh\s+repo\s+(?:delete|edit|archive|rename)\s+(?:-\S+\s+)*([\w.-]+\/[\w.-]+?)(?:…|\.\.\.)?(?:\s|$)/.exec(step);
  if (!m || !output.includes('HTTP 4')) return null;
  const repo = m[1]!.toLowerCase();
  // another command of the call naming the same repository may be the one refused
  if ((command ?? step).toLowerCase().split(repo).length - 1 > 1) return null;
  // a name a capture cut off ("acme/internal-to…") is the start of the one refused
  const cut = /(?:…|\.\.\.)(?:\s|$)/.test(m[0]);
  const address = new RegExp(String.raw`/repos/${escapeRegExp(repo)}${cut ? String.raw`[\w.-]*` : ''}(?:[)\s]|$)`);
  for (const hit of output.slice(0, 20_000).matchAll(/HTTP 4\d\d:[^\n]*(?:\n[^\n]*)?/g)) {
    if (address.test(hit[0].toLowerCase())) return hit[0].split('\n')[0]!.slice(0, 200);
  }
  return null;
}

/**
 * A call of one command whose client said, in its own words, that it never reached or was never
 * let into the system it acts on (a database, a cluster, Docker's daemon, a registry, a cloud
 * account), with nothing in the output showing it got anywhere; or that the shell could not find
 * the program at all: the command changed nothing there. The call failed, or its status is a
 * pass-through stage's (`| tail -5`).
 */
function neverReached(command: string | undefined, result: ToolResultEvent): Refusal | null {
  const argv = oneCommand(command);
  if (argv === null) return null;
  const program = argv[0]!;
  const failed = result.isError || (result.exitCode !== null && result.exitCode !== 0);
  if (!failed && !command!.includes('|')) return null;
  const output = result.output.slice(0, 20_000);
  // a container's exec (behind its options too: `kubectl -n prod exec`, `docker compose exec`), or
  // ssh given a command: what prints may be the command inside, after it acted — for ssh, only its
  // own refusal that names the host it was sent to counts
  const operands = argv.slice(1).filter((a) => !a.startsWith('-'));
  if (/^(?:docker|podman|kubectl|oc|docker-compose)$/.test(program) && operands.slice(0, 3).some((o) => RUNS_INSIDE.test(o))) return null;
  if (/^(?:ssh|sshpass)$/.test(program) && operands.length > 1) {
    const host = (operands[0] ?? '').replace(/^.*@/, '');
    if (host.length < 3) return null;
    const hostWord = new RegExp(String.raw`(?:^|@|connect to host |hostname )${escapeRegExp(host)}(?=[:\s]|$)`);
    for (const m of output.matchAll(new RegExp(SSH_REFUSED, 'gm'))) {
      if (hostWord.test(m[0]) && !PROGRESS.test(output)) return { why: `\`${program}\` could not log in to ${host}, so the command it carried did not run there`, line: m[0].trim().slice(0, 200) };
    }
    return null;
  }
  const name = escapeRegExp(program);
  const missing = new RegExp(String.raw`(?:^|[\s:])${name}: (?:command )?not found[^\n]*|'${name}' is not recognized as [^\n]*|The term '${name}' is not recognized[^\n]*`, 'm').exec(output);
  if (missing && (result.exitCode === 127 || result.exitCode === 1 || result.exitCode === null)) return { why: `the shell found no \`${program}\` on this machine, so the command did not run`, line: missing[0].trim().slice(0, 200) };
  if (PROGRESS.test(output)) return null;
  const words = CLIENT_UNREACHED.find(([client]) => client.test(program))?.[1];
  const m = words?.exec(output);
  return m ? { why: `\`${program}\` could not reach or log in to what it acts on, so nothing changed there`, line: m[0].trim().slice(0, 200) } : null;
}

/**
 * Why the result shows the effect did not happen, or null. `target`: the path or host the finding
 * names; `command`: the call's command line, whose network client's exit code can tell.
 */
export function refusal(result: ToolResultEvent, effect: Effect, target?: string, command?: string, step?: string): Refusal | null {
  // systemctl prints "Created symlink …" for every unit it enables; a SysV-backed unit that was
  // enabled already only gets its state synchronised: nothing new will start on its own.
  // systemctl's own refusal: no such unit file, nothing linked
  if (target === UNIT_ENABLE) {
    const failedEnable = /Failed to enable unit:[^\n]*|Unit file [^\n]{1,200} does not exist[^\n]*/.exec(result.output.slice(0, 20_000));
    if (failedEnable && !/Created symlink/.test(result.output)) return { why: 'systemctl could not enable the unit, so nothing new starts on its own', line: failedEnable[0].slice(0, 200) };
  }
  if (target === UNIT_ENABLE && !result.isError) {
    const sync = SYSV_SYNC.exec(result.output.slice(0, 20_000));
    if (sync && !/Created symlink/.test(result.output)) return { why: 'the unit was enabled already (systemctl only synchronised its state, no symlink was created), so nothing new starts on its own', line: sync[0] };
  }
  if (result.denied) return { why: 'the call was refused (permission prompt or policy) and did not run', line: null, refused: true };
  if (target === SERVE) {
    const bind = command !== undefined ? serverNeverListened(command, result.output.slice(0, 20_000)) : null;
    if (bind) return { why: 'the server could not take its port and exited, so it served nothing', line: bind.trim().slice(0, 200) };
  }
  // Findings about what ran after the kill (a server, a write, a transfer); a finding about the
  // pkill itself (`run`) stands: it ran.
  if (target === SERVE || effect !== 'run') {
    const killed = killedOwnShell(command, result);
    if (killed) return killed;
  }
  // a push that failed with git's own refusal or a broken connection moved no ref on the remote
  // only for a call that is this one push (another command's failure says nothing about it), and
  // not when the output lists a ref it did update
  const onePush = target === PUSH && command !== undefined && command.length <= 2_000 && ONE_PUSH.test(command.replace(/[ \t]\d?>&\d\b/g, ' ').trimEnd());
  const pushFailed = onePush && (result.isError || (result.exitCode !== null && result.exitCode !== 0)) && !PUSHED_REF.test(result.output.slice(0, 20_000)) ? PUSH_FAILED.exec(result.output.slice(0, 20_000)) : null;
  if (pushFailed) return { why: 'the remote refused the push, so the remote branch was not changed', line: pushFailed[0].slice(0, 200) };
  // The shell said the machine has no sudo, or sudo said it cannot work here at all: whatever
  // else the call ran, nothing ran as root.
  // Only where nothing else in the call could have printed those words: another machine, a
  // container or another user's shell (`docker exec app sh -c 'sudo …'`), or the text itself
  // written out by the command (`echo 'sudo: not found'`).
  const own = target === AS_ROOT && command !== undefined && !ELSEWHERE.test(command);
  const noSudo = own ? SHELL_HAS_NO_SUDO.exec(result.output.slice(0, 20_000)) : null;
  if (noSudo && !command!.includes(noSudo[0].replace(/^[^:\n]*:(?:\s*line \d+:|\s*\d+:)?\s*/, '').slice(0, 30))) return { why: 'the shell found no sudo on this machine, so nothing in the call ran as root', line: noSudo[0].slice(0, 200) };
  const sudoCannot = own ? SUDO_CANNOT_HERE.exec(result.output.slice(0, 20_000)) : null;
  if (sudoCannot && !command!.includes(sudoCannot[0].slice(0, 30))) return { why: 'sudo refused to run on this machine, so nothing in the call ran as root', line: sudoCannot[0].slice(0, 200), refused: true };
  // Gemini CLI records a call the user turned down at its confirmation prompt as cancelled.
  if (result.interrupted && USER_CANCELLED.test(result.output.slice(0, 2_000))) return { why: 'the user did not allow the call at its confirmation prompt, so it did not run', line: null, refused: true };
  // Claude Code's terminal draws the same line for a call turned down at its permission prompt and
  // one stopped while it ran; with nothing printed before it, the call showed no sign of running.
  if (result.interrupted && CLAUDE_STOPPED_SILENT.test(result.output.slice(0, 300)) && !(command ?? '').includes('Interrupted')) return { why: 'the user stopped the call ("Interrupted · What should Claude do instead?") before it printed anything — most often at its permission prompt — so nothing shows it ran', line: null, refused: true };
  const failed = result.isError || (result.exitCode !== null && result.exitCode !== 0);
  const output = result.output.length > 200_000 ? result.output.slice(0, 200_000) : result.output;
  // A harness refusal never comes with exit code 0 (the command ran, and printed the words).
  const harness = result.exitCode !== 0 && (failed || output.length < 2_000) ? (HARNESS_CLAUDE_CD.test(output) ? HARNESS_REFUSED : HARNESS_REFUSED_OTHER).exec(output) : null;
  if (harness) return { why: 'the agent\'s harness refused the call, so it did not run', line: harness[0], refused: true };
  // Gemini CLI's shell tool refusing a command before it runs: the whole result is its words, an
  // error with no exit code (a command's own output cannot start the result with them and have none).
  const gemini = result.isError && result.exitCode === null ? GEMINI_SHELL_REFUSED.exec(output.trimStart().slice(0, 500)) : null;
  if (gemini) return { why: 'the agent\'s harness refused the call, so it did not run', line: gemini[0], refused: true };
  const git = failed ? failedGit(command, result) : null;
  if (git) return git;
  // PowerShell parses a whole script before it runs any of it: a parse error ran nothing
  // (only for a call that is one PowerShell invocation: after bash steps, or inside Invoke-Expression, some of it may have run)
  const parse = failed && command !== undefined && /^\s*(?:powershell|pwsh)(?:\.exe)?\s/i.test(command) && !/Invoke-Expression|\biex\b/i.test(command) ? POWERSHELL_PARSE_ERROR.exec(output.slice(0, 20_000)) : null;
  if (parse) return { why: 'PowerShell could not parse the command, so none of it ran', line: parse[0] };
  // Only for a call whose steps are sudo's and joined by `&&`: after `;` or `||` other steps ran
  // anyway, and a command without sudo cannot have been stopped by it (a log that prints the words).
  const chained = command !== undefined && command.length <= 4_000 && /^sudo\b/.test(command.trim()) && !/;|\|\||\n/.test(command);
  // a prompt left waiting stopped the chain only where sudo came first: `git push && sudo x` pushed before it asked
  const waited = chained && (failed || result.interrupted) ? SUDO_PROMPT_LAST.exec(output.slice(-2_000).replace(HARNESS_TIMEOUT_LINE, '').trimEnd()) : null;
  const sudo = SUDO_STOPPED.exec(output) ?? waited;
  // A pipe (`sudo pacman -S x 2>&1 | tail -3`) reports its last stage's status: sudo's own words
  // in a short output are enough.
  if (sudo && (failed || output.length < 2_000)) return { why: 'sudo asked for a password nobody could type, so the command (and the steps chained after it) did not run', line: sudo[0] };
  const missing = chained && (failed || output.length < 2_000) ? SUDO_MISSING.exec(output) : null;
  if (missing) return { why: 'the shell found no sudo (or sudo found no such program), so nothing ran as root and the steps chained after it did not run', line: lineAt(output, missing.index).slice(0, 300) };
  // Exit code 127 is the shell's "command not found"; with nothing printed, the chain stopped at
  // sudo only when sudo's own message was hidden and a later step would have printed for sure.
  if (chained && result.exitCode === 127 && output.replace(/^\s*Exit code 127\s*/, '').trim() === '' && silentMissingSudo(command!)) return { why: 'exit code 127, the shell\'s "command not found", with nothing printed where a later step prints: no sudo here, so nothing ran as root and the steps chained after it did not run', line: null };
  if (effect === 'run' && (target === undefined || target === PUSH)) {
    const unreached = neverReached(command, result);
    if (unreached) return unreached;
  }
  if (effect === 'run' && command !== undefined) {
    const skipped = globMatchedNothing(command, step ?? (command.split(STEP_SEPARATOR).length === 1 ? command : undefined), output);
    if (skipped) return { why: 'the shell found no file matching a pattern in the command and ran nothing of it', line: skipped };
  }
  if (target && target.charCodeAt(0) !== 0 && effect !== 'run') {
    const stopped = failed ? chainStoppedBefore(command, target, output, result.exitCode) : null;
    if (stopped) return stopped;
  }
  // GitHub's API refused this very repository's call (`gh repo delete o/r` → "HTTP 403: Must have
  // admin rights to Repository. (https://api.github.com/repos/o/r)"), whatever else the call ran
  if (effect === 'run' && step !== undefined) {
    const api = githubRefused(step, command, output);
    if (api) return { why: "GitHub's API refused the call for this repository, so nothing changed there", line: api };
  }
  // a finding about one step of a chain (`mkdir /opt/x && rm -rf ~/old`): the chain stopped before it
  if (effect === 'run' && step !== undefined && step.length >= 4) {
    const stopped = failed ? chainStoppedBefore(command, { step }, output, result.exitCode) : null;
    if (stopped) return stopped;
  }
  if (effect === 'write' && target) {
    // The shell's own refusal of this very path (`zsh: operation not permitted: ~/x`), even when
    // `2>/dev/null || true` hid it from the exit code: that write did not happen.
    const named = namedRefusal(output, target);
    if (named && /cannot create (?:regular file|directory)/i.test(named) && !/permission denied|not permitted|read-only/i.test(named)) return { why: 'the program could not create this file, so nothing was written there', line: named };
    if (named) return { why: 'the write to this path was refused (sandbox or file permissions), so nothing was written there', line: named, refused: true };
  }
  if (effect === 'network') {
    // A pipeline's exit code is its last stage's: curl's own error line is the evidence.
    const m = NETWORK_REFUSED.exec(output);
    if (m && (failed || /^curl: \(\d+\)/m.test(output) || /\bwget\b.*failed/i.test(output))) return { why: 'the connection failed, so nothing was sent or received', line: m[0] };
    const unreached = unreachedExit(command, result.exitCode);
    if (unreached) return { why: `the transfer never reached its host (${unreached}: no connection), so nothing was sent or received`, line: null };
  } else if (effect === 'write') {
    const m = failed ? WRITE_REFUSED.exec(output) : null;
    if (m) return { why: 'the write was refused (sandbox or file permissions), so nothing was written', line: m[0], refused: true };
  }
  return null;
}

/**
 * A file tool's write (Write, Edit, apply_patch, write_file) that answered with an error ("Error
 * writing file", a patch that did not apply) wrote nothing: the tools write whole or not at all.
 * A shell command's error says less (`cp a b && false` wrote), so only tools count.
 */
export function fileToolFailed(result: ToolResultEvent, call: { input: { type: string } }): boolean {
  return result.isError && call.input.type !== 'command';
}

function failedToolWrite(result: ToolResultEvent, effect: Effect, command: string | undefined): Refusal | null {
  if (effect !== 'write' || command !== undefined || !result.isError) return null;
  const line = result.output.split('\n').find((l) => l.trim() !== '')?.trim().slice(0, 200) ?? null;
  return { why: 'the file tool reported an error, so nothing was written', line };
}

/** Stages whose own status says whether they matched (`grep` exits 1 when it finds nothing), not whether the input's command worked. */
const MATCHERS: ReadonlySet<string> = new Set(['grep', 'egrep', 'fgrep', 'rg', 'ag', 'ack', 'findstr', 'Select-String', 'jq', 'test', '[']);

/**
 * Whether the call's status speaks for the command at `i` of its commands: it is the last, or only
 * pass-through stages of its pipeline follow it (`deploy 2>&1 | tail -5`: the whole pipeline is the
 * deploy). A matcher after it (`grant | grep -i error`) has a status of its own.
 */
export function lastStep(commands: ReadonlyArray<{ cmd: SimpleCommand }>, i: number): boolean {
  const cmd = commands[i]!.cmd;
  return commands.slice(i + 1).every((c) => c.cmd.pipeIndex > cmd.pipeIndex && c.cmd.pipeLength === cmd.pipeLength && !MATCHERS.has(c.cmd.name));
}

/**
 * A draft about a change a command makes (a deploy, a repository made public), as the call's result
 * decides it: a refused command, or one that failed, changed nothing — an "(attempted)" info. A
 * failed status speaks for the command only when it was the call's last step (`fly deploy && curl
 * -f …/health` failing at the check deployed). `title`: the rule's own, for a draft that has none.
 */
export function settledRun(draft: FindingDraft, result: ToolResultEvent, command: string | undefined, last: boolean, title: string): FindingDraft {
  const refused = refusal(result, 'run', undefined, command);
  const failed = result.denied || (last && (result.isError || (result.exitCode !== null && result.exitCode !== 0)));
  if (!refused && !failed) return draft;
  const why = refused?.why ?? `the command failed${result.exitCode !== null ? ` (exit code ${result.exitCode})` : ''}, so the change did not go through`;
  const { cause: _cause, ...rest } = draft;
  return {
    ...rest,
    severity: 'info',
    title: `${draft.title ?? title} (attempted)`,
    detail: `${draft.detail} Attempted only: ${why}.`,
    key: `${draft.key ?? draft.rule} (attempted)`,
  };
}

export class Outcomes {
  private readonly waiting = new Map<string, Waiting>();

  constructor(private readonly ctx: RuleContext, private readonly metas: readonly Meta[]) {}

  /** Reports `draft` once the result of `event` (a tool call) is known; other events report now. */
  report(event: NormEvent, effect: Effect, draft: FindingDraft, target?: string, settle?: Settle, step?: string): void {
    if (event.kind !== 'tool_call') {
      const { whenRan: _, ...now } = draft;
      this.ctx.report(now);
      return;
    }
    const w = this.waiting.get(event.callId) ?? { drafts: [], ...(event.input.type === 'command' ? { command: event.input.command } : {}) };
    w.drafts.push({ draft, effect, target, ...(settle ? { settle } : {}), ...(step !== undefined ? { step } : {}) });
    this.waiting.set(event.callId, w);
    if (this.waiting.size > WAITING_MAX) {
      const [oldest, first] = this.waiting.entries().next().value as [string, Waiting];
      this.waiting.delete(oldest);
      for (const { draft: { whenRan: _, ...d } } of first.drafts) this.ctx.report(d);
    }
  }

  onEvent(event: NormEvent): void {
    if (event.kind !== 'tool_result') return;
    const w = this.waiting.get(event.callId);
    if (!w) return;
    this.waiting.delete(event.callId);
    // A call `vouch guard` denied is the prevention gate's to report ("Prevented: …"), with the
    // draft as the rule made it, so a later workaround of the same target is still recognised.
    const guarded = isGuardDenial(event);
    for (const { draft: held, effect, target, settle, step } of w.drafts) {
      const { whenRan, ...draft } = held;
      const r = guarded ? null : refusal(event, effect, target, w.command, step) ?? failedToolWrite(event, effect, w.command);
      const through = settle?.wentThrough?.test(event.output.slice(0, 100_000)) === true;
      // the tool's own words that the change went through outweigh a failure after it (ssh added
      // the host key, then could not log in) — never a person's, a sandbox's or a hook's refusal
      if (through && !guarded && r?.refused !== true) {
        this.ctx.report(draft);
        continue;
      }
      if (settle?.last !== undefined && !guarded && !r) {
        this.ctx.report(settledRun(draft, event, w.command, settle.last, settle.title));
        continue;
      }
      this.ctx.report(r ? this.attempted(draft, r, event) : (whenRan && !event.denied && !event.isError ? whenRan(event.output) : null) ?? draft);
    }
  }

  /** Calls never answered: the finding stands, and says the log does not show what happened. */
  finish(): void {
    for (const w of this.waiting.values()) {
      for (const { draft: { whenRan: _, ...draft } } of w.drafts) this.ctx.report({ ...draft, detail: `${draft.detail} The result is not in the log.` });
    }
    this.waiting.clear();
  }

  /**
   * An attempt that did not take effect is info; one that would have been critical, refused by a
   * person, a sandbox, a hook or the harness, stays a warning that says so: someone tried. A
   * choice the agent made (`draft.choice`) that failed on its own stays a warning: it was made.
   */
  private attempted(draft: FindingDraft, r: Refusal, result: ToolResultEvent): FindingDraft {
    const meta = this.metas.find((m) => m.id === draft.rule);
    const title = draft.title ?? meta?.title ?? draft.rule;
    const quoted = r.line ? ` (\`${clip(oneLine(r.line), 120)}\`)` : '';
    const critical = r.refused === true && (draft.severity ?? meta?.severity) === 'critical';
    const chosen = draft.choice === true && r.refused !== true;
    // (an attempt is an event of its own: it joins no cause whose other members took effect)
    const { cause: _cause, ...rest } = draft;
    return {
      ...rest,
      severity: critical || chosen ? 'warning' : 'info',
      title: `${title} (attempted)`,
      detail: `${draft.detail} Attempted only: ${r.why}${quoted}.`,
      evidence: [...draft.evidence, ...(r.line ? [{ index: result.index, excerpt: clip(oneLine(r.line)) }] : [])],
      key: `${draft.key ?? draft.rule} (attempted)`,
    };
  }
}

const HELD_CALLS_MAX = 200;

/**
 * Drafts about what a call changed, held until its result: passed on when the call ran (no error,
 * not refused), dropped when it did not. For findings whose event is the change itself (a file
 * written, a record edited), where a failed call changed nothing to report even as an attempt.
 */
export class HeldDrafts {
  private readonly held = new Map<string, FindingDraft[]>();

  hold(callId: string, draft: FindingDraft): void {
    setCapped(this.held, callId, [...(this.held.get(callId) ?? []), draft], HELD_CALLS_MAX);
  }

  /** The drafts this result releases (none when the call failed or was refused). */
  settle(result: ToolResultEvent): FindingDraft[] {
    const drafts = this.held.get(result.callId) ?? [];
    this.held.delete(result.callId);
    return result.isError || result.denied ? [] : drafts;
  }

  /** Drafts of calls the log never answered. */
  unanswered(): FindingDraft[] {
    return [...this.held.values()].flat();
  }
}
