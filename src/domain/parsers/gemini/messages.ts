// One Gemini CLI MessageRecord → normalised events. Used for the JSONL chat recording and the
// legacy JSON document, which share the record shape (chatRecordingTypes.ts).
import type { EventSink, NormEvent, PromptEvent, ToolCallEvent } from '../../model/events.ts';
import { arr, num, obj, str, text, type Obj } from '../shared/values.ts';
import { readParts } from './values.ts';
import { isoTime } from '../shared/values.ts';
import { collectResponse, isShellTool, isSubagentTool, rawFromRecording, resultFacts, toolInput } from './tools.ts';
import { splitUserText } from './user-text.ts';
import { reportUnknownRecord } from '../shared/unknown-records.ts';

// Gemini CLI inlines @file references after this marker; what follows was not typed by a person.
const FILE_MARKER = '--- Content from referenced files ---';
/** Calls remembered while awaiting their response; the oldest is forgotten beyond this. */
const PENDING_MAX = 10_000;
// Statuses after which a tool call will get no further result.
const FINAL_STATUSES = new Set(['success', 'error', 'cancelled']);
// Omit distributed over the union, so each event kind keeps its own fields.
type DistOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
export type Draft = DistOmit<NormEvent, 'index' | 'line' | 'at'>;

export class MessageEmitter {
  private lastModel: string | undefined;
  /** Calls emitted without a result, answered later by a synthetic user functionResponse. */
  private readonly pending = new Map<string, string>();
  private synthIds = 0;

  constructor(
    private readonly sink: EventSink,
    /** Set when the whole file is a subagent's recording (`kind: "subagent"`). */
    private readonly agentId?: string,
  ) {}

  emit(draft: Draft, line: number, at: string | null): void {
    const event = { ...draft, index: -1, line, at } as NormEvent;
    if (this.agentId !== undefined) event.agentId = this.agentId;
    this.sink.emit(event);
  }

  message(rec: Obj, line: number): void {
    const at = isoTime(rec.timestamp);
    switch (rec.type) {
      case 'user':
        return this.user(rec, line, at);
      case 'gemini':
        return this.gemini(rec, line, at);
      case 'info':
        return this.notice(rec, line, at);
      case 'warning':
        return this.emit({ kind: 'system', subtype: 'warning', text: readParts(rec.content).text }, line, at);
      case 'error':
        return this.emit({ kind: 'error', text: readParts(rec.content).text }, line, at);
      default:
        reportUnknownRecord(this.sink, line, 'Gemini message', String(rec.type), rec);
    }
  }

  private notice(rec: Obj, line: number, at: string | null): void {
    const body = readParts(rec.content).text;
    // Esc during a turn is recorded as this info notice: the user interrupted the agent.
    if (/^request cancelled/i.test(body.trim())) this.emit({ kind: 'interrupt', reason: body.trim() }, line, at);
    else this.emit({ kind: 'system', subtype: 'info', text: body }, line, at);
  }

  private user(rec: Obj, line: number, at: string | null): void {
    const content = readParts(rec.content);
    const display = rec.displayContent === undefined ? null : readParts(rec.displayContent);
    // Newest builds record tool responses as user turns: they answer calls, nobody typed them.
    const toolTurn = content.responses.length > 0 || (display?.responses.length ?? 0) > 0;
    for (const response of content.responses) this.lateResult(response, line, at);
    if (toolTurn) {
      if (content.text.trim()) this.prompt(content.text, true, line, at);
      return;
    }
    const typed = display && display.text.trim() && display.text !== content.text ? display.text : null;
    if (typed !== null) {
      // e.g. "/init" shown, its expansion sent: the person typed the first, the harness the second.
      this.prompt(typed, false, line, at);
      if (content.text.trim()) this.prompt(content.text, true, line, at);
      return;
    }
    this.splitInjected(content.text, line, at);
  }

  /** A prompt with @file references: the request, then the inlined files as a synthetic prompt. */
  private splitInjected(full: string, line: number, at: string | null): void {
    const parts = splitUserText(full);
    for (const n of parts.notices) this.emit({ kind: 'system', subtype: n.subtype, text: n.text }, line, at);
    const body = parts.notices.length > 0 ? parts.typed : full;
    const cut = body.indexOf(FILE_MARKER);
    const typed = cut < 0 ? body : body.slice(0, cut).trimEnd();
    if (typed.trim()) this.prompt(typed, false, line, at);
    if (cut >= 0) this.prompt(body.slice(cut), true, line, at);
  }

  private prompt(body: string, synthetic: boolean, line: number, at: string | null): void {
    const draft: Omit<PromptEvent, 'index' | 'line' | 'at'> = { kind: 'prompt', text: body };
    if (synthetic) draft.synthetic = true;
    this.emit(draft, line, at);
  }

