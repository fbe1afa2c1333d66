// Gemini CLI's terminal UI, captured from the terminal (tmux, `script`, copy):
//   > user prompt
//   ✦ assistant text
//   ╭──────────────────────────────────────────────────────╮
//   │ ✔  Shell npm test [in app] (Run the unit tests)      │   status glyph, display name, description
//   │                                                      │
//   │    added 12 packages …                               │   the tool's output, inside the box
//   ╰──────────────────────────────────────────────────────╯
// Status glyphs (packages/cli constants TOOL_STATUS): ✓/✔ success, x/✗/✖ error, - cancelled,
// o pending, ⊷ executing, ? awaiting confirmation. Display names (core tools' displayName):
// Shell, ReadFile, WriteFile, Edit, ReadFolder, FindFiles, SearchText, ReadManyFiles,
// GoogleSearch, WebFetch, Save Memory, WriteTodos; MCP tools as "tool (server MCP Server)".
// The footer ("~/app (main*)  no sandbox  gemini-2.5-pro (97% context left)") gives the session.
// Later builds (0.4x) set the person's message in a band of half blocks and list most tools on
// one line each, outside any box, with their outcome after an arrow and an edit's diff under it:
//   ▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄
//    > fix the reward logic                         the prompt (its further lines three columns in)
//   ▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀
//     Fixing Reward Logic:                          a thought's subject, then its text
//     ✓  ReadFile  src/reward.cs
//     ✓  FindFiles  '**/IStage.cs' → Found 1 matching file(s)
//     ✓  Edit  reward.cs → Accepted (+44, -35)      "Rejected" when the person refused it
//          12 -  old line                           the diff
//          12 +  new line
// Shell commands keep their boxes.
import type { EventSink, LogParser, ToolInput } from '../../model/events.ts';
import { ACTIONS_UNRECORDED, RUN_START } from '../../model/runs.ts';
import { CallEmitter, MAX_ARGUMENT_CHARS, TextBlock, clean, head, statedExitCode, stripLineNumbers } from './text.ts';

/** Display name → API name (a Map: names come from the log, so no prototype keys). */
export const GEMINI_TOOLS: ReadonlyMap<string, string> = new Map(Object.entries({
  Shell: 'run_shell_command', ReadFile: 'read_file', WriteFile: 'write_file', Edit: 'replace',
  ReadFolder: 'list_directory', FindFiles: 'glob', SearchText: 'search_file_content', ReadManyFiles: 'read_many_files',
  GoogleSearch: 'google_web_search', WebFetch: 'web_fetch', 'Save Memory': 'save_memory', WriteTodos: 'write_todos',
}));

