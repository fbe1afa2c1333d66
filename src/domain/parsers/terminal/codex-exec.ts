// `codex exec` human output (stderr, plus the final message on stdout), as printed by
// codex-rs/exec's human-output event processor. Two eras:
//   0.1x–0.4x: every block starts with "[2025-09-16T10:21:01] " and is one line
//              ("[ts] exec bash -lc 'ls' in /dir", "[ts] bash -lc 'ls' succeeded in 19ms:",
//              "[ts] User instructions:", "[ts] tokens used: 4321", "[ts] apply_patch auto_approved=true:");
//   0.5x+:     bare section words on their own line ("user", "thinking", "codex", "exec",
//              "file update", "apply patch" (0.11x+: "patch: completed" and a git diff), "tokens used"),
//              the exec status on the command's line
//              ("bash -lc 'npm test' in /repo succeeded in 1.20s:" / "… exited 1 in 300ms:").
// A header (banner, "--------", "workdir: …", "model: …", "sandbox: …", "--------") opens both.
import { RUN_INCOMPLETE } from '../../model/runs.ts';
import { boundedAdd } from '../../bounded.ts';
import type { EventSink, LogParser, PatchFile, SessionMetaEvent } from '../../model/events.ts';
import { unwrapShellString } from '../codex/shell-words.ts';
import { CallEmitter, TextBlock, clean, head, parseDuration, pushCapped } from './text.ts';

const TIMESTAMP = /^\[(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?)(Z|[+-]\d{2}:?\d{2})?\]\s?/;
export const CODEX_BANNER = /^OpenAI Codex v(\d[\w.+-]*)(?: \(research preview\))?\s*$/;
const RULE = /^-{8,}$/;
const HEADER_ENTRY = /^([a-z][a-z ]{1,30}):\s+(.*)$/;
/** The end of "<cmd>[ in <dir>] succeeded in 1.2s:" / "… exited 1 in 300ms:" (may stand alone). */
const EXEC_STATUS = /(?:^|\s)(succeeded|exited (-?\d+)|failed)(?: in ([\dhms. ]+))?:$/;
const PATCH_FILE = /^([AMDR]) (\S+)(?: -> (\S+))?$/;
const PATCH_RESULT = /^apply_patch(?:\(.*\)| auto_approved=\w+)? exited (-?\d+)(?: in ([\dhms. ]+))?:$/;
const MCP_CALL = /^tool ([\w-]+)\.([\w-]+)\((.*)\)$/;
const MCP_RESULT = /^([\w-]+)\.([\w-]+)\((.*)\) (success|failed)(?: in [\dhms. ]+)?:$/;
/** Command lines collected before a command is taken as complete without its "in <dir>". */
const MAX_COMMAND_LINES = 400;

type Mode =
  | 'start' | 'header' | 'prompt' | 'thinking' | 'message' | 'exec-cmd' | 'exec-wait' | 'exec-out'
  | 'patch' | 'patch-out' | 'turn-diff' | 'apply-diff' | 'tokens' | 'final' | 'mcp-out' | 'plan' | 'other';

interface OpenExec {
  command: string[];
  workdir?: string;
  line: number;
  at: string | null;
  callId?: string;
  exitCode: number | null;
  durationMs?: number;
  resultLine: number;
  output: TextBlock;
}

interface OpenPatch {
  files: PatchFile[];
  added: string[];
  removed: string[];
  line: number;
  at: string | null;
}

