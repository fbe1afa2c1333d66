// The interactive Codex CLI (`codex` without `exec`), captured from the terminal. Its history
// cells, as codex-rs/tui renders them (history_cell.rs, exec_cell/render.rs, diff_render.rs):
//   ╭──────────────────────────────────────────╮
//   │ >_ OpenAI Codex (v0.46.0)                │   session header: version, model, directory
//   │ model:     gpt-5-codex   /model to change│
//   │ directory: ~/app                         │
//   ╰──────────────────────────────────────────╯
//   › fix the failing test                          the person's message (0.4x: "▌ text")
//   • I'll look at the test first.                  the agent's message (0.4x: "> text")
//   • Explored                                      reads and searches, coalesced
//     └ Read app.ts, app.test.ts
//       Search parseDate in src
//       List src
//   • Ran npm test                                  a command ("Running" while it runs, "You ran" for "!cmd")
//     │ -- --watch=false                            …its further lines
//     └ > app@1.0.0 test                            …its output, head and tail
//       … +12 lines (ctrl + t to view transcript)
//   • Edited src/app.ts (+1 -1)                     a patch ("Added", "Deleted"; "Edited 2 files" then "└ path (+n -m)")
//       12 -  return a
//       12 +  return b
//   • Updated Plan                                  the plan, "✔ done" / "□ open" steps
//   • Called github.get_issue({"number":3})         an MCP tool call, its output under "└"
//   • Searched rust 2024 edition changes            a web search
//   ⚠ `[features].x` is deprecated                  a warning
//   ✔ You approved codex to run git push this time  an approval; "✗ You canceled the request to run …" a refusal
//   ■ Conversation interrupted - tell the model …   an interruption ("■ other text" an error)
//   ─ Worked for 1m 02s ──────────────────────────  the end of a turn
//   Token usage: total=1,234 input=1,000 (+ 5,000 cached) output=234 (reasoning 64)
// The 2025 builds (0.1x–0.2x) printed ">_ You are using OpenAI Codex in ~/app", "user" / "codex" /
// "thinking" labels over text at the margin, "⚡ Ran command ls" with "  ⎿ output", "📋 Updated to
// do list", "✏️ Applying patch" and "🌐 query" (history_cell.rs of that time).
//   To continue this session, run codex resume 0199…
// The transcript view (ctrl+t) shows commands as "$ cmd", their output, then "✓ • 1.2s" or
// "✗ (1) • 300ms" (exec_cell/render.rs transcript_lines).
// The bullet's colour (green: exit 0, red: failed) is lost in a plain capture, so in the main view
// a command's exit status is known only when its output states it.
import type { EventSink, LogParser, PatchFile, ToolInput } from '../../model/events.ts';
import { CallEmitter, MAX_ARGUMENT_CHARS, TextBlock, clean, head, parseDuration, statedExitCode } from './text.ts';

/** The session header's title line, inside its box. */
export const CODEX_TUI_BANNER = /^│\s*>_ OpenAI Codex \(v(\d[\w.+-]*)\)/;
/** The cell titles that start a tool call. */
export const CODEX_TUI_TOOL = /^• (?:Ran|Running|You ran|Explored|Exploring|Edited|Added|Deleted|Updated Plan|Update Plan|Called|Calling|Change Approved|Searched)(?: |$)/;
const TOOL_TITLE = /^• (Ran|Running|You ran|Explored|Exploring|Edited|Added|Deleted|Updated Plan|Update Plan|Called|Calling|Change Approved|Searched)(?: (.*))?$/;
const PROMPT = /^[›▌] ?(.*)$/;
/** 2025 layout (0.1x–0.2x): section labels on their own line, and emoji-titled cells. */
const SECTION_LABEL = /^(user|codex|thinking)$/;
const EARLY_TITLE = /^(⚡|📋|✏️?|🌐) ?(.*)$/u;
/** What starts a new cell at the margin, in any layout (a 2025 section runs on until one). */
const CELL_START = /^(?:[•›▌■⚠$]|⚡|📋|✏|🌐|[✔✓✗] You |─ Worked|Token usage:|To continue this session|>_ |patch approval decision:|(?:user|codex|thinking)$)/u;
const BULLET = /^• (.*)$/;
/** A subagent started in its own thread (its first line names its id and model). */
const SPAWNED = /^• Spawned [0-9a-f]{8}-[0-9a-f-]{27,}\b/;
/** 0.4x printed the agent's message as "> text"; "> Thinking" opened its reasoning. */
const OLD_MESSAGE = /^> ?(.*)$/;
const WORKED = /^─ Worked for [\dhms ]+ ─*$|^─{8,}$/;
const USAGE = /^Token usage: total=([\d,]+) input=([\d,]+)(?: \(\+ ?([\d,]+) cached\))? output=([\d,]+)/;
const RESUME = /^To continue this session, run codex resume ([\w-]+)/;
const APPROVED = /^[✔✓] You approved codex to run (.+?)(?: this time| every time this session)?$/;
const REFUSED = /^✗ You (?:canceled|cancelled|did not approve|denied)(?: the request to run| codex to run)? (.+?)(?: this time)?$/;
/** The lines under the composer: its hints, the model and directory, the context left. */
const COMPOSER_FOOTER = /^\s*(?:\? for shortcuts|⏎ send\b|\d{1,3}% context left)|^\s+[\w.-]+(?: [\w.-]+){0,3} · (?:~|\/|[A-Z]:\\)|context (?:\d{1,3}% )?(?:left|used)\s*$/i;
/** Screen furniture: the status line ("Working (12s • esc to interrupt)"), the start-up hints. */
const CHROME = /\((?:\d+[hms] ?)+• [Ee]sc to interrupt\)|^\s*(?:To get started, describe a task|\/\w+ - \w)|^⚙︎? Working$/;
/** A cell's body mark at the margin: a capture that lost its indentation. */
const FLAT_BODY = /^[│└↳⎿] \S/;
const EXPLORE_ITEM = /^(Read|List|Search|Run) (.*)$/;
/**
 * A capture whose paragraphs a Markdown formatter re-wrapped (Prettier's proseWrap, an editor's
 * reflow): indentation gone, each cell's lines joined with spaces and cut again at a fixed width,
 * so a cell's body marks stand inside a line ("• Ran git status └ M a.ts", "python3 - <<'PY' │
 * import re"). The marks still say where the command ends and its output starts.
 */
