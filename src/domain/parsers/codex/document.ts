// A Codex rollout saved as ONE JSON array of its records (format codex-json), as hooks and export
// tools write it (`logs/chat.json` beside Codex Desktop's hooks): each element goes to the rollout
// parser as the line it was, at the line where it opens (the array is read by shared/json-array.ts).
import type { EventSink, LogParser } from '../../model/events.ts';
import { JsonArrayLines } from '../shared/json-array.ts';
import { CodexParser } from './parser.ts';

/** Beyond this the document is not kept (memory), and its lines are reported as skipped. */
const DOCUMENT_CAP_CHARS = 256 * 1024 * 1024;

export class CodexDocumentParser implements LogParser {
  readonly agent = 'codex' as const;
  readonly format = 'codex-json' as const;
  private readonly document: JsonArrayLines;

  constructor(capChars = DOCUMENT_CAP_CHARS) {
    this.document = new JsonArrayLines('Codex JSON rollout', capChars);
  }

  text(chunk: string, line: number, sink: EventSink): void {
    this.document.add(chunk, line, sink);
  }

  end(sink: EventSink): void {
    const body = this.document.take();
    const records = body === null ? null : this.document.elements(body, sink);
    if (!records) return;
    const rollout = new CodexParser('codex-rollout');
    records.forEach((record, i) => rollout.record(record, this.document.lineOf(i), sink));
    rollout.end(sink);
  }
}