const NAMES = [...GEMINI_TOOLS.keys()].map((n) => n.replace(' ', '\\s')).join('|');
export const GEMINI_TOOL_LINE = new RegExp(`^([✔✓x✗✘✖\\-o⊷?])\\s+(${NAMES})(?:\\s+(.*))?$`);
const MCP_TOOL_LINE = /^([✔✓x✗✘✖\-o⊷?])\s+([\w.-]+) \(([\w.-]+) MCP Server\)(?:\s+(.*))?$/;
const PROMPT = /^>\s(.*)$/;
/** 0.4x: the person's message under a band of "▄", one column in. */
const BAND_TOP = /^▄{8,}$/;
const BAND_BOTTOM = /^▀{8,}$/;
const BAND_PROMPT = /^ >\s?(.*)$/;
/** A capture that lost the band: the person's message still sits one column in (" > text"). */
const LOOSE_PROMPT = /^ >\s(\S.*)$/;
/** The empty input box's placeholder, not a message. */
const INPUT_PLACEHOLDER = /^Type your message/;
/** 0.4x: "  ✓  ReadFile  path → outcome", a tool on one line outside any box. */
export const GEMINI_COMPACT_TOOL = new RegExp(`^ {2}([✔✓x✗✘✖\\-o⊷?]) {2}(${NAMES})(?: {2}(.*?))?(?: → (.*))?$`);
const COMPACT_OUTCOME = /^ {3}→ (.*)$/;
const THOUGHT_SUBJECT = /^ {2}\S.{0,100}:\s*$/;
const BOXED_PROMPT = /^ >\s\S/;
// `npm run x` prints "> pkg@1.2.3 x" then "> the script's command": npm's banner, not a prompt.
const NPM_BANNER = /^> (?:@[\w.-]+\/)?[\w.-]+@\d[\w.+-]* [\w:.-]+$/;
const ASSISTANT = /^✦\s?(.*)$/;
const FOOTER_MODEL = /(\S+) \(\d{1,3}% context left\)/;
const SPINNER = /^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]|\(esc to cancel/;
/**
 * The screen's own furniture, redrawn with every frame of a live capture: the approval-mode
 * line ("YOLO mode (ctrl + y to toggle)"), the empty input box ("* Type your message or
 * @path/to/file"), the to-do summary ("Todo 2/5 completed (ctrl+t to toggle) » …"), the footer
 * of builds that end it with "/model" instead of the context left ("~/.../app (main*)  no
 * sandbox  gemini-2.5-flash /model"), and the rules drawn between them. Nothing happened in them.
 */
const CHROME = /^\s{0,80}(?:Todo\s{1,3}\d{1,3}\/\d{1,3} completed \(ctrl\s?\+\s?t to toggle\)|(?:YOLO mode|auto-accept edits|accepting edits|shell mode|plan mode)(?: enabled)? \((?:ctrl|shift|tab)[^)]{0,20} to (?:toggle|cycle)\)|[*>] {1,3}Type your message|\S{1,200} \([^)\s]{1,120}\)\s+(?:no sandbox|sandbox|macOS Seatbelt|docker|podman)\b[^\n]{0,120}\s\/model\s*$|[─━]{8,}\s*$)/i;
const ART = /^[\s░▒▓█▀▄▌▐]+$/;
/**
 * What `gemini -p` (headless) prints on stderr before its answer: the answer that follows is the
 * model's words alone, without the tool calls it made, so what it ran is not in the file.
 */
const INTERACTIVE_START = /^(?:Tips for getting started:|Error resuming session\b)/;
const HEADLESS_START = /^(?:YOLO mode is enabled\. All tool calls will be automatically approved\.|Loaded cached credentials\.)$/;
/**
 * What says the run approved every tool call: the approval-mode line of the interactive screen
 * ("YOLO mode (ctrl + y to toggle)") or the notice `gemini -y -p` prints. The posture is context
 * (permissions.ts), so it is read, once, as the session's approval mode.
 */
const YOLO = /^\s*YOLO mode(?: enabled)? \((?:ctrl|shift|tab)[^)]{0,20} to (?:toggle|cycle)\)\s*$|^YOLO mode is enabled\. All tool calls will be automatically approved\.$/;

type Mode = 'none' | 'prompt' | 'message' | 'thinking' | 'tool' | 'compact' | 'box' | 'other';

interface OpenTool {
  glyph: string;
  name: string;
  description: string;
  mcp?: { server: string; tool: string };
  line: number;
  body: TextBlock;
  /** The header filled the box's width, so Gemini wrapped the description onto the next line. */
  wraps: boolean;
  /** 0.4x one-line tools: the outcome after the arrow ("Accepted (+8, -1)", "Found 3 matches"). */
  outcome?: string;
}

export class GeminiTuiParser implements LogParser {
  readonly format = 'gemini-cli-tui' as const;
  readonly agent = 'gemini-cli' as const;
  private mode: Mode = 'none';
  private block: TextBlock | null = null;
  private tool: OpenTool | null = null;
  private inBox = false;
  /** Width of the open box's inner text (from its top border), to tell wrapped lines. */
  private boxWidth = 0;
  private lastFooter = '';
  /** The previous line was npm's "> pkg@version script" banner: this "> …" line is its command. */
  private afterNpmBanner = false;
  /** The previous line was the top of a prompt band (0.4x): " > text" under it is the prompt. */
  private afterBand = false;
  /** A prompt, reply or tool call has been read since the (last) start-up: a new start-up is a new run. */
  private worked = false;
  /** A line has been read: a gutter line after it is no longer the capture's start. */
  private started = false;
  private readonly calls = new CallEmitter('gemini-tui');
  /** Reading a headless run's answer (after HEADLESS_START, until the interactive screen shows). */
  private headless = false;
  /** Headless runs whose answer had text, and the line of the first. */
  private headlessRuns = 0;
  private headlessLine = 0;
  private headlessText = false;
  /** The approval mode was read as yolo: the line is redrawn with every frame, said once. */
  private yolo = false;

