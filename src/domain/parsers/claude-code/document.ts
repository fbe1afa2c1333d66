// A Claude Code transcript saved as ONE JSON array of its records (format claude-code-json), as
// hooks and export tools write it (`logs/chat.json`): each element goes to the transcript parser
// as the record it is, at the line where it opens (the array itself is read by
// shared/json-array.ts).
//
// The same reading serves the hooks' own records (format claude-code-hooks, hook-records.ts): an
// array of hook payloads, or one payload a line, each turned into the transcript records it stands for.
import type { EventSink, LogParser } from '../../model/events.ts';
import { JsonArrayLines } from '../shared/json-array.ts';
import { ClaudeCodeParser } from './parser.ts';
import { hookRecords } from './hook-records.ts';

/** Beyond this the document is not kept (memory), and its lines are reported as skipped. */
const DOCUMENT_CAP_CHARS = 256 * 1024 * 1024;
/** Payload lines remembered (beyond this, records point at the document's first line). */
const MAX_PAYLOAD_LINES = 1_000_000;

export class ClaudeCodeDocumentParser implements LogParser {
  readonly agent = 'claude-code' as const;
  private readonly document: JsonArrayLines;
  /** Each non-blank line's number, for a hook file of one payload a line. */
  private lineNumbers: number[] = [];

  constructor(readonly format: 'claude-code-json' | 'claude-code-hooks' = 'claude-code-json', capChars = DOCUMENT_CAP_CHARS) {
    this.document = new JsonArrayLines(format === 'claude-code-hooks' ? 'Claude Code JSON hook records file' : 'Claude Code JSON transcript', capChars);
  }

  text(chunk: string, line: number, sink: EventSink): void {
    if (!this.document.add(chunk, line, sink)) return;
    if (this.format === 'claude-code-hooks' && chunk.trim() !== '' && this.lineNumbers.length < MAX_PAYLOAD_LINES) this.lineNumbers.push(line);
  }

  end(sink: EventSink): void {
    const body = this.document.take();
    if (body === null) return;
    const lines = this.format === 'claude-code-hooks' && !body.trimStart().startsWith('[') ? this.payloadLines(body, sink) : null;
    const records = lines ? lines.map(([value]) => value) : this.document.elements(body, sink);
    if (!records) return;
    const transcript = new ClaudeCodeParser('claude-code-transcript');
    const lineOf = (i: number) => (lines ? lines[i]![1] : this.document.lineOf(i));
    const unanswered = new Map<string, string[]>();
    if (this.format === 'claude-code-hooks') records.forEach((payload, i) => { for (const record of hookRecords(payload, i, unanswered)) transcript.record(record, lineOf(i), sink); });
    else records.forEach((record, i) => transcript.record(record, lineOf(i), sink));
    transcript.end(sink);
  }

  /** A hook file of one payload a line: each payload with its line; a line that does not parse is skipped. */
  private payloadLines(body: string, sink: EventSink): Array<[unknown, number]> {
    const out: Array<[unknown, number]> = [];
    body.split('\n').filter((l) => l.trim() !== '').forEach((l, i) => {
      const line = this.lineNumbers[i] ?? this.document.firstLine;
      try {
        out.push([JSON.parse(l) as unknown, line]);
      } catch {
        sink.skip(line, 'Claude Code hook record does not parse');
      }
    });
    return out;
  }
}
