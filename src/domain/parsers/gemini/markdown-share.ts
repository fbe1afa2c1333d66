// Gemini CLI's `/chat share <file>.md`: the conversation history (Content[], see
// content-history.ts) rendered as Markdown by the CLI's serializeHistoryToMarkdown:
//   ## USER 🧑‍💻                      (or "## MODEL ✨"; older builds drop the emoji's joiner,
//                                      and builds of late 2025 put the emoji first: "✨ ## MODEL")
//   <blank line>
//   <the turn's parts, joined with nothing between them:>
//     text, as it is
//     **Tool Command**:\n```json\n<JSON.stringify(functionCall, null, 2)>\n```
//     **Tool Response**:\n```json\n<JSON.stringify(functionResponse, null, 2)>\n```
// and turns joined by "\n\n---\n\n". Each turn is read back into the Content entry it was made
// from and handed to the history reader as soon as the next turn begins, so the export is judged
// exactly like the history itself (and only one turn is held at a time). A JSON block that does
// not parse stays text of its turn, and the line says so.
import type { EventSink, LogParser } from '../../model/events.ts';
import { ContentHistoryReader } from './content-history.ts';

/**
 * A turn's heading, as the CLI writes it: "## USER 🧑‍💻", or the emoji first ("🧑‍💻 ## USER", builds
 * of late 2025); people who keep the export in their repository sometimes make the first one the
 * document's title ("# USER 🧑‍💻").
 */
