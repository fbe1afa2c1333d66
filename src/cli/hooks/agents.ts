// Where each agent keeps the hook configuration that runs a program when a session (or, for
// Codex, a turn) ends, and what that program receives. Checked against the agents' own docs:
// - Claude Code: `hooks.SessionEnd` in settings.json (user: ~/.claude/settings.json; project:
//   .claude/settings.local.json, the uncommitted one, because the command names a path on this
//   machine); the payload on stdin has `session_id`, `transcript_path`, `cwd`, `reason`.
// - Codex CLI: `hooks.Stop` in hooks.json (~/.codex/hooks.json or <repo>/.codex/hooks.json);
//   Stop runs at the end of every turn with `session_id`, `transcript_path` (the rollout file),
//   `cwd`. Codex has no session-end event, so uploads wait for a quiet period (settleMs).
//   The older `notify` program gets a JSON argument with `thread-id` instead; `hooks run codex`
//   accepts both and finds the rollout under ~/.codex/sessions from the thread id.
// - Gemini CLI: `hooks.SessionEnd` in settings.json (~/.gemini/settings.json or
//   <repo>/.gemini/settings.json); stdin has `session_id`, `transcript_path` (the chat
//   recording), `cwd`; its timeout is in milliseconds and stdout must stay empty or JSON.
import { join } from 'node:path';
import type { AgentId } from '../../domain/model/events.ts';

export type HookScope = 'user' | 'project';

export interface HookHandler {
  type: 'command';
  command: string;
  timeout: number;
  name?: string;
}

export interface AgentHookSpec {
  agent: AgentId;
  /** The hook event that fires when the log is complete enough to upload. */
  event: string;
  /** Wait this long after the last event of a session before uploading it (0: at once). */
  settleMs: number;
  settingsFile(scope: HookScope, env: HookEnv): string;
  handler(command: string): HookHandler;
}

export interface HookEnv {
  home: string;
  projectDir: string;
  codexHome?: string;
}

const HOOK_TIMEOUT_SECONDS = 10;

export const HOOK_AGENTS: Record<AgentId, AgentHookSpec> = {
  'claude-code': {
    agent: 'claude-code',
    event: 'SessionEnd',
    settleMs: 0,
    settingsFile: (scope, env) =>
      scope === 'user' ? join(env.home, '.claude', 'settings.json') : join(env.projectDir, '.claude', 'settings.local.json'),
    handler: (command) => ({ type: 'command', command, timeout: HOOK_TIMEOUT_SECONDS }),
  },
  codex: {
    agent: 'codex',
    event: 'Stop',
    settleMs: 90_000,
    settingsFile: (scope, env) =>
      scope === 'user' ? join(env.codexHome ?? join(env.home, '.codex'), 'hooks.json') : join(env.projectDir, '.codex', 'hooks.json'),
    handler: (command) => ({ type: 'command', command, timeout: HOOK_TIMEOUT_SECONDS }),
  },
  'gemini-cli': {
    agent: 'gemini-cli',
    event: 'SessionEnd',
    settleMs: 0,
    settingsFile: (scope, env) =>
      scope === 'user' ? join(env.home, '.gemini', 'settings.json') : join(env.projectDir, '.gemini', 'settings.json'),
    handler: (command) => ({ type: 'command', name: 'vouch-upload', command, timeout: HOOK_TIMEOUT_SECONDS * 1000 }),
  },
};

/** The command line written into the agent's configuration; `hooks run <agent>` marks it as ours. */
export function hookCommand(nodePath: string, binPath: string, agent: AgentId): string {
  return `${shellQuote(nodePath)} ${shellQuote(binPath)} hooks run ${agent}`;
}

/** Whether a configured command is the one Vouch installed for this agent (any install path). */
export function isVouchHookCommand(command: unknown, agent: AgentId): boolean {
  return typeof command === 'string' && /vouch/.test(command) && command.trimEnd().endsWith(`hooks run ${agent}`);
}

export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
