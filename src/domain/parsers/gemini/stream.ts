// `gemini --output-format stream-json`: one event per line (init, message, tool_use, tool_result,
// error, result). Streaming with bounded state: the assistant reply being assembled from delta
// fragments, and the names of calls still waiting for their result.
import type { EventSink, LogParser, NormEvent } from '../../model/events.ts';
import type { Draft } from './messages.ts';
import { isShellTool, resultFacts, toolInput } from './tools.ts';
import { num, obj, safeJson, str, text, type Obj } from '../shared/values.ts';
import { readParts } from './values.ts';
import { isoTime } from '../shared/values.ts';
import { splitUserText } from './user-text.ts';
import { RUN_INCOMPLETE, RUN_START } from '../../model/runs.ts';
import { reportUnknownRecord } from '../shared/unknown-records.ts';

/** An assistant reply longer than this keeps its start only (the rest is counted). */
const MAX_REPLY_CHARS = 16 * 1024 * 1024;
/** Calls remembered while awaiting their result; the oldest is forgotten beyond this. */
const MAX_OPEN_CALLS = 10_000;

interface Reply {
  parts: string[];
  size: number;
  dropped: number;
  line: number;
  at: string | null;
}

export class GeminiStreamParser implements LogParser {
  readonly format = 'gemini-stream-json' as const;
  readonly agent = 'gemini-cli' as const;
  private model: string | undefined;
  private reply: Reply | null = null;
  private readonly openCalls = new Map<string, string>();
  private synthIds = 0;
  /** Runs (init events) seen, and whether the current run still lacks its `result` event. */
  private runs = 0;
  private runOpen = false;
  private lastLine = 0;

  record(value: unknown, line: number, sink: EventSink): void {
    const v = obj(value);
    if (!v) {
      sink.skip(line, 'Gemini stream event is not a JSON object');
      return;
    }
    const at = isoTime(v.timestamp);
    this.lastLine = line;
    if (this.runs === 0 && v.type !== 'init' && v.type !== 'result') this.runOpen = true;
    if (!(v.type === 'message' && v.role === 'assistant' && v.delta === true)) this.flush(sink);
    switch (v.type) {
      case 'init':
        return this.init(v, line, at, sink);
      case 'message':
        return this.message(v, line, at, sink);
      case 'tool_use':
        return this.toolUse(v, line, at, sink);
      case 'tool_result':
        return this.toolResult(v, line, at, sink);
      case 'error':
        return this.error(v, line, at, sink);
      case 'result':
        return this.result(v, line, at, sink);
      default:
        reportUnknownRecord(sink, line, 'Gemini stream', str(v.type), v);
    }
  }

  end(sink: EventSink): void {
    this.flush(sink);
    this.closeRun(this.lastLine, null, sink);
  }

  /** The run so far ends (a new init, or the end of the log): without `result` it was cut off. */
  private closeRun(line: number, at: string | null, sink: EventSink): void {
    if (!this.runOpen) return;
    this.runOpen = false;
    this.emit(sink, {
      kind: 'system', subtype: RUN_INCOMPLETE,
      text: 'The headless Gemini CLI run ends without its final `result` event: it was cut off (killed, timed out, or still running when the file was copied).',
    }, line, at);
  }

  private emit(sink: EventSink, draft: Draft, line: number, at: string | null): void {
    sink.emit({ ...draft, index: -1, line, at } as NormEvent);
  }

  private init(v: Obj, line: number, at: string | null, sink: EventSink): void {
    // Every `gemini -p` run starts with init: a second one is a second run appended to the file.
    if (this.runs > 0 || this.runOpen) {
      this.closeRun(line, at, sink);
      const id = text(v.session_id);
      this.emit(sink, { kind: 'system', subtype: RUN_START, text: `A new headless Gemini CLI run starts here${id ? ` (session ${id})` : ''}; the time between runs is not counted.` }, line, at);
    }
    this.runs++;
    this.runOpen = true;
    this.model = text(v.model) ?? this.model;
    const draft: Extract<Draft, { kind: 'session_meta' }> = { kind: 'session_meta' };
    const sessionId = text(v.session_id);
    if (sessionId !== undefined) draft.sessionId = sessionId;
    if (this.model !== undefined) draft.model = this.model;
    const cwd = text(v.cwd);
    if (cwd !== undefined) draft.cwd = cwd;
    this.emit(sink, draft, line, at);
  }