export const SHARE_HEADING = /^(?:##? (USER|MODEL) (?:🧑\u200d?💻|✨)|(?:🧑\u200d?💻|✨) ##? (USER|MODEL))\s*$/u;

/** The role a heading line opens, or null when the line is no heading. */
export function shareHeadingRole(line: string): 'user' | 'model' | null {
  const m = SHARE_HEADING.exec(line);
  if (!m) return null;
  return (m[1] ?? m[2]) === 'USER' ? 'user' : 'model';
}
const BLOCK_START = /^\*\*Tool (Command|Response)\*\*:$/;
const FENCE_OPEN = '```json';
/** One turn's text is held until the next heading: a cap keeps a file without headings bounded. */
const TURN_CAP_CHARS = 64 * 1024 * 1024;
/** A YAML front matter block above the first turn holds at most this many lines (detect.ts reads the same). */
export const FRONT_MATTER_MAX_LINES = 60;

interface Turn {
  role: 'user' | 'model';
  line: number;
  parts: unknown[];
  /** Text lines since the last tool block. */
  text: string[];
  size: number;
}

export class GeminiMarkdownShareParser implements LogParser {
  readonly agent = 'gemini-cli' as const;
  readonly format = 'gemini-markdown' as const;
  private reader: ContentHistoryReader | null = null;
  private turn: Turn | null = null;
  /** A `**Tool …**:` block being read: its kind, first line and JSON lines. */
  private block: { kind: 'Command' | 'Response'; line: number; json: string[] | null } | null = null;

  /** The line of the last text line kept: blank lines never reach a parser, so gaps stand for them. */
  private lastTextLine = 0;

  /** The first non-blank line of the file, where a front matter block may open. */
  private firstLine: number | null = null;
  /** A front matter block: not seen ('none'), open (the lines it holds so far) or done with. */
  private frontMatter: 'none' | number[] | 'closed' = 'none';

  text(chunk: string, line: number, sink: EventSink): void {
    if (chunk.trim() === '' && !this.block) return;
    this.firstLine ??= line;
    const role = this.block ? null : shareHeadingRole(chunk);
    if (role && this.atTurnBoundary(line)) return this.startTurn(role, line, sink);
    if (!this.turn) return this.beforeFirstTurn(chunk, line, sink);
    if (this.block) return this.blockLine(chunk, line, sink);
    // The parts are joined with nothing between them: a block may start after text on its line.
    const at = chunk.search(/\*\*Tool (?:Command|Response)\*\*:$/);
    if (at >= 0 && BLOCK_START.test(chunk.slice(at))) {
      if (at > 0) this.addText(chunk.slice(0, at), line, sink);
      this.flushText();
      this.block = { kind: /Command/.test(chunk.slice(at)) ? 'Command' : 'Response', line, json: null };
      return;
    }
    this.addText(chunk, line, sink);
  }

  /**
   * Text above the first turn: a YAML front matter block that opens the file ("---" … "---" or
   * "...", as note vaults and static sites add) is the file's metadata, not the session, and is
   * passed over; anything else there is skipped with a reason. A block that does not close within
   * FRONT_MATTER_MAX_LINES is skipped line by line after all.
   */
  private beforeFirstTurn(chunk: string, line: number, sink: EventSink): void {
    const mark = chunk.trimEnd();
    if (this.frontMatter === 'none' && line === this.firstLine && mark === '---') {
      this.frontMatter = [line];
      return;
    }
    if (Array.isArray(this.frontMatter)) {
      if (mark === '---' || mark === '...') {
        this.frontMatter = 'closed';
        return;
      }
      this.frontMatter.push(line);
      if (this.frontMatter.length <= FRONT_MATTER_MAX_LINES) return;
      this.openFrontMatterSkipped(sink);
      return;
    }
    sink.skip(line, 'text before the first turn of a Gemini CLI chat export');
  }

  /** A front matter block that never closed before the first turn: its lines were text after all. */
  private openFrontMatterSkipped(sink: EventSink): void {
    if (!Array.isArray(this.frontMatter)) return;
    for (const held of this.frontMatter) sink.skip(held, 'text before the first turn of a Gemini CLI chat export');
    this.frontMatter = 'closed';
  }

  end(sink: EventSink): void {
    this.openFrontMatterSkipped(sink);
    if (this.block) this.abandonBlock(sink);
    this.finishTurn(sink);
  }

  /**
   * A heading opens a turn at the start of the file, or after the "\n\n---\n\n" between turns:
   * the last text line is "---", one blank line above the heading.
   */
  private atTurnBoundary(line: number): boolean {
    if (!this.turn) return true;
    return this.turn.text.at(-1) === '---' && this.lastTextLine === line - 2;
  }

  private startTurn(role: Turn['role'], line: number, sink: EventSink): void {
    this.openFrontMatterSkipped(sink);
    if (this.turn) {
      // The separator ("---" and the blank line above it) belongs to no turn.
      this.turn.text.pop();
      if (this.turn.text.at(-1) === '') this.turn.text.pop();
      this.finishTurn(sink);
    }
    this.turn = { role, line, parts: [], text: [], size: 0 };
    this.lastTextLine = line;
  }

  private addText(chunk: string, line: number, sink: EventSink): void {
    const turn = this.turn!;
    turn.size += chunk.length + 1;
    if (turn.size > TURN_CAP_CHARS) return sink.skip(line, 'a turn of the chat export longer than 64 MB: the rest of it was not read');
    // The blank lines between this line and the last one, which the line reader does not pass on.
    for (let gap = Math.min(line - this.lastTextLine - 1, 100); gap > 0 && turn.text.length > 0; gap--) turn.text.push('');
    turn.text.push(chunk);
    this.lastTextLine = line;
  }

  private blockLine(chunk: string, line: number, sink: EventSink): void {
    const block = this.block!;
    if (block.json === null) {
      if (chunk === FENCE_OPEN) {
        block.json = [];
        return;
      }
      // "**Tool Command**:" not followed by its fence: ordinary text after all.
      this.block = null;
      this.addText(`**Tool ${block.kind}**:`, block.line, sink);
      return this.text(chunk, line, sink);
    }
    // The block ends at a line that starts with the closing fence; the next part may follow it at once.
    if (chunk.startsWith('```')) {
      this.closeBlock(sink);
      const rest = chunk.slice(3);
      if (rest !== '') this.text(rest, line, sink);
      return;
    }
    block.json.push(chunk);
    if (block.json.length > 1_000_000) this.abandonBlock(sink);
  }

  private closeBlock(sink: EventSink): void {
    const block = this.block!;
    this.block = null;
    const source = (block.json ?? []).join('\n');
    let value: unknown;
    try {
      value = JSON.parse(source);
    } catch {
      sink.skip(block.line, `the JSON of a "Tool ${block.kind}" block in a Gemini CLI chat export does not parse`);
      return;
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      sink.skip(block.line, `a "Tool ${block.kind}" block in a Gemini CLI chat export holds no object`);
      return;
    }
    this.turn!.parts.push(block.kind === 'Command' ? { functionCall: value } : { functionResponse: value });
  }

  /** A block cut off by the end of the file (or absurdly long): what it held is not read. */
  private abandonBlock(sink: EventSink): void {
    const block = this.block!;
    this.block = null;
    sink.skip(block.line, `a "Tool ${block.kind}" block in a Gemini CLI chat export that never closes`);
  }

  private flushText(): void {
    const turn = this.turn!;
    const text = turn.text.join('\n');
    turn.text = [];
    if (text.trim() !== '') turn.parts.push({ text: text.replace(/^\n+/, '') });
  }

  private finishTurn(sink: EventSink): void {
    const turn = this.turn;
    if (!turn) return;
    this.flushText();
    this.turn = null;
    this.reader ??= new ContentHistoryReader(sink);
    this.reader.read([{ role: turn.role, parts: turn.parts }], () => turn.line);
  }
}
