// A capture that begins partway into a text file: a chat with another assistant pasted above an
// agent's terminal capture, or a capture that opens on the tail of a long tool output. Detection
// reads only the first lines (a bounded sample), so such a file starts as plain text; this watches
// the plain-text lines for an agent's own marks and, where one appears, asks detection again about
// the lines from there on. When they are unmistakably an agent's terminal output, the rest of the
// file is read by that agent's parser, from the turn that opens above the mark (its prompt).
//
// Plain-text lines reach their parser BACK_LINES lines late, so that a turn's opening above a mark
// can still go to the capture's parser. Bounded: at most BACK_LINES + WINDOW_LINES lines and
// HELD_MAX_BYTES held, and a number of looks that grows with the file (MIN_LOOKS, one more every
// LINES_PER_LOOK lines), so a document bulleted with "●" costs a few detections, not one per line.
import { cleanLine, parsePrompt } from '../parsers/plain-text.ts';
import type { LineInfo } from './lines.ts';

/** Lines from a mark that detection reads (the same number as the first sample). */
export const WINDOW_LINES = 50;
/** Lines held above a mark, where its turn's prompt may be. */
export const BACK_LINES = 60;
/** Bytes held at most: a window of long lines is decided on what it holds by then. */
export const HELD_MAX_BYTES = 1024 * 1024;
const MIN_LOOKS = 20;
const LINES_PER_LOOK = 2_000;

/**
 * A line only an agent's terminal writes: Claude Code's record mark before a tool call (`⏺ Bash(…)`,
 * `● Read(…)`, with or without a variation selector); Codex's action bullets; a Gemini CLI tool box's
 * status line. Read from the line as the terminal showed it (colour codes removed). A reply's mark
 * alone (`⏺ I'll start…`, `✦ …`) is also a bullet in prose: the turn it opens is found from the tool
 * mark below it (turnStart). Not a welcome box or banner: it names the folder of the first pasted
 * session only (turnStart says why).
 */
const AGENT_MARK = /^(?:[⏺●][\uFE0E\uFE0F]? [A-Z][\w ]{0,40}\(|• (?:Ran|Explored|Edited|Updated Plan)(?: |$)|│ [✓✔x?⊷] {1,2}[A-Z]\w* )/;
/** Where a turn of a capture opens, above its first mark: a prompt (`>`, `❯`, Codex's `›`). */
const TURN_OPENING = /^[>❯›] \S/;
/** Lines between a capture's prompt and its first tool mark: blank, the reply's mark, its indented text, thinking. */
const TURN_BODY = /^(?:\s*$|[⏺●✻] |\s{2,}\S)/;

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
  /** The last command typed at a shell's prompt (`$ `, `user@host:~$ `) before the window: its program. */
  private lastShellProgram: string | null = null;

  /** `detects`: whether detection reads these lines as an agent's terminal output. */
  constructor(private readonly detects: (lines: string[]) => boolean) {}

  offer(info: LineInfo): LateStep {
    if (this.done) return { kind: 'release', lines: [info] };
    this.lines++;
    this.held.push(info);
    this.heldBytes += info.text.length;
    if (this.mark === -1 && isMark(info.text)) this.mark = this.held.length - 1;
    else if (this.mark === -1) this.lastShellProgram = shellProgram(info.text) ?? this.lastShellProgram;
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
   * A capture a shell's own command prints (`$ cat notes/claude.txt`, `less`, `tail`) is that
   * command's output, not the agent's session; after any other command (`$ claude` launching the
   * agent, a chat's quoted `$ npm test`) it may be. Otherwise, within the looks the file has earned.
   */
  private mayLook(): boolean {
    return !(this.lastShellProgram !== null && PRINTERS.has(this.lastShellProgram)) && this.looks < MIN_LOOKS + Math.floor(this.lines / LINES_PER_LOOK);
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

/** Programs that print a file or a stream as it is: what they show is their output, whatever it holds. */
const PRINTERS: ReadonlySet<string> = new Set(['cat', 'less', 'more', 'head', 'tail', 'bat', 'batcat', 'type', 'Get-Content', 'gc', 'view', 'most', 'zcat', 'nl', 'tac']);

/** The program a command at a shell's own prompt runs (`$ cat x` → cat, `dev@box:~/app$ make` → make), or null for any other line. */
function shellProgram(text: string): string | null {
  const c = text.charAt(0);
  if (c !== '$' && c !== '[' && c !== 'P' && !text.includes('@')) return null;
  const prompt = parsePrompt(text.includes('\x1b') ? cleanLine(text) : text);
  if (prompt === null || prompt.kind !== 'shell') return null;
  const program = /^(?:sudo\s+)?(\S+)/.exec(prompt.command.trim())?.[1];
  return program === undefined ? null : program.replace(/^.*\//, '');
}

function isMark(text: string): boolean {
  return AGENT_MARK.test(text.includes('\x1b') ? cleanLine(text) : text);
}

/** Blank lines between two lines held (the line reader passes no blank line on: a gap in the numbers is one). */
function blankBetween(above: LineInfo, below: LineInfo): boolean {
  return below.line - above.line > 1;
}

/**
 * Where the capture holding the mark at `mark` begins: the prompt of its turn — found by walking up
 * over the turn's own lines (blank lines, the reply's mark and indented text, thinking) to a prompt
 * with a blank line (or nothing held) above it — else the mark itself. A quoted line in the prose
 * above (`> just run git push --force`) is no prompt: prose runs into it. Never a welcome box: a
 * file that pastes several sessions shows one per session, each with its own folder, and the
 * capture's parser keeps the first it is given for the whole file (a later session's deletes in its
 * own folder would read as outside the tree); without it the folder stays unknown and deletes by
 * relative names are not placed (a miss, not a false alarm).
 */
function turnStart(held: readonly LineInfo[], mark: number): number {
  const clean = (i: number) => (held[i]!.text.includes('\x1b') ? cleanLine(held[i]!.text) : held[i]!.text);
  for (let i = mark - 1; i >= 0; i--) {
    const text = clean(i);
    if (TURN_OPENING.test(text)) return i === 0 || blankBetween(held[i - 1]!, held[i]!) || clean(i - 1).trim() === '' ? i : mark;
    if (!TURN_BODY.test(text)) return mark;
  }
  return mark;
}
