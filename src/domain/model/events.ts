// The normalised event model: every parser (Claude Code, Codex, Gemini CLI, plain text) turns its
// records into these events, and every rule reads only these. Pure data, no behaviour.
//
// Invariants:
// - `line` is the 1-based physical line of the source record (evidence points back to it).
// - `index` is assigned by the analyser in emission order; parsers leave it at -1.
// - `at` is an ISO-8601 time, or null when the format records none (legacy Codex, plain text).
// - Text fields hold the full text the log recorded; truncation happens only when the report is
//   built, so rules see everything.

import type { AgentId, FormatId } from '../agents.ts';

// Agents and their formats are declared once, in the agent registry (../agents.ts).
export type { AgentId, FormatId } from '../agents.ts';
export { AGENT_IDS } from '../agents.ts';

interface EventBase {
  index: number;
  line: number;
  at: string | null;
  /** Subagent/sidechain id when the event belongs to a subagent, else undefined (main thread). */
  agentId?: string;
}

/** Metadata the log reveals about the session; may appear several times (later values win). */
export interface SessionMetaEvent extends EventBase {
  kind: 'session_meta';
  sessionId?: string;
  cwd?: string;
  branch?: string;
  repositoryUrl?: string;
  agentVersion?: string;
  model?: string;
  /** Permission/sandbox posture as the agent recorded it (e.g. Codex approval_policy "never"). */
  approvalPolicy?: string;
  sandbox?: string;
  permissionMode?: string;
  /** Raw CLI flags or originator strings worth keeping (e.g. "--dangerously-skip-permissions"). */
  flags?: string[];
  /**
   * Files the harness itself listed untracked in the working tree, relative to it (Codex's undo
   * snapshot, `ghost_snapshot.preexisting_untracked_files`): git's own listing, like `git status`.
   */
  untrackedFiles?: string[];
}

export interface PromptEvent extends EventBase {
  kind: 'prompt';
  text: string;
  /** Injected by the harness (slash-command expansion, environment context), not typed by a person. */
  synthetic?: boolean;
}

export interface MessageEvent extends EventBase {
  kind: 'message';
  text: string;
  model?: string;
}

export interface ThinkingEvent extends EventBase {
  kind: 'thinking';
  text: string;
}

export type ToolInput =
  // shell: set when the agent's tool runs the command in PowerShell (Claude Code's PowerShell tool),
  // not a POSIX shell: its backtick is an escape, not a substitution.
  | { type: 'command'; command: string; workdir?: string; escalated?: boolean; justification?: string; background?: boolean; prefixRule?: string[]; shell?: 'powershell' }
  | { type: 'file_read'; path: string }
  /** `replaced`: the old text the write's display showed it replacing (a terminal capture's diff of an existing file). */
  | { type: 'file_write'; path: string; content: string; replaced?: string }
  | { type: 'file_edit'; path: string; edits: { oldText: string; newText: string }[] }
  | { type: 'patch'; files: PatchFile[] }
  | { type: 'web_fetch'; url: string; prompt?: string }
  | { type: 'web_search'; query: string }
  | { type: 'subagent'; description: string; prompt: string; agentType?: string }
  | { type: 'mcp'; server: string; tool: string; args: unknown }
  | { type: 'search'; pattern: string; path?: string }
  | { type: 'other'; args: unknown };

export interface PatchFile {
  path: string;
  op: 'add' | 'update' | 'delete';
  moveTo?: string;
  /** Lines removed (joined with \n), as far as the patch shows them. */
  removed: string;
  /** Lines added (joined with \n); for `add` the whole new file. */
  added: string;
}

export interface ToolCallEvent extends EventBase {
  kind: 'tool_call';
  /** The id linking the call to its result (toolu_…, call_…); synthesised when the log has none. */
  callId: string;
  /** The tool's name as the agent named it (Bash, shell_command, run_shell_command, mcp__x__y…). */
  name: string;
  input: ToolInput;
}

