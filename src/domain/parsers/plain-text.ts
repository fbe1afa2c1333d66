// Plain-text transcripts (terminal captures, pasted sessions): best-effort heuristics, no schema.
// A prompt line ("$ cmd", "user@host:~/dir$ cmd", "# cmd", "> cmd") opens a command; the lines
// up to the next prompt are its output; other text becomes message events (a run of text longer
// than a message's cap becomes several). Streaming, with bounded state: at most one open command
// and one open message, each capped.
import type { EventSink, FormatId, LogParser, ToolInput } from '../model/events.ts';
import type { DetectSample, Detection, ParserFamily } from '../ingest/types.ts';

/** Output kept per command; the rest is counted. */
export const MAX_OUTPUT_CHARS = 64 * 1024;
/** Text kept per coalesced message; the rest is counted. */
export const MAX_MESSAGE_CHARS = 64 * 1024;
/** Per-line pattern work only looks this far into a line. */
const SCAN_CHARS = 1024;

export const plainText: ParserFamily = {
  detect: detectPlainText,
  create(format: FormatId): LogParser {
    if (format !== 'plain-text') throw new Error(`the plain-text parser family does not handle ${format}`);
    return new PlainTextParser();
  },
};

/** Anything that is not mostly JSON may be a transcript; the lowest score, as a fallback. */
export function detectPlainText(sample: DetectSample): Detection | null {
  const json = sample.values.filter((v) => v !== null && typeof v === 'object').length;
  if (sample.lines.length > 0 && json * 2 > sample.lines.length) return null;
  return { format: 'plain-text', score: 0.1 };
}

// ── Line cleaning ────────────────────────────────────────────────────────────────────────────

const CSI = /(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]/g;
const OSC = /\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?/g;
const OTHER_ESC = /\x1b[ -/]*[0-~]?/g;
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f]/g;

/** What the terminal finally showed: escapes removed, carriage returns and backspaces applied. */
export function cleanLine(raw: string): string {
  let s = raw.includes('\x1b') || raw.includes('\x9b') ? raw.replace(OSC, '').replace(CSI, '').replace(OTHER_ESC, '') : raw;
  if (s.includes('\r')) s = lastRedraw(s);
  if (s.includes('\b')) s = applyBackspaces(s);
  return s.replace(CONTROLS, '');
}

/** "50%\r100%" was redrawn in place: keep the last non-empty rendering. */
function lastRedraw(s: string): string {
  const parts = s.split('\r');
  for (let i = parts.length - 1; i >= 0; i--) if (parts[i] !== '') return parts[i];
  return '';
}

function applyBackspaces(s: string): string {
  const out: string[] = [];
  for (const ch of s) {
    if (ch === '\b') out.pop();
    else out.push(ch);
  }
  return out.join('');
}

/** Mostly undecodable bytes: not text anyone could read. */
function isJunk(s: string): boolean {
  const head = s.length > SCAN_CHARS ? s.slice(0, SCAN_CHARS) : s;
  if (head.length < 4 || !head.includes('\uFFFD')) return false;
  let bad = 0;
  for (let i = 0; i < head.length; i++) if (head.charCodeAt(i) === 0xfffd) bad++;
  return bad * 10 > head.length * 3;
}

// ── Prompts ──────────────────────────────────────────────────────────────────────────────────

interface Prompt {
  /** `>` and `#` also start quotes, headings and comments: such prompts must look like a command. */
  kind: 'shell' | 'gt' | 'hash';
  command: string;
  workdir?: string;
}

