// Builds the report's timeline from the event stream: one entry per step a reader cares about,
// with a tool call and its result merged into one entry. Memory stays bounded on huge logs:
// at most `cap` entries are kept in order; later entries live in a short ring and are kept only
// when a finding points at them, so evidence always resolves.
import type { NormEvent, ToolCallEvent, ToolResultEvent } from '../model/events.ts';
import type { TimelineEntry, TimelineKind } from '../model/report.ts';
import { bounded, detach, oneLine } from './strings.ts';
import { boundedSet } from '../bounded.ts';

export const DEFAULT_TIMELINE_CAP = 10_000;
const DETAIL_MAX = 2_000;
const OUTPUT_MAX = 2_000;
const RING_SIZE = 64;
const OPEN_CALLS_MAX = 5_000;

/** Replaces secrets in a text before it is stored (the analyser supplies it per event). */
export type Masker = (text: string) => string;

/**
 * A step past the cap: kept in the ring as what is needed to build it (its event, its result and
 * their maskers), built only if a finding pins it. Most steps of a huge log are never shown, so
 * their summaries, bounded details and masked outputs are never computed.
 */
interface Deferred {
  index: number;
  event: NormEvent;
  mask: Masker;
  results: { result: ToolResultEvent; mask: Masker }[];
  /** Built already: a step with a long text is built at once, so the ring never pins big texts. */
  entry?: TimelineEntry;
}

/** Texts longer than this (in all) are not kept for later: the step is built (bounded) at once. */
const DEFER_MAX_CHARS = 16 * 1024;

export class TimelineBuilder {
  readonly entries: TimelineEntry[] = [];
  /** Entries numbered past the cap that were never promoted. */
  omitted = 0;
  private nextIndex = 0;
  private readonly ring: Deferred[] = [];
  /** Entries past the cap that were promoted into the report, by timeline index. */
  private readonly promoted = new Map<number, TimelineEntry>();
  /** event index → timeline index (-1: the event has no entry of its own). */
  private eventMap = new Int32Array(1024).fill(-1);
  private readonly openCalls = new Map<string, TimelineEntry | number>();

  constructor(private readonly cap = DEFAULT_TIMELINE_CAP) {}

  /** Adds (or merges) the event; returns its timeline index or -1. */
  add(event: NormEvent, mask: Masker): number {
    if (event.kind === 'tool_result') return this.mapEvent(event.index, this.mergeResult(event, mask));
    if (!hasEntry(event)) return this.mapEvent(event.index, -1);
    const index = this.nextIndex++;
    if (index >= this.cap) {
      this.defer({ index, event, mask, results: [] });
      if (event.kind === 'tool_call') this.rememberCall(event.callId, index);
      return this.mapEvent(event.index, index);
    }
    const entry = entryFor(event, mask)!;
    entry.index = index;
    this.entries.push(entry);
    if (event.kind === 'tool_call') this.rememberCall(event.callId, entry);
    return this.mapEvent(event.index, index);
  }

  /** The timeline index an event maps to (a result maps to its call's entry). */
  timelineIndexOf(eventIndex: number): number {
    return eventIndex < this.eventMap.length ? this.eventMap[eventIndex] : -1;
  }

  /** Make sure the entry is in the report (a finding points at it). */
  pin(timelineIndex: number): void {
    if (timelineIndex < this.cap) return;
    const i = this.ring.findIndex((d) => d.index === timelineIndex);
    if (i === -1) return;
    const [deferred] = this.ring.splice(i, 1);
    const entry = build(deferred);
    this.entries.push(entry);
    this.promoted.set(entry.index, entry);
    this.omitted--;
  }

  /** Attach a finding id to the entry, if it is in the report. */
  tag(timelineIndex: number, findingId: string): void {
    const entry = this.find(timelineIndex);
    if (entry && !entry.finding_ids.includes(findingId)) entry.finding_ids.push(findingId);
  }

  /** Entries in timeline order (promoted entries sorted into place). */
  finish(): TimelineEntry[] {
    this.entries.sort((a, b) => a.index - b.index);
    return this.entries;
  }

  /** An entry of the report (within the cap, or promoted); steps still in the ring are not. */
  private find(timelineIndex: number): TimelineEntry | undefined {
    if (timelineIndex < 0) return undefined;
    if (timelineIndex < this.cap) return this.entries[timelineIndex];
    // Past the cap: only promoted entries can match. (Scanning the entry list here made every
    // late tool result cost O(cap + promoted) on long logs.)
    return this.promoted.get(timelineIndex);
  }

  private defer(d: Deferred): void {
    if (textSize(d.event) > DEFER_MAX_CHARS) d.entry = build(d);
    this.omitted++;
    this.ring.push(d);
    if (this.ring.length > RING_SIZE) this.ring.shift();
  }

