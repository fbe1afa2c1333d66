// A Claude Code transcript saved as ONE JSON array of its records (format claude-code-json), as
// hooks and export tools write it (`logs/chat.json`): `[`, then each transcript record as an
// element, pretty-printed or on one line. The lines are accumulated and parsed at end(); each
// element goes to the transcript parser as the record it is, pointing at the line where it opens
// (`  {` in a two-space pretty-print, `    {` in Python's `indent=4`, a tab: the indentation of
// the first element after the `[` line), so evidence cites the right place.
//
// The same reading serves the hooks' own records (format claude-code-hooks, hook-records.ts): an
// array of hook payloads, or one payload a line, each turned into the transcript records it stands for.
import type { EventSink, LogParser } from '../../model/events.ts';
import { ClaudeCodeParser } from './parser.ts';
import { hookRecords } from './hook-records.ts';

/** Beyond this the document is not kept (memory), and its lines are reported as skipped. */
const DOCUMENT_CAP_CHARS = 256 * 1024 * 1024;
const OVERSIZE = 'Claude Code JSON transcript larger than 256 MiB: not analysed';
/** Entry lines remembered (beyond this, records point at the document's first line). */
const MAX_ENTRY_LINES = 1_000_000;
/** A line that opens an element by itself: indentation, then `{`. */
const OPENING = /^([ \t]{1,16})\{\s*$/;

export class ClaudeCodeDocumentParser implements LogParser {
  readonly agent = 'claude-code' as const;
  private chunks: string[] = [];
  private entryLines: number[] = [];
  private size = 0;
  private firstLine = 0;
  private lastLine = 0;
  private overflowed = false;
  /** The indentation of the array's elements, learnt from the first one (null: not yet known). */
  private indent: string | null = null;
  /** The last non-blank line was the array's own `[`: the next opening line is the first element. */
  private afterBracket = false;

  /** Each non-blank line's number, for a hook file of one payload a line. */
  private lineNumbers: number[] = [];

  constructor(readonly format: 'claude-code-json' | 'claude-code-hooks' = 'claude-code-json', private readonly capChars = DOCUMENT_CAP_CHARS) {}

  text(chunk: string, line: number, sink: EventSink): void {
    if (this.overflowed) return sink.skip(line, OVERSIZE);
    if (this.firstLine === 0) this.firstLine = line;
    this.size += chunk.length + 1;
    if (this.size > this.capChars) {
      this.overflowed = true;
      for (let l = this.firstLine; l <= line; l++) sink.skip(l, OVERSIZE);
      this.chunks = [];
      return;
    }
    this.chunks.push(chunk);
    this.lastLine = line;
    if (this.opensElement(chunk) && this.entryLines.length < MAX_ENTRY_LINES) this.entryLines.push(line);
    if (this.format === 'claude-code-hooks' && chunk.trim() !== '' && this.lineNumbers.length < MAX_ENTRY_LINES) this.lineNumbers.push(line);
  }

  private opensElement(chunk: string): boolean {
    if (chunk.length > 20) {
      if (chunk.trim() !== '') this.afterBracket = false;
      return false;
    }
    const trimmed = chunk.trim();
    if (this.indent === null) {
      const m = OPENING.exec(chunk);
      if (m && this.afterBracket) this.indent = m[1]!;
      if (trimmed !== '') this.afterBracket = trimmed === '[';
      return this.indent !== null;
    }
    return trimmed === '{' && chunk.trimEnd() === `${this.indent}{`;
  }

  end(sink: EventSink): void {
    if (this.overflowed || this.chunks.length === 0) return;
    const body = this.chunks.join('\n');
    this.chunks = [];
    const lines = this.format === 'claude-code-hooks' && !body.trimStart().startsWith('[') ? this.payloadLines(body, sink) : null;
    const records = lines ? lines.map(([value]) => value) : this.parse(body, sink);
    if (!records) return;
    const transcript = new ClaudeCodeParser('claude-code-transcript');
    // One line holding the whole array: every record is on it.
    const lineOf = (i: number) => (lines ? lines[i]![1] : this.entryLines[i] ?? this.firstLine);
    const unanswered = new Map<string, string[]>();
    if (this.format === 'claude-code-hooks') records.forEach((payload, i) => { for (const record of hookRecords(payload, i, unanswered)) transcript.record(record, lineOf(i), sink); });
    else records.forEach((record, i) => transcript.record(record, lineOf(i), sink));
    transcript.end(sink);
  }

  /** A hook file of one payload a line: each payload with its line; a line that does not parse is skipped. */
  private payloadLines(body: string, sink: EventSink): Array<[unknown, number]> {
    const out: Array<[unknown, number]> = [];
    body.split('\n').filter((l) => l.trim() !== '').forEach((l, i) => {
      const line = this.lineNumbers[i] ?? this.firstLine;
      try {
        out.push([JSON.parse(l) as unknown, line]);
      } catch {
        sink.skip(line, 'Claude Code hook record does not parse');
      }
    });
    return out;
  }

  /** The array's elements, the complete ones of a cut-off document, or null (reported). */
  private parse(body: string, sink: EventSink): unknown[] | null {
    let doc: unknown;
    try {
      doc = JSON.parse(body);
    } catch {
      const salvaged = salvage(body, this.indent ?? '  ');
      if (salvaged === null) {
        sink.skip(this.firstLine, `Claude Code JSON ${this.noun()} does not parse`);
        return null;
      }
      sink.skip(this.lastLine, `Claude Code JSON ${this.noun()} is cut off: the incomplete last record is lost`);
      return salvaged;
    }
    if (Array.isArray(doc)) return doc;
    sink.skip(this.firstLine, `Claude Code JSON ${this.noun()} is not an array of records`);
    return null;
  }

  private noun(): string {
    return this.format === 'claude-code-hooks' ? 'hook records file' : 'transcript';
  }
}

/** The complete elements of a pretty-printed array cut off mid-element. */
function salvage(body: string, indent: string): unknown[] | null {
  // each element closes on a line of its own at the elements' indentation
  const ELEMENT_CLOSE = `\n${indent}}`;
  let at = body.lastIndexOf(ELEMENT_CLOSE);
  for (let attempt = 0; attempt < 3 && at > 0; attempt++) {
    try {
      const doc = JSON.parse(`${body.slice(0, at + ELEMENT_CLOSE.length)}\n]`) as unknown;
      return Array.isArray(doc) ? doc : null;
    } catch {
      at = body.lastIndexOf(ELEMENT_CLOSE, at - 1);
    }
  }
  return null;
}
