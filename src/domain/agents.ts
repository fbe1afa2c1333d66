// The agents Vouch reads, one entry each. Everything else that names an agent derives from this
// table: the event model's `AgentId` and `FormatId`, format detection (which agent a format belongs
// to, which formats are read with lower confidence), the parser families, the labels in reports
// and on pages, the OpenAPI and form enums, the CLI's choices, the hooks and the guard
// (`agents.spec.ts` checks each of them against it).
//
// Adding an agent: one entry here, plus its parser family in `parsers/index.ts` (`PARSERS` is keyed
// by `AgentId`, so the compiler asks for it) and, with `hooks: true`, its hook table in
// `cli/hooks/agents.ts` and its pre-tool payload dialect in `guard/payload.ts` (keyed likewise).
// Pure data: no I/O, nothing imported, so the guard's start-up can read it at no cost.

interface AgentSpec {
  /** How the agent is named to people (reports, pages). */
  label: string;
  /** The formats of the agent's own machine-readable logs. */
  formats: readonly string[];
  /** The agent's terminal output read as a log (heuristic, so lower confidence): one format per layout it prints. */
  terminalFormats: readonly string[];
  /**
   * Formats (among `formats`) that record only the person's prompts: the agent's actions are not
   * in them, so a report on one never vouches for them (no Clear; see docs/report.md).
   */
  promptsOnlyFormats: readonly string[];
  /**
   * Formats (among `formats`) that can record tool calls without any of their results (hook
   * payloads saved before each call, Codex's tracing log): whether a call ran and what it printed
   * may not be in them, so nothing is judged from a result's absence (no "never passed").
   */
  callsOnlyFormats: readonly string[];
  /** Vouch installs hooks into the agent (upload at session end, guard before each tool call). */
  hooks: boolean;
  /** The transcript the guard reads incrementally while a session runs, or null when it reads none. */
  liveTranscript: { format: string; /** only a transcript whose path ends so */ pathSuffix?: string } | null;
}

export const AGENTS = {
  'claude-code': {
    label: 'Claude Code',
    // claude-code-json: a transcript's records saved as one JSON array (hooks and export tools);
    // claude-code-hooks: the payloads hooks received (pre_tool_use.json …), an array or one a line.
    formats: ['claude-code-transcript', 'claude-code-stream-json', 'claude-code-json', 'claude-code-hooks'],
    terminalFormats: ['claude-code-tui'],
    promptsOnlyFormats: [],
    callsOnlyFormats: ['claude-code-hooks'],
    hooks: true,
    liveTranscript: { format: 'claude-code-transcript' },
  },
  codex: {
    label: 'Codex CLI',
    // codex-tui-log: the TUI's tracing log (~/.codex/log/codex-tui.log), which records the tool calls only.
    // codex-history: the prompt history (~/.codex/history.jsonl), the person's prompts only.
    // codex-json: a rollout's records saved as one JSON array (hooks and export tools).
    formats: ['codex-rollout', 'codex-legacy', 'codex-exec-json', 'codex-tui-log', 'codex-history', 'codex-json'],
    // `codex exec`'s text output, and the interactive TUI (`>_ OpenAI Codex`, `› prompt`, `• Ran …`).
    terminalFormats: ['codex-exec-text', 'codex-tui'],
    promptsOnlyFormats: ['codex-history'],
    callsOnlyFormats: ['codex-tui-log'],
    hooks: true,
    liveTranscript: { format: 'codex-rollout' },
  },
  'gemini-cli': {
    label: 'Gemini CLI',
    // gemini-markdown: `/chat share file.md`, the history rendered as Markdown.
    formats: ['gemini-jsonl', 'gemini-json', 'gemini-history', 'gemini-stream-json', 'gemini-logs', 'gemini-markdown'],
    // `logs.json` holds the person's prompts and nothing of what the agent did.
    promptsOnlyFormats: ['gemini-logs'],
    callsOnlyFormats: [],
    terminalFormats: ['gemini-cli-tui'],
    hooks: true,
    // Gemini CLI records a chat as one JSON document rewritten on every turn (no offset to keep):
    // only a JSON-lines recording is read.
    liveTranscript: { format: 'gemini-jsonl', pathSuffix: '.jsonl' },
  },
} as const satisfies Record<string, AgentSpec>;

type Agents = typeof AGENTS;
export type AgentId = keyof Agents;
/** The concrete format a log was recognised as (finer than the agent). */
export type FormatId = Agents[AgentId]['formats'][number] | Agents[AgentId]['terminalFormats'][number] | 'plain-text';
/** The agents Vouch installs hooks into. */
export type HookAgentId = { [A in AgentId]: Agents[A]['hooks'] extends true ? A : never }[AgentId];

/** Every agent id, in the registry's order (also the order detection asks the parser families). */
export const AGENT_IDS: readonly AgentId[] = Object.keys(AGENTS) as AgentId[];
export const HOOK_AGENT_IDS: readonly HookAgentId[] = AGENT_IDS.filter((a): a is HookAgentId => AGENTS[a].hooks);

export function isAgentId(value: unknown): value is AgentId {
  return typeof value === 'string' && Object.hasOwn(AGENTS, value);
}

export function agentLabel(agent: AgentId): string {
  return AGENTS[agent].label;
}

/** The agent each format belongs to (null: plain text, no agent can be read from it). */
export const FORMAT_AGENT: Readonly<Record<FormatId, AgentId | null>> = (() => {
  const map: Partial<Record<FormatId, AgentId | null>> = {};
  for (const agent of AGENT_IDS) {
    const spec = AGENTS[agent];
    for (const format of spec.formats) map[format] = agent;
    for (const format of spec.terminalFormats) map[format] = agent;
  }
  map['plain-text'] = null;
  return map as Record<FormatId, AgentId | null>;
})();

/** The agents' terminal output: one parser family reads them all. */
export const TERMINAL_FORMATS: readonly FormatId[] = AGENT_IDS.flatMap((a) => AGENTS[a].terminalFormats);

/** Formats that can hold tool calls without their results (AgentSpec.callsOnlyFormats). */
export const CALLS_ONLY_FORMATS: ReadonlySet<FormatId> = new Set<FormatId>(AGENT_IDS.flatMap((a) => AGENTS[a].callsOnlyFormats as readonly FormatId[]));

/** Formats that hold the prompts and nothing of what the agent did (Gemini CLI's logs.json). */
export const PROMPTS_ONLY_FORMATS: ReadonlySet<FormatId> = new Set<FormatId>(AGENT_IDS.flatMap((a) => AGENTS[a].promptsOnlyFormats as readonly FormatId[]));

/** Formats read by heuristics from text meant for a human (terminal output): lower confidence. */
export const LOW_CONFIDENCE_FORMATS: ReadonlySet<FormatId> = new Set<FormatId>(['plain-text', ...TERMINAL_FORMATS]);

/** The format of the transcript the guard reads while the session runs, or null when there is none to read. */
export function liveTranscriptFormat(agent: AgentId, transcriptPath: string): FormatId | null {
  const live: AgentSpec['liveTranscript'] = AGENTS[agent].liveTranscript;
  if (!live || (live.pathSuffix !== undefined && !transcriptPath.endsWith(live.pathSuffix))) return null;
  return live.format as FormatId;
}