const DOLLAR = /^\$(?:\s+(.*))?$/;
const USER_HOST = /^(?:\([^()\s]{1,40}\)\s+)?[\w.-]{1,64}@[\w.-]{1,128}(?::([^\s$#%]*))?(?:\s+([^\s$#%]{1,256}))?\s?[$#%](?:\s+(.*))?$/;
const BRACKETED = /^\[[\w.-]{1,64}@[\w.-]{1,128}(?:\s+([^\]]{0,256}))?\]\s?[$#](?:\s+(.*))?$/;
const POWERSHELL = /^PS ([A-Za-z]:\\[^>]{0,256})>(?:\s+(.*))?$/;
const ARROW = /^❯(?:\s+(.*))?$/;
const GT = /^>(?:\s(.*))?$/;
const HASH = /^#\s+(.+)$/;

export function parsePrompt(line: string): Prompt | null {
  // Every pattern is anchored and linear, so even a 32 MiB line costs one pass.
  const s = line.trimEnd();
  const c = s.charAt(0);
  let m: RegExpExecArray | null;
  if (c === '$' && (m = DOLLAR.exec(s))) return { kind: 'shell', command: m[1] ?? '' };
  if (c === '>' && (m = GT.exec(s))) return { kind: 'gt', command: m[1] ?? '' };
  if (c === '#' && (m = HASH.exec(s))) return { kind: 'hash', command: m[1] };
  if (c === '[' && (m = BRACKETED.exec(s))) return withDir(m[2], m[1]);
  if (c === 'P' && (m = POWERSHELL.exec(s))) return withDir(m[2], m[1]);
  if (c === '❯' && (m = ARROW.exec(s))) return { kind: 'shell', command: m[1] ?? '' };
  if (s.includes('@') && (m = USER_HOST.exec(s))) return withDir(m[3], m[1] || m[2]);
  return null;
}

function withDir(command: string | undefined, dir: string | undefined): Prompt {
  const prompt: Prompt = { kind: 'shell', command: command ?? '' };
  if (dir && /^(?:[/~]|[A-Za-z]:\\)/.test(dir)) prompt.workdir = dir;
  return prompt;
}

// Commands a `#` (root) or `>` line must start with to count as a prompt rather than prose.
const COMMON_COMMANDS = new Set(('apt apt-get yum dnf apk brew pip pip3 npm npx pnpm yarn bun node python python3 ruby go cargo ' +
  'make cmake git gh docker kubectl helm terraform ansible ssh scp rsync curl wget cd ls ll la cat less more head tail ' +
  'grep rg find sed awk cut sort uniq wc tr xargs tee echo printf export unset env source set alias which whereis type ' +
  'rm rmdir mv cp ln mkdir touch chmod chown chgrp tar zip unzip gzip gunzip ps kill pkill killall top htop df du free ' +
  'mount umount systemctl service journalctl crontab sudo su passwd useradd usermod userdel groupadd iptables ufw ip ' +
  'ifconfig ping dig nslookup netstat ss nc lsof vi vim nano code open pwd clear history exit bash sh zsh dd mkfs fdisk ' +
  'pytest jest tsc eslint prettier deno java javac mvn gradle dotnet php composer psql mysql sqlite3 redis-cli mongo').split(' '));
const PROSE = /\b(?:the|please|should|could|would|you|your|can|it|this|that|what|why|how|is|are)\b/i;
const SHELLISH = /[|;&$`<>=]|(?:^|\s)--?[A-Za-z]/;

function looksLikeCommand(full: string): boolean {
  const command = full.length > SCAN_CHARS ? full.slice(0, SCAN_CHARS) : full;
  const words = command.trim().split(/\s+/);
  const first = words[0] ?? '';
  if (!first) return false;
  const known = COMMON_COMMANDS.has(first) || /^(?:\.{0,2}\/|~\/)\S/.test(first);
  if (!known) return false;
  // "rm the old files, please" is a request, not a command line.
  return SHELLISH.test(command) || words.length < 4 || !PROSE.test(command);
}

/** What decides whether bash wants another line ("> " prompt) — updated line by line. */
interface ShellState {
  quote: string;
  /** if/fi, do/done, case/esac still open (keywords inside quotes may miscount; rare). */
  blocks: number;
  heredoc: string | null;
  last: string;
}

function newShellState(): ShellState {
  return { quote: '', blocks: 0, heredoc: null, last: '' };
}

function advance(state: ShellState, full: string): void {
  const line = full.length > 4 * SCAN_CHARS ? full.slice(0, 4 * SCAN_CHARS) : full;
  state.last = line;
  if (state.heredoc !== null) {
    if (line.trim() === state.heredoc) state.heredoc = null;
    return;
  }
  state.quote = scanQuotes(line, state.quote);
  for (const m of line.matchAll(/\b(if|fi|do|done|case|esac)\b/g)) {
    state.blocks += m[1] === 'if' || m[1] === 'do' || m[1] === 'case' ? 1 : -1;
  }
  const heredoc = /<<-?\s*['"]?(\w+)['"]?/.exec(line);
  if (heredoc) state.heredoc = heredoc[1];
}

function wantsMore(state: ShellState): boolean {
  return state.heredoc !== null || state.quote !== '' || state.blocks > 0 || /(?:\\|\|\||&&|\||\{)$/.test(state.last.trimEnd());
}

/** The quote still open at the end of `s`, given the one open at its start. */
function scanQuotes(s: string, open: string): string {
  let quote = open;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    if (quote) {
      if (ch === quote) quote = '';
      else if (ch === '\\' && quote === '"') i++;
    } else if (ch === '\\') i++;
    else if (ch === '"' || ch === "'") quote = ch;
  }
  return quote;
}

// ── Exit hints ───────────────────────────────────────────────────────────────────────────────

const EXPLICIT_EXIT = /\b(?:exit(?:ed)?(?: with)?[ _-]?(?:code|status)|return(?:ed)? code)\s*[:=]?\s*(-?\d{1,3})\b|\[exit:? ?(-?\d{1,3})\]/i;
const NOT_FOUND = /(?:command not found|: not found$|is not recognized as an internal or external command)/i;
const FAILURE = new RegExp([
  /npm ERR!|^npm error |\bFAILED\b|^FAIL\s|\b[1-9]\d* (?:failed|failing)\b/.source,
  // "Error: …", "TypeError: …", "fatal: …", gcc/tsc/rustc "file:1:2: error: …", "error TS2304: …"
  /^(?:\w*Error|error|fatal|panic)(?:\[\w+\])?:|[\s:]error(?:\[[A-Z]?\d+\]| TS\d+)?:\s/.source,
  // coreutils style "ls: cannot access 'x': No such file or directory"
  /^[\w./-]+: .*(?:No such file or directory|Permission denied)$/.source,
  /Traceback \(most recent call last\)|Segmentation fault/.source,
].join('|'));

interface ExitFacts {
  explicit: number | null;
  notFound: boolean;
  failure: boolean;
}

function scanExit(line: string, facts: ExitFacts): void {
  const s = line.length > SCAN_CHARS ? line.slice(0, SCAN_CHARS) : line;
  const m = EXPLICIT_EXIT.exec(s);
  // The last explicit code in the output is the one that ended it.
  if (m) facts.explicit = Number(m[1] ?? m[2]);
  if (!facts.notFound && NOT_FOUND.test(s)) facts.notFound = true;
  if (!facts.failure && FAILURE.test(s.trimStart())) facts.failure = true;
}

function exitOutcome(facts: ExitFacts): { exitCode: number | null; isError: boolean } {
  if (facts.explicit !== null) return { exitCode: facts.explicit, isError: facts.explicit !== 0 };
  if (facts.notFound) return { exitCode: 127, isError: true };
  return { exitCode: null, isError: facts.failure };
}

// ── Bounded text buffers ─────────────────────────────────────────────────────────────────────

class CappedText {
  private readonly parts: string[] = [];
  private size = 0;
  private dropped = 0;
  private pendingBlank = 0;
  firstLine = 0;

  constructor(private readonly cap: number) {}

  add(text: string, line: number): void {
    // Blank lines are held back so that trailing ones never end up in the text.
    if (!text.trim()) {
      if (this.parts.length > 0) this.pendingBlank++;
      return;
    }
    if (this.firstLine === 0) this.firstLine = line;
    for (; this.pendingBlank > 0; this.pendingBlank--) this.push('');
    this.push(text);
  }

  /** Count text that is not kept (e.g. binary output). */
  drop(chars: number): void {
    this.dropped += chars;
  }

  private push(text: string): void {
    const cost = text.length + (this.parts.length > 0 ? 1 : 0);
    if (this.size + cost > this.cap) {
      const room = this.cap - this.size - 1;
      if (room > 0) {
        this.parts.push(text.slice(0, room));
        this.size = this.cap;
      }
      this.dropped += text.length - Math.max(0, room);
      return;
    }
    this.parts.push(text);
    this.size += cost;
  }

  get empty(): boolean {
    return this.parts.length === 0 && this.dropped === 0;
  }

  /** Whether a line this long still fits whole (a first line always does: longer ones are cut). */
  fits(text: string): boolean {
    return this.parts.length === 0 || this.size + this.pendingBlank + text.length + 1 <= this.cap;
  }

  toString(): string {
    const body = this.parts.join('\n');
    return this.dropped > 0 ? `${body}\n[… ${this.dropped} more characters not kept]` : body;
  }
}

// ── The parser ───────────────────────────────────────────────────────────────────────────────

interface OpenCommand {
  command: string;
  workdir?: string;
  line: number;
  output: CappedText;
  exit: ExitFacts;
  /** The last output line was npm's "> pkg@1.0.0 script" banner, whose next line is "> cmd". */
  npmBanner: boolean;
  shell: ShellState;
}

export class PlainTextParser implements LogParser {
  readonly format = 'plain-text' as const;
  readonly agent = null;
  private cmd: OpenCommand | null = null;
  private msg: CappedText | null = null;
  private calls = 0;

  text(raw: string, line: number, sink: EventSink): void {
    const s = cleanLine(raw);
    if (isJunk(s)) return this.junk(s, line, sink);
    const prompt = parsePrompt(s);
    const cmd = this.cmd;
    if (prompt?.kind === 'gt' && cmd && cmd.output.empty && cmd.command.length < MAX_OUTPUT_CHARS && wantsMore(cmd.shell)) {
      cmd.command += '\n' + prompt.command;
      advance(cmd.shell, prompt.command);
      return;
    }
    if (prompt && this.accepts(prompt)) return this.onPrompt(prompt, line, sink);
    if (cmd) return this.onOutput(cmd, s, line);
    // prose longer than a message is kept as several: every line of it is read (a key on line
    // 2,745 of a pasted transcript is as exposed as one on line 3), in bounded pieces
    if (this.msg && !this.msg.fits(s)) this.closeMessage(sink);
    (this.msg ??= new CappedText(MAX_MESSAGE_CHARS)).add(s, line);
  }

  end(sink: EventSink): void {
    this.closeCommand(sink);
    this.closeMessage(sink);
  }

  /** ">" and "#" lines are prompts only when they read like a command (not npm's banner, a quote, a heading). */
  private accepts(prompt: Prompt): boolean {
    if (prompt.kind === 'shell') return true;
    if (prompt.kind === 'gt' && this.cmd?.npmBanner) return false;
    return looksLikeCommand(prompt.command);
  }

  private onPrompt(prompt: Prompt, line: number, sink: EventSink): void {
    this.closeCommand(sink);
    this.closeMessage(sink);
    if (!prompt.command.trim()) return; // an empty prompt only ends what came before
    const cmd: OpenCommand = {
      command: prompt.command, line, output: new CappedText(MAX_OUTPUT_CHARS),
      exit: { explicit: null, notFound: false, failure: false }, npmBanner: false, shell: newShellState(),
    };
    if (prompt.workdir !== undefined) cmd.workdir = prompt.workdir;
    advance(cmd.shell, prompt.command);
    this.cmd = cmd;
  }

  private onOutput(cmd: OpenCommand, s: string, line: number): void {
    if (cmd.npmBanner && s.startsWith('>')) {
      cmd.output.add(s, line);
      return;
    }
    cmd.npmBanner = /^> \S+@\S+ \S/.test(s);
    cmd.output.add(s, line);
    scanExit(s, cmd.exit);
  }

  private junk(s: string, line: number, sink: EventSink): void {
    if (this.cmd) this.cmd.output.drop(s.length);
    else sink.skip(line, 'unreadable text (mostly invalid UTF-8)');
  }

  private closeCommand(sink: EventSink): void {
    const cmd = this.cmd;
    if (!cmd) return;
    this.cmd = null;
    const callId = `plain-text-${++this.calls}`;
    const input: ToolInput = { type: 'command', command: cmd.command };
    if (cmd.workdir !== undefined) input.workdir = cmd.workdir;
    sink.emit({ kind: 'tool_call', index: -1, line: cmd.line, at: null, callId, name: 'shell', input });
    sink.emit({
      kind: 'tool_result', index: -1, line: cmd.output.firstLine || cmd.line, at: null, callId, name: 'shell',
      output: cmd.output.toString(), ...exitOutcome(cmd.exit), denied: false,
    });
  }

  private closeMessage(sink: EventSink): void {
    const msg = this.msg;
    this.msg = null;
    if (!msg || msg.empty) return;
    sink.emit({ kind: 'message', index: -1, line: msg.firstLine || 1, at: null, text: msg.toString() });
  }
}