  text(raw: string, line: number, sink: EventSink): void {
    const s = clean(raw);
    if (s.trim() === '') return;
    const h = head(s);
    // Early builds (0.1.x) draw the tool boxes one column in from the margin: " ╭──╮", " │ ✔ …".
    const box = unindentBox(s);
    const c = box.charAt(0);
    const first = !this.started;
    this.started = true;
    if (c === '╭' || c === '│' || c === '╰') this.headless = false;
    if (c === '╭') {
      this.boxWidth = box.length - 4;
      return this.boxOpen(sink, line);
    }
    if (c === '╰') return this.boxClose(sink);
    if (c === '│') return this.boxLine(inner(box), line, sink);
    if (this.inBox) this.boxClose(sink); // a box whose bottom border was lost
    this.outside(s, h, line, sink, first);
  }

  end(sink: EventSink): void {
    this.close(sink);
    // the headless runs' tool calls were never printed: what they ran is not in the file
    if (this.headlessRuns > 0) sink.toolsNotRecorded?.(this.headlessRuns, this.headlessLine);
  }

  // ── Boxes: tool groups, dialogs ───────────────────────────────────────────────────────────

  private boxOpen(sink: EventSink, line: number): void {
    this.close(sink);
    this.inBox = true;
    this.mode = 'box';
    this.block = new TextBlock(line);
  }

  private boxClose(sink: EventSink): void {
    this.close(sink);
    this.inBox = false;
  }

  private boxLine(text: string, line: number, sink: EventSink): void {
    if (!this.inBox) this.boxOpen(sink, line);
    const t = head(text).trim();
    if (t === '') {
      if (this.tool) this.tool.wraps = false; // a blank line ends the header
      return;
    }
    // A Shell description ends with its "(…)": a full-width line that does not is cut mid-text.
    const wraps = this.boxWidth > 20 && text.length >= this.boxWidth - 2 && !t.endsWith(')');
    const tool = GEMINI_TOOL_LINE.exec(t);
    if (tool) return this.openTool({ glyph: tool[1], name: GEMINI_TOOLS.get(tool[2].replace(/\s/, ' ')) ?? tool[2], description: tool[3] ?? '', wraps }, line, sink);
    const mcp = MCP_TOOL_LINE.exec(t);
    if (mcp) return this.openTool({ glyph: mcp[1], name: `${mcp[3]}__${mcp[2]}`, description: mcp[4] ?? '', mcp: { server: mcp[3], tool: mcp[2] }, wraps }, line, sink);
    if (this.mode === 'tool' && this.tool?.wraps && this.tool.body.empty && this.tool.description.length < MAX_ARGUMENT_CHARS) {
      this.tool.description += ' ' + text.trim();
      this.tool.wraps = wraps;
      return;
    }
    if (this.mode === 'tool' && this.tool) return this.tool.body.add(text.replace(/^ {1,4}/, ''));
    // Older builds (0.1.x) box the person's message: "│  > text  │" (two columns of padding; the
    // input box below has one, so a half-typed message there is not taken for a prompt).
    if (this.mode === 'prompt') return this.block?.add(text.replace(/^ {1,4}/, ''));
    if (this.mode === 'box' && (this.block?.empty ?? true) && BOXED_PROMPT.test(text) && !/^>\s+Type your message/.test(t)) {
      this.mode = 'prompt';
      this.block = new TextBlock(line);
      return this.block.add(t.replace(/^>\s?/, ''));
    }
    // Not a tool box: the input box, a confirmation dialog, the session summary.
    if (/^>\s+Type your message/.test(t)) return;
    (this.block ??= new TextBlock(line)).add(t);
  }

