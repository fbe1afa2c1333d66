// A capture that begins partway into a text file: a chat with another assistant pasted above an
// agent's terminal capture, or a capture that opens on the tail of a long tool output. Detection
// reads only the first lines (a bounded sample), so such a file starts as plain text; this watches
// the plain-text lines for an agent's own marks and, where one appears, asks detection again about
// the lines from there on. When they are unmistakably an agent's terminal output, the rest of the
// file is read by that agent's parser, from the turn that opens above the mark (the prompt, or the
// welcome box with its working directory).
//
// Plain-text lines reach their parser BACK_LINES lines late, so that a turn's opening above a mark
// can still go to the capture's parser. Bounded: at most BACK_LINES + WINDOW_LINES lines and
// HELD_MAX_BYTES held, and a number of looks that grows with the file (MIN_LOOKS, one more every
// LINES_PER_LOOK lines), so a document bulleted with "●" costs a few detections, not one per line.
import { cleanLine, parsePrompt } from '../parsers/plain-text.ts';
import type { LineInfo } from './lines.ts';

/** Lines from a mark that detection reads (the same number as the first sample). */
export const WINDOW_LINES = 50;
/** Lines held above a mark, where its turn's prompt or the welcome box may be. */
export const BACK_LINES = 60;
/** Bytes held at most: a window of long lines is decided on what it holds by then. */
export const HELD_MAX_BYTES = 1024 * 1024;
const MIN_LOOKS = 20;
const LINES_PER_LOOK = 2_000;

/**
 * A line only an agent's terminal writes: Claude Code's record mark before a tool call (`⏺ Bash(…)`,
 * `● Read(…)`, with or without a variation selector) or its welcome; Codex's banner or its action
 * bullets; a Gemini CLI tool box's status line. Read from the line as the terminal showed it
 * (colour codes removed), inside a box's border too. A reply's mark alone (`⏺ I'll start…`, `✦ …`)
 * is also a bullet in prose: the turn it opens is found from the tool mark below it (turnStart).
 */