const INLINE_OUTPUT = /(?:^| )[└⎿↳](?: |$)/g;
/** The mark inside a line, not at its start (where a capture that only lost its indentation has it). */
const MID_LINE_OUTPUT = / [└⎿↳](?: |$)/;
const INLINE_LINE = /(?:^| )│(?: |$)/g;
/**
 * Where one explored item starts inside a re-wrapped "Explored" cell ("List src Read a.ts, b.ts").
 * Not "Run": a search's words can hold it ("Search Run the tests in README.md"), and a command
 * made up of them would be judged as run.
 */
const EXPLORE_ITEM_START = / (?=(?:Read|List|Search) )/;
const DIFF_LINE = /^(\d+)\s*([-+ ])(.*)$/;
const FILE_COUNTS = /^(.+?) \(\+(\d+) -(\d+)\)$/;
/** The same, with the diff a re-wrapped capture joined onto the title line after the counts. */
const FILE_COUNTS_REWRAPPED = /^(.+?) \(\+(\d+) -(\d+)\) \S/;

interface TranscriptExec {
  command: string[];
  output: TextBlock;
  line: number;
  lines: number;
}

/** The transcript view's command line and its closing status ("✓ • 1.2s", "✗ (127) • 5ms"). */
const TRANSCRIPT_COMMAND = /^\$ \S/;
const TRANSCRIPT_STATUS = /^(✓|✗)(?: \((-?\d+)\))? • (.+)$/;
/** Output lines of a "$ cmd" read before it is taken as ended without its status line. */
const MAX_TRANSCRIPT_OUTPUT_LINES = 2000;

type BlockKind = 'prompt' | 'message' | 'thinking' | 'notice' | 'other';
type Kind = 'Ran' | 'Explored' | 'Patch' | 'Plan' | 'Called' | 'Searched';

interface OpenCell {
  kind: Kind;
  /** The title word as printed (Ran, Running, You ran, Edited, Added …). */
  title: string;
  line: number;
  /** Ran: the command's lines; Called: the invocation. */
  command: string[];
  output: TextBlock;
  /** Explored: "Read a, b" / "List x" / "Search q in p" / "Run cmd", wrapped lines joined. */
  items: string[];
  /** Patch: the files, their diff lines. */
  files: { path: string; op: PatchFile['op']; moveTo?: string; removed: string[]; added: string[]; size: number }[];
  /** The output block ("└") has started: later indented lines are output, not command. */
  inOutput: boolean;
  /** The last command line filled the screen's width: the next "│" line continues it. */
  wrapped: boolean;
  /** A cell of the 2025 layout ("⚡ Ran command …"). */
  early: boolean;
  /** Explored, in a re-wrapped capture: the cell's text joined, split into items when it ends. */
  rewrapped?: string;
  /** Ran, in a re-wrapped capture: how wide the command's last line was on the TUI's screen. */
  shownWidth?: number;
}

const SUBAGENT_CELL = /^(?:Spawned|Waiting for|Finished waiting|Sent input to|Closed|Interrupted)(?:\s|$)/;
/** This many agent messages in a row with no tool cell between: the capture did not show the calls. */
const SILENT_RUN_MIN = 5;

/** A command line this long on screen was most likely cut by the terminal's width (80+ columns). */
const WRAP_COLUMNS = 60;

