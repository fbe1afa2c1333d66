// A log saved as ONE JSON array of its records, as hooks and export tools write an agent's
// transcript (`logs/chat.json`): `[`, then each record as an element, pretty-printed or on one
// line. The lines are accumulated and parsed at the end; each element is handed back with the line
// where it opens (`  {` in a two-space pretty-print, `    {` in Python's `indent=4`, a tab: the
// indentation of the first element after the `[` line), so evidence cites the right place. A
// document cut off mid-element keeps its complete elements. Each agent's document parser feeds the
// elements to its own record parser (claude-code/document.ts, codex/document.ts).
import type { EventSink } from '../../model/events.ts';

/** Entry lines remembered (beyond this, records point at the document's first line). */
const MAX_ENTRY_LINES = 1_000_000;
/** A whole element on one line, as JSON Lines joined into an array write it. */
function compactElement(chunk: string): boolean {
  const t = chunk.trim();
  return t.startsWith('{') && (t.endsWith('}') || t.endsWith('},'));
}
/** A line that opens an element by itself: indentation, then `{`. */
const OPENING = /^([ \t]{1,16})\{\s*$/;

export class JsonArrayLines {
  private chunks: string[] = [];
  private entryLines: number[] = [];
  private size = 0;
  firstLine = 0;
  private lastLine = 0;
  private overflowed = false;
  /** The indentation of the array's elements, learnt from the first one (null: not yet known). */
  private indent: string | null = null;
  /** The last non-blank line was the array's own `[`: the next opening line is the first element. */
  private afterBracket = false;
  /** One compact element a line (`{"type":…},`): each line that opens with `{` is an element. */
  private compact = false;

  /** `noun`: what the document is, for the skip reasons ("Codex JSON rollout"). */
  constructor(private readonly noun: string, private readonly capChars: number) {}

  /** Keeps one line; false once the document is over the cap (the line is reported as skipped). */
  add(chunk: string, line: number, sink: EventSink): boolean {
    const oversize = `${this.noun} larger than ${Math.round(this.capChars / 1024 / 1024)} MiB: not analysed`;
    if (this.overflowed) {
      sink.skip(line, oversize);
      return false;
    }
    if (this.firstLine === 0) this.firstLine = line;
    this.size += chunk.length + 1;
    if (this.size > this.capChars) {
      this.overflowed = true;
      for (let l = this.firstLine; l <= line; l++) sink.skip(l, oversize);
      this.chunks = [];
      return false;
    }
    this.chunks.push(chunk);
    this.lastLine = line;
    if (this.opensElement(chunk) && this.entryLines.length < MAX_ENTRY_LINES) this.entryLines.push(line);
    return true;
  }

  /** The accumulated text (once: the lines are let go), or null when there is none to read. */
  take(): string | null {
    if (this.overflowed || this.chunks.length === 0) return null;
    const body = this.chunks.join('\n');
    this.chunks = [];
    return body;
  }

  /** The line where element `i` opens (the document's first line when the array is on one line). */
  lineOf(i: number): number {
    return this.entryLines[i] ?? this.firstLine;
  }

  /** The array's elements, the complete ones of a cut-off document, or null (reported). */
  elements(body: string, sink: EventSink): unknown[] | null {
    let doc: unknown;
    try {
      doc = JSON.parse(body);
    } catch {
      const salvaged = this.compact ? salvageLines(body) : salvage(body, this.indent ?? '  ');
      if (salvaged === null) {
        sink.skip(this.firstLine, `${this.noun} does not parse`);
        return null;
      }
      sink.skip(this.lastLine, `${this.noun} is cut off: the incomplete last record is lost`);
      return salvaged;
    }
    if (Array.isArray(doc)) return doc;
    sink.skip(this.firstLine, `${this.noun} is not an array of records`);
    return null;
  }

  private opensElement(chunk: string): boolean {
    if (this.compact) return /^\s*\{/.test(chunk);
    if (this.indent === null && this.afterBracket && compactElement(chunk)) {
      this.compact = true;
      return true;
    }
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
}

/** The complete elements of an array of one element a line cut off mid-element: the last lines dropped until it parses. */
function salvageLines(body: string): unknown[] | null {
  const lines = body.split('\n');
  for (let drop = 1; drop <= 3 && drop < lines.length; drop++) {
    const kept = lines.slice(0, lines.length - drop);
    kept[kept.length - 1] = kept[kept.length - 1]!.replace(/,\s*$/, '');
    try {
      const doc = JSON.parse(`${kept.join('\n')}\n]`) as unknown;
      return Array.isArray(doc) ? doc : null;
    } catch {
      // one more line off
    }
  }
  return null;
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
