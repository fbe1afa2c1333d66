// The streaming Codex parser. One dispatcher serves all three formats, because the record shapes
// do not overlap and real uploads mix them (a legacy file resumed by a newer build, a rollout
// with an exec transcript appended): envelope lines {timestamp, type, payload}, bare legacy
// ResponseItems, `record_type` state lines, the legacy first line, exec --json events, and the
// pre-0.44 exec --json lines {id, msg: <event_msg payload>}.
import type { EventSink, FormatId, LogParser } from '../../model/events.ts';
import { isObj, str, type Obj } from '../shared/values.ts';
import { isoOrSpacedTime } from '../shared/values.ts';
import { CodexState, type Ctx } from './state.ts';
import { responseItem } from './response-items.ts';
import { eventMsg } from './event-msgs.ts';
import { isLegacyHead, legacyHead, sessionMeta, turnContext, worldState } from './meta.ts';
import { emitCompaction } from './emit.ts';
import { FROM_RESPONSE_ITEM } from './mirror.ts';
import { EXEC_TYPES, closeExecRun, execEvent } from './exec-json.ts';
import { reportUnknownRecord } from '../shared/unknown-records.ts';

// Understood, nothing for the rules: 2026 multi-agent bookkeeping lines, and the per-response token
// usage 0.171+ writes beside every model response (`{response_id, usage, thread_id}`: the running
// totals of `event_msg token_count` already give the session's usage, so it is not counted twice).
const HARMLESS_ENVELOPES = new Set(['inter_agent_communication', 'inter_agent_communication_metadata', 'token_usage_record']);

export class CodexParser implements LogParser {
  readonly agent = 'codex' as const;
  private readonly st = new CodexState();
  private lastLine = 0;

  constructor(readonly format: FormatId) {}

  record(value: unknown, line: number, sink: EventSink): void {
    this.lastLine = line;
    if (!isObj(value)) return sink.skip(line, 'not a JSON object');
    const type = str(value.type);
    const ctx: Ctx = { sink, line, at: null, st: this.st };
    let understood: boolean;
    if (type !== undefined && 'payload' in value) understood = this.envelope(ctx, type, value);
    else if (type !== undefined && (EXEC_TYPES.has(type) || type === 'error')) understood = execEvent(ctx, type, value);
    else if (type !== undefined) understood = responseItem(ctx, value);
    else if ('record_type' in value) understood = true;
    else if (isObj(value.msg) && typeof value.msg.type === 'string') understood = eventMsg(ctx, value.msg);
    else if (isLegacyHead(value)) {
      ctx.at = isoOrSpacedTime(value.timestamp);
      legacyHead(ctx, value);
      understood = true;
    } else understood = false;
    if (!understood) reportUnknownRecord(sink, line, 'codex', unknownLabel(type, value), value);
  }

  private envelope(ctx: Ctx, type: string, v: Obj): boolean {
    const p = v.payload;
    if (!isObj(p)) return false;
    ctx.at = isoOrSpacedTime(v.timestamp);
    switch (type) {
      case 'response_item': return responseItem(ctx, p);
      case 'event_msg': return eventMsg(ctx, p);
      case 'session_meta': sessionMeta(ctx, p); return true;
      case 'turn_context': turnContext(ctx, p); return true;
      case 'world_state': worldState(ctx, p); return true;
      case 'compacted': emitCompaction(ctx, str(p.message)?.trim() || undefined, FROM_RESPONSE_ITEM); return true;
    }
    return HARMLESS_ENVELOPES.has(type);
  }

  end(sink: EventSink): void {
    this.st.flushPending(sink);
    closeExecRun({ sink, line: this.lastLine, at: null, st: this.st });
  }
}

/** "event_msg/new_thing" for a payload type, else the record's own type (undefined: untyped). */
function unknownLabel(type: string | undefined, v: Obj): string | undefined {
  const inner = isObj(v.payload) ? str(v.payload.type) : isObj(v.msg) ? str(v.msg.type) : undefined;
  if (type === undefined) return inner;
  return inner === undefined ? type : `${type}/${inner}`;
}