export class CodexTuiParser implements LogParser {
  readonly format = 'codex-tui' as const;
  readonly agent = 'codex' as const;
  private cell: OpenCell | null = null;
  /** `section`: opened by a 2025 "user" / "codex" / "thinking" label, so it runs on at the margin. */
  private block: { kind: BlockKind; text: TextBlock; section: boolean } | null = null;
  private inHeader = false;
  /** The line number of the last line with text: a prompt runs on only over adjacent lines. */
  private lastLine = -1;
  /**
   * The capture lost every line's indentation (copied from a web page or a markdown renderer): a
   * cell's "└"/"│" lines start at the margin, and so do its output and items. Known from the first
   * such line under an open cell; from then on, lines at the margin that start no new cell belong
   * to the open one.
   */
  private flat = false;
  /**
   * The capture was re-wrapped by a text formatter (INLINE_OUTPUT): lines at the margin go on
   * with the open cell or message, joined where the formatter joined them.
   */
  private rewrapped = false;
  /**
   * Agent messages in a row with no tool cell and no prompt between (`run`), and those of runs long
   * enough to say the TUI did not show the calls between them (`hidden`, from `line`).
   */
  private readonly silent = { run: 0, runLine: 0, hidden: 0, line: 0 };
  /** Subagents the session spawned ("• Spawned 019e7a33-… (gpt-5.3-codex-spark high)"): their calls are in their own threads, not here. */
  private readonly spawned = { runs: 0, line: 0 };
  /** A "$ cmd" of the transcript view, waiting for its status line. */
  private transcriptExec: TranscriptExec | null = null;
  private readonly calls = new CallEmitter('codex-tui');

  text(raw: string, line: number, sink: EventSink): void {
    const s = clean(raw);
    if (s.trim() === '') return;
    const previous = this.lastLine;
    this.lastLine = line;
    const h = head(s);
    if (this.header(h, line, sink)) return;
    if (this.transcriptExec && this.transcriptLine(s, h, line, sink)) return;
    if (COMPOSER_FOOTER.test(h)) return this.composerFooter();
    if (CHROME.test(h)) return;
    if (h.startsWith(' ') || h.startsWith('\t')) return this.indented(s, line);
    if (!CELL_START.test(h) && this.runsOnRewrapped(s, line, previous, sink)) return;
    if (this.cell && FLAT_BODY.test(h)) {
      this.flat = true;
      return this.indented(`  ${s}`, line);
    }
    if (this.flat && this.cell && !CELL_START.test(h)) return this.indented(`    ${s}`, line);
    if (!CELL_START.test(h)) {
      // 2025 layout: a "user" / "codex" / "thinking" section runs on at the margin until the next
      // cell, and a command's further lines follow "⚡ Ran command" at the margin too.
      if (this.block?.section) return this.block.text.add(s);
      // A line at the margin right under the person's message, with no blank line between: the
      // message goes on (a pasted value, a capture that lost the two-column indent).
      if (this.block?.kind === 'prompt' && line === previous + 1) return this.block.text.add(s);
      if (this.cell?.early && this.cell.kind === 'Ran' && !this.cell.inOutput) return void pushArgument(this.cell.command, s);
    }
    // 0.4x marks every line of the person's message with "▌".
    if (this.block?.kind === 'prompt' && h.startsWith('▌')) return this.block.text.add(s.replace(/^▌ ?/, ''));
    this.close(sink);
    this.marker(s, h, line, sink);
  }

  /**
   * The transcript view (ctrl+t) prints a command as "$ cmd" (further lines four columns in), its
   * output at the margin, then "✓ • 1.2s" or "✗ (1) • 300ms": the one place the TUI states an exit
   * status. A new cell, or a long run without the status line, ends the command without one.
   */
  private transcriptLine(s: string, h: string, line: number, sink: EventSink): boolean {
    const exec = this.transcriptExec!;
    const status = TRANSCRIPT_STATUS.exec(h);
    if (status) {
      this.transcriptExec = null;
      const exitCode = status[1] === '✓' ? 0 : status[2] !== undefined ? Number(status[2]) : null;
      const durationMs = parseDuration(status[3]);
      this.emitTranscriptExec(exec, sink, { exitCode, ...(durationMs !== undefined ? { durationMs } : {}) });
      return true;
    }
    const ends = TOOL_TITLE.test(h) || PROMPT.test(h) || TRANSCRIPT_COMMAND.test(h) || WORKED.test(h) || BULLET.test(h) || exec.lines >= MAX_TRANSCRIPT_OUTPUT_LINES;
    if (ends) {
      this.transcriptExec = null;
      this.emitTranscriptExec(exec, sink, null);
      return false; // the line is read again as what it is
    }
    exec.lines++;
    if (exec.output.empty && /^ {4}\S/.test(s)) pushArgument(exec.command, s.slice(4));
    else exec.output.add(s);
    return true;
  }

  private emitTranscriptExec(exec: TranscriptExec, sink: EventSink, status: { exitCode: number | null; durationMs?: number } | null): void {
    const command = exec.command.join('\n').trim();
    if (command === '') return;
    const callId = this.calls.call(sink, exec.line, null, 'exec_command', { type: 'command', command });
    if (!status) return;
    const output = exec.output.empty ? '' : exec.output.toString();
    const exitCode = status.exitCode ?? statedExitCode(output);
    this.calls.result(sink, callId, 'exec_command', exec.line, null, {
      output, exitCode, isError: exitCode !== null && exitCode !== 0, ...(status.durationMs !== undefined ? { durationMs: status.durationMs } : {}),
    });
  }