  private rememberCall(callId: string, entry: TimelineEntry | number): void {
    boundedSet(this.openCalls, callId, entry, OPEN_CALLS_MAX);
  }

  private mergeResult(result: ToolResultEvent, mask: Masker): number {
    const open = this.openCalls.get(result.callId);
    this.openCalls.delete(result.callId);
    if (open === undefined) {
      // A result whose call we never saw (cut log, or a format that records only results).
      const index = this.nextIndex++;
      if (index >= this.cap) {
        this.defer({ index, event: result, mask, results: [] });
        return index;
      }
      const orphan = resultEntry(result, mask);
      orphan.index = index;
      this.entries.push(orphan);
      return index;
    }
    if (typeof open !== 'number') {
      applyResult(open, result, mask);
      return open.index;
    }
    const entry = this.promoted.get(open);
    if (entry) {
      applyResult(entry, result, mask);
      return open;
    }
    const d = this.ring.find((x) => x.index === open);
    if (d && !d.entry && result.output.length > DEFER_MAX_CHARS) d.entry = build(d);
    if (d?.entry) applyResult(d.entry, result, mask);
    else d?.results.push({ result, mask });
    return open;
  }

  private mapEvent(eventIndex: number, timelineIndex: number): number {
    if (eventIndex >= this.eventMap.length) {
      const grown = new Int32Array(Math.max(this.eventMap.length * 2, eventIndex + 1)).fill(-1);
      grown.set(this.eventMap);
      this.eventMap = grown;
    }
    if (eventIndex >= 0) this.eventMap[eventIndex] = timelineIndex;
    return timelineIndex;
  }
}

/** The kinds of event that have a timeline entry of their own (see `entryFor`). */
const ENTRY_KINDS: ReadonlySet<NormEvent['kind']> = new Set<NormEvent['kind']>([
  'prompt', 'message', 'thinking', 'tool_call', 'compaction', 'subagent_start', 'subagent_end', 'system', 'error', 'interrupt',
]);

function hasEntry(event: NormEvent): boolean {
  return ENTRY_KINDS.has(event.kind);
}

/** A deferred step, built as it would have been when it happened. */
function build(d: Deferred): TimelineEntry {
  if (d.entry) return d.entry;
  const entry = d.event.kind === 'tool_result' ? resultEntry(d.event, d.mask) : entryFor(d.event, d.mask)!;
  entry.index = d.index;
  for (const r of d.results) applyResult(entry, r.result, r.mask);
  d.results = [];
  return entry;
}

/** Roughly how many characters of text a deferred step would keep alive. */
function textSize(event: NormEvent): number {
  switch (event.kind) {
    case 'prompt':
    case 'message':
    case 'thinking':
    case 'system':
    case 'error':
      return event.text.length;
    case 'compaction':
      return event.summary?.length ?? 0;
    case 'tool_result':
      return event.output.length;
    case 'tool_call':
      return inputSize(event.input);
    default:
      return 0;
  }
}

function inputSize(input: ToolCallEvent['input']): number {
  switch (input.type) {
    case 'command':
      return input.command.length;
    case 'file_write':
      return input.content.length;
    case 'file_edit':
      return input.edits.reduce((n, e) => n + e.oldText.length + e.newText.length, 0);
    case 'patch':
      return input.files.reduce((n, f) => n + f.added.length, 0);
    case 'subagent':
      return input.prompt.length;
    case 'web_fetch':
      return (input.prompt?.length ?? 0) + input.url.length;
    case 'mcp':
    case 'other':
      // Arguments of any shape: assume big rather than walk them.
      return DEFER_MAX_CHARS + 1;
    default:
      return 0;
  }
}

function base(event: NormEvent, kind: TimelineKind, summary: string): TimelineEntry {
  return {
    index: -1,
    at: event.at,
    kind,
    actor: event.agentId ? 'subagent' : 'assistant',
    summary: detach(summary),
    tool: null,
    detail: null,
    status: null,
    finding_ids: [],
    duration_ms: null,
    line: event.line,
  };
}

function withDetail(entry: TimelineEntry, text: string, mask: Masker): TimelineEntry {
  const b = bounded(mask(text), DETAIL_MAX);
  entry.detail = detach(b.text);
  if (b.originalLength !== undefined) entry.detail_length = b.originalLength;
  return entry;
}

