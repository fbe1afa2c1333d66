// Claude Code's terminal UI, saved or copied from the terminal (or its ctrl+o transcript view):
//   > user prompt                         (❯ in 2.x)
//   ⏺ assistant text                      (● on terminals without the glyph)
//   ⏺ Bash(git push)                      a tool call, display name + argument
//     ⎿  To https://github.com/…          its result; further lines indented under it
//   ⏺ Update(src/app.ts)
//     ⎿  Updated src/app.ts with 1 addition and 1 removal
//          11 -  return 1;                 the diff, with line numbers
//          11 +  return 2;
//   ✻ Thinking…                           then the thinking text, indented
// and a welcome box (╭─ … "✻ Welcome to Claude Code!" … "cwd: /path" … ╰─) or, in 2.x, a
// "Claude Code v2.x" header. Display names differ from the API names (Update = Edit, Search =
// Grep, …); calls get the API names so rules and reports read the same as for JSONL logs.
import type { EventSink, LogParser, SessionMetaEvent, ToolInput } from '../../model/events.ts';
import { searchOf, subagentOf } from '../shared/tool-input.ts';
import { ACTIONS_UNRECORDED } from '../../model/runs.ts';
import { CallEmitter, MAX_ARGUMENT_CHARS, TerminalWidth, TextBlock, brokeWord, clean, head, statedExitCode, stripLineNumbers } from './text.ts';

/** Display name → API name (a Map: names come from the log, so no prototype keys). */
export const CLAUDE_TOOLS: ReadonlyMap<string, string> = new Map(Object.entries({
  Bash: 'Bash', PowerShell: 'PowerShell', BashOutput: 'BashOutput', KillShell: 'KillShell', 'Kill Shell': 'KillShell',
  Read: 'Read', Write: 'Write', Create: 'Write', Edit: 'Edit', Update: 'Edit', MultiEdit: 'MultiEdit',
  Search: 'Grep', Grep: 'Grep', Glob: 'Glob', List: 'LS', LS: 'LS',
  Fetch: 'WebFetch', WebFetch: 'WebFetch', 'Web Search': 'WebSearch', WebSearch: 'WebSearch',
  Task: 'Task', Agent: 'Task', Explore: 'Task', Plan: 'Task', NotebookEdit: 'NotebookEdit', NotebookRead: 'NotebookRead',
  TodoWrite: 'TodoWrite', 'Update Todos': 'TodoWrite', ExitPlanMode: 'ExitPlanMode', Skill: 'Skill', SlashCommand: 'SlashCommand',
}));

