// Test helpers: run the whole catalogue over a short list of events, computing the per-event facts
// the way the analyser does (shell parse for commands, secret detection over every text, the call
// a result answers), and builders that keep specs to one line per event.
import type { AgentId, FormatId, NormEvent, PatchFile, SessionMetaEvent, ToolCallEvent, ToolInput, ToolResultEvent } from '../model/events.ts';
import type { SecretHit } from '../secrets/types.ts';
import type { EventFacts, FindingDraft, IngestFacts, Rule, SessionFacts } from './types.ts';
import { loadShellParser, parseShell } from '../shell/parse.ts';
import { commandSource } from '../shell/unwrap.ts';
import { detectSecrets } from '../secrets/detect.ts';
import { guessHome } from '../paths.ts';
import { RULES, RULE_METAS } from './index.ts';
import { textsOf } from '../event-texts.ts';

export const TEST_CWD = '/home/dev/project';

export interface RunOptions {
  /** Session cwd (default /home/dev/project); null for a log that records none. */
  cwd?: string | null;
  agent?: AgentId | null;
  format?: FormatId;
  ingest?: Partial<IngestFacts>;
  /** Run only these rules (default: the whole catalogue). */
  rules?: Rule[];
}

type EventInput = Partial<NormEvent> & { kind: NormEvent['kind'] };

/** Runs every rule over the events and returns the finding drafts, after finish(). */
export async function runRules(events: EventInput[], opts: RunOptions = {}): Promise<FindingDraft[]> {
  await loadShellParser();
  const cwd = opts.cwd === undefined ? TEST_CWD : opts.cwd;
  const ingest: IngestFacts = {
    skippedLines: 0, skippedSamples: [], oversizeLines: 0, invalidUtf8Lines: 0, truncatedTail: false, binary: false,
    missingSubagents: [], unknownMetadata: [], agentHint: null, hintConflict: false, lowConfidence: false, unrecognisedJson: false, incomplete: null, totalLines: events.length, toolsNotRecorded: null, rewrapped: null,
    ...opts.ingest,
  };
  const session: SessionFacts = { agent: opts.agent ?? 'claude-code', format: opts.format ?? 'claude-code-transcript', cwd, home: cwd ? guessHome(cwd) : null, ingest };
  const drafts: FindingDraft[] = [];
  const handlers = (opts.rules ?? RULES).map((r) => r.create({ session, report: (d) => drafts.push(d) }));
  const calls = new Map<string, ToolCallEvent>();
  for (const [i, partial] of events.entries()) {
    const event = { ...partial, index: i, line: partial.line ?? i + 1, at: partial.at ?? null } as NormEvent;
    if (event.kind === 'session_meta' && event.cwd && !session.cwd) {
      session.cwd = event.cwd;
      session.home = guessHome(event.cwd);
    }
    if (event.kind === 'session_meta' && (event.branch || event.repositoryUrl) && event.cwd && event.cwd === session.cwd) session.repository = true;
    const facts = await factsFor(event, calls, session.cwd);
    for (const h of handlers) h.onEvent(event, facts);
  }
  for (const h of handlers) h.finish?.();
  return drafts;
}

async function factsFor(event: NormEvent, calls: Map<string, ToolCallEvent>, cwd: string | null): Promise<EventFacts> {
  const secrets: SecretHit[] = [];
  for (const text of textsOf(event)) if (text) secrets.push(...(await detectSecrets(text, { proseEvidence: event.kind === 'prompt' && !event.synthetic })));
  const facts: EventFacts = { secrets };
  if (event.kind === 'tool_call') {
    if (event.input.type === 'command') facts.shell = parseShell(commandSource(event.input, /^[A-Za-z]:[\\/]/.test(cwd ?? '')));
    calls.set(event.callId, event);
  } else if (event.kind === 'tool_result') {
    facts.call = calls.get(event.callId);
  }
  return facts;
}

export { textsOf };

// ---- looking at results ---------------------------------------------------------------------------

/** Drafts of one rule id. */
export function only(drafts: FindingDraft[], rule: string): FindingDraft[] {
  return drafts.filter((d) => d.rule === rule);
}

/** The distinct rule ids that reported. */
export function ruleIds(drafts: FindingDraft[]): string[] {
  return [...new Set(drafts.map((d) => d.rule))].sort();
}

/** Rule ids that reported at critical or warning (what a reviewer would see as a problem). */
export function problems(drafts: FindingDraft[]): string[] {
  return ruleIds(drafts.filter((d) => severityOf(d) !== 'info'));
}

// ---- builders ---------------------------------------------------------------------------------------

let seq = 0;
const nextId = () => `call_${++seq}`;
const base = { index: -1, line: 0, at: null };