export class CodexExecTextParser implements LogParser {
  readonly format = 'codex-exec-text' as const;
  readonly agent = 'codex' as const;
  private mode: Mode = 'start';
  private block: TextBlock | null = null;
  private blockAt: string | null = null;
  private meta: SessionMetaEvent | null = null;
  private exec: OpenExec | null = null;
  private patch: OpenPatch | null = null;
  /** The outcome an "apply patch" section printed ("completed", "failed"), once read. */
  private applyStatus: string | null = null;
  /** The paths an "apply patch" section listed: the files this patch changed. */
  private applyPaths: string[] = [];
  private patchCall: { callId: string; line: number } | null = null;
  private mcpCall: { callId: string; name: string; line: number; ok: boolean } | null = null;
  /** Files whose change was already shown as a patch, so the turn diff does not count them twice. */
  private patched = new Set<string>();
  /** Every file a patch of this log changed (bounded): a diff after the final message that names one is the turn's. */
  private changed = new Set<string>();
  /** The files the session's commands named (basenames, bounded): a turn diff may show a file a command changed. */
  private commandWords = new Set<string>();
  /** Inside a fenced block of the agent's reply: a diff there is text the reply shows. */
  private fenced = false;
  private lastMessage = '';
  private pendingPatchResult: { code: number; line: number; durationMs?: number } | null = null;
  private headerEntries = 0;
  private readonly calls = new CallEmitter('codex-exec');
  /** A command or a change came after the last reply or `tokens used`: the run has not closed yet. */
  private workOpen = false;
  private lastLine = 0;

  text(raw: string, line: number, sink: EventSink): void {
    const cleaned = clean(raw);
    if (cleaned.trim() === '') return;
    this.lastLine = line;
    const ts = TIMESTAMP.exec(cleaned);
    const at = ts ? `${ts[1]}${ts[2] ?? 'Z'}` : null;
    const s = ts ? cleaned.slice(ts[0].length) : cleaned;
    if (this.mode === 'header' && this.headerLine(s, sink)) return;
    if (this.marker(s, line, at, sink)) return;
    this.content(s, line, sink);
  }

  end(sink: EventSink): void {
    this.close(sink);
    if (this.meta) this.flushMeta(sink);
    // `codex exec` closes a run with the agent's reply and `tokens used`: a file that stops after
    // a command or a change, with neither, was cut off (killed, timed out, copied while running)
    if (this.workOpen) sink.emit({ kind: 'system', index: -1, line: this.lastLine, at: null, subtype: RUN_INCOMPLETE, text: 'The `codex exec` output stops after a command or a change, with no final reply and no `tokens used` line after it: the run was cut off (killed, timed out, or still running when the file was copied).' });
  }

  // ── Header ────────────────────────────────────────────────────────────────────────────────

  private headerLine(s: string, sink: EventSink): boolean {
    if (RULE.test(s)) {
      // The first rule opens the entries, the second closes them.
      if (this.headerEntries === 0) return true;
      this.flushMeta(sink);
      this.mode = 'other';
      return true;
    }
    const m = HEADER_ENTRY.exec(head(s));
    if (!m || !this.meta) return false;
    const meta = this.meta;
    const value = m[2].trim();
    this.headerEntries++;
    switch (m[1]) {
      case 'workdir': meta.cwd = value; break;
      case 'model': meta.model = value; break;
      case 'approval': meta.approvalPolicy = value; break;
      case 'sandbox': meta.sandbox = value; break;
      case 'session id': meta.sessionId = value; break;
      default: break; // provider, reasoning effort/summaries: nothing a rule or the report reads
    }
    return true;
  }

  private flushMeta(sink: EventSink): void {
    if (this.meta) sink.emit(this.meta);
    this.meta = null;
  }

  // ── Section markers ───────────────────────────────────────────────────────────────────────