  private message(v: Obj, line: number, at: string | null, sink: EventSink): void {
    const body = readParts(v.content).text;
    if (v.role === 'user') {
      const parts = splitUserText(body);
      for (const n of parts.notices) this.emit(sink, { kind: 'system', subtype: n.subtype, text: n.text }, line, at);
      const typed = parts.notices.length > 0 ? parts.typed : body;
      if (typed.trim()) this.emit(sink, { kind: 'prompt', text: typed }, line, at);
    } else if (v.role === 'assistant') {
      if (v.delta === true) this.append(body, line, at);
      else if (body.trim()) this.emit(sink, this.messageDraft(body), line, at);
    } else {
      sink.skip(line, 'Gemini stream message with an unknown role');
    }
  }

  /** Delta fragments of one assistant turn become one message. */
  private append(fragment: string, line: number, at: string | null): void {
    const reply = this.reply ?? (this.reply = { parts: [], size: 0, dropped: 0, line, at });
    const room = MAX_REPLY_CHARS - reply.size;
    if (room <= 0) {
      reply.dropped += fragment.length;
      return;
    }
    const kept = fragment.length > room ? fragment.slice(0, room) : fragment;
    reply.parts.push(kept);
    reply.size += kept.length;
    reply.dropped += fragment.length - kept.length;
  }

  private flush(sink: EventSink): void {
    const reply = this.reply;
    if (!reply) return;
    this.reply = null;
    let body = reply.parts.join('');
    if (reply.dropped > 0) body += `\n[… ${reply.dropped} more characters not kept]`;
    if (body.trim()) this.emit(sink, this.messageDraft(body), reply.line, reply.at);
  }

  private messageDraft(body: string): Draft {
    return this.model ? { kind: 'message', text: body, model: this.model } : { kind: 'message', text: body };
  }

  private toolUse(v: Obj, line: number, at: string | null, sink: EventSink): void {
    const name = text(v.tool_name) ?? 'unknown';
    const callId = text(v.tool_id) ?? `gemini-stream-${line}-${++this.synthIds}`;
    if (this.openCalls.size >= MAX_OPEN_CALLS) this.openCalls.delete(this.openCalls.keys().next().value as string);
    this.openCalls.set(callId, name);
    this.emit(sink, { kind: 'tool_call', callId, name, input: toolInput(name, v.parameters) }, line, at);
  }

  private toolResult(v: Obj, line: number, at: string | null, sink: EventSink): void {
    const callId = text(v.tool_id) ?? `gemini-stream-${line}-${++this.synthIds}`;
    const name = this.openCalls.get(callId);
    this.openCalls.delete(callId);
    const output = typeof v.output === 'string' ? v.output : v.output == null ? '' : safeJson(v.output);
    const errorText = v.error == null ? null : (text(obj(v.error)?.message) ?? str(v.error) ?? safeJson(v.error));
    // stream-json carries the display text, which never states the exit code: unknown unless shown.
    const facts = resultFacts({ status: str(v.status), output: output || (errorText ?? ''), errorText, modelText: false }, isShellTool(name ?? ''));
    const draft = name === undefined ? { kind: 'tool_result' as const, callId, ...facts } : { kind: 'tool_result' as const, callId, name, ...facts };
    this.emit(sink, draft, line, at);
  }

  private error(v: Obj, line: number, at: string | null, sink: EventSink): void {
    const message = str(v.message) ?? text(obj(v.error)?.message) ?? '';
    if (v.severity === 'warning') this.emit(sink, { kind: 'system', subtype: 'warning', text: message }, line, at);
    else this.emit(sink, { kind: 'error', text: message }, line, at);
  }

  private result(v: Obj, line: number, at: string | null, sink: EventSink): void {
    this.runOpen = false;
    this.runs = Math.max(this.runs, 1);
    if (v.status === 'error') {
      const message = text(obj(v.error)?.message) ?? str(v.error) ?? 'Gemini run ended with an error';
      this.emit(sink, { kind: 'error', text: message }, line, at);
    }
    const stats = obj(v.stats);
    if (!stats) return;
    const cached = num(stats.cached) ?? 0;
    // `input` (when present) already excludes the cache; `input_tokens` includes it.
    const input = typeof stats.input === 'number' ? (num(stats.input) ?? 0) : Math.max(0, (num(stats.input_tokens) ?? 0) - cached);
    const output = num(stats.output_tokens) ?? 0;
    if (input + output + cached === 0) return;
    const usage = { kind: 'usage' as const, input, output, cacheRead: cached, cacheWrite: 0 };
    this.emit(sink, this.model ? { ...usage, model: this.model } : usage, line, at);
  }
}
