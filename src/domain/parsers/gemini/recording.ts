// Parsers for Gemini CLI chat recordings: the JSONL upsert log (v0.39+) and the legacy single
// pretty-printed JSON document (≈v0.3–v0.38). Both fold into a ChatHistory and emit at end().
import type { EventSink, LogParser } from '../../model/events.ts';
import { ChatHistory } from './history.ts';
import { emitContentHistory, isContentHistory } from './content-history.ts';
import { emitPromptLog, isPromptLog, salvagePromptLog } from './prompt-log.ts';
import { isObj, obj, type Obj } from '../shared/values.ts';
import { reportUnknownRecord } from '../shared/unknown-records.ts';

/** `session-….jsonl`: one record per line; buffered by design (see history.ts). */
export class GeminiJsonlParser implements LogParser {
  readonly format = 'gemini-jsonl' as const;
  readonly agent = 'gemini-cli' as const;
  private readonly history = new ChatHistory();

  record(value: unknown, line: number, sink: EventSink): void {
    const rec = obj(value);
    if (!rec) {
      sink.skip(line, 'Gemini record is not a JSON object');
      return;
    }
    if ('$rewindTo' in rec) this.rewind(rec, line, sink);
    else if ('$set' in rec) this.patch(rec, line, sink);
    else if (typeof rec.id === 'string') this.history.add(rec, line);
    // The metadata line; a one-line legacy document (metadata + messages) lands here too.
    else if (typeof rec.sessionId === 'string') this.history.setMeta(rec, line);
    else reportUnknownRecord(sink, line, 'Gemini', typeof rec.type === 'string' ? rec.type : undefined, rec);
  }

  end(sink: EventSink): void {
    this.history.emit(sink);
  }

  private rewind(rec: Obj, line: number, sink: EventSink): void {
    if (typeof rec.$rewindTo === 'string') this.history.rewind(rec.$rewindTo, line);
    else sink.skip(line, 'Gemini $rewindTo without a message id');
  }

  private patch(rec: Obj, line: number, sink: EventSink): void {
    const patch = obj(rec.$set);
    if (patch) this.history.setMeta(patch, line);
    else sink.skip(line, 'Gemini $set without an object');
  }
}

/** Beyond this the document is not kept (memory), and its lines are reported as skipped. */
export const DOCUMENT_CAP_CHARS = 256 * 1024 * 1024;
const ID_KEY = /^"id"\s*:\s*"([^"\\]{1,200})"/;

/**
 * `session-….json`: ONE pretty-printed JSON document, handed over line by line. Lines are
 * accumulated and parsed at end(); while accumulating, the line where each `"id"` first appears
 * is remembered so that events point at their message (or tool call) instead of line 1.
 * The same reader takes a Gemini API conversation history (`Content[]`, format gemini-history):
 * there the line where each top-level entry opens is remembered instead.
 */
/**
 * A history inside a wrapper: a `/chat save` checkpoint (`{"history": [...]}`), or an error report
 * Gemini CLI writes when a request fails (`{"error": {message, stack}, "context": [...]}`, the
 * conversation it was sending). Both are indented one level: entries open on "    {" lines.
 */
function wrappedHistory(doc: Obj | undefined): unknown[] | undefined {
  if (!doc) return undefined;
  if (isContentHistory(doc.history)) return doc.history;
  if (isObj(doc.error) && isContentHistory(doc.context)) return doc.context;
  return undefined;
}

export class GeminiDocumentParser implements LogParser {
  readonly agent = 'gemini-cli' as const;
  /** Lines where a top-level array entry opens ("  {" in a 2-space pretty-printed array). */
  private entryLines: number[] = [];
  private nestedEntryLines: number[] = [];
  private chunks: string[] = [];
  private size = 0;
  private firstLine = 0;
  private lastLine = 0;
  private kept = 0;
  private overflowed = false;
  private idLines = new Map<string, number>();

  /** `capChars` is overridable for tests only. */
  constructor(
    private readonly capChars = DOCUMENT_CAP_CHARS,
    readonly format: 'gemini-json' | 'gemini-history' | 'gemini-logs' = 'gemini-json',
  ) {}