function entryFor(event: NormEvent, mask: Masker): TimelineEntry | null {
  switch (event.kind) {
    case 'prompt': {
      const e = base(event, event.synthetic ? 'system' : 'prompt', oneLine(mask(event.text)));
      e.actor = event.synthetic ? 'system' : 'user';
      return withDetail(e, event.text, mask);
    }
    case 'message':
      return withDetail(base(event, 'message', oneLine(mask(event.text))), event.text, mask);
    case 'thinking':
      return withDetail(base(event, 'thinking', oneLine(mask(event.text))), event.text, mask);
    case 'tool_call':
      return callEntry(event, mask);
    case 'compaction': {
      const e = base(event, 'system', `Context compacted${event.trigger ? ` (${event.trigger})` : ''}`);
      e.actor = 'system';
      return event.summary ? withDetail(e, event.summary, mask) : e;
    }
    case 'subagent_start':
    case 'subagent_end': {
      const verb = event.kind === 'subagent_start' ? 'started' : 'finished';
      const e = base(event, 'subagent', oneLine(mask(`Subagent ${verb}${event.description ? `: ${event.description}` : ''}`)));
      e.actor = 'subagent';
      return e;
    }
    case 'system': {
      const e = base(event, 'system', oneLine(mask(event.text || event.subtype)));
      e.actor = 'system';
      return withDetail(e, event.text, mask);
    }
    case 'error': {
      const e = base(event, 'error', oneLine(mask(event.text)));
      e.actor = 'system';
      e.status = 'error';
      return withDetail(e, event.text, mask);
    }
    case 'interrupt': {
      const e = base(event, 'system', oneLine(mask(`Turn interrupted: ${event.reason}`)));
      e.actor = 'system';
      e.status = 'interrupted';
      return e;
    }
    default:
      // session_meta and usage feed stats and the header, not the timeline.
      return null;
  }
}

function callEntry(call: ToolCallEvent, mask: Masker): TimelineEntry {
  const input = call.input;
  const tool = call.name;
  switch (input.type) {
    case 'command':
      return pendingEntry(call, mask, 'command', `$ ${input.command}`, input.command);
    case 'file_read':
      return pendingEntry(call, mask, 'file_read', `Read ${input.path}`, input.path);
    case 'file_write':
      return pendingEntry(call, mask, 'file_write', `Write ${input.path}`, input.content);
    case 'file_edit':
      return pendingEntry(call, mask, 'file_edit', `Edit ${input.path}`, input.edits.map((e) => `- ${e.oldText}\n+ ${e.newText}`).join('\n'));
    case 'patch': {
      const onlyAdds = input.files.length > 0 && input.files.every((f) => f.op === 'add');
      const names = input.files.map((f) => `${f.op} ${f.path}`).join(', ');
      return pendingEntry(call, mask, onlyAdds ? 'file_write' : 'file_edit', `Patch: ${names}`, input.files.map((f) => `*** ${f.op} ${f.path}\n${f.added}`).join('\n'));
    }
    case 'web_fetch':
      return pendingEntry(call, mask, 'web', `Fetch ${input.url}`, input.prompt ?? input.url);
    case 'web_search':
      return pendingEntry(call, mask, 'web', `Search: ${input.query}`, input.query);
    case 'subagent':
      return pendingEntry(call, mask, 'subagent', `Subagent: ${input.description || input.agentType || 'task'}`, input.prompt);
    case 'mcp':
      return pendingEntry(call, mask, 'tool_call', `${input.server} · ${input.tool}`, safeJson(input.args));
    case 'search':
      return pendingEntry(call, mask, 'tool_call', `${tool}: ${input.pattern}`, input.path ?? input.pattern);
    default:
      return pendingEntry(call, mask, 'tool_call', tool, safeJson(input.args));
  }
}

function pendingEntry(call: ToolCallEvent, mask: Masker, kind: TimelineKind, summary: string, detail: string): TimelineEntry {
  const e = withDetail(base(call, kind, oneLine(mask(summary))), detail, mask);
  e.tool = call.name;
  e.status = 'pending';
  return e;
}

function resultStatus(r: ToolResultEvent): string {
  if (r.denied) return 'denied';
  if (r.interrupted) return 'interrupted';
  if (r.isError || (r.exitCode !== null && r.exitCode !== 0)) return 'error';
  return 'ok';
}

function applyResult(entry: TimelineEntry, r: ToolResultEvent, mask: Masker): void {
  entry.status = resultStatus(r);
  if (r.durationMs !== undefined) entry.duration_ms = Math.round(r.durationMs);
  if (!r.output) return;
  const out = bounded(mask(r.output), OUTPUT_MAX);
  const exit = r.exitCode !== null ? ` (exit ${r.exitCode})` : '';
  entry.detail = detach(`${entry.detail ?? ''}\n--- output${exit} ---\n${out.text}`);
  if (out.originalLength !== undefined) entry.detail_length = (entry.detail_length ?? 0) + out.originalLength;
}

function resultEntry(r: ToolResultEvent, mask: Masker): TimelineEntry {
  const e = base(r, 'tool_call', oneLine(mask(`Result of ${r.name ?? 'a tool call'}`)));
  e.actor = 'tool';
  e.tool = r.name ?? null;
  applyResult(e, r, mask);
  return e;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return String(value);
  }
}