const AGENT_MARK = /^(?:│ )?(?:[⏺●][\uFE0E\uFE0F]? [A-Z][\w ]{0,40}\(|✻ Welcome to Claude Code|>_ OpenAI Codex|• (?:Ran|Explored|Edited|Updated Plan)(?: |$)|│ [✓✔x?⊷] {1,2}[A-Z]\w* )/;
/** Where a turn of a capture opens, above its first mark: a prompt (`>`, `❯`, Codex's `›`) or a box's top (the welcome). */
const TURN_OPENING = /^(?:[>❯›] \S|╭─)/;
const BOX_TOP = /^╭─/;

export type LateStep =
  /** Lines to read as before, in order (none while lines are held). */
  | { kind: 'release'; lines: LineInfo[] }
  /** `before` is read as before; `lines` begin a capture, read with the format detection now gives, and so is the rest. */
  | { kind: 'switch'; before: LineInfo[]; lines: LineInfo[] };

const NOTHING: LateStep = { kind: 'release', lines: [] };

export class LateCapture {
  private held: LineInfo[] = [];
  private heldBytes = 0;
  /** The window's mark, as an index into `held` (-1: no window open). */
  private mark = -1;
  private looks = 0;
  private lines = 0;
  private done = false;
  /** The log has ended: a window is decided on what it holds, whatever its length. */
  private ending = false;
  /** Commands typed at a shell's prompt (`$ `, `user@host:~$ `) before any window. */
  private shellPrompts = 0;

  /** `detects`: whether detection reads these lines as an agent's terminal output. */
  constructor(private readonly detects: (lines: string[]) => boolean) {}

  offer(info: LineInfo): LateStep {
    if (this.done) return { kind: 'release', lines: [info] };
    this.lines++;
    this.held.push(info);
    this.heldBytes += info.text.length;
    if (this.mark === -1 && isMark(info.text)) this.mark = this.held.length - 1;
    else if (this.mark === -1 && isShellCommand(info.text)) this.shellPrompts++;
    if (this.mark === -1) return { kind: 'release', lines: this.trimBack() };
    if (this.held.length - this.mark >= WINDOW_LINES || this.heldBytes > HELD_MAX_BYTES || info.last) return this.decide();
    return NOTHING;
  }

  /** The end of the log: a window still open is decided on what it holds, and everything held goes. */
  flush(): LateStep {
    this.ending = true;
    const step = this.mark === -1 ? NOTHING : this.decide();
    if (step.kind === 'switch') return step;
    const rest = this.held;
    this.held = [];
    this.heldBytes = 0;
    this.mark = -1;
    return { kind: 'release', lines: [...step.lines, ...rest] };
  }

  private decide(): LateStep {
    const released: LineInfo[] = [];
    // a window detection turns down may hold the next mark: it opens the next window
    while (this.mark !== -1) {
      const start = turnStart(this.held, this.mark);
      if (this.mayLook()) {
        this.looks++;
        if (this.detects(this.held.slice(start).map((l) => l.text))) {
          this.done = true;
          const before = [...released, ...this.held.slice(0, start)];
          const lines = this.held.slice(start);
          this.held = [];
          this.heldBytes = 0;
          this.mark = -1;
          return { kind: 'switch', before, lines };
        }
      }
      const next = this.held.findIndex((l, i) => i > this.mark && isMark(l.text));
      if (next === -1) {
        this.mark = -1;
        break;
      }
      const cut = Math.max(0, next - BACK_LINES);
      released.push(...this.take(cut));
      this.mark = next - cut;
      // the next window is not full yet: it waits for its lines
      if (this.held.length - this.mark < WINDOW_LINES && this.heldBytes <= HELD_MAX_BYTES && !this.held.at(-1)!.last && !this.ending) return { kind: 'release', lines: released };
    }
    released.push(...this.trimBack());
    return { kind: 'release', lines: released };
  }

  /**
   * A shell session of its own (two commands at a shell's prompt before) keeps what it prints: a
   * capture `cat` shows is that command's output. Otherwise, within the looks the file has earned.
   */
  private mayLook(): boolean {
    return this.shellPrompts < SHELL_SESSION && this.looks < MIN_LOOKS + Math.floor(this.lines / LINES_PER_LOOK);
  }

  /** With no window open, lines beyond the last BACK_LINES (or the byte cap) go on to be read. */
  private trimBack(): LineInfo[] {
    let cut = Math.max(0, this.held.length - BACK_LINES);
    let bytes = this.heldBytes;
    for (let i = 0; i < cut; i++) bytes -= this.held[i]!.text.length;
    while (cut < this.held.length && bytes > HELD_MAX_BYTES) bytes -= this.held[cut++]!.text.length;
    return this.take(cut);
  }

  private take(n: number): LineInfo[] {
    if (n === 0) return [];
    const out = this.held.splice(0, n);
    for (const l of out) this.heldBytes -= l.text.length;
    return out;
  }
}

const SHELL_SESSION = 2;

/** A command at a shell's own prompt (`$ ls`, `dev@box:~/app$ make`, `PS C:\> dir`), not a `>` quote or a `#` heading. */
function isShellCommand(text: string): boolean {
  const c = text.charAt(0);
  if (c !== '$' && c !== '[' && c !== 'P' && !text.includes('@')) return false;
  const prompt = parsePrompt(text.includes('\x1b') ? cleanLine(text) : text);
  return prompt !== null && prompt.kind === 'shell' && prompt.command.trim() !== '';
}

function isMark(text: string): boolean {
  return AGENT_MARK.test(text.includes('\x1b') ? cleanLine(text) : text);
}

/**
 * Where the capture holding the mark at `mark` begins: the welcome box's top above it (with the
 * session's working directory; a file that pastes several sessions shows one per session, and the
 * capture's parser takes each), else the last prompt above it, else the mark itself (the lines held
 * above it, at most BACK_LINES).
 */
function turnStart(held: readonly LineInfo[], mark: number): number {
  const clean = (i: number) => (held[i]!.text.includes('\x1b') ? cleanLine(held[i]!.text) : held[i]!.text);
  for (let i = 0; i < mark; i++) if (BOX_TOP.test(clean(i))) return i;
  for (let i = mark - 1; i >= 0; i--) if (TURN_OPENING.test(clean(i))) return i;
  return mark;
}
