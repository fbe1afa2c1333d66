// Shared pieces of the terminal-output parsers: line cleaning, bounded text blocks, and the
// emission of a tool call with its result. Terminal output is text for a human, so everything
// here is forgiving: odd input only ever yields less structure, never an exception.
import type { EventSink, ToolInput } from '../../model/events.ts';
import { cleanLine } from '../plain-text.ts';

/** Text kept per block (message, output, file content); the rest is counted. */
export const MAX_BLOCK_CHARS = 64 * 1024;
/** Per-line pattern work only looks this far into a line (long lines are data, not markers). */
export const SCAN_CHARS = 2048;
/** A command or tool argument spread over several lines is kept up to this size. */
export const MAX_ARGUMENT_CHARS = 256 * 1024;

/** Appends a line to a multi-line argument unless that would pass the cap; false when full. */
export function pushCapped(parts: string[], text: string): boolean {
  let size = 0;
  for (const p of parts) size += p.length + 1;
  if (size + text.length > MAX_ARGUMENT_CHARS) {
    const room = MAX_ARGUMENT_CHARS - size;
    if (room > 0) parts.push(text.slice(0, room));
    return false;
  }
  parts.push(text);
  return true;
}

/** What the terminal finally showed (escapes stripped, redraws applied), without trailing blanks. */
export function clean(raw: string): string {
  // trimEnd, not /\s+$/: that pattern is quadratic on a long run of blanks. Variation selectors
  // ("⏺\uFE0E") come with some terminals' copy of the glyphs and would hide the markers.
  const s = cleanLine(raw).trimEnd();
  return s.includes('\uFE0E') || s.includes('\uFE0F') ? s.replace(/[\uFE0E\uFE0F]/g, '') : s;
}

/** The head of a line that pattern matching looks at. */
export function head(s: string): string {
  return s.length > SCAN_CHARS ? s.slice(0, SCAN_CHARS) : s;
}

/** Lines of text with a size cap: what does not fit is counted and said, never silently lost. */
export class TextBlock {
  private readonly parts: string[] = [];
  private size = 0;
  private dropped = 0;

  constructor(readonly line: number, private readonly cap = MAX_BLOCK_CHARS) {}

  add(text: string): void {
    const cost = text.length + (this.parts.length > 0 ? 1 : 0);
    if (this.size + cost <= this.cap) {
      this.parts.push(text);
      this.size += cost;
      return;
    }
    const room = this.cap - this.size - 1;
    if (room > 0) this.parts.push(text.slice(0, room));
    this.size = this.cap;
    this.dropped += text.length - Math.max(0, room);
  }

  /** Joins a wrapped continuation onto the last line (the terminal broke it, not the author). */
  appendToLast(text: string): void {
    if (this.parts.length === 0 || this.size + text.length + 1 > this.cap) return this.add(text);
    this.parts[this.parts.length - 1] += ' ' + text;
    this.size += text.length + 1;
  }

  get empty(): boolean {
    return this.parts.length === 0 && this.dropped === 0;
  }

  get lineCount(): number {
    return this.parts.length;
  }

  toString(): string {
    const body = trimBlankEdges(this.parts).join('\n');
    return this.dropped > 0 ? `${body}\n[… ${this.dropped} more characters not kept]` : body;
  }
}

function trimBlankEdges(parts: string[]): string[] {
  let a = 0;
  let b = parts.length;
  while (a < b && parts[a].trim() === '') a++;
  while (b > a && parts[b - 1].trim() === '') b--;
  return parts.slice(a, b);
}

export interface ResultFacts {
  output: string;
  exitCode: number | null;
  isError: boolean;
  denied?: boolean;
  interrupted?: boolean;
  durationMs?: number;
  /** Line of the result (defaults to the call's line). */
  line?: number;
}

/** Emits a tool call and, when known, its result, under one synthesised call id. */
export class CallEmitter {
  private calls = 0;

  constructor(private readonly prefix: string) {}

  call(sink: EventSink, line: number, at: string | null, name: string, input: ToolInput): string {
    const callId = `${this.prefix}-${++this.calls}`;
    sink.emit({ kind: 'tool_call', index: -1, line, at, callId, name, input });
    return callId;
  }

  result(sink: EventSink, callId: string, name: string, line: number, at: string | null, r: ResultFacts): void {
    sink.emit({
      kind: 'tool_result', index: -1, line: r.line ?? line, at, callId, name, output: r.output,
      exitCode: r.exitCode, isError: r.isError, denied: r.denied ?? false,
      ...(r.interrupted ? { interrupted: true } : {}),
      ...(r.durationMs !== undefined ? { durationMs: r.durationMs } : {}),
    });
  }
}

/** "1.20s", "300ms", "1m 05s", "2h 01m 00s" → milliseconds (undefined when unreadable). */
export function parseDuration(text: string): number | undefined {
  let total = 0;
  let seen = false;
  for (const m of text.matchAll(/(\d+(?:\.\d+)?)\s*(ms|h|m|s)\b/g)) {
    const n = Number(m[1]);
    total += m[2] === 'ms' ? n : m[2] === 's' ? n * 1000 : m[2] === 'm' ? n * 60_000 : n * 3_600_000;
    seen = true;
  }
  return seen ? Math.round(total) : undefined;
}

/** An exit code stated in output ("Exit code 2", "Exit Code: 1", "exited with code 3"). */
export function statedExitCode(text: string): number | null {
  const m = /\bexit(?:ed)?(?: with)?[ _-]?(?:code|status)\s*[:=]?\s*(-?\d{1,3})\b/i.exec(head(text));
  return m ? Number(m[1]) : null;
}

/**
 * A file as the TUIs show it, "  1 import …", "  2", …: the numbers are stripped when they count
 * up from 1 (so a line that merely starts with a number keeps it).
 */
export function stripLineNumbers(lines: string[]): string[] {
  let expected = 1;
  return lines.map((l) => {
    const m = /^\s*(\d+)(?: (.*))?$/.exec(l);
    if (m && Number(m[1]) === expected) {
      expected++;
      return m[2] ?? '';
    }
    return l;
  });
}