  private openTool(t: Omit<OpenTool, 'line' | 'body'>, line: number, sink: EventSink): void {
    this.close(sink);
    this.inBox = true;
    this.mode = 'tool';
    this.tool = { ...t, line, body: new TextBlock(line) };
  }

  // ── Outside boxes ─────────────────────────────────────────────────────────────────────────

  private outside(s: string, h: string, line: number, sink: EventSink, first: boolean): void {
    const band = this.afterBand;
    this.afterBand = BAND_TOP.test(h);
    if (this.afterBand || BAND_BOTTOM.test(h)) return this.close(sink);
    if (band) {
      const prompt = BAND_PROMPT.exec(h);
      if (prompt) return this.open('prompt', line, prompt[1], sink);
    }
    // the interactive CLI's start (its tips, a failed resume) after "Loaded cached credentials.",
    // which interactive runs print too: no headless answer follows
    if (INTERACTIVE_START.test(h)) this.headless = false;
    // the whole line, as the screen draws it: a reply quoting it sits in the reply's gutter and goes on
    if (!this.yolo && h.length < 400 && YOLO.test(h)) {
      this.yolo = true;
      sink.emit({ kind: 'session_meta', index: -1, line, at: null, approvalPolicy: 'yolo' });
    }
    if (HEADLESS_START.test(h)) {
      this.close(sink);
      this.headless = true;
      this.headlessText = false;
      return;
    }
    if (SPINNER.test(h) || ART.test(h) || CHROME.test(h)) {
      // the interactive screen's banner, spinner or furniture: no longer a headless answer
      this.headless = false;
      return;
    }
    const loose = LOOSE_PROMPT.exec(h);
    if (loose && !INPUT_PLACEHOLDER.test(loose[1])) return this.open('prompt', line, loose[1], sink);
    if (this.compactLine(s, h, line, sink)) return;
    // The start-up tips after a session's work: the CLI was started again in the same terminal.
    if (/^Tips for getting started:$/.test(h) && this.worked) {
      this.close(sink);
      this.worked = false;
      return sink.emit({ kind: 'system', index: -1, line, at: null, subtype: RUN_START, text: 'Gemini CLI started again' });
    }
    const footer = h.includes('% context left)') ? FOOTER_MODEL.exec(h) : null;
    if (footer) return this.footer(h, footer, line, sink);
    const npmCommand = this.afterNpmBanner;
    this.afterNpmBanner = NPM_BANNER.test(h);
    const prompt = this.afterNpmBanner || npmCommand ? null : PROMPT.exec(h);
    if (prompt) return this.open('prompt', line, s.slice(2), sink);
    const said = ASSISTANT.exec(h);
    if (said) return this.open('message', line, s.replace(/^✦\s?/, ''), sink);
    if (/^✕ /.test(h)) {
      this.close(sink);
      return sink.emit({ kind: 'error', index: -1, line, at: null, text: s.slice(2) });
    }
    if (/^ℹ\s?/.test(h)) {
      this.close(sink);
      const text = s.replace(/^ℹ\s?/, '');
      if (/^Request cancelled/i.test(text)) return sink.emit({ kind: 'interrupt', index: -1, line, at: null, reason: text });
      return sink.emit({ kind: 'system', index: -1, line, at: null, subtype: 'info', text });
    }
    if ((h.startsWith(' ') || h.startsWith('\t')) && this.block && (this.mode === 'prompt' || this.mode === 'message' || this.mode === 'thinking')) {
      // A prompt's further lines sit under its text: two columns in, three in a 0.4x band.
      return this.block.add(s.replace(this.mode === 'prompt' ? /^ {1,3}/ : /^ {1,2}/, ''));
    }
    if (THOUGHT_SUBJECT.test(h) && !first) return this.open('thinking', line, s.slice(2).trimEnd(), sink);
    // A capture that starts mid-reply: text in the reply's two-column gutter before anything else.
    if (first && /^ {2}\S/.test(h) && !/[▝▜▄▗▟▀▘▙▛▌▐█░▒▓]/.test(h)) return this.open('message', line, s.slice(2), sink);
    if (this.headless) return this.headlessAnswer(s, line, sink);
    if (this.mode !== 'other') this.open('other', line, null, sink);
    this.block!.add(s);
  }

