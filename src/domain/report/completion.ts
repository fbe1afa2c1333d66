// Whether the log covers the whole run, and how many runs it holds. A session "ends mid-action"
// when the main thread's last tool calls never got a result and nothing (no reply, no prompt, no
// interruption) came after them: the run was cut off and what those calls did is unknown. An
// interactive transcript that simply stops after the agent's last reply is complete. Parsers
// report what only the format can tell (a headless run without its closing record, a second run
// appended to the file) as system events with the subtypes below. Bounded state.
import type { NormEvent, ToolCallEvent } from '../model/events.ts';
import type { IncompleteRun } from '../rules/types.ts';
import { RUN_INCOMPLETE, RUN_START } from '../model/runs.ts';
import { describeCall } from '../rules/util.ts';
import { launchedProgram } from '../rules/commands.ts';
import { oneLine } from './strings.ts';
import { boundedAdd, boundedSet } from '../bounded.ts';
import { classifyPath } from '../paths.ts';
import { inputRemoved } from '../model/redaction.ts';

const OPEN_MAX = 1_000;
const CALL_TEXT_MAX = 120;

// Where the agents keep their session logs (Claude Code ~/.claude/projects/…/<id>.jsonl, Codex
// ~/.codex/sessions|archived_sessions/…/rollout-*.jsonl, Gemini CLI ~/.gemini/tmp/<project>/chats/).
// (also through the variables that move them: $CLAUDE_CONFIG_DIR, $CODEX_HOME).
// The folders themselves count too (`Get-ChildItem "$env:USERPROFILE\.codex\sessions"`), and so does
// an agent's whole store moved or copied (`mv ~/.claude ~/backup/.claude`): the log is inside it.
// `~/.codex/sessions`, `$CODEX_HOME/sessions`, and a folder joined to home (`Join-Path $HOME '.codex\\sessions'`).
const SESSION_FOLDER = /(?:[/\\'"\s(]\.claude|\$\{?CLAUDE_CONFIG_DIR\}?)[/\\]projects(?:[/\\"'\s]|$)|(?:[/\\'"\s(]\.codex|\$\{?CODEX_HOME\}?)[/\\](?:archived_)?sessions(?:[/\\"'\s]|$)|[/\\'"\s(]\.gemini[/\\]tmp[/\\][^\s/\\]+[/\\]chats\b|[/\\]\.(?:claude|codex|gemini)[/\\]?(?=\s|["']|$)/;
// Reading a file out to somewhere else: a copy, a move, an archive, a redirect.
const COPY_VERB = /(?:^|[\s;&|(])(?:cp|mv|rsync|scp|cat|tee|tar|zip|gzip|jq|install|ln|Copy-Item|Move-Item|copy|xcopy|robocopy)\b|>/;

/**
 * A call that exports this very log: the log is written while the call runs, so the call's result
 * can never be in it. It names the session id, or copies out of the agent's session folder.
 */
export function isOwnExport(call: ToolCallEvent, sessionId: string | undefined): boolean {
  // A command, or a tool whose arguments run one (Codex's code-mode `exec` cell calling exec_command).
  const text = call.input.type === 'command' ? call.input.command : call.input.type === 'other' ? JSON.stringify(call.input.args ?? '') : null;
  if (text === null) return false;
  const command = text.length > 8192 ? text.slice(0, 8192) : text;
  if (sessionId !== undefined && sessionId.length >= 8 && command.includes(sessionId)) return true;
  if (EXPORT_SCRIPT.test(command)) return true;
  return SESSION_FOLDER.test(command) && COPY_VERB.test(command);
}

// A script whose name says it exports the session (`export-session.sh`, `save_session.py`,
// `export_current_conversation.py`): the
// skills that publish a transcript run one as their last step, and the log is what it writes.
const EXPORT_SCRIPT = /(?:^|[\s"'/\\])(?:export|save|dump|share)[-_]?(?:(?:current|this|my|full|whole|raw|chat)[-_])?(?:session|transcript|conversation)s?(?:\.(?:sh|bash|py|js|mjs|ps1))?(?=["'\s]|$)/i;

// Steps whose effect stays in the working tree and can be checked there: a call that ends the log
// unanswered with only such steps leaves nothing outside to look at (issue 25: severity from
// consequence). Anything else — a push, a download, an install, a deletion, sudo, a script — might
// have changed what nobody can see from the log.
const LOCAL_PROGRAMS = /^(?:echo|printf|cat|ls|dir|pwd|cd|mkdir|touch|head|tail|wc|grep|rg|find|fd|sed|awk|sort|uniq|cut|tr|diff|stat|file|which|true|false|test|\[|nl|less|more|tree|jq|Get-Content|Get-ChildItem|Get-Item|Get-Location|Select-Object|Select-String|Where-Object|Sort-Object|Measure-Object|Format-Table|Format-List|Out-String|Resolve-Path|Split-Path|Join-Path|Test-Path|Write-Output|Write-Host|type)$/;
const LOCAL_GIT = /^(?:init|add|commit|status|diff|log|show|branch|checkout|switch|stash|rev-parse|remote|config|tag|ls-files|blame)$/;

const READ_ONLY_AGENTS = /^(?:Explore|Plan)$/;
// Quoted delimiters only (`<<'EOF'`): an unquoted heredoc expands `$(…)` in its body, which runs.
const HEREDOC_MESSAGE = /\$\(\s*cat\s+<<-?\s*(['"])(\w+)\1[ \t]*\n[\s\S]*?\n[ \t]*\2[ \t]*\n?\s*\)/g;

/** A path that names a place in the working tree (paths.ts decides; with no cwd, a relative path that does not climb out). */
function inTree(word: string, cwd: string | undefined): boolean {
  const path = word.replace(/^["']|["']$/g, '');
  if (cwd === undefined) return !/^(?:\/|~|[A-Za-z]:[\\/])/.test(path) && !/(?:^|\/)\.\.(?:\/|$)/.test(path);
  return classifyPath(path, { cwd, home: null }).zone === 'worktree';
}

/** Every URL in the step names this machine, and there is at least one. */
function localOnly(step: string): boolean {
  const hosts = [...step.matchAll(/\bhttps?:\/\/\[?([A-Za-z0-9.:-]+?)\]?(?::\d+)?(?=[/\s'"?#]|$)/g)].map((m) => m[1].toLowerCase());
  // Loopback only: rules' isLocalHost also counts the private network, where production servers live.
  return hosts.length > 0 && hosts.every((h) => h === 'localhost' || h.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(h) || h === '::1' || h === '0.0.0.0');
}

const QUOTED_WORD = /"(?:[^"\\\n]|\\.)*"|'[^'\n]*'/g;
/** `${HOME}`, `${N:-20}`: a shell variable in braces, not a block. */
const BRACED_VARIABLE = /\$\{[^{}\n]{0,200}\}/g;
const POWERSHELL_BLOCK = /\b(?:if|elseif)\s*\(|\)\s*\{|\}\s*else\s*\{|[{}]/g;

/** Inputs that only look: a subagent that made nothing but these changed nothing. */
const READ_ONLY_INPUTS: ReadonlySet<string> = new Set(['file_read', 'search', 'web_search']);

/** Tools of the three agents that only keep the agent's own lists or ask the user something. */
const BOOKKEEPING_TOOLS = /^(?:TodoWrite|TodoRead|AskUserQuestion|ExitPlanMode|EnterPlanMode|TaskCreate|TaskUpdate|TaskList|TaskGet|update_plan|request_user_input|ask_user|write_todos|update_topic)$/;

// Package managers' installs by name from their registry (`pip install requests`, `python3 -m pip
// install -U arize-phoenix`, `npm i -D @types/node`, `cargo add serde`): whether the install landed
// is nothing a person must check — what was installed is judged by its name (supply-chain rules)
// whatever the result. A URL, a path or a VCS source is code from elsewhere, and sudo counts anyway.
const INSTALLERS: Record<string, RegExp> = {
  pip: /^install$/, pip3: /^install$/, uv: /^(?:add|pip)$/, poetry: /^add$/, pipx: /^install$/,
  npm: /^(?:install|i|add)$/, pnpm: /^(?:add|install|i)$/, yarn: /^add$/, bun: /^(?:add|install|i)$/,
  cargo: /^(?:add|install)$/, gem: /^install$/, go: /^(?:get|install)$/, brew: /^install$/, composer: /^require$/,
};
const REGISTRY_NAME = /^(?:@[\w.-]+\/)?[A-Za-z0-9][\w.+-]*(?:\[[\w,-]+\])?(?:(?:==|>=|<=|~=|!=|@|>|<)[\w.*+-]+)?$/;
const ARCHIVE = /\.(?:whl|tar\.gz|tgz|zip|gem|crate)$/i;
const GO_MODULE = /^[a-z0-9.-]+\.[a-z]{2,}\/[\w./-]+(?:@[\w.+-]+)?$/;

/**
 * A static check of the project: a type checker or linter that reads the code and reports
 * (`tsc --noEmit`, `eslint .`, `ruff check`, `mypy`, `cargo check`, `go vet`), or the project's own
 * script of that name (`bun run check`, `npm run lint`, `pnpm typecheck`). It changes nothing, so
 * a log that ends waiting on one ends on nothing a person must look at. Not a test run: tests run
 * the project's code, which may reach anywhere.
 */
function staticCheck(name: string, args: string[]): boolean {
  const rest = args.filter((a) => a !== '2>&1' && !/^[12]?>\s*\/dev\/null$/.test(a));
  // (`npx tsc --noEmit`, `pnpm exec eslint .`: the program the launcher runs)
  const launched = launchedProgram({ name, args: rest });
  if (launched.name !== name) return staticCheck(launched.name, launched.args);
  // a fix or an install through any option (`yarn lint --fix`, `ruff check --fix-only`, `mypy --install-types`)
  if (rest.some((a) => a.startsWith('--fix') || a === '--install-types' || a === '--write')) return false;
  if (/^(?:npm|pnpm|yarn|bun)$/.test(name)) {
    // the script and nothing after it: yarn, pnpm and bun pass later words to the script
    const script = rest[0] === 'run' || rest[0] === 'run-script' ? rest[1] : rest[0];
    return script !== undefined && CHECK_SCRIPT.test(script) && rest.length === (script === rest[0] ? 1 : 2);
  }
  if (name === 'tsc') return rest.includes('--noEmit');
  if (name === 'eslint') return true;
  if (name === 'ruff') return rest[0] === 'check';
  if (name === 'cargo') return rest[0] === 'check' || rest[0] === 'clippy';
  if (name === 'go') return rest[0] === 'vet';
  return /^(?:mypy|pyright|vue-tsc|svelte-check)$/.test(name);
}
const CHECK_SCRIPT = /^(?:check|lint|typecheck|type-check|check-types|types|tsc|lint:check|format:check|check:types)$/;

function registryInstall(name: string, words: string[]): boolean {
  let rest = words.slice(1);
  let tool = name;
  // `python3 -m pip install …`, `uv pip install …`
  if (/^python[\d.]*$/.test(name) && rest[0] === '-m' && rest[1] === 'pip') [tool, rest] = ['pip', rest.slice(2)];
  const sub = INSTALLERS[tool];
  if (!sub || rest.length === 0 || !sub.test(rest[0])) return false;
  if (tool === 'uv' && rest[0] === 'pip') {
    if (rest[1] !== 'install') return false;
    rest = rest.slice(1);
  }
  const operands = rest.slice(1).filter((w) => !w.startsWith('-'));
  // options that take a file, an index or a place (`-r requirements.txt`, `--index-url …`,
  // `--find-links`, `--target`, `--prefix`), or install for the whole machine (`-g`,
  // `--break-system-packages`): not a project's package by name
  if (rest.slice(1).some((w) => /^(?:-r|-e|-c|-f|-t|-g|--requirement|--editable|--constraint|-i|--index-url|--extra-index-url|--find-links|--target|--prefix|--root|--global|--location|--break-system-packages|--registry|--git|--path|--source)$/.test(w) || /^--(?:index-url|extra-index-url|find-links|target|prefix|root|location|registry|git|path|source)=/.test(w))) return false;
  return operands.length > 0 && operands.every((w) => (tool === 'go' ? GO_MODULE.test(w) : REGISTRY_NAME.test(w) && !ARCHIVE.test(w)));
}

/** Whether an unanswered call could have changed something a person must look at, outside the working tree. */
export function isConsequential(call: ToolCallEvent, cwd?: string): boolean {
  const i = call.input;
  if (i.type === 'file_read' || i.type === 'search' || i.type === 'web_search') return false;
  // A write, an edit or a patch carries the whole change in its input: what it would do is in the
  // log, wherever the file lies, and the rules judge it from there (their findings say when its
  // result is missing). Only whether it landed is unknown, which needs no one to look.
  if (i.type === 'file_write' || i.type === 'file_edit' || i.type === 'patch') return false;
  // Claude Code's Explore and Plan agents have read-only tools: they change nothing anywhere.
  if (i.type === 'subagent') return !READ_ONLY_AGENTS.test(i.agentType ?? '');
  // the agent's own bookkeeping and questions to the user change nothing: a plan, a todo list, a question waiting for its answer
  if (i.type !== 'command') return !BOOKKEEPING_TOOLS.test(call.name);
  // `git commit -m "$(cat <<'EOF' … EOF)"`: a message written through a heredoc is text, not a step.
  const text = (i.command.length > 4096 ? i.command.slice(0, 4096) : i.command).replace(HEREDOC_MESSAGE, '""');
  if (/\bsudo\b|\$\(|`|>\s*(?:\/|~)(?!tmp\/|dev\/null)/.test(text)) return true;
  // Quoted words are one argument each (`-m "refresh; verify build"`): a `;` inside is no step.
  // An escaped character (`it\'s`, `\"`) is a plain character, never the start or end of a quote.
  // PowerShell's blocks (`if (Test-Path x) { Get-ChildItem x } else { 'missing' }`): their
  // condition and each branch are steps; a bare string is output.
  for (const step of text.replace(/\\[\s\S]/g, '_').replace(QUOTED_WORD, '""').replace(BRACED_VARIABLE, '$V').replace(POWERSHELL_BLOCK, ';').split(/&&|\|\||[;|\n]/)) {
    // `$x = Get-ChildItem …` runs its right side; a bare `$_ -match ""` is an expression
    const words = step.trim().replace(/^(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)+/, '').replace(/^\$[\w:.]+\s*=\s*/, '').split(/\s+/).filter((w) => w !== '' && w !== '""' && w !== ')');
    // A variable or its property alone, or compared (`$_ -match ""`), is output; `$f.Delete()` calls
    // a method and `$KUBECTL delete ns prod` runs the program the variable holds: both count.
    if (words.length === 0 || (/^\$[\w:.]+$/.test(words[0]) && words.slice(1).every((w) => /^-[a-z]+$/i.test(w)))) continue;
    const name = words[0].replace(/^.*[\\/]/, '');
    if (name === 'git') {
      // `git -C repo status`, `git -c k=v log`: those options take a value before the subcommand.
      const sub = words.slice(1).find((w, k, rest) => !w.startsWith('-') && !/^-[Cc]$|^--(?:git-dir|work-tree|namespace)$/.test(rest[k - 1] ?? ''));
      if (sub && LOCAL_GIT.test(sub) && !(sub === 'remote' && /\b(?:add|set-url|remove)\b/.test(step))) continue;
      return true;
    }
    // A request to this machine (a login test against localhost) reaches nothing beyond it.
    if ((name === 'curl' || name === 'wget' || name === 'http' || name === 'xh') && localOnly(step)) continue;
    // Python's JSON pretty-printer reading its input (`… | python3 -m json.tool`), like jq
    if (/^python[\d.]*$/.test(name) && words[1] === '-m' && words[2] === 'json.tool' && words.length <= 4) continue;
    // Modes of files in the tree (`chmod +x scripts/deploy.sh`, the tree's absolute paths too).
    if ((name === 'chmod' || name === 'touch') && words.slice(1).every((w) => w.startsWith('-') || /^[ugoa]*[-+=][rwxXst]*$|^\d{3,4}$/.test(w) || inTree(w, cwd))) continue;
    // (an index or registry set for this step alone: `PIP_INDEX_URL=… pip install x`, `npm_config_registry=… npm i x`)
    if (!/\b(?:PIP_[A-Z_]*(?:INDEX_URL|FIND_LINKS)|UV_[A-Z_]*INDEX_URL|npm_config_\w+|YARN_\w*REGISTRY\w*|CARGO_REGISTR\w+)=/.test(step) && registryInstall(name, words)) continue;
    if (staticCheck(name, words.slice(1))) continue;
    if (!LOCAL_PROGRAMS.test(name)) return true;
    if (name === 'sed' && /\s-i/.test(step) && /\s(?:\/|~)(?!tmp\/)/.test(step)) return true;
  }
  return false;
}

export class CompletionTracker {
  /** Main-thread calls without a result since the last reply, prompt or interruption. */
  private readonly open = new Map<string, ToolCallEvent>();
  private notice: IncompleteRun | null = null;
  /** Calls still running under a process id (Codex's "Process running with session ID N"), by that id. */
  private readonly running = new Map<string, ToolCallEvent>();
  /** Calls by id until their result, to know which one a running process belongs to. */
  private readonly calls = new Map<string, ToolCallEvent>();
  private sessionId: string | undefined;
  /** The working directory the log names: absolute paths under it are the tree's. */
  private cwd: string | undefined;
  runs = 1;
  /** A subagent's id → the main thread's call that started it (matched by the call's description). */
  private readonly agentCall = new Map<string, string>();
  /** Subagents whose own calls the log holds, and those of them that did more than read. */
  private readonly agentsSeen = new Set<string>();
  private readonly agentsActed = new Set<string>();

  add(event: NormEvent): void {
    if (event.agentId !== undefined) {
      // a subagent's own calls, when the log records them, say what the call that started it did
      if (event.kind === 'tool_call') {
        boundedAdd(this.agentsSeen, event.agentId, OPEN_MAX);
        // anything but a read or a search (a write, an edit, a command that reaches out) is acting
        if (!READ_ONLY_INPUTS.has(event.input.type) && (event.input.type !== 'command' || isConsequential(event, this.cwd)) && !BOOKKEEPING_TOOLS.test(event.name)) boundedAdd(this.agentsActed, event.agentId, OPEN_MAX);
      }
      return;
    }
    if (event.kind === 'subagent_start' && event.description) {
      // the first open call of that description not already linked to another subagent
      const linked = new Set(this.agentCall.values());
      const started = [...this.open.values()].find((c) => c.input.type === 'subagent' && c.input.description === event.description && !linked.has(c.callId));
      if (started) boundedSet(this.agentCall, event.subagentId, started.callId, OPEN_MAX);
      return;
    }
    switch (event.kind) {
      case 'session_meta':
        if (event.sessionId) this.sessionId = event.sessionId;
        if (event.cwd && this.cwd === undefined) this.cwd = event.cwd;
        return;
      case 'tool_call':
        boundedSet(this.open, event.callId, event, OPEN_MAX);
        boundedSet(this.calls, event.callId, event, OPEN_MAX);
        return;
      case 'tool_result': {
        this.open.delete(event.callId);
        const call = this.calls.get(event.callId);
        this.calls.delete(event.callId);
        // a poll of a running process answers for the command that started it
        const started = call && isPoll(call) ? this.running.get(pollTarget(call) ?? '') : call;
        if (event.runningAs !== undefined && started) boundedSet(this.running, event.runningAs, started, OPEN_MAX);
        return;
      }
      case 'message':
      case 'interrupt':
        this.open.clear();
        return;
      case 'prompt':
        if (!event.synthetic) this.open.clear();
        return;
      case 'system':
        if (event.subtype === RUN_START) {
          this.runs++;
          this.open.clear();
        } else if (event.subtype === RUN_INCOMPLETE && !this.notice) {
          this.notice = { kind: 'no-closing-record', reason: event.text, eventIndex: event.index };
        }
        return;
      default:
        return;
    }
  }

  /** At the end of the log: why the run is incomplete, or null. An unanswered last call wins. */
  finish(): IncompleteRun | null {
    if (this.open.size > 0) {
      const all = [...this.open.values()];
      const calls = all.filter((c) => !isOwnExport(c, this.sessionId));
      if (calls.length === 0) return ownExport(all[0]);
      // An empty poll of a running process (`write_stdin` with no input) does nothing itself: it
      // waits for the command that started the process, which decides what is unknown.
      const polled = (c: ToolCallEvent) => (isPoll(c) ? this.running.get(pollTarget(c) ?? '') : undefined);
      // a call whose arguments were removed from the file before it was shared: what it ran is
      // unknown for that reason (coverage/actions-removed says so), not because a run was cut off
      // a subagent whose recorded calls only read and searched changed nothing, whatever its result
      // (every subagent linked to the call: one that acted makes it weigh)
      const acting = new Set([...this.agentCall].filter(([agent]) => !this.agentsSeen.has(agent) || this.agentsActed.has(agent)).map(([, callId]) => callId));
      const readOnlyAgents = new Set([...this.agentCall].filter(([, callId]) => !acting.has(callId)).map(([, callId]) => callId));
      const weighty = calls.filter((c) => !inputRemoved(c.input) && !readOnlyAgents.has(c.callId) && isConsequential(polled(c) ?? c, this.cwd));
      const first = weighty[0] ?? calls[0];
      if (weighty.length === 0 && inputRemoved(first.input)) {
        return { kind: 'unanswered-call', reason: `The log ends on a tool call whose arguments were removed from the file before it was shared (line ${first.line}), with no result: what it ran is not in the log.`, eventIndex: first.index, consequential: false };
      }
      const waitingFor = polled(first);
      const what = oneLine(describeCall(first), CALL_TEXT_MAX) + (waitingFor ? `, waiting for \`${oneLine(describeCall(waitingFor), 120)}\` (line ${waitingFor.line}) to finish` : '');
      const others = calls.length > 1 ? ` (and ${calls.length - 1} more)` : '';
      // An export of this very log among them: the log stops where it was copied, and the calls
      // issued with that copy have no result in it (not a run cut off, but as unknown).
      const exporter = calls.length < all.length ? all.find((c) => isOwnExport(c, this.sessionId)) : undefined;
      const cause = exporter ? `The log is the copy the agent made at line ${exporter.line} (${oneLine(describeCall(exporter), 80)}), so it stops there` : 'The run was cut off';
      const unknown = weighty.length > 0
        ? `${cause}; what the call did is unknown.`
        : `${cause}; the call only works inside the working tree, so its effect can be checked in the tree itself.`;
      return {
        kind: 'unanswered-call',
        reason: `The log ends on a tool call that never got a result: ${what}${others} (line ${first.line}). ${unknown}`,
        eventIndex: first.index,
        consequential: weighty.length > 0,
        ...(exporter ? { exportIndex: exporter.index } : {}),
      };
    }
    return this.notice;
  }
}

/** Codex's `write_stdin` with nothing to type: a wait for output from a running process. */
function isPoll(call: ToolCallEvent): boolean {
  return call.name === 'write_stdin' && call.input.type === 'other';
}

/** The process id an empty poll waits on. */
function pollTarget(call: ToolCallEvent): string | null {
  if (call.input.type !== 'other') return null;
  const args = call.input.args as Record<string, unknown> | undefined;
  const id = args?.session_id ?? args?.sessionId;
  return typeof id === 'number' || typeof id === 'string' ? String(id) : null;
}

function ownExport(call: ToolCallEvent): IncompleteRun {
  return {
    kind: 'own-export',
    exportIndex: call.index,
    reason: `The log ends on the call that exports it (${oneLine(describeCall(call), CALL_TEXT_MAX)}, line ${call.line}): the log was written while that call ran, so its result cannot be in it. Nothing was cut off.`,
    eventIndex: call.index,
  };
}
