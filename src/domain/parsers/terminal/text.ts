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

/** A line at least this wide (as shown, indentation included) filled an 80-column terminal. */
export const FULL_LINE_WIDTH = 76;
const WIDEST_COUNTED = 400;

/**
 * The width of the terminal a capture was taken in, from its lines: the most common width of the
 * lines that filled it (76 columns or more). Wrapped text fills the terminal to its last column
 * again and again; a single over-wide line (a pasted log line the terminal did not wrap) does not
 * move it.
 */
export class TerminalWidth {
  private readonly counts = new Uint32Array(WIDEST_COUNTED + 1);
  private typical = 0;

  observe(width: number): void {
    if (width < FULL_LINE_WIDTH || width > WIDEST_COUNTED) return;
    const n = ++this.counts[width]!;
    if (this.typical === 0 || n > this.counts[this.typical]! || (n === this.counts[this.typical]! && width > this.typical)) this.typical = width;
  }

  /**
   * Was a line this wide as wide as the terminal (so a word may have been broken at its end)?
   * Within two columns: Claude Code's prompt box keeps a margin at its right edge.
   */
  filled(width: number): boolean {
    return width >= FULL_LINE_WIDTH && (!this.established() || width >= this.typical - 2);
  }

  /**
   * Whether the width is known: seen on three lines at least. One over-wide line (a `script(1)`
   * header, a pasted log line, a capture resized later) does not set it.
   */
  established(): boolean {
    return this.typical > 0 && this.counts[this.typical]! >= ESTABLISHED_LINES;
  }

  /**
   * Would the next line's first word not have fitted after a line this wide (so the terminal moved
   * it down: a wrap between words, not a line break the author typed)? `… .env | grep` then
   * `CHROME_TEST_PATH | cut …` in an 80-column terminal. The width is the capture's own, or 80.
   */
  pushedDown(width: number, next: string): boolean {
    const word = /^\S+/.exec(next)?.[0];
    return word !== undefined && width + 1 + word.length > this.columns();
  }

  /** The terminal's width as the capture shows it, or 80 when no line filled it. */
  columns(): number {
    return this.established() ? this.typical : DEFAULT_WIDTH;
  }
}
const DEFAULT_WIDTH = 80;
const ESTABLISHED_LINES = 3;

/**
 * Did the terminal break a word between `prev` and `next` (each a line's text without its
 * indentation; `prevFilled`: `prev`'s line was as wide as the terminal), rather than wrap between
 * two words or the author start a new line? Terminals (Ink's wrap-ansi, which Claude Code draws
 * with) move a word that fits on the next line whole and break only a word longer than a line,
 * after filling the line: so the line was full, and the word the break splits — the last run of
 * `prev` and the first run of `next` together — is longer than `prev` could hold. A word that is
 * itself longer than a line may also start on a line of its own, after a blank: that break is
 * between words. A pasted 93-character token in an 80-column prompt is one broken word; two paths
 * wrapped at a blank are not.
 */
export function brokeWord(prev: string, next: string, prevFilled: boolean): boolean {
  if (!prevFilled || /\s$/.test(prev)) return false;
  const last = /\S+$/.exec(prev)?.[0];
  const first = /^\S+/.exec(next)?.[0];
  if (last === undefined || first === undefined || last.length < 8 || last.length + first.length <= prev.length) return false;
  // A next line that is one word as wide as the line may be a long word that started on a line of
  // its own after a blank — or the middle of a token broken over three lines and more: a run of
  // token characters on both sides (no quote, bracket or pipe) is taken as one word.
  return first.length < prev.length || (TOKEN_RUN.test(last) && TOKEN_RUN.test(first) && /[A-Za-z0-9]/.test(first) && !/^(.)\1*$/.test(first));
}
const TOKEN_RUN = /^[A-Za-z0-9_+/=.~%@:-]+$/;

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

  /** Adds a line, joined to the last without a break when the terminal broke a word there (brokeWord). */
  addWrapped(text: string, prevFilled: boolean): void {
    const last = this.parts.at(-1);
    if (last === undefined || !brokeWord(last, text, prevFilled) || this.size + text.length > this.cap) return this.add(text);
    this.parts[this.parts.length - 1] = last + text;
    this.size += text.length;
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
