// What each agent hands its pre-tool hook, and how it wants the answer. Checked against the
// agents' sources and documentation (docs/integrations.md, "Stop it before it runs"):
// - Claude Code `PreToolUse`: stdin `session_id`, `transcript_path`, `cwd`, `hook_event_name`,
//   `tool_name` (Bash, Write, Edit, MultiEdit, Read, WebFetch, Task, mcp__…), `tool_input`.
//   Answer on stdout, exit 0: `{"hookSpecificOutput":{"hookEventName":"PreToolUse",
//   "permissionDecision":"deny"|"ask","permissionDecisionReason":"…"}}`. "allow" would skip
//   Claude's own permission prompt, so the guard never says it: no output leaves the agent's
//   normal flow in place.
// - Codex CLI `PreToolUse` (hooks.json): the same stdin fields plus `turn_id`, `model`,
//   `tool_use_id`; shell calls arrive as `tool_name: "Bash"` with `{command}`, patches as
//   `apply_patch` with `{command: <patch>}`, MCP tools with their arguments. Codex accepts
//   `permissionDecision: "deny"` with a non-empty reason; it rejects "ask" and a bare "allow" as
//   invalid hook output (codex-rs/hooks output_parser), so an ask becomes a `systemMessage`
//   warning the user sees, and the call goes on through Codex's own approval and sandbox.
// - Gemini CLI `BeforeTool` (settings.json): stdin `session_id`, `transcript_path`, `cwd`,
//   `hook_event_name`, `timestamp`, `tool_name` (run_shell_command, write_file, replace, …),
//   `tool_input`. Answer `{"decision":"deny"|"ask","reason":"…"}`; the reason of a deny is sent
//   to the model as the tool's error.
import type { HookAgentId } from '../agents.ts';
import type { AgentId, ToolCallEvent, ToolInput } from '../model/events.ts';
import { toolInput as claudeToolInput } from '../parsers/claude-code/tool-input.ts';
import { toolInput as geminiToolInput } from '../parsers/gemini/tools.ts';
import { patchInput, toolInput as codexToolInput } from '../parsers/codex/tool-input.ts';
import { obj, str } from '../parsers/shared/values.ts';
import type { WorktreeFacts } from './worktree.ts';

export type GuardDecision = 'deny' | 'ask' | 'allow';

/** One pending tool call, as the agent described it. */
export interface PendingCall {
  agent: AgentId;
  sessionId: string | null;
  transcriptPath: string | null;
  cwd: string | null;
  /** The user's home directory when the caller knows it (the hook runs as the user); else guessed from cwd. */
  home?: string | null;
  /** What the caller found on disk about the cwd's git worktree (absent: not looked at). */
  worktree?: WorktreeFacts | null;
  /** The environment the agent's shell inherits (the hook's own): `--config-env` values. */
  env?: Readonly<Record<string, string | undefined>>;
  toolName: string;
  call: ToolCallEvent;
}

export { GUARD_DENIAL_MARK } from './mark.ts';

export class PayloadError extends Error {}

/** The pending call in an agent's hook payload; throws PayloadError when it is not one. */
export function parsePendingCall(agent: HookAgentId, raw: unknown): PendingCall {
  const p = obj(raw);
  if (!p) throw new PayloadError('the hook input is not a JSON object');
  const toolName = str(p.tool_name);
  if (!toolName) throw new PayloadError('the hook input has no tool_name (is this a pre-tool hook?)');
  const input = inputOf(agent, toolName, p.tool_input);
  const call: ToolCallEvent = {
    kind: 'tool_call', index: -1, line: 0, at: null,
    callId: str(p.tool_use_id) ?? 'pending',
    name: toolName,
    input,
  };
  return {
    agent,
    sessionId: str(p.session_id) ?? null,
    transcriptPath: str(p.transcript_path) ?? null,
    cwd: str(p.cwd) ?? null,
    toolName,
    call,
  };
}

/** An agent's hook dialect: how its pending call's input reads, and how it wants a deny or an ask said. */
interface HookDialect {
  toolInput(toolName: string, rawInput: unknown): ToolInput;
  answer(decision: 'deny' | 'ask', reason: string): unknown;
}

/** One dialect per agent with hooks (the agent registry's `hooks: true`). */
const DIALECTS: Record<HookAgentId, HookDialect> = {
  'claude-code': {
    toolInput: claudeToolInput,
    answer: (decision, reason) => ({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: decision, permissionDecisionReason: reason } }),
  },
  codex: {
    toolInput(toolName, rawInput) {
      const input = obj(rawInput);
      const command = input ? str(input.command) : undefined;
      // Codex names its shell tools "Bash" for hooks (Claude-compatible) and hands apply_patch's
      // patch text as `command`.
      if (toolName === 'Bash' && command !== undefined) return { type: 'command', command, workdir: str(input?.workdir) };
      if (toolName === 'apply_patch' && command !== undefined) return patchInput(command);
      return codexToolInput(toolName, rawInput);
    },
    answer: (decision, reason) =>
      decision === 'deny'
        ? { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason } }
        : { systemMessage: `${reason} (Codex hooks cannot ask; the call goes on to Codex's own approval)` },
  },
  'gemini-cli': {
    toolInput: geminiToolInput,
    answer: (decision, reason) => ({ decision, reason }),
  },
};

function inputOf(agent: HookAgentId, toolName: string, rawInput: unknown): ToolInput {
  return DIALECTS[agent].toolInput(toolName, rawInput);
}

/** What the hook prints and its exit code. */
export interface HookAnswer {
  stdout: string;
  exitCode: number;
}

/** The agent's own answer format for a decision and its one-line reason. */
export function formatAnswer(agent: HookAgentId, decision: GuardDecision, reason: string): HookAnswer {
  if (decision === 'allow') return { stdout: '', exitCode: 0 };
  return json(DIALECTS[agent].answer(decision, oneLine(reason)));
}

function json(value: unknown): HookAnswer {
  return { stdout: JSON.stringify(value) + '\n', exitCode: 0 };
}

/** Reasons are shown on one line by every agent. */
export function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 400 ? flat.slice(0, 399) + '…' : flat;
}