  /** A line of a headless run's answer: the model's words (its tool calls are not printed). */
  private headlessAnswer(s: string, line: number, sink: EventSink): void {
    if (!this.headlessText) {
      this.headlessText = true;
      this.headlessRuns++;
      if (this.headlessLine === 0) this.headlessLine = line;
      this.close(sink);
      sink.emit({ kind: 'system', index: -1, line, at: null, subtype: ACTIONS_UNRECORDED, text: 'A headless run (gemini -p): its tool calls are not printed' });
    }
    if (this.mode !== 'message') this.open('message', line, null, sink);
    this.block!.add(s);
  }

  /** 0.4x one-line tools: the tool line, its outcome line ("   → …") and an edit's diff under it. */
  private compactLine(s: string, h: string, line: number, sink: EventSink): boolean {
    const tool = GEMINI_COMPACT_TOOL.exec(h);
    if (tool) {
      this.openTool({ glyph: tool[1], name: GEMINI_TOOLS.get(tool[2].replace(/\s/, ' ')) ?? tool[2], description: tool[3] ?? '', wraps: false, ...(tool[4] ? { outcome: tool[4] } : {}) }, line, sink);
      this.mode = 'compact';
      this.inBox = false;
      return true;
    }
    if (this.mode !== 'compact' || !this.tool) return false;
    const outcome = COMPACT_OUTCOME.exec(h);
    if (outcome && this.tool.body.empty) {
      this.tool.outcome = this.tool.outcome ? `${this.tool.outcome} ${outcome[1]}` : outcome[1];
      return true;
    }
    // The diff (or content) under an edit or a write sits four or more columns in.
    if (/^ {4,}\S/.test(h)) {
      this.tool.body.add(s.replace(/^ {1,4}/, ''));
      return true;
    }
    this.close(sink);
    return false;
  }

  /** "~/app (main*)   no sandbox (see /docs)   gemini-2.5-pro (97% context left)": columns apart by 2+ spaces. */
  private footer(h: string, model: RegExpExecArray, line: number, sink: EventSink): void {
    const key = h.slice(0, model.index + model[0].length);
    if (key === this.lastFooter) return; // the footer is redrawn on every screen
    this.lastFooter = key;
    this.close(sink);
    const columns = h.slice(0, model.index).split(/\s{2,}/).map((c) => c.trim()).filter((c) => c !== '');
    const place = columns.length > 0 ? /^(.+?)(?: \(([^)]+)\))?$/.exec(columns[0]) : null;
    const cwd = place?.[1];
    const branch = place?.[2]?.replace(/\*$/, '');
    const sandbox = columns[1]?.replace(/\s*\(see \/docs\)$/, '');
    sink.emit({
      kind: 'session_meta', index: -1, line, at: null, model: model[1],
      ...(cwd && /^(?:~|\/|[A-Za-z]:\\)/.test(cwd) ? { cwd } : {}), ...(branch ? { branch } : {}),
      ...(sandbox ? { sandbox } : {}),
    });
  }

  // ── Blocks ────────────────────────────────────────────────────────────────────────────────

  private open(mode: Mode, line: number, first: string | null, sink: EventSink): void {
    this.close(sink);
    this.mode = mode;
    this.block = new TextBlock(line);
    if (first !== null && first.trim() !== '') this.block.add(first);
  }

  private close(sink: EventSink): void {
    const mode = this.mode;
    const block = this.block;
    this.mode = this.inBox ? 'box' : 'none';
    this.block = null;
    if (mode === 'tool' || mode === 'compact') return this.closeTool(sink);
    if (!block || block.empty) return;
    const text = block.toString();
    const base = { index: -1, line: block.line, at: null };
    if (mode === 'prompt' || mode === 'message') this.worked = true;
    if (mode === 'prompt') sink.emit({ kind: 'prompt', ...base, text });
    else if (mode === 'message') sink.emit({ kind: 'message', ...base, text });
    else if (mode === 'thinking') sink.emit({ kind: 'thinking', ...base, text });
    else sink.emit({ kind: 'system', ...base, subtype: mode === 'box' ? 'dialog' : 'output', text });
  }

  private closeTool(sink: EventSink): void {
    const tool = this.tool;
    this.tool = null;
    if (!tool) return;
    const shown = tool.body.empty ? '' : tool.body.toString();
    this.worked = true;
    const callId = this.calls.call(sink, tool.line, null, tool.name, geminiInput(tool, shown));
    const output = tool.outcome ? (shown ? `${tool.outcome}\n${shown}` : tool.outcome) : shown;
    // o / ⊷ / ?: pending, running or awaiting approval when the screen was captured — no result.
    if (tool.glyph === 'o' || tool.glyph === '⊷' || tool.glyph === '?') return;
    const failed = tool.glyph !== '✔' && tool.glyph !== '✓' && tool.glyph !== '-';
    const stated = statedExitCode(output);
    const denied = /did not allow|denied by policy|rejected by (?:the )?user/i.test(output.slice(0, 500)) || /^Rejected\b/.test(tool.outcome ?? '');
    this.calls.result(sink, callId, tool.name, tool.line, null, {
      // ✔ only says the tool ran: a shell command that exits non-zero is still a success for Gemini.
      output, exitCode: stated,
      isError: failed || (stated !== null && stated !== 0), denied, interrupted: tool.glyph === '-' && !denied,
    });
  }
}

