// Where each agent keeps its hook configuration, which events Vouch hooks into, and what the
// agent hands the hook. Checked against the agents' sources and real runs (docs/integrations.md):
// - Claude Code: `hooks.SessionEnd` in settings.json (user: ~/.claude/settings.json; project:
//   .claude/settings.local.json, the uncommitted one); stdin has `session_id`,
//   `transcript_path`, `cwd`, `hook_event_name`, `reason`. `disableAllHooks: true` turns every
//   hook off.
// - Codex CLI: `hooks.SessionEnd` in hooks.json (~/.codex/hooks.json or <repo>/.codex/hooks.json)
//   from 0.171; `Stop` (every turn, so uploads wait for a quiet period) for older versions.
//   SessionEnd's timeout is clamped to 3 s: the hook queues and detaches at once. A hook runs
//   only once the user trusted it: Codex records `[hooks.state."<hooks.json>:<event>:<group>:<handler>"]
//   trusted_hash` in config.toml (see codex-trust.ts). The older `notify` program gets a JSON
//   argument with `thread-id` instead; `hooks run codex` accepts both.
// - Gemini CLI: `hooks.SessionEnd` in settings.json (~/.gemini/settings.json or
//   <repo>/.gemini/settings.json); stdin has `session_id`, `transcript_path`, `cwd`; its timeout
//   is in milliseconds and stdout must stay empty or JSON. Hooks run only in trusted folders.
//
// Each agent has a table of hook KINDS: `upload` (session end → queue the log) and `guard` (the
// pre-tool hook → `vouch guard <agent>` judges the pending call: Claude Code and Codex
// `PreToolUse`, Gemini CLI `BeforeTool`; no matcher, so every tool call is judged), installed,
// removed and reported by the same code.
import { join } from 'node:path';
import type { HookAgentId } from '../../domain/agents.ts';

export type HookScope = 'user' | 'project';
export type HookKind = 'upload' | 'guard';
export const HOOK_KINDS: readonly HookKind[] = ['upload', 'guard'];

export interface HookHandler {
  type: 'command';
  command: string;
  /** Claude Code's exec form (no shell): used on Windows, where its shell would be PowerShell. */
  args?: string[];
  timeout: number;
  name?: string;
}

export interface HookEnv {
  home: string;
  projectDir: string;
  codexHome?: string;
  /** The agent's version when known (`codex --version`): picks the event for older versions. */
  agentVersion?: string | null;
  platform?: NodeJS.Platform;
}

export interface HookKindSpec {
  kind: HookKind;
  /** The event to install into, for this agent version. */
  event(env: HookEnv): string;
  /** Every event this kind may have been installed into (uninstall and status look at all). */
  events: readonly string[];
  /** The `vouch …` words after the launcher; also how a configured command is recognised as ours. */
  words(agent: HookAgentId): string[];
  handler(launch: Launch, agent: HookAgentId, event: string, env: HookEnv): HookHandler;
}

export interface AgentHookSpec {
  agent: HookAgentId;
  settingsFile(scope: HookScope, env: HookEnv): string;
  kinds: Record<HookKind, HookKindSpec>;
}

/** How the hook starts Vouch: a program and the arguments before `hooks …`. */
export interface Launch {
  program: string;
  args: string[];
}

const HOOK_TIMEOUT_SECONDS = 10;
/** Codex clamps SessionEnd hooks to 1–3 s; asking for 3 keeps the trust hash stable. */
export const CODEX_SESSION_END_TIMEOUT = 3;
/** The first Codex release with a SessionEnd hook event. */
export const CODEX_SESSION_END_SINCE = [0, 171, 0] as const;

const uploadWords = (agent: HookAgentId) => ['hooks', 'run', agent];
const guardWords = (agent: HookAgentId) => ['guard', agent];
/** The guard answers in well under a second; past its own budget (2.5 s) it allows. */
const GUARD_TIMEOUT_SECONDS = 10;

/** The shell an agent runs a hook command through on Windows (POSIX sh everywhere else). */
type WindowsShell = 'powershell' | 'cmd';

function commandLine(launch: Launch, words: string[], platform: NodeJS.Platform, windowsShell: WindowsShell): string {
  const quote = platform !== 'win32' ? shellQuote : windowsShell === 'cmd' ? cmdQuote : powershellQuote;
  const program = quote(launch.program);
  // PowerShell runs a quoted program path only behind the call operator.
  const head = platform === 'win32' && windowsShell === 'powershell' && program.startsWith("'") ? `& ${program}` : program;
  return [head, ...[...launch.args, ...words].map(quote)].join(' ');
}

function commandHandler(launch: Launch, words: string[], timeout: number, env: HookEnv, windowsShell: WindowsShell, extra: Partial<HookHandler> = {}): HookHandler {
  return { type: 'command', command: commandLine(launch, words, env.platform ?? process.platform, windowsShell), timeout, ...extra };
}

export function versionAtLeast(version: string | null | undefined, min: readonly number[]): boolean {
  const m = /(\d+)\.(\d+)\.(\d+)/.exec(version ?? '');
  if (!m) return true; // unknown (not installed here yet): assume a current version
  const v = [Number(m[1]), Number(m[2]), Number(m[3])];
  for (let i = 0; i < 3; i++) if (v[i] !== min[i]) return v[i] > min[i];
  return true;
}

