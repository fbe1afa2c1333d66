// Gemini API conversation history, `Content[]`: what Gemini CLI keeps in memory and sends to the
// model (`GeminiChat.getHistory()`), saved to a file by `/chat save`-style tooling or by hand:
//   [{"role": "user", "parts": [{"text": "<session_context>…"}]},
//    {"role": "model", "parts": [{"text": "…", "thought": true}, {"functionCall": {"id", "name", "args"}}]},
//    {"role": "user", "parts": [{"functionResponse": {"id", "name", "response": {"output"} | {"error"}}}]}, …]
// No timestamps, no tokens, no statuses: only the turns. A `<state_snapshot>` user turn is the
// summary `/compress` put in place of the earlier history. The document is read whole by
// GeminiDocumentParser (recording.ts), which hands the parsed array here.
import type { EventSink } from '../../model/events.ts';
import { MessageEmitter } from './messages.ts';
import { isShellTool, rawFromRecording, resultFacts, toolInput } from './tools.ts';
import { splitUserText } from './user-text.ts';
import { arr, obj, str, text, type Obj } from '../shared/values.ts';
import { readParts } from './values.ts';

/** Gemini CLI's automatic turn after its next-speaker check: a history holds it as a user turn. */
const CONTINUE_NUDGE = /^\s*Please continue\.\s*$/;

const SNAPSHOT = '<state_snapshot>';
/** Calls remembered while awaiting their response; the oldest is forgotten beyond this. */
const MAX_OPEN_CALLS = 10_000;

/** True when `doc` is a Content[]: an array of `{role, parts[]}` with at least one entry. */
export function isContentHistory(doc: unknown): doc is unknown[] {
  if (!Array.isArray(doc) || doc.length === 0) return false;
  const first = obj(doc[0]);
  return first !== undefined && typeof first.role === 'string' && Array.isArray(first.parts);
}

/**
 * Emits the events of a Content[] history. `lineOf(i)` is the line where entry i starts
 * (pretty-printed files), so findings point at the turn rather than at line 1.
 */
export function emitContentHistory(doc: unknown[], lineOf: (i: number) => number, sink: EventSink): void {
  new ContentHistoryReader(sink).read(doc, lineOf);
}

/** Reads a history entry by entry (an export that streams its turns: `/chat share` Markdown). */

/** Ids made up for calls the history gave none. */
const SYNTH_PREFIX = 'gemini-history-';
export class ContentHistoryReader {
  private readonly out: MessageEmitter;
  /** Call id → tool name, for calls whose response has not come yet (in order: unnamed ids match FIFO). */
  private readonly open = new Map<string, string>();
  private synthIds = 0;
  private metaSent = false;

  constructor(private readonly sink: EventSink) {
    this.out = new MessageEmitter(sink);
  }

  read(doc: unknown[], lineOf: (i: number) => number): void {
    doc.forEach((raw, i) => {
      const line = lineOf(i);
      // A bare string is the person's message as the request was about to send it (the last
      // entry of an error report's context).
      const entry = typeof raw === 'string' ? { role: 'user', parts: [{ text: raw }] } : obj(raw);
      if (!entry || !Array.isArray(entry.parts)) return this.sink.skip(line, 'Gemini history entry without parts');
      if (entry.role === 'model') return this.model(entry, line);
      if (entry.role === 'user') return this.user(entry, line);
      this.sink.skip(line, `Gemini history entry with an unknown role ${JSON.stringify(String(entry.role).slice(0, 40))}`);
    });
  }

  private model(entry: Obj, line: number): void {
    for (const raw of arr(entry.parts)) {
      const part = obj(raw);
      if (!part) continue;
      const call = obj(part.functionCall);
      if (call) {
        this.call(call, line);
        continue;
      }
      const t = str(part.text);
      if (t === undefined || t.trim() === '') continue;
      this.out.emit(part.thought === true ? { kind: 'thinking', text: t } : { kind: 'message', text: t }, line, null);
    }
  }