  /**
   * The composer's footer ("? for shortcuts", "gpt-5 medium · ~/app", "97% context left") sits
   * under the input line: a "› text" just above it is the composer (a placeholder, or a message
   * being typed), never sent.
   */
  private composerFooter(): void {
    if (this.block?.kind === 'prompt' && this.block.text.lineCount <= 2) this.block = null;
  }

  end(sink: EventSink): void {
    this.close(sink);
    if (this.transcriptExec) this.emitTranscriptExec(this.transcriptExec, sink, null);
    this.transcriptExec = null;
    if (this.spawned.runs > 0) sink.subagentsNotRecorded?.(this.spawned.runs, 0, this.spawned.line);
    this.endSilentRun();
    if (this.silent.hidden > 0) sink.toolsNotRecorded?.(this.silent.hidden, this.silent.line);
  }

  /**
   * A message after a message, again and again, with no tool cell between: the agent says what it
   * will do and then what it did ("Je vais régénérer les locks" … "Les fichiers sont régénérés")
   * while the capture shows no call — a view that hid them. Captures read whole show at most
   * two or three messages in a row (a reasoning note, then a reply).
   */
  private countSilent(kind: BlockKind, line: number, text: string): void {
    // a subagent's cells ("• Spawned …", "• Waiting for …", "• Finished waiting") are actions, not messages
    if (kind === 'prompt' || (kind === 'message' && SUBAGENT_CELL.test(text))) return this.endSilentRun();
    if (kind === 'message' && this.silent.run++ === 0) this.silent.runLine = line;
  }

  private endSilentRun(): void {
    const { run, runLine } = this.silent;
    this.silent.run = 0;
    if (run < SILENT_RUN_MIN) return;
    if (this.silent.hidden === 0) this.silent.line = runLine;
    this.silent.hidden += run;
  }

  // ── The session header box ────────────────────────────────────────────────────────────────

  private header(h: string, line: number, sink: EventSink): boolean {
    const c = h.charAt(0);
    if (c === '╭' && /^╭─+╮?$/.test(h)) {
      this.close(sink);
      this.inHeader = true;
      return true;
    }
    if (!this.inHeader) return false;
    if (c === '╰') {
      this.inHeader = false;
      return true;
    }
    if (c !== '│') {
      this.inHeader = false;
      return false;
    }
    const inner = h.slice(1).replace(/│\s*$/, '').trim();
    const banner = CODEX_TUI_BANNER.exec(h);
    if (banner) sink.emit({ kind: 'session_meta', index: -1, line, at: null, agentVersion: banner[1] });
    const model = /^model:\s+(\S+)/.exec(inner);
    if (model) sink.emit({ kind: 'session_meta', index: -1, line, at: null, model: model[1] });
    const dir = /^(?:directory|dir):\s+(.+)$/.exec(inner);
    if (dir) sink.emit({ kind: 'session_meta', index: -1, line, at: null, cwd: dir[1].trim() });
    return true;
  }

  // ── Lines at the margin: a new cell ───────────────────────────────────────────────────────

  private marker(s: string, h: string, line: number, sink: EventSink): void {
    if (CHROME.test(h) || WORKED.test(h)) return;
    const label = SECTION_LABEL.exec(h);
    if (label) return this.openBlock(label[1] === 'user' ? 'prompt' : label[1] === 'codex' ? 'message' : 'thinking', line, '', true);
    const early = EARLY_TITLE.exec(h);
    if (early) return this.openEarly(early[1], (early[2] ?? '').trim(), line);
    const welcome = /^>_ You are using OpenAI Codex in (.+)$/.exec(h);
    if (welcome) return sink.emit({ kind: 'session_meta', index: -1, line, at: null, cwd: welcome[1].trim() });
    if (/^patch approval decision: /.test(h)) return sink.emit({ kind: 'system', index: -1, line, at: null, subtype: 'approval', text: s });
    // "• Hook failed" / "  └ hook exited with code 1": the person's hooks, not the agent.
    if (/^• Hooks? \w/.test(h)) return this.openBlock('notice', line, s.slice(2));
    const tool = TOOL_TITLE.exec(h);
    if (tool) return this.openTool(tool[1], s.slice(2 + tool[1].length).trim(), line, sink);
    const dollar = TRANSCRIPT_COMMAND.exec(h);
    if (dollar) {
      this.transcriptExec = { command: [s.slice(2)], output: new TextBlock(line), line, lines: 0 };
      return;
    }
    const prompt = PROMPT.exec(h);
    if (prompt) return this.openBlock('prompt', line, s.replace(/^[›▌] ?/, ''));
    if (SPAWNED.test(h) && this.spawned.runs++ === 0) this.spawned.line = line;
    const bullet = BULLET.exec(h);
    if (bullet) return this.openBlock('message', line, s.slice(2));
    const old = OLD_MESSAGE.exec(h);
    if (old) return old[1].trim() === 'Thinking' ? this.openBlock('thinking', line, '') : this.openBlock('message', line, s.replace(/^> ?/, ''));
    if (h.startsWith('■ ')) {
      const text = s.slice(2);
      if (/^Conversation interrupted/.test(text)) return sink.emit({ kind: 'interrupt', index: -1, line, at: null, reason: text });
      return sink.emit({ kind: 'error', index: -1, line, at: null, text });
    }
    const refused = REFUSED.exec(h);
    if (refused) return this.refusal(refused[1], line, sink);
    // In a capture that lost its indentation, a command's output line can read like the prompt's
    // own words: an approval is trusted only where output is told apart by its indent.
    if (APPROVED.test(h)) return sink.emit({ kind: 'system', index: -1, line, at: null, subtype: this.flat ? 'output' : 'approval', text: s });
    if (h.startsWith('⚠ ')) return sink.emit({ kind: 'system', index: -1, line, at: null, subtype: 'warning', text: s.slice(2) });
    const usage = USAGE.exec(h);
    if (usage) return this.usage(usage, line, sink);
    const resume = RESUME.exec(h);
    if (resume) return sink.emit({ kind: 'session_meta', index: -1, line, at: null, sessionId: resume[1] });
    this.openBlock('other', line, s);
  }

