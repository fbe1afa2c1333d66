// The Gemini CLI chat recording as an upsert log, folded before any event is emitted.
//
// Gemini CLI (≥ v0.39) appends a message record again, in full, each time it changes (tool calls,
// results, tokens arrive later), so the last copy of an id wins; `{"$rewindTo": id}` drops that
// message and everything after it from the model's history; `{"$set": {...}}` patches session
// metadata, and `$set.messages` rewrites the whole history (compression, output masking).
// Events are therefore only known at end of input: this format is BUFFERED BY DESIGN (memory grows
// with the number of distinct messages, bounded by the size of the log).
//
// Vouch audits what the agent did, not what the model still remembers, so history rewrites never
// erase evidence: messages a rewind or a rewrite removed are still emitted where they happened
// (their commands ran all the same), followed by a marker event saying the history changed.
import type { EventSink } from '../../model/events.ts';
import { MessageEmitter } from './messages.ts';
import { arr, obj, str, text, type Obj } from '../shared/values.ts';
import { isoTime } from '../shared/values.ts';

interface MessageSlot {
  kind: 'message';
  id: string;
  rec: Obj;
  line: number;
  /** Position in `order` while the message is in the history. */
  at: number;
}

interface MarkerSlot {
  kind: 'rewind' | 'rewrite';
  line: number;
  target?: string;
  dropped: number;
}

type Slot = MessageSlot | MarkerSlot;

export class ChatHistory {
  private readonly slots: Slot[] = [];
  /** Messages still in the model's history, by id and in order (kept in step). */
  private readonly live = new Map<string, MessageSlot>();
  private readonly order: MessageSlot[] = [];
  private meta: Obj = {};
  private metaLine = 0;
  private summary: { text: string; line: number } | null = null;
  private anonymous = 0;

  /** The metadata line or a `$set` patch (later values win). */
  setMeta(patch: Obj, line: number, lineOf?: (id: string) => number | undefined): void {
    const { messages, ...rest } = patch;
    this.meta = { ...this.meta, ...rest };
    if (this.metaLine === 0) this.metaLine = line;
    const summary = text(rest.summary);
    if (summary !== undefined) this.summary = { text: summary, line };
    if (Array.isArray(messages)) this.rewrite(messages, line, lineOf);
  }

  /** A message record: a new id takes the next place, a known one is replaced in place. */
  add(rec: Obj, line: number): void {
    const id = text(rec.id) ?? `#${++this.anonymous}`;
    const known = this.live.get(id);
    if (known) {
      known.rec = rec;
      known.line = line;
      return;
    }
    const slot: MessageSlot = { kind: 'message', id, rec, line, at: this.order.length };
    this.slots.push(slot);
    this.live.set(id, slot);
    this.order.push(slot);
  }

  /** `$rewindTo`: the target and later messages leave the history (an unknown target clears it). */
  rewind(target: string, line: number): void {
    // Each message leaves the history at most once, so rewinds cost O(1) amortised.
    const start = this.live.get(target)?.at ?? 0;
    const removed = this.order.splice(start);
    for (const slot of removed) this.live.delete(slot.id);
    this.slots.push({ kind: 'rewind', line, target, dropped: removed.length });
  }

  /** `$set.messages`: the model's history rewritten. Known ids keep the record logged when it happened. */
  private rewrite(messages: unknown[], line: number, lineOf?: (id: string) => number | undefined): void {
    const ids = new Set<string>();
    for (const m of messages) {
      const id = text(obj(m)?.id);
      if (id !== undefined) ids.add(id);
    }
    let kept = 0;
    for (const id of ids) if (this.live.has(id)) kept++;
    const dropped = this.live.size - kept;
    if (dropped > 0) this.slots.push({ kind: 'rewrite', line, dropped });
    for (const m of messages) {
      const rec = obj(m);
      if (!rec) continue;
      const id = text(rec.id);
      if (id === undefined || !this.live.has(id)) this.add(rec, (id !== undefined ? lineOf?.(id) : undefined) ?? line);
    }
  }

  emit(sink: EventSink): void {
    const kind = str(this.meta.kind);
    const sessionId = text(this.meta.sessionId);
    const emitter = new MessageEmitter(sink, kind === 'subagent' ? (sessionId ?? 'subagent') : undefined);
    this.emitMeta(emitter, sessionId);
    for (const slot of this.slots) {
      if (slot.kind === 'message') emitter.message(slot.rec, slot.line);
      else this.emitMarker(emitter, slot);
    }
    if (this.summary) emitter.emit({ kind: 'system', subtype: 'summary', text: this.summary.text }, this.summary.line, null);
    const unrecorded = unrecordedToolTurns(this.slots);
    if (unrecorded) sink.toolsNotRecorded?.(unrecorded.turns, unrecorded.line);
  }