  text(chunk: string, line: number, sink: EventSink): void {
    if (this.overflowed) {
      sink.skip(line, OVERSIZE);
      return;
    }
    if (this.firstLine === 0) this.firstLine = line;
    this.size += chunk.length + 1;
    if (this.size > this.capChars) {
      this.overflow(line, sink);
      return;
    }
    this.chunks.push(chunk);
    this.kept++;
    this.lastLine = line;
    this.noteId(chunk, line);
    if (chunk.length <= 6 && this.format !== 'gemini-json' && this.entryLines.length + this.nestedEntryLines.length < MAX_ENTRY_LINES) {
      const opener = chunk.trimEnd();
      if (opener === '  {') this.entryLines.push(line);
      else if (opener === '    {') this.nestedEntryLines.push(line);
    }
  }

  end(sink: EventSink): void {
    if (this.overflowed || this.kept === 0) return;
    const body = this.chunks.join('\n');
    this.chunks = [];
    const doc = parseDocument(body, this.firstLine, this.lastLine, sink, this.format === 'gemini-logs' ? salvagePromptLog : salvage);
    if (this.format === 'gemini-logs') {
      const entries = this.entryLines;
      const first = this.firstLine;
      this.entryLines = [];
      if (isPromptLog(doc)) return emitPromptLog(doc, (i) => entries[i] ?? first, sink);
      if (doc !== undefined) sink.skip(first, 'Gemini logs.json is not an array of prompt entries');
      return;
    }
    const contents = isContentHistory(doc) ? doc : this.format === 'gemini-history' ? wrappedHistory(obj(doc)) : undefined;
    if (contents) {
      // A wrapped history is indented one level deeper: its entries open on "    {" lines.
      const entries = contents === doc ? this.entryLines : this.nestedEntryLines;
      const first = this.firstLine;
      this.entryLines = [];
      this.nestedEntryLines = [];
      return emitContentHistory(contents, (i) => entries[i] ?? first, sink);
    }
    const rec = obj(doc);
    if (!rec) {
      if (doc !== undefined) sink.skip(this.firstLine, 'Gemini JSON document is not an object');
      return;
    }
    if (rec.messages !== undefined && !Array.isArray(rec.messages)) sink.skip(this.firstLine, 'Gemini document: messages is not an array');
    const history = new ChatHistory();
    const idLines = this.idLines;
    history.setMeta(rec, this.firstLine, (id) => idLines.get(id));
    history.emit(sink);
    this.idLines = new Map();
  }

  private noteId(chunk: string, line: number): void {
    const at = chunk.indexOf('"id"');
    if (at < 0) return;
    const m = ID_KEY.exec(chunk.slice(at, at + 240));
    if (m && !this.idLines.has(m[1])) this.idLines.set(m[1], line);
  }

  /** Drop everything kept; the lines already accumulated (assumed consecutive) count as skipped. */
  private overflow(line: number, sink: EventSink): void {
    this.overflowed = true;
    this.chunks = [];
    this.idLines = new Map();
    for (let i = 0; i < this.kept; i++) sink.skip(this.firstLine + i, OVERSIZE);
    sink.skip(line, OVERSIZE);
  }
}

/** Entry lines remembered (beyond this, events point at the document's first line). */
const MAX_ENTRY_LINES = 1_000_000;

const OVERSIZE = 'Gemini JSON document larger than 256 MiB: not analysed';

/** JSON.parse, falling back to the complete messages of a cut-off document. */
function parseDocument(body: string, firstLine: number, lastLine: number, sink: EventSink, rescue: (body: string) => unknown): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    const salvaged = rescue(body);
    if (salvaged === undefined) sink.skip(firstLine, 'Gemini JSON document does not parse');
    else sink.skip(lastLine, 'Gemini JSON document is cut off: the incomplete last entry is lost');
    return salvaged;
  }
}

// Gemini writes JSON.stringify(record, null, 2): each message closes with "\n    }" (indent 4).
const MESSAGE_CLOSE = '\n    }';

function salvage(body: string): unknown {
  let at = body.lastIndexOf(MESSAGE_CLOSE);
  for (let attempt = 0; attempt < 3 && at > 0; attempt++) {
    try {
      return JSON.parse(body.slice(0, at + MESSAGE_CLOSE.length) + '\n  ]\n}') as unknown;
    } catch {
      at = body.lastIndexOf(MESSAGE_CLOSE, at - 1);
    }
  }
  return undefined;
}