  private openBlock(kind: BlockKind, line: number, first: string, section = false): void {
    this.block = { kind, text: new TextBlock(line), section };
    if (first.trim() !== '') this.block.text.add(first);
  }

  private openTool(title: string, rest: string, line: number, sink: EventSink): void {
    const kind: Kind = title === 'Explored' || title === 'Exploring' ? 'Explored'
      : title === 'Edited' || title === 'Added' || title === 'Deleted' || title === 'Change Approved' ? 'Patch'
        : title === 'Updated Plan' || title === 'Update Plan' ? 'Plan'
          : title === 'Called' || title === 'Calling' ? 'Called'
            : title === 'Searched' ? 'Searched' : 'Ran';
    const cell: OpenCell = { kind, title, line, command: [], output: new TextBlock(line), items: [], files: [], inOutput: false, wrapped: 4 + title.length + rest.length >= WRAP_COLUMNS, early: false };
    this.cell = cell;
    // An exploration's body on its title line, a patch's diff after its counts, a command with an
    // output mark outside its quotes (`echo " └ "` prints one: a command like any other)
    const joined = kind === 'Patch' ? FILE_COUNTS_REWRAPPED.test(rest)
      : kind === 'Explored' ? /^[└⎿↳] /.test(rest)
        : (kind === 'Ran' || kind === 'Called') && firstUnquoted(rest, INLINE_OUTPUT) !== null;
    if (joined) this.markRewrapped(line, sink);
    if (kind === 'Patch') this.patchHeader(cell, title, rest);
    else if (this.rewrapped) this.rewrappedLine(cell, rest);
    else if (rest !== '') cell.command.push(rest);
  }

  // ── A re-wrapped capture (INLINE_OUTPUT) ──────────────────────────────────────────────────

  private markRewrapped(line: number, sink: EventSink): void {
    if (this.rewrapped) return;
    this.rewrapped = this.flat = true;
    sink.rewrapped?.(line);
  }

  /**
   * A line at the margin that starts no cell, in a re-wrapped capture: more of the open cell (its
   * command, its output), or of the open message; the first one under a command with an inline
   * output mark reveals the re-wrapping.
   */
  private runsOnRewrapped(s: string, line: number, previous: number, sink: EventSink): boolean {
    const cell = this.cell;
    if (!this.rewrapped) {
      const reveals = cell !== null && (cell.kind === 'Ran' || cell.kind === 'Called' || cell.kind === 'Explored') && !cell.inOutput && line === previous + 1 && MID_LINE_OUTPUT.test(s);
      if (!reveals) return false;
      this.markRewrapped(line, sink);
    }
    if (cell) {
      this.rewrappedLine(cell, s);
      return true;
    }
    const block = this.block;
    if (block && (block.kind === 'message' || block.kind === 'thinking' || block.kind === 'prompt')) {
      block.text.add(s);
      return true;
    }
    return false;
  }

  /**
   * Text of a re-wrapped cell, in order: a command's words go on where the formatter cut them (a
   * "│" starts another line of it), a "└" starts its output. A patch's diff was joined into
   * running text whose line numbers and signs cannot be told from its words: it is not read.
   */
  private rewrappedLine(cell: OpenCell, text: string): void {
    if (cell.kind === 'Patch') return;
    if (cell.kind === 'Explored') {
      cell.rewrapped = cell.rewrapped === undefined ? text : `${cell.rewrapped} ${text}`;
      return;
    }
    // the formatter's line breaks were spaces
    if (cell.kind === 'Plan' || cell.inOutput) return void cell.output.appendToLast(text);
    const out = firstUnquoted(text, INLINE_OUTPUT);
    const words = out ? text.slice(0, out.index) : text;
    // The formatter's own cuts were spaces; a "│" was the TUI's: a line the screen wrapped (it
    // filled the width) goes on with a space, as in ranLine, another line of a script is its own.
    splitUnquoted(words, INLINE_LINE).forEach((part, i) => {
      const piece = part.trim();
      if (piece === '') return;
      const last = cell.command.length - 1;
      const width = cell.shownWidth ?? 4 + cell.title.length;
      const goesOn = last >= 0 && (i === 0 || width >= WRAP_COLUMNS);
      if (!goesOn) {
        pushArgument(cell.command, piece);
        cell.shownWidth = (i === 0 ? 4 + cell.title.length : 4) + piece.length;
      } else if (cell.command[last].length + piece.length < MAX_ARGUMENT_CHARS) {
        cell.command[last] = `${cell.command[last]} ${piece}`;
        cell.shownWidth = (i === 0 ? width + 1 : 4) + piece.length;
      }
    });
    if (!out) return;
    cell.inOutput = true;
    const rest = text.slice(out.index + out[0].length);
    if (rest.trim() !== '') cell.output.add(rest);
  }