  /** A line that opens a new section (closing the open one); false when it is content. */
  private marker(s: string, line: number, at: string | null, sink: EventSink): boolean {
    // 0.1x–0.4x "[ts] exec <cmd> in <dir>": checked before the length cut, commands may be long.
    if (s.startsWith('exec ') && this.mode !== 'exec-cmd' && this.execBegins(s, at)) return this.statusMarker(s, line, at, sink);
    if (s.length > 200) return false; // section markers are short; long lines are content
    const banner = CODEX_BANNER.exec(s);
    if (banner) {
      this.close(sink);
      this.flushMeta(sink);
      this.meta = { kind: 'session_meta', index: -1, line, at, agentVersion: banner[1] };
      this.headerEntries = 0;
      this.mode = 'header';
      return true;
    }
    if (this.mode === 'exec-cmd' || this.mode === 'exec-wait') {
      if (this.execLine(s, line, sink)) return true;
    }
    const simple = SECTIONS.get(s);
    if (simple) {
      this.open(simple, line, at, sink);
      return true;
    }
    // recent versions print the turn's diff right after the final message, with no header of its
    // own: a git diff's first line ends the message (its `+` lines are file text, not the reply) —
    // a diff of a file a patch of this log changed, outside a fenced block (a diff the reply only
    // proposes is the reply's)
    if (this.mode === 'message' && /^```/.test(s)) this.fenced = !this.fenced;
    const header = this.mode === 'message' && !this.fenced ? gitFileHeader(s) : null;
    if (header && this.wasChanged(header[2])) {
      this.open('turn-diff', line, at, sink);
      this.patchLine(s);
      return true;
    }
    return this.statusMarker(s, line, at, sink) || this.toolMarker(s, line, at, sink);
  }

  /** "exec <cmd> in <dir>" on one line: timestamped (its era), or outside any tool output. */
  private execBegins(s: string, at: string | null): boolean {
    return at !== null || (!OUTPUT_MODES.has(this.mode) && splitDir(s) !== null);
  }

  private statusMarker(s: string, line: number, at: string | null, sink: EventSink): boolean {
    let m: RegExpExecArray | null;
    if (s.startsWith('exec ') && this.execBegins(s, at) && (m = /^exec (.+)$/.exec(s))) {
      // 0.1x–0.4x: "exec <cmd> in <dir>" on one line.
      this.open('exec-cmd', line, at, sink);
      this.execLine(m[1], line, sink);
      return true;
    }
    if ((m = /^tokens used:? ?([\d,]*)$/.exec(s))) {
      this.open('tokens', line, at, sink);
      if (m[1]) this.tokens(m[1], line, at, sink);
      return true;
    }
    if ((m = PATCH_RESULT.exec(s))) {
      this.close(sink);
      this.patchResult(Number(m[1]), m[2], line, at);
      return true;
    }
    // Tools print "warning: …" / "ERROR: …" too (git, pytest): inside an output they are output.
    if (!OUTPUT_MODES.has(this.mode) && (m = /^(ERROR|warning|deprecated|mcp startup|mcp):\s*(.*)$/.exec(s))) {
      this.close(sink);
      // an error or an interrupt is how the run ended: it was not cut off
      if (m[1] === 'ERROR') {
        this.workOpen = false;
        sink.emit({ kind: 'error', index: -1, line, at, text: m[2] });
      }
      else sink.emit({ kind: 'system', index: -1, line, at, subtype: m[1].replace(' ', '_'), text: m[2] });
      this.mode = 'other';
      return true;
    }
    if ((m = /^task (interrupted|aborted: .+)$/.exec(s))) {
      this.close(sink);
      this.workOpen = false;
      sink.emit({ kind: 'interrupt', index: -1, line, at, reason: m[1] });
      this.mode = 'other';
      return true;
    }
    if ((m = /^codex session (\S+)$/.exec(s))) {
      this.close(sink);
      sink.emit({ kind: 'session_meta', index: -1, line, at, sessionId: m[1] });
      this.mode = 'other';
      return true;
    }
    if (s === 'context compacted') {
      this.close(sink);
      sink.emit({ kind: 'compaction', index: -1, line, at });
      this.mode = 'other';
      return true;
    }
    return false;
  }

  private toolMarker(s: string, line: number, at: string | null, sink: EventSink): boolean {
    let m: RegExpExecArray | null;
    if ((m = MCP_CALL.exec(s))) {
      this.close(sink);
      const callId = this.calls.call(sink, line, at, `${m[1]}__${m[2]}`, { type: 'mcp', server: m[1], tool: m[2], args: jsonOr(m[3]) });
      this.mcpCall = { callId, name: `${m[1]}__${m[2]}`, line, ok: true };
      this.mode = 'other';
      return true;
    }
    if ((m = MCP_RESULT.exec(s)) && this.mcpCall) {
      this.close(sink);
      this.mcpCall.ok = m[4] === 'success';
      this.mcpCall.line = line;
      this.open('mcp-out', line, at, sink);
      return true;
    }
    if ((m = /^🌐 Searched: (.+)$/.exec(s))) {
      this.close(sink);
      this.calls.call(sink, line, at, 'web_search', { type: 'web_search', query: m[1] });
      this.mode = 'other';
      return true;
    }
    if ((m = /^viewed image (.+)$/.exec(s))) {
      this.close(sink);
      this.calls.call(sink, line, at, 'view_image', { type: 'file_read', path: m[1] });
      this.mode = 'other';
      return true;
    }
    if (/^apply_patch auto_approved=\w+:$/.test(s)) {
      this.open('patch', line, at, sink);
      return true;
    }
    return false;
  }

  private open(mode: Mode, line: number, at: string | null, sink: EventSink): void {
    this.close(sink);
    this.mode = mode;
    this.fenced = false;
    if (mode === 'exec-cmd' || mode === 'patch' || mode === 'apply-diff') this.workOpen = true;
    else if (mode === 'message' || mode === 'tokens') this.workOpen = false;
    this.blockAt = at;
    this.block = new TextBlock(line);
    if (mode === 'exec-cmd') this.exec = { command: [], line, at, exitCode: null, resultLine: line, output: new TextBlock(line) };
    if (mode === 'patch' || mode === 'turn-diff' || mode === 'apply-diff') this.patch = { files: [], added: [], removed: [], line, at };
    if (mode === 'apply-diff') {
      this.applyStatus = null;
      this.applyPaths = [];
    }
  }

  // ── Content ───────────────────────────────────────────────────────────────────────────────

  private content(s: string, line: number, sink: EventSink): void {
    switch (this.mode) {
      case 'exec-cmd':
      case 'exec-wait':
        return this.execLine(s, line, sink) ? undefined : this.commandContinues(s, line, sink);
      case 'exec-out':
        return this.exec!.output.add(s);
      case 'patch':
      case 'turn-diff':
        return this.patchLine(s);
      case 'apply-diff': {
        // 0.11x+: "apply patch", "patch: completed" (or failed), the paths the patch changed, then
        // the turn's diff so far (every file patched in the turn: only the listed ones are this patch's)
        const status = /^patch: (\w+)/.exec(s);
        if (status && this.applyStatus === null) return void (this.applyStatus = status[1]!);
        if (this.applyStatus !== null && this.patch!.files.length === 0 && !s.startsWith('diff --git') && /^(?:\/|[A-Za-z]:[\\/]|\.{0,2}[\w.-]+\/)\S*$/.test(s.trim())) return void this.applyPaths.push(s.trim());
        return this.patchLine(s);
      }
      case 'tokens':
        if (/^[\d,]+$/.test(s.trim())) return this.tokens(s.trim(), line, this.blockAt, sink);
        this.mode = 'final';
        this.block = new TextBlock(line);
        return this.block.add(s);
      case 'start':
      case 'header':
        this.mode = 'other';
        this.block = new TextBlock(line);
        return this.block.add(s);
      default:
        (this.block ??= new TextBlock(line)).add(s);
    }
  }

  /** A line while a command is open: the command's end ("in <dir>" and/or status), else false. */
  private execLine(s: string, line: number, sink: EventSink): boolean {
    const exec = this.exec;
    if (!exec) return false;
    const status = execStatus(s);
    if (status && (this.mode === 'exec-wait' || status.before !== '' || exec.command.length > 0)) {
      if (this.mode === 'exec-cmd') this.addCommand(exec, status.before);
      exec.exitCode = status.exitCode;
      exec.durationMs = status.durationMs;
      exec.resultLine = line;
      this.startCall(exec, sink);
      this.mode = 'exec-out';
      return true;
    }
    if (this.mode === 'exec-cmd' && splitDir(s)) {
      this.addCommand(exec, s);
      this.startCall(exec, sink);
      this.mode = 'exec-wait';
      return true;
    }
    return false;
  }

  private commandContinues(s: string, line: number, sink: EventSink): void {
    const exec = this.exec!;
    if (this.mode === 'exec-wait') {
      // The status never came: the begin line is all there is; what follows is plain text.
      this.close(sink);
      this.mode = 'other';
      this.block = new TextBlock(line);
      return this.block.add(s);
    }
    const room = pushCapped(exec.command, s);
    if (!room || exec.command.length >= MAX_COMMAND_LINES) {
      // No "in <dir>" in sight: the command is taken as it stands, what follows is plain text.
      this.close(sink);
      this.mode = 'other';
    }
  }

  private addCommand(exec: OpenExec, text: string): void {
    const split = splitDir(text);
    if (split) exec.workdir = split.dir;
    const command = split ? split.command : text;
    if (command !== '') {
      exec.command.push(command);
      this.noteCommand(command);
    }
  }

  private startCall(exec: OpenExec, sink: EventSink): void {
    if (exec.callId) return;
    const command = unwrapShellString(exec.command.join('\n').trim());
    exec.callId = this.calls.call(sink, exec.line, exec.at, 'exec_command', {
      type: 'command', command, ...(exec.workdir ? { workdir: exec.workdir } : {}),
    });
  }

  private patchLine(s: string): void {
    const patch = this.patch!;
    const file = this.mode === 'patch' ? PATCH_FILE.exec(s) : gitFileHeader(s);
    if (file) {
      closePatchFile(patch);
      const op = file[1] === 'A' ? 'add' : file[1] === 'D' ? 'delete' : 'update';
      patch.files.push({ path: file[2], op, ...(file[3] ? { moveTo: file[3] } : {}), removed: '', added: '' });
      return;
    }
    const current = patch.files.at(-1);
    if (!current) return;
    if ((this.mode === 'turn-diff' || this.mode === 'apply-diff') && gitMetaLine(s, current)) return;
    if (current.op === 'add' && this.mode === 'patch') return void patch.added.push(s);
    if (current.op === 'delete' && this.mode === 'patch') return void patch.removed.push(s);
    if (s.startsWith('+') && !s.startsWith('+++')) patch.added.push(s.slice(1));
    else if (s.startsWith('-') && !s.startsWith('---')) patch.removed.push(s.slice(1));
  }

  private patchResult(code: number, duration: string | undefined, line: number, at: string | null): void {
    this.mode = 'patch-out';
    this.block = new TextBlock(line);
    this.blockAt = at;
    const durationMs = duration ? parseDuration(duration) : undefined;
    this.pendingPatchResult = { code, line, durationMs };
  }

  private tokens(count: string, line: number, at: string | null, sink: EventSink): void {
    sink.emit({ kind: 'system', index: -1, line, at, subtype: 'tokens_used', text: `tokens used: ${count}` });
    this.mode = 'final';
    this.block = null;
  }

  // ── Closing a section ─────────────────────────────────────────────────────────────────────

  private close(sink: EventSink): void {
    const block = this.block;
    const text = block && !block.empty ? block.toString() : '';
    const line = block?.line ?? 0;
    const at = this.blockAt;
    switch (this.mode) {
      case 'prompt':
        if (text) sink.emit({ kind: 'prompt', index: -1, line, at, text });
        break;
      case 'thinking':
        if (text) sink.emit({ kind: 'thinking', index: -1, line, at, text });
        break;
      case 'message':
        if (text) sink.emit({ kind: 'message', index: -1, line, at, text });
        if (text) this.lastMessage = text;
        break;
      case 'final':
        // stdout repeats the last message after "tokens used"; anything else is still shown.
        if (text && text !== this.lastMessage) sink.emit({ kind: 'message', index: -1, line, at, text });
        break;
      case 'exec-cmd':
      case 'exec-wait':
      case 'exec-out':
        this.closeExec(sink);
        break;
      case 'patch':
      case 'turn-diff':
        this.closePatch(sink);
        break;
      case 'apply-diff':
        this.closeAppliedPatch(sink);
        break;
      case 'patch-out':
        this.closePatchResult(text, sink);
        break;
      case 'mcp-out':
        if (this.mcpCall) {
          const c = this.mcpCall;
          this.calls.result(sink, c.callId, c.name, c.line, at, { output: text, exitCode: null, isError: !c.ok });
          this.mcpCall = null;
        }
        break;
      default:
        if (text) sink.emit({ kind: 'system', index: -1, line, at, subtype: this.mode === 'plan' ? 'plan_update' : 'output', text });
    }
    this.block = null;
  }

  private closeExec(sink: EventSink): void {
    const exec = this.exec;
    this.exec = null;
    if (!exec) return;
    if (exec.command.length === 0 && !exec.callId) return;
    this.startCall(exec, sink);
    if (this.mode !== 'exec-out' || exec.exitCode === null) return; // begun, never finished: no result shown
    this.calls.result(sink, exec.callId!, 'exec_command', exec.resultLine, exec.at, {
      output: exec.output.toString(), exitCode: exec.exitCode, isError: exec.exitCode !== 0,
      ...(exec.durationMs !== undefined ? { durationMs: exec.durationMs } : {}),
    });
  }

  private closePatch(sink: EventSink): void {
    const patch = this.patch;
    this.patch = null;
    if (!patch) return;
    closePatchFile(patch);
    const isTurnDiff = this.mode === 'turn-diff';
    const files = isTurnDiff ? patch.files.filter((f) => !this.wasPatched(f.path)) : patch.files;
    if (isTurnDiff) this.patched.clear();
    else for (const f of files) this.patched.add(f.path);
    for (const f of files) boundedAdd(this.changed, f.path, CHANGED_MAX);
    if (files.length === 0) return;
    const callId = this.calls.call(sink, patch.line, patch.at, isTurnDiff ? 'turn_diff' : 'apply_patch', { type: 'patch', files });
    // The turn diff records changes already made (by commands that edited files): it is its own
    // result, never an action waiting for one (a log that ends after it was not cut off there).
    if (isTurnDiff) this.calls.result(sink, callId, 'turn_diff', patch.line, patch.at, { output: '', exitCode: null, isError: false });
    else this.patchCall = { callId, line: patch.line };
  }

  /** An "apply patch" section of 0.11x+: the patch with its outcome, shown as a git diff. */
  private closeAppliedPatch(sink: EventSink): void {
    const patch = this.patch;
    const status = this.applyStatus;
    const listed = this.applyPaths;
    this.patch = null;
    this.applyStatus = null;
    this.applyPaths = [];
    // a line "apply patch" inside other output opens no patch: the section has its status line
    if (!patch || status === null || listed.length === 0) return;
    closePatchFile(patch);
    // the turn's diff names repository-relative paths, the list absolute ones; a listed file the
    // diff no longer shows (its change undone in the turn) is changed with unknown content
    const files: PatchFile[] = listed.map((abs) => patch.files.find((f) => abs === f.path || abs.endsWith('/' + f.path)) ?? { path: abs, op: 'update', removed: '', added: '' });
    for (const f of files) {
      this.patched.add(f.path);
      boundedAdd(this.changed, f.path, CHANGED_MAX);
    }
    const callId = this.calls.call(sink, patch.line, patch.at, 'apply_patch', { type: 'patch', files });
    if (status !== 'completed' && status !== 'failed' && status !== 'declined') return; // still running: no outcome
    const ok = status === 'completed';
    this.calls.result(sink, callId, 'apply_patch', patch.line, patch.at, { output: `patch: ${status}`, exitCode: ok ? 0 : 1, isError: !ok });
  }

  /** Patch headers name absolute paths, the turn diff repository-relative ones. */
  private wasChanged(path: string): boolean {
    for (const p of this.changed) if (p === path || p.endsWith('/' + path)) return true;
    const name = path.slice(path.lastIndexOf('/') + 1);
    return name.length >= 3 && this.commandWords.has(name);
  }

  /** Remembers the file names a command line holds (`sed -i … config/stripe.py` → stripe.py). */
  private noteCommand(text: string): void {
    for (const m of text.slice(0, 4_000).matchAll(/[\w.-]*\.[A-Za-z0-9]{1,8}\b/g)) {
      const word = m[0].slice(m[0].lastIndexOf('/') + 1);
      if (word.length >= 3) boundedAdd(this.commandWords, word, CHANGED_MAX);
    }
  }

  private wasPatched(path: string): boolean {
    for (const p of this.patched) if (p === path || p.endsWith('/' + path)) return true;
    return false;
  }

  private closePatchResult(text: string, sink: EventSink): void {
    const r = this.pendingPatchResult;
    this.pendingPatchResult = null;
    if (!r) return;
    const call = this.patchCall;
    this.patchCall = null;
    if (!call) {
      if (text) sink.emit({ kind: 'system', index: -1, line: r.line, at: this.blockAt, subtype: 'patch_result', text });
      return;
    }
    this.calls.result(sink, call.callId, 'apply_patch', call.line, this.blockAt, {
      output: text, exitCode: r.code, isError: r.code !== 0, line: r.line,
      ...(r.durationMs !== undefined ? { durationMs: r.durationMs } : {}),
    });
  }
}

/** Sections whose lines are a tool's output or a diff, where only the section words end them. */
const OUTPUT_MODES: ReadonlySet<Mode> = new Set<Mode>(['exec-out', 'patch', 'patch-out', 'turn-diff', 'apply-diff', 'mcp-out']);

const CHANGED_MAX = 2_000;

/** Lines that open a section (a Map: lines come from the log, so no prototype keys). */
const SECTIONS: ReadonlyMap<string, Mode> = new Map(Object.entries({
  user: 'prompt',
  'User instructions:': 'prompt',
  thinking: 'thinking',
  codex: 'message',
  exec: 'exec-cmd',
  'file update': 'patch',
  'file update:': 'turn-diff',
  'apply patch': 'apply-diff',
  'turn diff:': 'turn-diff',
  'Plan update': 'plan',
} satisfies Record<string, Mode>));

interface ExecStatus {
  before: string;
  exitCode: number;
  durationMs?: number;
}

/** Reads the status at the end of a line; only the tail is matched, so long lines stay linear. */
function execStatus(s: string): ExecStatus | null {
  if (!s.endsWith(':')) return null;
  const tail = s.length > 120 ? s.slice(-120) : s;
  const m = EXEC_STATUS.exec(tail);
  if (!m) return null;
  const before = s.slice(0, s.length - tail.length + m.index).trimEnd();
  const exitCode = m[1] === 'succeeded' ? 0 : m[2] !== undefined ? Number(m[2]) : 1;
  const durationMs = m[3] ? parseDuration(m[3]) : undefined;
  return durationMs === undefined ? { before, exitCode } : { before, exitCode, durationMs };
}

/** "<cmd> in /dir" → both parts. Codex prints the directory last, so only the last " in " counts. */
function splitDir(s: string): { command: string; dir: string } | null {
  const i = s.lastIndexOf(' in ');
  if (i < 0) return null;
  const rest = s.slice(i + 4);
  if (!/^(?:\/|~\/?|[A-Za-z]:\\)/.test(rest) || rest.includes("'")) return null;
  return { command: s.slice(0, i), dir: rest.trim() };
}

function closePatchFile(patch: OpenPatch): void {
  const current = patch.files.at(-1);
  if (current && !current.added && !current.removed) {
    current.added = patch.added.join('\n');
    current.removed = patch.removed.join('\n');
  }
  patch.added = [];
  patch.removed = [];
}

/** "diff --git a/x b/y" → a file header in the shape of PATCH_FILE's match (op decided later). */
function gitFileHeader(s: string): [string, string, string, string | undefined] | null {
  const m = /^diff --git a\/(\S+) b\/(\S+)$/.exec(s);
  if (!m) return null;
  return [s, 'M', m[1], m[2] !== m[1] ? m[2] : undefined];
}

/** The metadata lines of a git diff; new/deleted file modes set the file's operation. */
function gitMetaLine(s: string, file: PatchFile): boolean {
  if (s.startsWith('new file mode')) file.op = 'add';
  else if (s.startsWith('deleted file mode')) file.op = 'delete';
  else return /^(?:index |old mode|new mode|similarity index|rename (?:from|to) |--- |\+\+\+ |@@ |\\ No newline)/.test(s);
  return true;
}

function jsonOr(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
