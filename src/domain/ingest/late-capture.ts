// A capture that begins partway into a text file: a chat with another assistant pasted above an
// agent's terminal capture, or a capture that opens on the tail of a long tool output. Detection
// reads only the first lines (a bounded sample), so such a file starts as plain text; this watches
// the plain-text lines for an agent's own marks and, where one appears, asks detection again about
// the lines from there on. When they are unmistakably an agent's terminal output, the rest of the
// file is read by that agent's parser. Bounded: a window of WINDOW_LINES lines, at most
// MAX_ATTEMPTS looks.
import type { LineInfo } from './lines.ts';

/** Lines from a mark that detection reads (the same number as the first sample). */
export const WINDOW_LINES = 50;
/** Marks looked at before the watch gives up: a document that quotes a capture now and then stays text. */
const MAX_ATTEMPTS = 20;

/**
 * A line only an agent's terminal writes: Claude Code's record mark before a tool or a reply
 * (`⏺ Bash(…)`, `● Read(…)`) or its welcome; Codex's banner or its action bullets; Gemini CLI's
 * reply mark or a tool box's status line.
 */
const AGENT_MARK = /^(?:[⏺●] \S|✻ Welcome to Claude Code|>_ OpenAI Codex|• (?:Ran|Explored|Edited|Updated Plan) |✦ \S|│ [✓✔] {1,2}\w)/;

export type LateStep =
  | { kind: 'pass' }
  | { kind: 'held' }
  /** The held lines, to be read as before (no capture begins there). */
  | { kind: 'release'; lines: LineInfo[] }
  /** The held lines begin a capture: read them, and the rest, with the format detection now gives. */
  | { kind: 'switch'; lines: LineInfo[] };

export class LateCapture {
  private window: LineInfo[] | null = null;
  private attempts = 0;
  private done = false;

  /** `detects`: whether detection reads these lines as an agent's terminal output. */
  constructor(private readonly detects: (lines: string[]) => boolean) {}

  offer(info: LineInfo): LateStep {
    if (this.done) return { kind: 'pass' };
    if (this.window === null) {
      if (!AGENT_MARK.test(info.text)) return { kind: 'pass' };
      this.window = [];
    }
    this.window.push(info);
    return this.window.length >= WINDOW_LINES || info.last ? this.decide() : { kind: 'held' };
  }

  /** The end of the log: the lines still held are decided on what there is. */
  flush(): LateStep {
    return this.window === null ? { kind: 'pass' } : this.decide();
  }

  private decide(): LateStep {
    const lines = this.window!;
    this.window = null;
    this.attempts++;
    if (this.detects(lines.map((l) => l.text))) {
      this.done = true;
      return { kind: 'switch', lines };
    }
    if (this.attempts >= MAX_ATTEMPTS) this.done = true;
    return { kind: 'release', lines };
  }
}