/** A box line drawn with a margin of one or two columns, from its border on; any other line as it is. */
export function unindentBox(s: string): string {
  if (s.charAt(0) !== ' ') return s;
  const at = s.charAt(1) === ' ' ? 2 : 1;
  return BOX_EDGE.has(s.charAt(at)) ? s.slice(at) : s;
}
const BOX_EDGE: ReadonlySet<string> = new Set(['╭', '│', '╰']);

/** The text between a box's side borders. */
function inner(s: string): string {
  let body = s.slice(1);
  const end = body.lastIndexOf('│');
  if (end >= 0 && body.slice(end + 1).trim() === '') body = body.slice(0, end);
  return body.replace(/^ /, '').trimEnd();
}

function geminiInput(tool: OpenTool, output: string): ToolInput {
  const d = tool.description.trim();
  if (tool.mcp) return { type: 'mcp', server: tool.mcp.server, tool: tool.mcp.tool, args: d };
  switch (tool.name) {
    case 'run_shell_command':
      return shellInput(d);
    case 'read_file':
      return { type: 'file_read', path: d };
    case 'list_directory':
      return { type: 'other', args: { dir_path: d } };
    case 'write_file': {
      // an existing file's rewrite is shown as a diff: the lines it kept and removed are what it
      // replaced, the lines it kept and added what it wrote (as far as the diff shows them)
      const shown = shownLines(output, true);
      if (shown.removed.length === 0) return { type: 'file_write', path: d.replace(/^Writing to /, ''), content: shown.added.join('\n') };
      return { type: 'file_write', path: d.replace(/^Writing to /, ''), content: [...shown.kept, ...shown.added].join('\n'), replaced: [...shown.kept, ...shown.removed].join('\n') };
    }
    case 'replace':
      return editInput(d, output);
    case 'glob':
    case 'search_file_content': {
      const m = /^'(.*)'(?: (?:within|in) (.+))?$/.exec(d);
      if (!m) return { type: 'search', pattern: d };
      return m[2] ? { type: 'search', pattern: m[1], path: m[2] } : { type: 'search', pattern: m[1] };
    }
    case 'google_web_search':
      return { type: 'web_search', query: d.replace(/^Searching the web for: /, '').replace(/^"(.*)"$/, '$1') };
    case 'web_fetch': {
      const url = /https?:\/\/[^\s"'<>]+/.exec(d);
      return { type: 'web_fetch', url: url ? url[0] : d, prompt: d };
    }
    default:
      return { type: 'other', args: d };
  }
}

/**
 * "npm test [in app] (Run the unit tests)", or in newer builds "npm test [current working
 * directory /home/u/app] (…)": the command, its directory, its description. A directory the
 * screen cut short ("/private/var/…") is not a directory: it is left out.
 */
export function shellInput(d: string): ToolInput {
  let rest = d;
  if (rest.endsWith(')')) {
    const open = descriptionStart(rest);
    if (open > 0) rest = rest.slice(0, open).trimEnd();
  }
  // The box cut the description: "mkdir -p src [in app] (Create the…": after the directory, it is one.
  const cutDescription = /\]\s\([^()]*(?:…|\.\.\.)$/.exec(rest);
  if (cutDescription) rest = rest.slice(0, cutDescription.index + 1);
  // …and with no directory: "git checkout -- app.ts (Reverting changes to `ap…" — an unclosed
  // "(" after a space, opening a sentence (a capital, then a word and a space), cut by the box.
  const cutSentence = cutDescription ? null : /\s\((?=[A-Z][a-z']+ )[^()]*(?:…|\.\.\.)$/.exec(rest);
  if (cutSentence) rest = rest.slice(0, cutSentence.index);
  const dir = /\s\[(?:in|current working directory) ([^\]]+)\]$/.exec(rest);
  if (dir) rest = rest.slice(0, dir.index);
  // The box cut the line inside the bracket: "npm run build [current working directory /priv…".
  const cut = dir ? null : /\s\[(?:in|current working directory) [^\]]*(?:…|\.\.\.)$/.exec(rest);
  if (cut) rest = rest.slice(0, cut.index);
  const workdir = dir && !dir[1].endsWith('…') && !dir[1].endsWith('...') ? dir[1] : undefined;
  return { type: 'command', command: rest, ...(workdir ? { workdir } : {}) };
}

/** Where the trailing " (description)" starts: its "(" balances the final ")" and follows a space. */
function descriptionStart(s: string): number {
  let depth = 0;
  for (let i = s.length - 1; i >= 0; i--) {
    if (s[i] === ')') depth++;
    else if (s[i] === '(' && --depth === 0) return i > 0 && s[i - 1] === ' ' && !/[$<>]$/.test(s.slice(0, i - 1)) ? i : -1;
  }
  return -1;
}

function editInput(d: string, output: string): ToolInput {
  const m = /^(.+?): (.*) => (.*)$/.exec(d);
  const path = m ? m[1] : d.replace(/:.*$/, '');
  const shown = shownLines(output, false);
  if (shown.added.length + shown.removed.length > 0) {
    return { type: 'file_edit', path, edits: [{ oldText: shown.removed.join('\n'), newText: shown.added.join('\n') }] };
  }
  return { type: 'file_edit', path, edits: m ? [{ oldText: m[2], newText: m[3] }] : [] };
}

/**
 * The diff or new content a tool box shows: "12 - old" / "12 + new" lines, and for a new file
 * its numbered (or plain) lines. Unsigned lines of an edit are context, not new text.
 */
function shownLines(output: string, plainIsContent: boolean): { added: string[]; removed: string[]; kept: string[] } {
  const added: string[] = [];
  const removed: string[] = [];
  const plain: string[] = [];
  /** A diff's numbered lines without a sign: context the change kept. */
  const kept: string[] = [];
  for (const l of output.split('\n')) {
    const signed = /^\s*\d+\s+([-+])\s?(.*)$/.exec(l);
    if (signed) (signed[1] === '+' ? added : removed).push(signed[2]);
    else {
      if (plainIsContent) plain.push(l);
      const context = /^\s*\d+\s{2,}(.*)$/.exec(l);
      if (context) kept.push(context[1]);
    }
  }
  if (added.length + removed.length === 0) return { added: stripLineNumbers(plain), removed, kept: [] };
  return { added, removed, kept };
}
