// Codex CLI's own tracing log (format codex-tui-log: `~/.codex/log/codex-tui.log`), the file the
// TUI writes every session into, one line a trace event:
//
//   2026-01-14T18:04:38.446483Z  INFO session_loop{thread_id=…}: codex_core::stream_events_utils: ToolCall: shell_command {"command":"ls","workdir":"/repo"}
//
// What it records of the agent's work is each tool call as the model made it — `ToolCall: <tool>
// <arguments>`, the arguments as the model wrote them (JSON for function tools, the raw patch for
// `apply_patch`, which then runs over the following lines up to `*** End Patch`). No prompt, no
// reply and no result is in it; the rest (auth, config, retries, cache notices) is the
// program's own bookkeeping. Each call is read with the rollout's tool mapping (tool-input.ts);
// no directory is the session's (the file holds many sessions, each in its own project). coverage/actions-removed says the results
// are not in it, and a last call without one is no run cut off (analyze.ts).
import type { EventSink, LogParser, NormEvent } from '../../model/events.ts';
import { decodeArgs, toolInput } from './tool-input.ts';

/** A trace line: its time, level and target, then the message. */
const TRACE_LINE = /^(\d{4}-\d\d-\d\dT[\d:.]+Z)\s+(?:TRACE|DEBUG|INFO|WARN|ERROR)\s+(\S.*?):\s(.*)$/;
/** The call in a message, after its span's targets (`codex_core::stream_events_utils: ToolCall: …`). */
const TOOL_CALL = /(?:^|:\s)ToolCall: ([\w.-]+) ?([\s\S]*)$/;
/** One span field at a line's end, after the arguments (` thread_id=019c…`); stripped one at a time (linear). */
const SPAN_FIELD = /\s[a-z_]{1,40}=[^\s"{}]{1,200}$/;
const SPAN_FIELDS_MAX = 8;

function withoutSpanFields(args: string): string {
  let rest = args.trimEnd();
  for (let n = 0; n < SPAN_FIELDS_MAX; n++) {
    // only the tail is matched: a long line costs no more than a short one
    const tail = rest.slice(-300);
    const m = SPAN_FIELD.exec(tail);
    if (!m) break;
    rest = rest.slice(0, rest.length - tail.length + m.index).trimEnd();
  }
  return rest;
}
/** Lines a patch may run over before the log is taken to have lost its end. */
const PATCH_MAX_LINES = 20_000;
const PATCH_END = '*** End Patch';

/** Does a sample line look like one of Codex's trace lines (a codex_core / codex_tui target)? */
export function isCodexTraceLine(line: string): boolean {
  const head = line.length > 400 ? line.slice(0, 400) : line;
  // Codex's own modules name the event's target (`codex_core::…`, also after a span `session_loop{…}:`)
  return TRACE_LINE.test(head) && /\s(?:\S+:\s)?codex_(?:core|tui|exec|cli|login|mcp)\w*::/.test(head);
}

export class CodexTracingLogParser implements LogParser {
  readonly format = 'codex-tui-log' as const;
  readonly agent = 'codex' as const;
  private patch: { lines: string[]; line: number; at: string } | null = null;

  text(raw: string, line: number, sink: EventSink): void {
    const m = TRACE_LINE.exec(raw);
    // a patch runs to its end, or to the next trace line when its end was never written
    if (this.patch && !m) return this.patchLine(raw, sink);
    if (this.patch) this.finishPatch(sink);
    if (!m) return; // a continuation of some other message (a multi-line notice): nothing the rules read
    const call = TOOL_CALL.exec(m[3]!);
    if (!call) return;
    const [, name, args] = call;
    if (args!.startsWith('*** Begin Patch')) {
      this.patch = { lines: [], line, at: m[1]! };
      return this.patchLine(args!, sink);
    }
    this.emitCall(name!, decodeArgs(withoutSpanFields(args!).trim()), line, m[1]!, sink);
  }

  end(sink: EventSink): void {
    // a patch whose end never came: what it holds is still the call the model made
    if (this.patch) this.finishPatch(sink);
  }

  private patchLine(raw: string, sink: EventSink): void {
    const patch = this.patch!;
    const end = raw.indexOf(PATCH_END);
    // the last line carries the span's fields after the patch (` thread_id=…`)
    patch.lines.push(end >= 0 ? raw.slice(0, end + PATCH_END.length) : raw);
    if (end >= 0 || patch.lines.length >= PATCH_MAX_LINES) this.finishPatch(sink);
  }

  private finishPatch(sink: EventSink): void {
    const { lines, line, at } = this.patch!;
    this.patch = null;
    this.emitCall('apply_patch', lines.join('\n'), line, at, sink);
  }

  private emitCall(name: string, args: unknown, line: number, at: string, sink: EventSink): void {
    // One file holds every session of the TUI, in whatever project each ran: no one directory is
    // the session's, so none is set (each command keeps its own workdir, and a delete or a write
    // is judged only where its place is certain).
    const event: NormEvent = { kind: 'tool_call', index: -1, line, at, callId: `trace-${line}`, name, input: toolInput(name, args) };
    sink.emit(event);
  }
}