  /** The 2025 layout's cells: "⚡ Ran command ls", "📋 Updated to do list", "✏️ Applying patch", "🌐 query". */
  private openEarly(mark: string, rest: string, line: number): void {
    if (mark === '🌐') {
      this.cell = this.newCell('Searched', 'Searched', line, rest);
      return;
    }
    const title = mark === '⚡' ? (/^Running command\b/.test(rest) ? 'Running' : 'Ran') : mark === '📋' ? 'Updated Plan' : 'Edited';
    const cell = this.newCell(mark === '⚡' ? 'Ran' : mark === '📋' ? 'Plan' : 'Patch', title, line, mark === '⚡' ? rest.replace(/^R\w+ command ?/, '') : '');
    cell.early = true;
    this.cell = cell;
  }

  private newCell(kind: Kind, title: string, line: number, command: string): OpenCell {
    return { kind, title, line, command: command ? [command] : [], output: new TextBlock(line), items: [], files: [], inOutput: false, wrapped: false, early: false };
  }

  /** "Edited src/a.ts (+1 -1)", "Added b.txt (+2 -0)", "Edited 2 files (+3 -1)" (the files follow under "└"). */
  private patchHeader(cell: OpenCell, title: string, rest: string): void {
    const counts = FILE_COUNTS.exec(rest) ?? FILE_COUNTS_REWRAPPED.exec(rest);
    const target = counts ? counts[1] : rest;
    if (title === 'Change Approved' || /^\d+ files?$/.test(target)) return;
    cell.files.push(patchFile(title, target));
  }

  // ── Indented lines: the open cell's body ──────────────────────────────────────────────────

  private indented(s: string, line: number): void {
    const cell = this.cell;
    if (!cell) {
      // Indented text with nothing open (the capture starts mid-cell): kept, as text not placed.
      if (!this.block) this.openBlock('other', line, '');
      return this.block!.text.add(s.replace(/^ {1,2}/, ''));
    }
    // "  │ more of the command", "  └ first output line", "    further output"
    const m = /^ {2}([│└↳⎿]) ?(.*)$/.exec(s);
    // The 2025 layout (0.1x–0.2x) hangs bodies on "⎿" where later builds use "└".
    const mark = m?.[1] === '⎿' ? '└' : m?.[1];
    const body = m ? m[2] : s.replace(/^ {1,4}/, '');
    switch (cell.kind) {
      case 'Ran':
        return this.ranLine(cell, mark, body, s.length);
      case 'Called':
        if (mark === '└' || mark === '↳') cell.inOutput = true;
        return cell.inOutput ? cell.output.add(body) : void pushArgument(cell.command, body.trim());
      case 'Explored':
        return this.exploreLine(cell, body);
      case 'Patch':
        return this.patchLine(cell, mark, body);
      case 'Plan':
        return cell.output.add(body);
      case 'Searched':
        return void pushArgument(cell.command, body.trim()); // a query the screen wrapped
    }
  }

  private ranLine(cell: OpenCell, mark: string | undefined, body: string, columns: number): void {
    if (mark === '│' && !cell.inOutput) {
      // A line the terminal wrapped goes on with a space; a line of a multi-line script is its own.
      const last = cell.command.length - 1;
      if (cell.wrapped && last >= 0) {
        // The wrap may fall after a "/" inside a path ("/tmp/" | "x.signals"): no space there.
        const joint = cell.command[last].endsWith('/') ? '' : ' ';
        if (cell.command[last].length + body.length < MAX_ARGUMENT_CHARS) cell.command[last] += joint + body;
      } else pushArgument(cell.command, body);
      cell.wrapped = columns >= WRAP_COLUMNS;
      return;
    }
    if (mark === '└' || mark === '↳') {
      // Early builds put the command itself under "• Ran" when it did not fit the title line.
      if (cell.command.length === 0) return void cell.command.push(body);
      cell.inOutput = true;
    }
    // 2025: "📖 package.json" / "📂 src" / "🔎 query in src" say what the command read, before its output.
    if (!cell.inOutput && /^[📖📂🔎]/u.test(body.trim())) return;
    if (!cell.inOutput) return void pushArgument(cell.command, body.trim());
    if (body.trim() === '(no output)' && cell.output.empty) return;
    cell.output.add(body);
  }