export interface ToolResultEvent extends EventBase {
  kind: 'tool_result';
  callId: string;
  /** Tool name if known from the call (filled by the parser when it can). */
  name?: string;
  output: string;
  /** Exit code when the log reveals one (numeric field, "Exit code N", "Exit Code: N"). */
  exitCode: number | null;
  /** The tool reported an error (is_error, status "error", functionResponse.error, non-zero exit). */
  isError: boolean;
  /** The user or policy refused the call. */
  denied: boolean;
  interrupted?: boolean;
  durationMs?: number;
  /**
   * The command was still running when this result was written, under this process id (Codex's
   * unified exec: "Process running with session ID N"); a later call that polls that id
   * (`write_stdin` with its `session_id`) gets its end and exit code.
   */
  runningAs?: string;
}

export interface UsageEvent extends EventBase {
  kind: 'usage';
  model?: string;
  /** Per-message token counts (already deduplicated by the parser). */
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

export interface CompactionEvent extends EventBase {
  kind: 'compaction';
  trigger?: string;
  preTokens?: number;
  summary?: string;
}

export interface SubagentEvent extends EventBase {
  kind: 'subagent_start' | 'subagent_end';
  subagentId: string;
  description?: string;
}

export interface SystemEvent extends EventBase {
  kind: 'system';
  subtype: string;
  text: string;
}

export interface ErrorEvent extends EventBase {
  kind: 'error';
  text: string;
}

/** A turn the user interrupted or the agent aborted. */
export interface InterruptEvent extends EventBase {
  kind: 'interrupt';
  reason: string;
}

export type NormEvent =
  | SessionMetaEvent
  | PromptEvent
  | MessageEvent
  | ThinkingEvent
  | ToolCallEvent
  | ToolResultEvent
  | UsageEvent
  | CompactionEvent
  | SubagentEvent
  | SystemEvent
  | ErrorEvent
  | InterruptEvent;

/** Where parsers send events and diagnostics. */
export interface EventSink {
  emit(event: NormEvent): void;
  /** A line (or record) that could not be understood: counted in stats.skipped_lines. */
  skip(line: number, reason: string): void;
  /** A subagent transcript the log references but that is not in this file. */
  missingSubagent?(id: string, line: number): void;
  /** A record of a type the parser does not know, holding nothing that looks like an action (see parsers/shared/unknown-records.ts). */
  unknownMetadata?(line: number, type: string): void;
  /**
   * The log records no tool call, yet the model answered again and again with no prompt between
   * its turns: the agent's tool calls happened but were not written (an old recording format).
   */
  /** `shown`: the capture's own words for the first such place (a folded group's summary line), quoted in the report. */
  toolsNotRecorded?(turns: number, line: number, shown?: string): void;
  /**
   * A terminal capture whose lines a text formatter joined and wrapped again (from this line):
   * commands and file names are recovered, the contents of edits are not.
   */
  rewrapped?(line: number): void;
  /**
   * Subagent runs whose tool calls the log shows only as a count (Claude Code's terminal:
   * "Task(…) ⎿ Done (45 tool uses · …)"; Codex's "• Spawned <id>", its calls in its own thread): `calls`
   * calls (0: not shown) in `runs` runs, the first at `line`.
   */
  subagentsNotRecorded?(runs: number, calls: number, line: number): void;
}

/**
 * A streaming parser for one format. The analyser JSON-parses each line (for JSON formats) and
 * hands over the value; plain-text parsers get the text. Parsers keep bounded state, except where
 * the format itself demands buffering (Gemini's re-appended ids and $rewindTo), documented there.
 */
export interface LogParser {
  readonly format: FormatId;
  readonly agent: AgentId | null;
  /** One JSON value per line (JSON formats). */
  record?(value: unknown, line: number, sink: EventSink): void;
  /** One text line (plain text, or a multi-line JSON document being accumulated). */
  text?(text: string, line: number, sink: EventSink): void;
  end(sink: EventSink): void;
}
