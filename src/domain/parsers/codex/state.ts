// Per-log parser state shared by the Codex record handlers: the session facts seen so far (so
// session_meta is emitted only when something changes — cx01 repeats turn_context 352 times), the
// tool calls seen (to name results and to join the call / output / *_end event triplets without
// emitting anything twice), the mirror sets, and the last running token total (token_count repeats).
// Everything is bounded.
import type { EventSink, SessionMetaEvent, ToolInput, ToolResultEvent } from '../../model/events.ts';
import { MirrorSet } from './mirror.ts';
import type { ParsedOutput } from './tool-output.ts';
import type { TokenCounts } from './emit.ts';
import { boundedSet } from '../../bounded.ts';

/** Where the record being handled sits: events take their line and time from it. */
export interface Ctx {
  sink: EventSink;
  line: number;
  at: string | null;
  st: CodexState;
}

type MetaFields = Omit<SessionMetaEvent, 'kind' | 'index' | 'line' | 'at' | 'agentId' | 'flags' | 'untrackedFiles'>;
type MetaKey = keyof MetaFields;

/** What an *_end / item event knows about a call, kept until the call's output item arrives. */
export interface EndFacts extends ParsedOutput {
  line: number;
  at: string | null;
}

interface CallInfo {
  name: string;
  callEmitted: boolean;
  /** The call came from a response item, so a function_call_output item is expected to follow. */
  outputExpected: boolean;
  resultEmitted: boolean;
  end?: EndFacts;
}

const MAX_CALLS = 20_000;

export class CodexState {
  readonly prompts = new MirrorSet();
  readonly messages = new MirrorSet();
  readonly thoughts = new MirrorSet(200, 64);
  readonly compactions = new MirrorSet(50, 8);
  readonly interrupts = new MirrorSet(50, 8);
  readonly searches = new MirrorSet(50, 16);
  private readonly meta: MetaFields = {};
  private readonly flags = new Set<string>();
  private readonly calls = new Map<string, CallInfo>();
  /** Calls whose end event came and whose output item has not (yet). */
  private readonly pending = new Set<string>();
  /** The last running token total seen (token_count), to turn totals into per-call usage. */
  prevTotal: TokenCounts | null = null;
  /** `codex exec --json`: thread.started records seen, and a turn.started not yet completed. */
  execRuns = 0;
  execTurnOpen = false;
  /** Rollouts: the id of the main session, to notice a second session appended to the file. */
  mainSessionId: string | undefined;
  /** world_state repeats the approved command prefixes every turn: emitted again only when they change. */
  approvedCommands = '';

  get model(): string | undefined {
    return this.meta.model;
  }

  /** Emits a session_meta event carrying only the fields (and flags) that changed. */
  updateMeta(ctx: Ctx, fields: Partial<MetaFields>, flags: string[] = []): void {
    const ev: SessionMetaEvent = { kind: 'session_meta', index: -1, line: ctx.line, at: ctx.at };
    let changed = false;
    for (const key of Object.keys(fields) as MetaKey[]) {
      const v = fields[key];
      if (typeof v !== 'string' || v === '' || this.meta[key] === v) continue;
      this.meta[key] = v;
      ev[key] = v;
      changed = true;
    }
    const fresh = flags.filter((f) => !this.flags.has(f));
    if (fresh.length) {
      for (const f of fresh) this.flags.add(f);
      ev.flags = fresh;
      changed = true;
    }
    if (changed) ctx.sink.emit(ev);
  }

  private info(callId: string, name?: string): CallInfo {
    let info = this.calls.get(callId);
    if (!info) {
      info = { name: name ?? '', callEmitted: false, outputExpected: false, resultEmitted: false };
      boundedSet(this.calls, callId, info, MAX_CALLS);
    } else if (name && !info.name) info.name = name;
    return info;
  }

  knowsCall(callId: string): boolean {
    return this.calls.get(callId)?.callEmitted === true;
  }

  /** Emits the tool_call once per call id (`fromItem`: an output item will carry the result). */
  emitCall(ctx: Ctx, callId: string, name: string, input: ToolInput, fromItem = false): void {
    const info = this.info(callId, name);
    if (info.callEmitted) return;
    info.callEmitted = true;
    info.outputExpected = fromItem;
    ctx.sink.emit({ kind: 'tool_call', index: -1, line: ctx.line, at: ctx.at, callId, name, input });
  }

  /**
   * An end event (exec_command_end, patch_apply_end, mcp_tool_call_end, item_completed) reports a
   * call's outcome. Codex writes it just before the function_call_output item; when that item is
   * expected, the facts wait for it (it is the canonical result, and may lack the exit code),
   * otherwise the end event is the result.
   */
  endOfCall(ctx: Ctx, callId: string, out: ParsedOutput): void {
    const info = this.calls.get(callId);
    if (info?.resultEmitted) return;
    if (info?.outputExpected) {
      info.end = { ...out, line: ctx.line, at: ctx.at };
      this.pending.add(callId);
    } else this.emitResult(ctx, callId, out);
  }

  /**
   * Results whose output item never came (turn aborted, turn over, log cut): the end event stands
   * in, on its own line. Called at turn boundaries and at the end of the log.
   */
  flushPending(sink: EventSink): void {
    if (this.pending.size === 0) return;
    for (const callId of [...this.pending]) {
      const end = this.calls.get(callId)?.end;
      if (end) this.emitResult({ sink, line: end.line, at: end.at, st: this }, callId, end);
    }
    this.pending.clear();
  }

  /** Emits the tool_result once per call id, completing missing facts from a noted end event. */
  emitResult(ctx: Ctx, callId: string, out: ParsedOutput): void {
    const info = this.info(callId);
    if (info.resultEmitted) return;
    info.resultEmitted = true;
    const end = info.end;
    info.end = undefined;
    this.pending.delete(callId);
    const ev: ToolResultEvent = {
      kind: 'tool_result', index: -1, line: ctx.line, at: ctx.at, callId,
      output: out.output,
      exitCode: out.exitCode ?? end?.exitCode ?? null,
      isError: out.isError || (out.exitCode === null && end?.isError === true),
      denied: out.denied || end?.denied === true,
    };
    if (info.name) ev.name = info.name;
    if (out.interrupted) ev.interrupted = true;
    if (out.runningAs !== undefined) ev.runningAs = out.runningAs;
    const ms = out.durationMs ?? end?.durationMs;
    if (ms !== undefined) ev.durationMs = ms;
    ctx.sink.emit(ev);
  }
}

/** A call id for records that carry none: unique per line, stable across runs. */
export function syntheticId(line: number, suffix = ''): string {
  return `codex-line-${line}${suffix}`;
}