  private exploreLine(cell: OpenCell, body: string): void {
    const t = body.trim();
    if (EXPLORE_ITEM.test(t)) cell.items.push(t);
    else if (cell.items.length > 0 && cell.items[cell.items.length - 1].length < MAX_ARGUMENT_CHARS) cell.items[cell.items.length - 1] += ' ' + t; // a wrapped item
  }

  private patchLine(cell: OpenCell, mark: string | undefined, body: string): void {
    const t = body.trim();
    if (mark === '└') {
      const counts = FILE_COUNTS.exec(t);
      if (counts) return void cell.files.push(patchFile('Edited', counts[1]));
    }
    const file = cell.files[cell.files.length - 1];
    if (!file || t === '⋮') return;
    const diff = DIFF_LINE.exec(t);
    if (!diff || diff[2] === ' ') return;
    // What a patch shows is kept up to the argument cap, as a command's lines are.
    file.size += diff[3].length + 1;
    if (file.size > MAX_ARGUMENT_CHARS) return;
    (diff[2] === '+' ? file.added : file.removed).push(diff[3]);
  }

  // ── Closing ───────────────────────────────────────────────────────────────────────────────

  private close(sink: EventSink): void {
    const block = this.block;
    this.block = null;
    if (block && !block.text.empty) {
      const base = { index: -1, line: block.text.line, at: null };
      const text = block.text.toString();
      this.countSilent(block.kind, block.text.line, text);
      if (block.kind === 'prompt') sink.emit({ kind: 'prompt', ...base, text });
      else if (block.kind === 'message') sink.emit({ kind: 'message', ...base, text });
      else if (block.kind === 'thinking') sink.emit({ kind: 'thinking', ...base, text });
      else if (block.kind === 'notice') sink.emit({ kind: 'system', ...base, subtype: 'hook', text });
      else sink.emit({ kind: 'system', ...base, subtype: 'output', text });
    }
    const cell = this.cell;
    this.cell = null;
    if (cell) this.endSilentRun();
    if (cell) this.emitCell(cell, sink);
  }

  private emitCell(cell: OpenCell, sink: EventSink): void {
    switch (cell.kind) {
      case 'Ran':
        return this.emitRan(cell, sink);
      case 'Called':
        return this.emitCalled(cell, sink);
      case 'Explored':
        return this.emitExplored(cell, sink);
      case 'Patch':
        return this.emitPatch(cell, sink);
      case 'Plan': {
        const callId = this.calls.call(sink, cell.line, null, 'update_plan', { type: 'other', args: cell.output.toString() });
        return this.calls.result(sink, callId, 'update_plan', cell.line, null, { output: '', exitCode: null, isError: false });
      }
      case 'Searched': {
        const query = cell.command.join(' ').replace(/^for /, '').trim();
        if (query === '') return;
        const callId = this.calls.call(sink, cell.line, null, 'web_search', { type: 'web_search', query });
        return this.calls.result(sink, callId, 'web_search', cell.line, null, { output: '', exitCode: null, isError: false });
      }
    }
  }

  private emitRan(cell: OpenCell, sink: EventSink): void {
    const command = cell.command.join('\n').trim();
    if (command === '') return;
    // "• You ran" is the person's own "!command", which Codex runs for them: still a command in the session.
    const name = cell.title === 'You ran' ? 'user_shell' : 'exec_command';
    const callId = this.calls.call(sink, cell.line, null, name, { type: 'command', command });
    if (cell.title === 'Running') return; // still running when the screen was captured
    const output = cell.output.empty ? '' : cell.output.toString();
    const exitCode = statedExitCode(output);
    this.calls.result(sink, callId, name, cell.line, null, { output, exitCode, isError: exitCode !== null && exitCode !== 0 });
  }

  private emitCalled(cell: OpenCell, sink: EventSink): void {
    const invocation = cell.command.join('').trim();
    const m = /^([\w-]+)\.([\w-]+)\((.*)\)$/s.exec(invocation);
    const server = m ? m[1] : 'unknown';
    const tool = m ? m[2] : invocation;
    const name = `${server}__${tool}`;
    const callId = this.calls.call(sink, cell.line, null, name, { type: 'mcp', server, tool, args: m ? jsonOr(m[3]) : invocation });
    if (cell.title === 'Calling') return;
    const output = cell.output.empty ? '' : cell.output.toString();
    this.calls.result(sink, callId, name, cell.line, null, { output, exitCode: null, isError: /^Error:/.test(output) });
  }

  private emitExplored(cell: OpenCell, sink: EventSink): void {
    const items = cell.rewrapped === undefined ? cell.items : cell.rewrapped.replace(/^\s*[└⎿↳] /, '').split(EXPLORE_ITEM_START).map((i) => i.trim());
    for (const item of items) {
      for (const input of exploredInputs(item)) {
        const name = input.type === 'file_read' ? 'read' : input.type === 'search' ? 'search' : input.type === 'command' ? 'exec_command' : 'list';
        const callId = this.calls.call(sink, cell.line, null, name, input);
        if (cell.title === 'Explored') this.calls.result(sink, callId, name, cell.line, null, { output: '', exitCode: null, isError: false });
      }
    }
  }