  private call(call: Obj, line: number): void {
    const name = text(call.name) ?? 'unknown';
    const callId = text(call.id) ?? `${SYNTH_PREFIX}${line}-${++this.synthIds}`;
    if (this.open.size >= MAX_OPEN_CALLS) this.open.delete(this.open.keys().next().value as string);
    this.open.set(callId, name);
    this.out.emit({ kind: 'tool_call', callId, name, input: toolInput(name, call.args) }, line, null);
  }

  private user(entry: Obj, line: number): void {
    const content = readParts(entry.parts);
    for (const response of content.responses) this.response(response, line);
    const body = content.text;
    if (body.trim() === '') return;
    if (body.trimStart().startsWith(SNAPSHOT)) {
      // `/compress` replaced the earlier turns with this summary: a compaction, not a request.
      return this.out.emit({ kind: 'compaction', trigger: 'compress', summary: body }, line, null);
    }
    const parts = splitUserText(body);
    for (const n of parts.notices) {
      if (n.subtype === 'session_context') this.meta(body, line);
      this.out.emit({ kind: 'system', subtype: n.subtype, text: n.text }, line, null);
    }
    const typed = parts.notices.length > 0 ? parts.typed : body;
    // A tool-response turn that also carries text, or the CLI's own nudge when its next-speaker
    // check decides the model should go on ("Please continue."): the harness wrote it, not the person.
    if (typed.trim()) this.out.emit({ kind: 'prompt', text: typed, synthetic: content.responses.length > 0 || CONTINUE_NUDGE.test(typed) }, line, null);
  }

  private response(response: Obj, line: number): void {
    const given = text(response.id);
    const name = text(response.name);
    // An id answers its own call (even one the history no longer holds); without ids, order does.
    // Exports of late 2025 give responses an id and their calls none: the oldest open call of the
    // tool that had no id of its own is the one answered.
    const unnamedCall = given !== undefined && !this.open.has(given) ? this.oldestNamed(name, true) : undefined;
    const callId = unnamedCall ?? given ?? this.oldestNamed(name) ?? `${SYNTH_PREFIX}${line}-${++this.synthIds}`;
    const calledAs = this.open.get(callId) ?? name;
    this.open.delete(callId);
    const raw = rawFromRecording(undefined, [{ functionResponse: response }], undefined);
    // No status in a history: a response without an error is a completed call.
    // "[Operation Cancelled] Reason: User denied execution." is how a refused or cancelled call answers.
    raw.status = raw.errorText === null ? 'success' : raw.errorText.startsWith('[Operation Cancelled]') ? 'cancelled' : 'error';
    const facts = resultFacts(raw, isShellTool(calledAs ?? ''));
    this.out.emit(calledAs === undefined ? { kind: 'tool_result', callId, ...facts } : { kind: 'tool_result', callId, name: calledAs, ...facts }, line, null);
  }

  /** The oldest open call of this tool (histories from older builds carry no call ids). */
  private oldestNamed(name: string | undefined, idless = false): string | undefined {
    if (name === undefined) return undefined;
    for (const [id, n] of this.open) if (n === name && (!idless || id.startsWith(SYNTH_PREFIX))) return id;
    return undefined;
  }

  /** The working directory the `<session_context>` preamble names, once. */
  private meta(body: string, line: number): void {
    if (this.metaSent) return;
    this.metaSent = true;
    const head = body.slice(0, 16 * 1024);
    const dir = /Workspace Directories:\**\s*\n\s*-\s+(\S[^\n]*)/.exec(head)?.[1]
      // the rest of the line: a folder name may hold spaces ("/Users/ana/Projects/Ana Lima/tabs")
      ?? /(?:working (?:in the )?directory|current working directory)[^:\n/]*:?[ \t]*(\/[^\n]+|[A-Za-z]:\\[^\n]+)/i.exec(head)?.[1];
    const cwd = dir?.trim().replace(/[.,;]$/, '');
    if (cwd) this.out.emit({ kind: 'session_meta', cwd }, line, null);
  }
}