  private emitMeta(emitter: MessageEmitter, sessionId: string | undefined): void {
    const cwd = inferCwd(this.slots);
    if (sessionId === undefined && cwd === undefined) return;
    const draft: { kind: 'session_meta'; sessionId?: string; cwd?: string } = { kind: 'session_meta' };
    if (sessionId !== undefined) draft.sessionId = sessionId;
    if (cwd !== undefined) draft.cwd = cwd;
    emitter.emit(draft, this.metaLine || 1, isoTime(this.meta.startTime));
  }

  private emitMarker(emitter: MessageEmitter, slot: MarkerSlot): void {
    if (slot.kind === 'rewind') {
      const what = slot.target ? `to before message ${slot.target.slice(0, 80)}` : 'to the start';
      const body = `Conversation rewound ${what}: ${slot.dropped} message(s) left the model's history; the actions they record had already happened.`;
      emitter.emit({ kind: 'system', subtype: 'rewind', text: body }, slot.line, null);
    } else {
      emitter.emit({ kind: 'compaction', trigger: 'history-rewrite' }, slot.line, null);
    }
  }
}

/** Fewer unexplained turns than this may be the CLI's own "continue" nudge, not missing tool calls. */
const UNRECORDED_TURNS_MIN = 2;

/**
 * Gemini CLI calls the model again within a turn only to hand it tool results; a new turn starts
 * with the person's prompt. So a model message that follows a model message with no tool call and
 * no prompt between them answered tool results the file does not hold: older recordings kept the
 * replies and dropped the calls. Counted only when the file records no tool call at all (a log
 * that records some is read as it is), and from two such turns on.
 */
export function unrecordedToolTurns(slots: readonly Slot[]): { turns: number; line: number } | null {
  let turns = 0;
  let line = 0;
  let previous: Obj | null = null;
  for (const slot of slots) {
    if (slot.kind !== 'message') continue;
    const type = str(slot.rec.type);
    if (type === 'user') previous = null;
    if (type !== 'gemini') continue;
    if (arr(slot.rec.toolCalls).length > 0) return null;
    if (previous) {
      turns++;
      if (line === 0) line = slot.line;
    }
    previous = slot.rec;
  }
  return turns >= UNRECORDED_TURNS_MIN ? { turns, line } : null;
}

const CWD_HINT_TOOLS = new Set(['write_file', 'replace', 'edit']);

/**
 * Gemini records no working directory. When the agent edits a relative path, the tool answers
 * with the absolute one ("Successfully modified file: /home/x/repo/GEMINI.md"), which reveals it.
 */
export function inferCwd(slots: readonly Slot[]): string | undefined {
  for (const slot of slots) {
    if (slot.kind !== 'message' || slot.rec.type !== 'gemini') continue;
    for (const raw of arr(slot.rec.toolCalls)) {
      const tc = obj(raw);
      if (!tc || !CWD_HINT_TOOLS.has(str(tc.name) ?? '')) continue;
      const found = cwdFrom(text(obj(tc.args)?.file_path), resultText(tc.result));
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

function resultText(result: unknown): string {
  const first = obj(arr(result)[0]);
  const output = obj(obj(first?.functionResponse)?.response)?.output;
  return typeof output === 'string' ? output.slice(0, 4096) : '';
}

function cwdFrom(rel: string | undefined, output: string): string | undefined {
  if (rel === undefined || rel.length > 1024 || /^(?:[/~\\]|[A-Za-z]:)/.test(rel) || rel.includes('..')) return undefined;
  const suffix = '/' + rel.replace(/^\.\//, '');
  for (let at = output.indexOf(suffix); at >= 0; at = output.indexOf(suffix, at + 1)) {
    const end = at + suffix.length;
    const bounded = end === output.length || /[\s.,;:)'"`]/.test(output.charAt(end));
    const start = at > 0 && bounded ? pathStart(output, at) : -1;
    if (start >= 0 && start < at) return output.slice(start, at);
  }
  return undefined;
}

/** Where the absolute path ending at `at` begins (a "/" after a space, quote or colon), or -1. */
function pathStart(s: string, at: number): number {
  let i = at;
  while (i > 0 && !/[\s'"`:(]/.test(s.charAt(i - 1))) i--;
  return s.charAt(i) === '/' ? i : -1;
}