  private emitPatch(cell: OpenCell, sink: EventSink): void {
    if (cell.files.length === 0) return;
    const files: PatchFile[] = cell.files.map((f) => ({
      path: f.path, op: f.op, ...(f.moveTo ? { moveTo: f.moveTo } : {}), removed: f.removed.join('\n'), added: f.added.join('\n'),
    }));
    const callId = this.calls.call(sink, cell.line, null, 'apply_patch', { type: 'patch', files });
    // The TUI prints the cell once the patch is applied (a refused one is a "✗ You canceled …" line).
    this.calls.result(sink, callId, 'apply_patch', cell.line, null, { output: '', exitCode: null, isError: false });
  }

  private refusal(what: string, line: number, sink: EventSink): void {
    const command = what.replace(/ \.\.\.$/, '');
    const callId = this.calls.call(sink, line, null, 'exec_command', { type: 'command', command });
    this.calls.result(sink, callId, 'exec_command', line, null, { output: 'The person refused to run it.', exitCode: null, isError: true, denied: true });
  }

  private usage(m: RegExpExecArray, line: number, sink: EventSink): void {
    const n = (v: string | undefined) => (v ? Number(v.replace(/,/g, '')) : 0);
    sink.emit({ kind: 'usage', index: -1, line, at: null, input: n(m[2]), output: n(m[4]), cacheRead: n(m[3]), cacheWrite: 0 });
  }
}

function patchFile(title: string, target: string): OpenCell['files'][number] {
  const op: PatchFile['op'] = title === 'Added' ? 'add' : title === 'Deleted' ? 'delete' : 'update';
  const rename = /^(.+?) → (.+)$/.exec(target);
  return rename ? { path: rename[1], op, moveTo: rename[2], removed: [], added: [], size: 0 } : { path: target, op, removed: [], added: [], size: 0 };
}

/** "Read a.ts, b.ts" → one read each; "Search q in p" → a search; "List dir"; "Run cmd" → a command. */
function exploredInputs(item: string): ToolInput[] {
  const m = EXPLORE_ITEM.exec(item);
  if (!m) return [];
  const rest = m[2].trim();
  switch (m[1]) {
    case 'Read':
      // "Read SKILL.md (superpowers:debugging skill)": the note in brackets is not part of the name.
      return rest.split(', ').map((p) => p.replace(/^(\S+) \([^()]*\)$/, '$1')).filter((p) => p !== '').map((path) => ({ type: 'file_read', path }));
    case 'Search': {
      const where = / in (\S+)$/.exec(rest);
      return [where ? { type: 'search', pattern: rest.slice(0, where.index), path: where[1] } : { type: 'search', pattern: rest }];
    }
    case 'List':
      return [{ type: 'other', args: { path: rest } }];
    default:
      return [{ type: 'command', command: rest }];
  }
}

/**
 * Reads a command's text from left to right and says, for positions asked in increasing order,
 * whether each lies inside a quoted string (a mark there is the command's own text). One pass.
 */
class QuoteScanner {
  private at = 0;
  private quote: string | null = null;

  constructor(private readonly text: string) {}

  quotedAt(index: number): boolean {
    for (; this.at < index; this.at++) {
      const c = this.text[this.at];
      if (c === '\\' && this.quote !== "'") this.at++;
      // an apostrophe inside a word ("Don't forget" in a heredoc's text) opens no quote
      else if (c === "'" && this.quote === null && /\p{L}/u.test(this.text[this.at - 1] ?? '') && /\p{L}/u.test(this.text[this.at + 1] ?? '')) continue;
      else if (this.quote === null && (c === '"' || c === "'")) this.quote = c;
      else if (c === this.quote) this.quote = null;
    }
    return this.quote !== null;
  }
}

/** The matches of `mark` (a global pattern) in `text` that lie outside quotes, left to right. */
function* unquoted(text: string, mark: RegExp): Generator<RegExpExecArray> {
  const quotes = new QuoteScanner(text);
  mark.lastIndex = 0;
  for (let m = mark.exec(text); m; m = mark.exec(text)) if (!quotes.quotedAt(m.index)) yield m;
}

function firstUnquoted(text: string, mark: RegExp): RegExpExecArray | null {
  for (const m of unquoted(text, mark)) return m;
  return null;
}

/** `text` split at the matches of `mark` (global) outside quotes. */
function splitUnquoted(text: string, mark: RegExp): string[] {
  const parts: string[] = [];
  let from = 0;
  for (const m of unquoted(text, mark)) {
    parts.push(text.slice(from, m.index));
    from = m.index + m[0].length;
  }
  parts.push(text.slice(from));
  return parts;
}

function pushArgument(parts: string[], text: string): void {
  let size = 0;
  for (const p of parts) size += p.length + 1;
  if (size + text.length <= MAX_ARGUMENT_CHARS) parts.push(text);
}

function jsonOr(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