export const RECORD = /^[⏺●]\s?(.*)$/;
/** The input box's mode line: "⏵⏵ bypass permissions on (shift+tab to cycle)", "⏵⏵ accept edits on …", "⏸ plan mode on …". */
const PERMISSION_MODE_LINE = /^\s{0,4}(?:⏵⏵|⏸) (bypass permissions|accept edits|plan mode) on\b[^\n]{0,80}$/;
/** Two blanks where the record's marker was, then a tool's head: `  Bash(git push)`. */
const BLINKED_HEAD = /^ {2}[A-Z][A-Za-z]*(?: [A-Z][A-Za-z]*)?\(/;
const TOOL_HEAD = /^([A-Z][A-Za-z]*(?: [A-Z][A-Za-z]*)?)\((.*)$/;
const MCP_HEAD = /^([\w.-]+) - ([\w.-]+) \(MCP\)\((.*)$/;
export const RESULT = /^\s{0,4}⎿\s?\s?(.*)$/;
const PROMPT = /^[>❯](?:\s(.*))?$/;
const THINKING = /^[✻∴✽✢✳✶*]\s+Thinking…?\s*$/;
/** Spinner and status lines ("✻ Baking… (esc to interrupt)", "✻ Thought for 5s"): chrome, not content. */
const SPINNER = /^[✻∴✽✢✳✶*·]\s+(?:[\w ]{1,40}(?:…|\.\.\.)|Thought for |\w+ for \d)|\((?:esc|ctrl\+c) to interrupt/;
const COMPACTED = /^[✻✽✢✳✶*·⏺●]\s+(?:Conversation compacted|Compacted)\b/;
/** 2.x folds runs of reads and searches into one line: tool activity whose details were not shown. */
const FOLDED = /^(?:Read|Searched for|Listed|Found) .*\(ctrl\+[or] to expand\)$/;
/**
 * Newer 2.x builds fold every run of tool calls into one summary line under the reply it belongs
 * to ("  Ran 1 shell command (ctrl+o to expand)", "  Pushed to main (ctrl+o to expand)", "  Read
 * 1 file, ran 1 shell command …"): the calls ran, but what they ran is not in the capture. (A
 * result cut short, "… +82 lines (ctrl+o to expand)", is not one.)
 */
const COLLAPSED = /^\s{0,4}(?![….])([A-Z][a-z]+\b[^\n]{0,200}?) \(ctrl\+o to expand\)\s*$/;
/** A folded group of reads and searches only: nothing ran or changed. */
/**
 * Claude Code's notices in the transcript when something it ran in the background ends: `●
 * Background command "Run the tests" completed (exit code 0)`, `● Agent "Review: a11y" completed`.
 */
const RECAP = /^\s{0,4}※ recap:/;
/** The recap's own last words: the block ends there, and without them it is no recap. */
const RECAP_END = /\(disable\s+recaps\s+in\s+\/config\)\s*$/;
const HARNESS_NOTICE = /^(?:Background command|Agent) "[^"\n]{1,300}" (?:completed|failed|was stopped|was killed)(?: \(exit code -?\d+\))?\s*$/;
/** Claude Code's built-in subagents that have no tool to write with. */
const READ_ONLY_AGENTS: ReadonlySet<string> = new Set(['Explore', 'Plan']);
/**
 * A subagent's summary line in the terminal: "⎿  Done (45 tool uses · 149.8k tokens · 10m 19.3s)"
 * under its call, or "├─ Refactor payments · 45 tool uses · 60.1k tokens" in the list of agents
 * that ran side by side.
 */
const SUBAGENT_COUNT = /^[\s│]*(?:⎿\s+Done \(|[├└]─\s[^\n·]{0,300}·\s+)(\d[\d,]*) tool uses?\b/;
// (Claude Code's own memory: "recalled 1 memory", "wrote 2 memories" — its notes to itself, not the project)
const FOLDED_READ = String.raw`(?:read|searched for|listed|found|fetched|recalled|(?:wrote|updated|saved) \d+ memor(?:y|ies))\b`;
const READS_ONLY = new RegExp(String.raw`^${FOLDED_READ}[^,]*(?:, ${FOLDED_READ}[^,]*)*$`, 'i');
const CHROME = /^(?:[─━]{10,}|\? for shortcuts|⏵⏵ |Context left until auto-compact|\s*⧉ )/;
const DIFF_LINE = /^\s*(\d+) ([-+ ]) ?(.*)$/;
const DIFF_WRAP = /^\s{6,}([-+])\s\s?(.*)$/;
/** Lines collected for a tool's argument before it is taken as complete without its ")". */
const MAX_HEAD_LINES = 200;

type Mode = 'none' | 'prompt' | 'message' | 'thinking' | 'tool-head' | 'tool-result' | 'local' | 'folded' | 'recap';

interface OpenTool {
  display: string;
  name: string;
  args: string;
  /** Width of the last argument line as shown: a line that filled the terminal was wrapped by it. */
  shownWidth: number;
  /** The last argument line's text without its indentation (brokeWord reads it). */
  lastLine: string;
  headLines: number;
  mcp?: { server: string; tool: string };
  line: number;
  result: TextBlock | null;
  resultLine: number;
  /** The result so far is only the placeholder drawn while the call ran ("Waiting…"). */
  placeholder?: boolean;
}

export class ClaudeTuiParser implements LogParser {
  readonly format = 'claude-code-tui' as const;
  readonly agent = 'claude-code' as const;
  private mode: Mode = 'none';
  /** The mode a recap interrupted: a reply goes on after the recap's closing words. */
  private afterRecap: 'message' | 'none' = 'none';
  /** The permission mode the input box's mode line last showed. */
  private permissionMode: string | null = null;
  private block: TextBlock | null = null;
  /** Width of the last prompt line as shown (brokeWord reads it). */
  private promptShownWidth = 0;
  private readonly width = new TerminalWidth();
  private tool: OpenTool | null = null;
  private meta: SessionMetaEvent | null = null;
  private metaDone = false;
  private readonly calls = new CallEmitter('claude-tui');
  /** A blank line came before the current one; the line number of the last non-blank one. */
  private blankBefore = false;
  private lastLine = 0;
  /** Folded groups of actions (not only reads), and the line of the first. */
  private collapsedGroups = 0;
  private collapsedLine = 0;
  /** The first folded group's own summary, quoted in the report. */
  private collapsedShown = '';
  /** Subagent runs ("Task(…) ⎿ Done (12 tool uses · …)") whose calls the capture shows only as a count. */
  private readonly subagents = { runs: 0, calls: 0, line: 0 };
  /** A result marker (`⎿`) was seen indented: the export kept its indentation, so column 0 starts something new. */
  private indented = false;
  /** The last head line ended with its time limit's label: the duration closes the next one. */
  private limitRest = false;

  text(raw: string, line: number, sink: EventSink): void {
    // the early research preview printed each step's cost right-aligned after it: not the step's text
    const cleaned = withoutCost(clean(raw));
    // a copy that lost the line breaks of a wide terminal: what followed the padding starts a line
    const parts = splitPadded(cleaned, (left, first) => this.endsHere(left, first));
    for (const part of parts) this.textLine(part, line, sink);
    this.subagentLine(cleaned, line);
  }

  /**
   * A subagent's count of tool uses, wherever the capture shows it: under its call ("Task(…) ⎿
   * Done (12 tool uses · …)", whatever the agent type's name), or in the list of agents that ran
   * side by side ("3 agents finished" ├─ "Refactor payments · 45 tool uses · …"). Those calls ran,
   * and are not in the capture. Claude Code's Explore and Plan subagents are read-only by design
   * (they search and read to report or plan): not counted.
   */
  private subagentLine(text: string, line: number): void {
    // (a cheap screen first: the pattern is tried only on lines that say it, and only on their start)
    if (!text.includes('tool use')) return;
    const m = SUBAGENT_COUNT.exec(text.length > 2_000 ? text.slice(0, 2_000) : text);
    if (!m) return;
    if (this.tool && READ_ONLY_AGENTS.has(this.tool.display) && this.mode === 'tool-result') return;
    const calls = Number(m[1]!.replace(/,/g, ''));
    if (calls === 0) return;
    if (this.subagents.runs++ === 0) this.subagents.line = line;
    this.subagents.calls += calls;
  }

  /**
   * Whether a line's text before padding can end there: not inside a tool's arguments (`●
   * Bash(echo "step   ● done"; rm -rf ~/data)` is one command) — a head, or a head's last line,
   * ends with its ")" (or ")…", or 2.x's time limit after it).
   */
  private endsHere(left: string, first: boolean): boolean {
    // the part from its own marker: a later part of the line is judged as its own head
    const part = first ? left : left.slice(Math.max(0, left.search(/[⏺●]\s?\S+\((?=[^⏺●]*$)/)));
    const record = RECORD.exec(head(part.trimStart()));
    const tool = record !== null ? TOOL_HEAD.exec(record[1]!) : null;
    const continuing = first && this.mode === 'tool-head' && this.tool !== null;
    if (tool === null && !(record !== null && MCP_HEAD.test(record[1]!)) && !continuing) return true;
    const shown = part.trimEnd().replace(TIME_LIMIT, ')').replace(/\)…$/, ')');
    if (!shown.endsWith(')')) return false;
    // the parenthesis closes the arguments only outside quotes and nested parentheses (`echo "$(date)`)
    const name = tool !== null ? CLAUDE_TOOLS.get(tool[1]!) ?? '' : continuing ? this.tool!.name : '';
    const args = tool !== null ? shown.slice(shown.indexOf('(') + 1) : `${this.tool?.args ?? ''}\n${shown.trim()}`;
    return closesArgs(shown, args, name);
  }

  private textLine(cleaned: string, line: number, sink: EventSink): void {
    const s = this.withoutTimeLimit(cleaned);
    // a blank line (empty ones may never reach the parser) shows as a gap in the line numbers
    if (s.trim() === '') return;
    this.blankBefore = line > this.lastLine + 1;
    this.lastLine = line;
    this.width.observe(s.length);
    const h = head(s);
    // the input box's mode line ("⏵⏵ bypass permissions on (shift+tab to cycle)"), redrawn with every
    // frame: the session's permission mode, said when it changes; chrome, not content
    const mode = PERMISSION_MODE_LINE.exec(h);
    if (mode) {
      const permissionMode = mode[1] === 'bypass permissions' ? 'bypassPermissions' : mode[1] === 'accept edits' ? 'acceptEdits' : 'plan';
      if (permissionMode !== this.permissionMode) {
        this.permissionMode = permissionMode;
        sink.emit({ kind: 'session_meta', index: -1, line, at: null, permissionMode });
      }
      return;
    }
    // Claude Code's recap of the session after time away (`※ recap: … (disable recaps in /config)`):
    // the harness's summary, not the agent speaking — no claim of its own
    // (on a line of its own after a gap: inside a reply the same words are the agent's)
    // (inside a reply only at column 0, left of the reply's own lines: an indented one is the agent's text)
    if (this.blankBefore && RECAP.test(h) && (this.mode !== 'message' || h.startsWith('※'))) {
      this.afterRecap = this.mode === 'message' ? 'message' : 'none';
      this.open('recap', line, s.trim(), sink);
      if (RECAP_END.test(s)) this.endRecap(line, sink);
      return;
    }
    if (/^[╭│╰]/.test(h)) return this.box(h, line, sink);
    if (!this.metaDone && this.headerLine(h, line)) return;
    if (RESULT.test(h)) {
      if (/^\s/.test(h)) this.indented = true;
      return this.resultLine(s.slice(s.indexOf('⎿') + 1).replace(/^\s{1,2}/, ''), line, sink);
    }
    const c = h.charAt(0);
    if (c !== ' ' && c !== '\t') return this.topLevel(s, h, line, sink);
    // `  Bash(git push)` after a blank line, right after another call's result: a call whose ⏺ the
    // capture took while it blinked off (the record's text keeps its two columns). Only a known
    // tool's whole head on one line — never in a prompt, a message, thinking or a call's arguments,
    // where the same words are text (`  Bash(git push) is in the notes`)
    if (this.blankBefore && (this.mode === 'tool-result' || this.mode === 'none') && BLINKED_HEAD.test(h) && h.trimEnd().endsWith(')')) {
      const m = TOOL_HEAD.exec(h.slice(2));
      if (m && CLAUDE_TOOLS.has(m[1]!)) return this.bullet(s.slice(2), line, sink);
    }
    this.continuation(s, line, sink);
  }

  /**
   * 2.x prints a command's time limit after it: `Bash(flutter test) timeout: 30s` on one line, or
   * right-aligned beside a long command and broken over two lines (`…deploy   timeout:` then
   * `tinyutils-pdf \   10m 0s`). Neither is the command.
   */
  private withoutTimeLimit(line: string): string {
    const heading = this.mode === 'tool-head' || RECORD.test(head(line));
    const rest = this.limitRest;
    this.limitRest = false;
    if (!heading || !/\S/.test(line)) return line;
    // (a cut column keeps its width: the terminal wrapped the command where the column began)
    if (rest && this.mode === 'tool-head') {
      const cut = line.replace(TIME_LIMIT_REST, '');
      if (cut !== line) return cut.padEnd(line.length);
    }
    if (line.endsWith('s')) {
      const cut = line.replace(TIME_LIMIT, ')');
      if (cut !== line) return cut;
    }
    const right = RIGHT_TIME_LIMIT.exec(line);
    if (!right) return line;
    // the duration went on to the next line when the column had no room for it
    // (`timeout:` or `timeout: 10m` may go on with ` 0s` on the next line; `timeout: 30s` is whole)
    this.limitRest = !/\d+m?s$/.test(right[1]!.trim());
    return line.slice(0, right.index).padEnd(line.length);
  }

  end(sink: EventSink): void {
    this.close(sink);
    this.flushMeta(sink);
    // the folded groups' commands, edits and pushes ran but are not in the capture
    if (this.collapsedGroups > 0) sink.toolsNotRecorded?.(this.collapsedGroups, this.collapsedLine, this.collapsedShown);
    const { runs, calls, line } = this.subagents;
    if (runs > 0) sink.subagentsNotRecorded?.(runs, calls, line);
  }

  /** A folded group of tool calls: reads only, or actions whose details the capture does not hold. */
  private collapsed(summary: string, line: number, sink: EventSink): void {
    this.close(sink);
    if (READS_ONLY.test(summary)) return sink.emit({ kind: 'system', index: -1, line, at: null, subtype: 'folded_tool_calls', text: summary });
    if (this.collapsedGroups++ === 0) {
      this.collapsedLine = line;
      this.collapsedShown = summary.slice(0, 120);
    }
    sink.emit({ kind: 'system', index: -1, line, at: null, subtype: ACTIONS_UNRECORDED, text: `Folded in the capture: ${summary}` });
  }

  // ── Header (welcome box, 2.x logo header) ─────────────────────────────────────────────────

  private box(h: string, line: number, sink: EventSink): void {
    if (this.metaDone) return; // later boxes: permission dialogs and the input box repeat what the log shows
    for (const cell of h.split('│')) this.headerCell(cell.trim(), line);
    if (h.startsWith('╰') && this.meta) this.flushMeta(sink);
  }

  /** 2.x prints the logo and version, model and directory beside it, without a box. */
  private headerLine(h: string, line: number): boolean {
    if (!/[▐▛▜▌▝▘█]/.test(h) && !/Claude Code v\d/.test(h) && !(this.meta && /^\s+(?:\/|~)/.test(h))) return false;
    this.headerCell(h.replace(/[▐▛▜▌▝▘█]+/g, ' ').trim(), line);
    return true;
  }

  private headerCell(cell: string, line: number): void {
    if (!cell) return;
    const meta = (this.meta ??= { kind: 'session_meta', index: -1, line, at: null });
    let m: RegExpExecArray | null;
    if ((m = /Claude Code v(\d[\w.+-]*)/.exec(cell))) meta.agentVersion = m[1];
    else if ((m = /^cwd: (.+)$/.exec(cell))) meta.cwd = m[1].trim();
    else if (/^(?:\/|~\/?)[^\s│]*$/.test(cell) && cell.length > 1) meta.cwd ??= cell;
    else if ((m = /^((?:Opus|Sonnet|Haiku)(?: [\d.]+)?)(?: \(.*\))? · /.exec(cell))) meta.model = m[1];
  }

  private flushMeta(sink: EventSink): void {
    this.metaDone = true;
    const meta = this.meta;
    this.meta = null;
    if (meta && (meta.cwd || meta.agentVersion || meta.model)) sink.emit(meta);
  }

  // ── Lines at column 0: prompts, records, thinking, status ────────────────────────────────

  private topLevel(s: string, h: string, line: number, sink: EventSink): void {
    if (CHROME.test(h)) return;
    this.flushMeta(sink);
    const prompt = PROMPT.exec(h);
    if (prompt) {
      this.close(sink);
      if (!prompt[1]?.trim() || /^Try "/.test(prompt[1])) return; // the empty input line or its placeholder
      this.open('prompt', line, s.slice(2));
      this.promptShownWidth = s.length;
      return;
    }
    if (THINKING.test(h)) return this.open('thinking', line, null, sink);
    if (COMPACTED.test(h)) {
      this.close(sink);
      return sink.emit({ kind: 'compaction', index: -1, line, at: null, trigger: /auto/i.test(h) ? 'auto' : 'manual' });
    }
    if (SPINNER.test(h)) return;
    const record = RECORD.exec(h);
    if (record) return this.bullet(s.replace(/^[⏺●]\s?/, ''), line, sink);
    // Text at column 0 that is none of the above: a wrapped line or pasted output; keep it. An
    // export whose indentation was stripped (pasted into Markdown) puts a tool's wrapped argument
    // and the lines of its result there too: they still belong to the open call.
    // Only in such an export (no result marker seen indented), and never a user's `!` shell line.
    if (!this.indented && !h.startsWith('!')) {
      if (this.mode === 'tool-head') return this.headContinues(s);
      if (this.mode === 'tool-result' && this.tool?.result) return this.resultBody(s);
    }
    if (this.block && this.mode === 'prompt') return this.promptLine(s, s);
    if (this.block && (this.mode === 'message' || this.mode === 'thinking')) return this.block.add(s);
    this.open('local', line, s, sink);
  }

  private bullet(text: string, line: number, sink: EventSink): void {
    this.close(sink);
    const h = head(text);
    let m = MCP_HEAD.exec(h);
    if (m) {
      return this.openTool({ display: `${m[1]} - ${m[2]}`, name: `mcp__${m[1]}__${m[2]}`, mcp: { server: m[1], tool: m[2] } }, text.slice(text.indexOf('(MCP)(') + 6), line);
    }
    m = TOOL_HEAD.exec(h);
    const named = m ? CLAUDE_TOOLS.get(m[1]) : undefined;
    if (m && named) return this.openTool({ display: m[1], name: named }, text.slice(m[1].length + 1), line);
    const bare = CLAUDE_TOOLS.get(h.trim()); // "⏺ Update Todos"
    if (bare) return this.openTool({ display: h.trim(), name: bare }, ')', line);
    // the harness's own notice that a background job ended: not the agent speaking
    if (HARNESS_NOTICE.test(h)) {
      sink.emit({ kind: 'system', index: -1, line, at: null, subtype: 'notice', text });
      // only the notice's own line is the harness's: lines under it are read as the agent's words
      return this.open('message', line, null);
    }
    if (FOLDED.test(h)) return this.open('folded', line, text);
    const group = COLLAPSED.exec(h);
    if (group) return this.collapsed(group[1], line, sink);
    this.open('message', line, text);
  }

  /**
   * The recap ends at its closing words; a reply it interrupted goes on after it (an agent's text
   * laid out like a recap hides none of the reply's words).
   */
  private endRecap(line: number, sink: EventSink): void {
    this.close(sink);
    if (this.afterRecap === 'message') this.open('message', line + 1, null);
  }

  private openTool(kind: { display: string; name: string; mcp?: { server: string; tool: string } }, shown: string, line: number): void {
    const rest = withoutEllipsis(shown.trimEnd());
    this.tool = { ...kind, args: rest.slice(0, MAX_ARGUMENT_CHARS), shownWidth: shown.length + kind.display.length + 3, lastLine: `${kind.display}(${rest}`, headLines: 1, line, result: null, resultLine: line };
    // A long argument wraps onto indented lines until its closing parenthesis.
    this.mode = closesArgs(rest, rest, kind.name) ? 'tool-result' : 'tool-head';
  }

  // ── Indented lines ────────────────────────────────────────────────────────────────────────

  private resultLine(text: string, line: number, sink: EventSink): void {
    const tool = this.tool;
    if (tool && (this.mode === 'tool-head' || this.mode === 'tool-result')) {
      this.mode = 'tool-result';
      // the placeholder drawn while the call ran, then its result under a "⎿" of its own: the result
      if (!tool.result || tool.placeholder) {
        tool.result = new TextBlock(line);
        tool.resultLine = line;
        tool.placeholder = isProgressOnly(text);
      }
      return tool.result.add(text);
    }
    // A "⎿" under a prompt: a slash command's or hook's local output.
    this.open('local', line, text, sink);
  }

  private continuation(s: string, line: number, sink: EventSink): void {
    // the summary sits on a line of its own, a blank line above it (a reply line quoting it does not)
    const folded = this.blankBefore && (this.mode === 'message' || this.mode === 'none' || this.mode === 'local' || this.mode === 'folded') ? COLLAPSED.exec(s) : null;
    if (folded) return this.collapsed(folded[1], line, sink);
    switch (this.mode) {
      case 'tool-head':
        return this.headContinues(s);
      case 'tool-result':
        return this.resultBody(s);
      case 'none':
        return this.open('local', line, s.trim(), sink);
      case 'prompt':
        return this.promptLine(s.replace(/^ {1,2}/, ''), s);
      case 'recap':
        this.block!.add(s.replace(/^ {1,4}/, ''));
        // the recap ends with its closing words: what follows is no longer the harness's
        if (RECAP_END.test(this.block!.toString())) this.endRecap(line, sink);
        return;
      default:
        return this.block!.add(s.replace(this.mode === 'local' ? /^ {1,5}/ : /^ {1,2}/, ''));
    }
  }

  /** A line of what the person typed: a pasted token longer than the line is one word, not two lines. */
  private promptLine(text: string, shown: string): void {
    this.block!.addWrapped(text, this.width.filled(this.promptShownWidth));
    this.promptShownWidth = shown.length;
  }

  private headContinues(s: string): void {
    const tool = this.tool!;
    const text = withoutEllipsis(s.trim());
    // Terminals wrap at their width (80 columns or more), between words: a line that filled the
    // terminal, or one whose next word would not have fitted, was wrapped (unless the author's own
    // break shows); a word longer than a line (a URL with a token in it) is broken inside.
    // a shell line that ends in ` \` was continued by its author, however wide it was drawn
    const continued = tool.name === 'Bash' && /\s\\$/.test(tool.lastLine.trimEnd());
    const join = continued ? 'line' : brokeWord(tool.lastLine, text, this.width.filled(tool.shownWidth)) ? 'word' : this.width.filled(tool.shownWidth) || this.wrappedBetweenWords(tool, text, s.length) ? 'blank' : 'line';
    const room = tool.args.length + text.length < MAX_ARGUMENT_CHARS;
    if (room) tool.args += (join === 'word' ? '' : join === 'blank' ? ' ' : '\n') + text;
    tool.shownWidth = s.length;
    tool.lastLine = text;
    tool.headLines++;
    if (closesArgs(text, tool.args, tool.name) || !room || tool.headLines >= MAX_HEAD_LINES) this.mode = 'tool-result';
  }

  /**
   * A head line the terminal ended because the next word did not fit (the line was short of the
   * terminal's width): a wrap between words, unless a Bash command shows the author typed the break —
   * a `\` or a comment before it, or a command of its own after it (`NAME=value` not given to
   * `sudo`/`env`/an option, `./script`). A break the capture cannot tell is taken as the terminal's:
   * lines that end a few columns short of the width and were typed there are rarer than long
   * commands the terminal wrapped.
   */
  private wrappedBetweenWords(tool: OpenTool, next: string, nextWidth: number): boolean {
    if (!this.width.pushedDown(tool.shownWidth, next) && !this.tooLong(next, nextWidth)) return false;
    return tool.name !== 'Bash' || !typedBreak(tool.lastLine.replace(/^Bash\(/, '').trimEnd(), /^\S+/.exec(next)?.[0] ?? '');
  }

  /** A word longer than a line fills the next line whole (and goes on below it). */
  private tooLong(next: string, nextWidth: number): boolean {
    const word = /^\S+/.exec(next)?.[0] ?? '';
    return word.length > this.width.columns() || (word === next.trim() && this.width.filled(nextWidth));
  }

  private resultBody(s: string): void {
    const tool = this.tool!;
    if (!tool.result) tool.result = new TextBlock(tool.line);
    const body = s.replace(/^ {1,5}/, '');
    const wrap = DIFF_WRAP.exec(head(s));
    if (wrap && (tool.name === 'Edit' || tool.name === 'MultiEdit') && tool.result.lineCount > 1) return tool.result.appendToLast(wrap[2].trim());
    tool.result.add(body);
  }

  // ── Opening and closing blocks ────────────────────────────────────────────────────────────

  private open(mode: Mode, line: number, first: string | null, sink?: EventSink): void {
    if (sink) this.close(sink);
    this.mode = mode;
    this.block = new TextBlock(line);
    if (first !== null && first.trim() !== '') this.block.add(first);
  }

  private close(sink: EventSink): void {
    const mode = this.mode;
    const block = this.block;
    this.mode = 'none';
    this.block = null;
    if (mode === 'tool-head' || mode === 'tool-result') return this.closeTool(sink);
    if (!block || block.empty) return;
    const text = block.toString();
    const base = { index: -1, line: block.line, at: null };
    if (mode === 'prompt') sink.emit({ kind: 'prompt', ...base, text });
    else if (mode === 'message') sink.emit({ kind: 'message', ...base, text });
    else if (mode === 'thinking') sink.emit({ kind: 'thinking', ...base, text });
    // a recap block is the harness's only with its own closing words; without them it is text like any other
    else if (mode === 'recap' && !RECAP_END.test(text)) sink.emit({ kind: 'message', ...base, text });
    else sink.emit({ kind: 'system', ...base, subtype: mode === 'folded' ? 'folded_tool_calls' : mode === 'recap' ? 'recap' : 'output', text });
  }

  private closeTool(sink: EventSink): void {
    const tool = this.tool;
    this.tool = null;
    if (!tool) return;
    const args = stripClosingParen(tool.args.trim());
    // (a placeholder alone: the screen was captured while the call still ran — no result yet)
    const resultText = tool.result && !tool.result.empty && !(tool.placeholder && isProgressOnly(tool.result.toString())) ? tool.result.toString() : null;
    const callId = this.calls.call(sink, tool.line, null, tool.name, claudeInput(tool, args, resultText ?? ''));
    if (resultText === null) return; // no result shown: the call was cut off or is still running
    this.calls.result(sink, callId, tool.name, tool.resultLine, null, { ...interpretResult(resultText), line: tool.resultLine });
  }
}

/**
 * The head's own "(" is closed by the ")" that ends its last line. A command's own text may end a
 * line with ")" inside a quoted argument (a commit message's "(PEP 621)") or closing a `$(…)` of its
 * own before it goes on (`X=$(cat f | grep A)` then the next line): a Bash head closes only where
 * its quotes are closed and the command before that ")" has closed every parenthesis it opened.
 * Should the display have cut a quote or a parenthesis off, the "⎿" of the result (or the next
 * record) still ends the head.
 */
function closesArgs(text: string, args: string, tool: string): boolean {
  if (!text.endsWith(')')) return false;
  if (tool !== 'Bash') return true;
  const state = shellState(args.slice(0, -1));
  return !state.quoted && state.depth <= 0;
}

/**
 * Whether a shell text ends inside a quoted string (single, double or ANSI-C, `$'don\\'t'`), and
 * its depth of parentheses outside quotes (opened minus closed). A `#` that starts a word outside
 * quotes comments out the rest of its line (`ls # what's here`).
 */
function shellState(text: string): { quoted: boolean; depth: number } {
  let quote: "'" | '"' | "$'" | null = null;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote === "'") {
      if (c === "'") quote = null;
    } else if (quote === "$'") {
      if (c === '\\') i++;
      else if (c === "'") quote = null;
    } else if (c === '\\') {
      i++;
    } else if (c === '"') {
      quote = quote === '"' ? null : '"';
    } else if (quote === null && c === '$' && text[i + 1] === "'") {
      quote = "$'";
      i++;
    } else if (quote === null && c === "'") {
      quote = "'";
    } else if (quote === null && c === '(') {
      depth++;
    } else if (quote === null && c === ')') {
      depth--;
    } else if (quote === null && c === '#' && (i === 0 || /\s/.test(text[i - 1]!))) {
      const end = text.indexOf('\n', i);
      if (end < 0) return { quoted: false, depth };
      i = end;
    }
  }
  return { quoted: quote !== null, depth };
}

/** A line's end that takes an assignment as its next word: `docker run -e`, `env`, `export`, `helm --set`, `-D`. */
const WANTS_VALUE = /(?:^|\s)(?:sudo|env|export|-e|-E|--env|--build-arg|--set|-D|--define)$/;

/** Whether a Bash head's line break before `word` is one the author typed (see wrappedBetweenWords). */
function typedBreak(prev: string, word: string): boolean {
  if (prev.endsWith('\\') || /^#|\s#/.test(prev)) return true;
  if (word.startsWith('./')) return true;
  return /^[A-Za-z_][A-Za-z0-9_]*=/.test(word) && !WANTS_VALUE.test(prev);
}

/** The right-aligned label and what of the duration fitted: `   timeout:`, `   timeout: 5m`. */
const RIGHT_TIME_LIMIT = /[ \t]{3,}timeout:((?: \d{1,5}(?:ms|s|m|h))*)[ \t]*$/;
/** The rest of a duration a line before began, right-aligned: `   10m 0s`, `   0s`. */
const TIME_LIMIT_REST = /[ \t]{3,}\d{1,5}(?:ms|s|m|h)(?: \d{1,2}(?:s|m))?$/;
/** 2.x's time limit after a command's closing parenthesis: `) timeout: 30s`, `) timeout: 1m 0s`, `) timeout: 10m`. */
const TIME_LIMIT = /\)[ \t]+timeout: \d{1,5}(?:\.\d+)?(?:ms|s|m(?: \d{1,2}s)?|h(?: \d{1,2}m)?)$/;

/**
 * A terminal line padded to a wide terminal's width and then joined to the next one by the copy
 * (`● Write(lib/a.dart)      ⎿  Wrote 1 lines to lib/a.dart`): three or more blanks, then a result
 * marker or a record marker and a blank, start a line of their own. At most eight parts a line.
 */
function splitPadded(s: string, endsHere: (left: string, first: boolean) => boolean): string[] {
  if (!PADDED_MARKER.test(s)) return [s];
  const parts: string[] = [];
  let rest = s;
  for (let m = PADDED_SPLIT.exec(rest); m && parts.length < 7; m = PADDED_SPLIT.exec(rest)) {
    const left = rest.slice(0, m.index + m[1]!.length);
    if (!endsHere(left, parts.length === 0)) break;
    parts.push(left);
    // (the marker starts the next part: no indentation is made up, an export's own shows elsewhere)
    rest = rest.slice(m.index + m[0].length - m[2]!.length - 1);
  }
  parts.push(rest);
  return parts;
}
const PADDED_MARKER = /\S[ \t]{3,}[⎿⏺●]\s/;
const PADDED_SPLIT = /(\S)[ \t]{3,}([⎿⏺●])\s/;

/**
 * The research preview's cost column (`⏺ Bash(cargo test)…      Cost: $0.0236 (3.0s)`): three or more
 * blanks after the step's own text, then the cost and the time, ending the line.
 */
function withoutCost(s: string): string {
  if (!s.endsWith('s)') || !s.includes('Cost: $')) return s;
  return s.replace(COST_COLUMN, '');
}
const COST_COLUMN = /(?<=[^\s⎿⏺●>❯])[ \t]{3,}Cost: \$\d{1,6}(?:\.\d{1,8})? \(\d{1,6}(?:\.\d{1,3})?s\)$/;

/** The research preview (early 2025) closed a call's head with ")…": `Bash(npm test)…`. */
function withoutEllipsis(head: string): string {
  return head.endsWith(')…') ? head.slice(0, -1) : head;
}

/** A file tool's path: `src/a.ts`, or the research preview's `file_path: "src/a.ts"` / `file_path: src/a.ts`. */
function filePath(args: string): string {
  if (!/^file_path:/.test(args)) return args;
  return namedArg(args, 'file_path') ?? args.replace(/^file_path:\s*/, '').replace(/,\s+\w+:\s.*$/, '');
}

function stripClosingParen(args: string): string {
  return args.endsWith(')') ? args.slice(0, -1) : args;
}

/**
 * Claude Code's dimmed "Waiting…" (a call waiting for its turn or for approval) and "Running…" (a
 * tool with no progress to show yet, later with its time: "Running… (12s)") stand where the result
 * will be drawn: they say nothing of it.
 */
function isProgressOnly(text: string): boolean {
  // with the time it has run, and its timeout: "Running… (42s · timeout 2m)"
  return /^(?:Waiting|Running)(?:…|\.\.\.)(?: \((?:\d[\w. ]*|[^()]*timeout[^()]*)\))?$/.test(text.trim());
}

function interpretResult(text: string): { output: string; exitCode: number | null; isError: boolean; denied?: boolean; interrupted?: boolean } {
  const first = text.slice(0, 300);
  // "Error: Permission to use Bash with command … has been denied.": the command can run long and
  // the capture fold the end away; its opening words are Claude Code's alone
  if (/^(?:User rejected|No \(tell Claude|The user doesn't want to proceed|Permission to use .* (?:has been|was) denied|(?:Error: )?Permission to use \w+ with command )/.test(first)) {
    return { output: text, exitCode: null, isError: true, denied: true };
  }
  if (/^Interrupted\b/.test(first)) return { output: text, exitCode: null, isError: false, interrupted: true };
  const code = statedExitCode(first);
  if (code !== null) return { output: text, exitCode: code, isError: code !== 0 };
  if (/^(?:Error|Failed|error:)/.test(first)) return { output: text, exitCode: null, isError: true };
  return { output: text, exitCode: null, isError: false };
}

/** The call's input as the JSONL parser would give it, from the display argument and the result. */
function claudeInput(tool: OpenTool, args: string, result: string): ToolInput {
  if (tool.mcp) return { type: 'mcp', server: tool.mcp.server, tool: tool.mcp.tool, args };
  switch (tool.name) {
    case 'Bash':
    case 'PowerShell':
      return { type: 'command', command: args, ...(tool.name === 'PowerShell' ? { shell: 'powershell' as const } : {}), ...(/^Running in the background/.test(result) ? { background: true } : {}) };
    case 'Read':
    case 'NotebookRead':
      return { type: 'file_read', path: filePath(args.replace(/ · .*$/, '')) };
    case 'Write':
      return { type: 'file_write', path: filePath(args), content: UPDATED_DIFF.test(result) ? diffNewSide(result) : writtenContent(result) };
    case 'Edit':
    case 'MultiEdit':
    case 'NotebookEdit':
      return { type: 'file_edit', path: filePath(args), edits: [diffEdit(result)] };
    case 'Grep':
    case 'Glob': {
      const pattern = namedArg(args, 'pattern') ?? unquote(args);
      return searchOf(pattern, namedArg(args, 'path') || undefined);
    }
    case 'WebFetch':
      return { type: 'web_fetch', url: namedArg(args, 'url') ?? unquote(args) };
    case 'WebSearch':
      return { type: 'web_search', query: namedArg(args, 'query') ?? unquote(args) };
    case 'Task':
      return subagentOf(args, args, tool.display !== 'Task' ? tool.display : undefined);
    default:
      return { type: 'other', args };
  }
}

function namedArg(args: string, name: string): string | undefined {
  const m = new RegExp(`(?:^|,\\s*)${name}: "((?:[^"\\\\]|\\\\.)*)"`).exec(args);
  return m ? m[1].replace(/\\(.)/g, '$1') : undefined;
}

function unquote(s: string): string {
  return /^".*"$/s.test(s) ? s.slice(1, -1) : s;
}

/** "Wrote 12 lines to x" then the file, numbered ("  1 import …") in 1.x, plain in 2.x. */
function writtenContent(result: string): string {
  const lines = result.split('\n');
  // "User rejected write to x" (2.x) shows what would have been written under it.
  if (/^(?:Wrote|Created|Updated|Overwrote|User rejected write to) /.test(lines[0] ?? '')) lines.shift();
  return stripLineNumbers(lines).join('\n');
}

/** A Write over a file that existed: Claude Code shows what changed as a diff, not the file. */
const UPDATED_DIFF = /^Updated \S.* with \d+ (?:additions?|removals?)\b/;

/**
 * What a diff shows of the file as written: its context and added lines, in order (a removed line
 * is what the write took out, not what it wrote). Only the hunks the terminal showed.
 */
function diffNewSide(result: string): string {
  const lines: string[] = [];
  let last: '-' | '+' | ' ' | null = null;
  for (const l of result.split('\n')) {
    const m = DIFF_LINE.exec(l);
    if (m) {
      last = m[2] as '-' | '+' | ' ';
      if (last !== '-') lines.push(m[3].replace(/^ /, ''));
      continue;
    }
    // a line longer than the terminal goes on under its text column (continueDiffLine)
    const c: RegExpExecArray | null = last === null ? null : /^\s{4,}([-+]?)(\S.*)$/.exec(l);
    if (!c || (c[1] === '' ? ' ' : c[1]) !== last) {
      last = null;
      continue;
    }
    if (last !== '-' && lines.length > 0) lines[lines.length - 1] += c[2];
  }
  return lines.join('\n');
}

/** The numbered diff under "Updated x with N additions and M removals": removed vs added lines. */
function diffEdit(result: string): { oldText: string; newText: string } {
  const removed: string[] = [];
  const added: string[] = [];
  // the kind of the last numbered line, which a wrapped continuation below it carries on
  let last: '-' | '+' | ' ' | null = null;
  for (const l of result.split('\n')) {
    const m = DIFF_LINE.exec(l);
    if (!m) {
      last = continueDiffLine(l, last, removed, added);
      continue;
    }
    const text = m[3].replace(/^ /, '');
    last = m[2] as '-' | '+' | ' ';
    if (m[2] === '-') removed.push(text);
    else if (m[2] === '+') added.push(text);
  }
  return { oldText: removed.join('\n'), newText: added.join('\n') };
}

/**
 * A diff line longer than the terminal goes on, unnumbered, under its text column, broken at any
 * character (`…mockResolvedValue(car` / `-Schema) } as never,`): a removed line's rest starts with
 * "-", an added line's with "+", a context line's with neither. Joined back without a blank.
 * Returns the kind the next continuation would carry on, or null when this line was none.
 */
function continueDiffLine(line: string, last: '-' | '+' | ' ' | null, removed: string[], added: string[]): '-' | '+' | ' ' | null {
  const c = last === null ? null : /^\s{4,}([-+]?)(\S.*)$/.exec(line);
  if (!c) return null;
  const marker = c[1] === '' ? ' ' : c[1];
  if (marker !== last) return null;
  if (last === '-' && removed.length > 0) removed[removed.length - 1] += c[2];
  else if (last === '+' && added.length > 0) added[added.length - 1] += c[2];
  return last;
}