/** Claude Code: the exec form (program + args) on Windows, where its command form runs PowerShell. */
function claudeHandler(launch: Launch, words: string[], timeout: number, env: HookEnv): HookHandler {
  return (env.platform ?? process.platform) === 'win32'
    ? { type: 'command', command: launch.program, args: [...launch.args, ...words], timeout }
    : commandHandler(launch, words, timeout, env, 'powershell');
}

/** One hook table per agent with hooks (the agent registry's `hooks: true`). */
export const HOOK_AGENTS: Record<HookAgentId, AgentHookSpec> = {
  'claude-code': {
    agent: 'claude-code',
    settingsFile: (scope, env) =>
      scope === 'user' ? join(env.home, '.claude', 'settings.json') : join(env.projectDir, '.claude', 'settings.local.json'),
    kinds: {
      upload: {
        kind: 'upload',
        event: () => 'SessionEnd',
        events: ['SessionEnd'],
        words: uploadWords,
        handler: (launch, agent, _event, env) => claudeHandler(launch, uploadWords(agent), HOOK_TIMEOUT_SECONDS, env),
      },
      guard: {
        kind: 'guard',
        event: () => 'PreToolUse',
        events: ['PreToolUse'],
        words: guardWords,
        handler: (launch, agent, _event, env) => claudeHandler(launch, guardWords(agent), GUARD_TIMEOUT_SECONDS, env),
      },
    },
  },
  codex: {
    agent: 'codex',
    settingsFile: (scope, env) =>
      scope === 'user' ? join(env.codexHome ?? join(env.home, '.codex'), 'hooks.json') : join(env.projectDir, '.codex', 'hooks.json'),
    kinds: {
      upload: {
        kind: 'upload',
        event: (env) => (versionAtLeast(env.agentVersion, CODEX_SESSION_END_SINCE) ? 'SessionEnd' : 'Stop'),
        events: ['SessionEnd', 'Stop'],
        words: uploadWords,
        // Codex runs hook commands with `cmd.exe /C` on Windows (codex-rs hooks command_runner).
        handler: (launch, agent, event, env) => commandHandler(launch, uploadWords(agent), event === 'SessionEnd' ? CODEX_SESSION_END_TIMEOUT : HOOK_TIMEOUT_SECONDS, env, 'cmd'),
      },
      guard: {
        kind: 'guard',
        event: () => 'PreToolUse',
        events: ['PreToolUse'],
        words: guardWords,
        handler: (launch, agent, _event, env) => commandHandler(launch, guardWords(agent), GUARD_TIMEOUT_SECONDS, env, 'cmd'),
      },
    },
  },
  'gemini-cli': {
    agent: 'gemini-cli',
    settingsFile: (scope, env) =>
      scope === 'user' ? join(env.home, '.gemini', 'settings.json') : join(env.projectDir, '.gemini', 'settings.json'),
    kinds: {
      upload: {
        kind: 'upload',
        event: () => 'SessionEnd',
        events: ['SessionEnd'],
        words: uploadWords,
        handler: (launch, agent, _event, env) => commandHandler(launch, uploadWords(agent), HOOK_TIMEOUT_SECONDS * 1000, env, 'powershell', { name: 'vouch-upload' }),
      },
      guard: {
        kind: 'guard',
        event: () => 'BeforeTool',
        events: ['BeforeTool'],
        words: guardWords,
        handler: (launch, agent, _event, env) => commandHandler(launch, guardWords(agent), GUARD_TIMEOUT_SECONDS * 1000, env, 'powershell', { name: 'vouch-guard' }),
      },
    },
  },
};

/** Wait this long after the last report of a session before uploading it: a per-turn event needs a quiet period. */
export function settleMsFor(agent: HookAgentId, event: string | null | undefined): number {
  if (agent !== 'codex') return 0;
  return event === 'SessionEnd' ? 0 : 90_000; // Stop and notify fire after every turn
}

/** Whether a configured handler is the one Vouch installed for this agent and kind (any launcher, any path). */
export function isVouchHandler(handler: { command?: unknown; args?: unknown }, agent: HookAgentId, kind: HookKind = 'upload'): boolean {
  const tail = HOOK_AGENTS[agent].kinds[kind].words(agent).join(' ');
  const line = typeof handler.command === 'string' ? [handler.command, ...(Array.isArray(handler.args) ? handler.args.map(String) : [])].join(' ') : null;
  return line !== null && /vouch/.test(line) && line.trimEnd().endsWith(tail);
}

export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** PowerShell: single quotes are literal; a single quote inside is doubled. */
export function powershellQuote(word: string): string {
  return /^[\w%+=:,./\\-]+$/.test(word) ? word : `'${word.replace(/'/g, "''")}'`;
}

/** cmd.exe: a word with spaces or special characters in double quotes (Windows paths hold no `"`). */
export function cmdQuote(word: string): string {
  return /^[\w+=:,./\\-]+$/.test(word) ? word : `"${word}"`;
}