export interface CallOptions {
  callId?: string;
  name?: string;
  agentId?: string;
}

function call(input: ToolInput, name: string, o: CallOptions = {}): ToolCallEvent {
  return { ...base, kind: 'tool_call', callId: o.callId ?? nextId(), name: o.name ?? name, input, agentId: o.agentId };
}

export function cmd(command: string, o: CallOptions & { workdir?: string; escalated?: boolean; justification?: string; background?: boolean } = {}): ToolCallEvent {
  return call({ type: 'command', command, workdir: o.workdir, escalated: o.escalated, justification: o.justification, background: o.background }, 'Bash', o);
}

/** A command run by Claude Code's PowerShell tool (Windows). */
export function psCmd(command: string, o: CallOptions & { workdir?: string } = {}): ToolCallEvent {
  return call({ type: 'command', command, workdir: o.workdir, shell: 'powershell' }, 'PowerShell', o);
}

export interface ResultOptions {
  exitCode?: number | null;
  output?: string;
  isError?: boolean;
  denied?: boolean;
  interrupted?: boolean;
}

export function result(callId: string, r: ResultOptions = {}): ToolResultEvent {
  const exitCode = r.exitCode === undefined ? null : r.exitCode;
  return {
    ...base, kind: 'tool_result', callId, output: r.output ?? '', exitCode,
    isError: r.isError ?? (exitCode !== null && exitCode !== 0), denied: r.denied ?? false, interrupted: r.interrupted,
  };
}

/** A command and its result. */
export function ran(command: string, r: ResultOptions = {}, o: Parameters<typeof cmd>[1] = {}): [ToolCallEvent, ToolResultEvent] {
  const c = cmd(command, o);
  return [c, result(c.callId, { exitCode: 0, ...r })];
}

/** Any call and its result (for outputs of reads, fetches …). */
export function answered(c: ToolCallEvent, r: ResultOptions = {}): [ToolCallEvent, ToolResultEvent] {
  return [c, result(c.callId, r)];
}

export function prompt(text: string, synthetic?: boolean): EventInput {
  return { ...base, kind: 'prompt', text, synthetic };
}

export function say(text: string, model?: string, agentId?: string): EventInput {
  return { ...base, kind: 'message', text, model, agentId };
}

export function read(path: string, o: CallOptions = {}): ToolCallEvent {
  return call({ type: 'file_read', path }, 'Read', o);
}

export function write(path: string, content: string, o: CallOptions = {}): ToolCallEvent {
  return call({ type: 'file_write', path, content }, 'Write', o);
}

export function edit(path: string, oldText: string, newText: string, o: CallOptions = {}): ToolCallEvent {
  return call({ type: 'file_edit', path, edits: [{ oldText, newText }] }, 'Edit', o);
}

export function patch(files: (Partial<PatchFile> & { path: string })[], o: CallOptions = {}): ToolCallEvent {
  return call({ type: 'patch', files: files.map((f) => ({ op: 'update', removed: '', added: '', ...f })) }, 'apply_patch', o);
}

export function fetchUrl(url: string, promptText?: string, o: CallOptions = {}): ToolCallEvent {
  return call({ type: 'web_fetch', url, prompt: promptText }, 'WebFetch', o);
}

/** A call of an MCP server's tool, named as Claude Code names it (`mcp__server__tool`). */
export function mcpCall(server: string, tool: string, args: unknown = {}, o: CallOptions = {}): ToolCallEvent {
  return call({ type: 'mcp', server, tool, args }, `mcp__${server}__${tool}`, o);
}

/** A Task call launching a subagent. */
export function task(description: string, promptText: string, o: CallOptions = {}): ToolCallEvent {
  return call({ type: 'subagent', description, prompt: promptText }, 'Task', o);
}

export function search(pattern: string, path?: string, o: CallOptions = {}): ToolCallEvent {
  return call({ type: 'search', pattern, path }, 'Grep', o);
}

export function sessionMeta(fields: Partial<SessionMetaEvent> = {}): EventInput {
  return { ...base, kind: 'session_meta', ...fields };
}

export function usage(model: string, input: number, output: number, cacheRead = 0, cacheWrite = 0): EventInput {
  return { ...base, kind: 'usage', model, input, output, cacheRead, cacheWrite };
}

export function interrupt(reason = 'user interrupted'): EventInput {
  return { ...base, kind: 'interrupt', reason };
}

export function apiError(text: string): EventInput {
  return { ...base, kind: 'error', text };
}

/** A draft's effective severity (its own, else its rule's default). */
export function severityOf(d: FindingDraft): string {
  return d.severity ?? RULE_METAS.get(d.rule)?.severity ?? 'unknown';
}