  private gemini(rec: Obj, line: number, at: string | null): void {
    const model = text(rec.model);
    if (model !== undefined && model !== this.lastModel) {
      this.lastModel = model;
      this.emit({ kind: 'session_meta', model }, line, at);
    }
    for (const thought of arr(rec.thoughts)) this.thought(thought, line, at);
    const content = readParts(rec.content);
    for (const t of content.thoughts) if (t.trim()) this.emit({ kind: 'thinking', text: t }, line, at);
    if (content.text.trim()) this.emit(model ? { kind: 'message', text: content.text, model } : { kind: 'message', text: content.text }, line, at);
    const calls = arr(rec.toolCalls);
    for (let i = 0; i < calls.length; i++) this.toolCall(calls[i], i, rec, line, at);
    // A recording saved in the API's shape (`/export-session`) keeps the calls as functionCall
    // parts of the content and their answers as functionResponse parts of the next user turn.
    // A record with toolCalls has its calls there: its parts (the history's copy, often without
    // ids) are the same calls again.
    if (calls.length === 0) for (const call of content.calls) this.partCall(call, rec, line, at);
    this.usage(rec.tokens, model, line, at);
  }

  /** A functionCall part: the call now, its result when a user turn's functionResponse answers it. */
  private partCall(call: Obj, rec: Obj, line: number, at: string | null): void {
    const name = text(call.name) ?? 'unknown';
    const callId = text(call.id) ?? `${text(rec.id) ?? `gemini-${line}`}#part-${++this.synthIds}`;
    this.emit({ kind: 'tool_call', callId, name, input: toolInput(name, call.args) }, line, at);
    if (this.pending.size >= PENDING_MAX) this.pending.delete(this.pending.keys().next().value as string);
    this.pending.set(callId, name);
  }

  private thought(raw: unknown, line: number, fallbackAt: string | null): void {
    if (typeof raw === 'string') {
      if (raw.trim()) this.emit({ kind: 'thinking', text: raw }, line, fallbackAt);
      return;
    }
    const t = obj(raw);
    if (!t) return;
    const subject = str(t.subject)?.trim() ?? '';
    const description = str(t.description)?.trim() ?? '';
    const body = subject && description ? `${subject}: ${description}` : subject || description;
    if (body) this.emit({ kind: 'thinking', text: body }, line, isoTime(t.timestamp) ?? fallbackAt);
  }

  private toolCall(raw: unknown, i: number, rec: Obj, line: number, at: string | null): void {
    const tc = obj(raw);
    if (!tc) {
      this.sink.skip(line, 'Gemini tool call is not an object');
      return;
    }
    const name = text(tc.name) ?? 'unknown';
    const callId = text(tc.id) ?? `${text(rec.id) ?? `gemini-${line}`}#${i}-${++this.synthIds}`;
    const call: Omit<ToolCallEvent, 'index' | 'line' | 'at'> = { kind: 'tool_call', callId, name, input: toolInput(name, tc.args) };
    this.emit(call, line, at);
    const agentId = text(tc.agentId);
    // A delegated agent records its own transcript in another file (chats/<session>/<id>.jsonl).
    if (agentId !== undefined && isSubagentTool(name)) this.sink.missingSubagent?.(agentId, line);
    const status = str(tc.status);
    const hasResult = tc.result !== undefined && tc.result !== null;
    if (!hasResult && !FINAL_STATUSES.has(status ?? '')) {
      this.pending.set(callId, name);
      return;
    }
    const facts = resultFacts(rawFromRecording(status, tc.result, tc.resultDisplay), isShellTool(name));
    this.emit({ kind: 'tool_result', callId, name, ...facts }, line, isoTime(tc.timestamp) ?? at);
  }

  /** A functionResponse in a user turn answering a call whose record had no result yet. */
  private lateResult(response: Obj, line: number, at: string | null): void {
    // without an id, the oldest waiting call of the tool it names is the one answered
    const callId = text(response.id) ?? this.oldestPending(text(response.name));
    const name = callId === undefined ? undefined : this.pending.get(callId);
    if (callId === undefined || name === undefined) return; // already answered in the call record
    this.pending.delete(callId);
    const outputs: string[] = [];
    const errors: string[] = [];
    collectResponse(obj(response.response), outputs, errors);
    const errorText = errors.length > 0 ? errors.join('\n') : null;
    const raw = { status: errorText === null ? 'success' : 'error', output: [...outputs, ...errors].join('\n'), errorText, modelText: true };
    this.emit({ kind: 'tool_result', callId, name, ...resultFacts(raw, isShellTool(name)) }, line, at);
  }

  private oldestPending(name: string | undefined): string | undefined {
    if (name === undefined) return undefined;
    for (const [id, n] of this.pending) if (n === name) return id;
    return undefined;
  }

  /**
   * Gemini counts: input = promptTokenCount (cached tokens included), output = candidates,
   * thoughts and tool-use prompt separately. Mapped so input excludes the cache read (as the
   * other agents report it) and output includes the billed thinking tokens.
   */
  private usage(raw: unknown, model: string | undefined, line: number, at: string | null): void {
    const t = obj(raw);
    if (!t) return;
    const cached = num(t.cached) ?? 0;
    const draft = {
      kind: 'usage' as const,
      input: Math.max(0, (num(t.input) ?? 0) - cached) + (num(t.tool) ?? 0),
      output: (num(t.output) ?? 0) + (num(t.thoughts) ?? 0),
      cacheRead: cached,
      cacheWrite: 0,
    };
    if (draft.input + draft.output + draft.cacheRead === 0) return;
    this.emit(model ? { ...draft, model } : draft, line, at);
  }
}
