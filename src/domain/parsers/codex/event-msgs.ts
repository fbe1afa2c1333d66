// `event_msg` payloads: the UI event stream Codex persists beside the response items. Most mirror
// a response item (prompt, answer, reasoning) and are deduplicated; *_end events complete tool
// results; token_count gives usage; a few carry facts found nowhere else (turn_aborted, errors,
// approvals, guardian verdicts, spawned sub-agents). Returns false for unknown types (→ skipped).
import type { ToolInput } from '../../model/events.ts';
import { int, obj, str, text, type Obj } from '../shared/values.ts';
import { mcpToolInput } from '../shared/tool-input.ts';
import { durationMs, partsText } from './values.ts';
import { FROM_EVENT_MSG, FROM_ITEM_EVENT } from './mirror.ts';
import { syntheticId, type Ctx } from './state.ts';
import { changesToFiles, emitAssistant, emitCompaction, emitError, emitErrorOrNotice, emitSystem, emitThinking, emitUsage, mcpResult, searchResultsText, tokenCounts } from './emit.ts';
import { emitInterrupt, emitUserText } from './user-text.ts';
import { textOutput } from './tool-output.ts';
import { decodeArgs, toolInput, webInput } from './tool-input.ts';
import { argvToCommand, unwrapShellString } from './shell-words.ts';
import { threadItem } from './thread-items.ts';
import { metaFromSettings } from './meta.ts';

// UI noise, progress and bookkeeping: understood, nothing for the rules.
const HARMLESS = new Set([
  'task_started', 'turn_started', 'turn_complete', 'agent_reasoning_section_break',
  'agent_message_delta', 'agent_reasoning_delta', 'agent_reasoning_raw_content_delta',
  'agent_message_content_delta', 'reasoning_content_delta', 'reasoning_raw_content_delta',
  'exec_command_output_delta', 'terminal_interaction', 'web_search_begin', 'plan_update',
  'plan_delta', 'turn_diff', 'background_event', 'shutdown_complete', 'get_history_entry_response',
  'mcp_list_tools_response', 'list_custom_prompts_response', 'list_skills_response',
  'mcp_startup_update', 'mcp_startup_complete', 'conversation_path', 'undo_started',
  'undo_completed', 'thread_name_updated', 'thread_goal_updated', 'thread_rolled_back',
  'sub_agent_activity', 'image_generation_begin', 'image_generation_end', 'collab_agent_spawn_begin',
  'collab_waiting_begin', 'collab_waiting_end', 'collab_agent_interaction_begin',
  'collab_agent_interaction_end', 'collab_close_begin', 'deprecation_notice', 'raw_response_item',
  'request_user_input', 'user_message_delta', 'context_compaction_started', 'model_reroute',
  'skills_update_available', 'entered_plan_mode', 'exited_plan_mode', 'item_updated',
]);

type Handler = (ctx: Ctx, p: Obj) => void;

const HANDLERS: Record<string, Handler> = {
  user_message: (ctx, p) => emitUserText(ctx, str(p.message) ?? '', FROM_EVENT_MSG),
  agent_message: (ctx, p) => emitAssistant(ctx, str(p.message) ?? '', FROM_EVENT_MSG),
  agent_reasoning: (ctx, p) => emitThinking(ctx, str(p.text) ?? '', FROM_EVENT_MSG),
  agent_reasoning_raw_content: (ctx, p) => emitThinking(ctx, str(p.text) ?? '', FROM_EVENT_MSG),
  token_count: tokenCount,
  turn_aborted: (ctx, p) => {
    ctx.st.flushPending(ctx.sink);
    emitInterrupt(ctx, text(p.reason) ?? 'aborted', FROM_EVENT_MSG);
  },
  context_compacted: (ctx) => emitCompaction(ctx, undefined, FROM_EVENT_MSG),
  error: (ctx, p) => emitErrorOrNotice(ctx, p.message),
  stream_error: (ctx, p) => emitSystem(ctx, 'stream_error', str(p.message)),
  warning: (ctx, p) => emitSystem(ctx, 'warning', str(p.message)),
  task_complete: (ctx, p) => {
    ctx.st.flushPending(ctx.sink);
    if (p.error != null) emitError(ctx, p.error);
  },
  exec_command_begin: execBegin,
  exec_command_end: execEnd,
  patch_apply_begin: patchBegin,
  patch_apply_end: patchEnd,
  mcp_tool_call_begin: mcpCall,
  mcp_tool_call_end: mcpEnd,
  web_search_end: webSearchEnd,
  view_image_tool_call: viewImage,
  dynamic_tool_call_request: dynamicRequest,
  dynamic_tool_call_response: dynamicResponse,
  exec_approval_request: approvalRequest,
  apply_patch_approval_request: approvalRequest,
  request_permissions: approvalRequest,
  elicitation_request: (ctx, p) => emitSystem(ctx, 'elicitation_request', str(p.message)),
  guardian_assessment: guardian,
  entered_review_mode: review,
  exited_review_mode: review,
  collab_agent_spawn_end: spawnEnd,
  collab_close_end: closeEnd,
  session_configured: (ctx, p) => metaFromSettings(ctx, p),
  thread_settings_applied: (ctx, p) => metaFromSettings(ctx, obj(p.thread_settings) ?? {}),
  item_started: (ctx, p) => threadItem(ctx, p.item, 'started', FROM_ITEM_EVENT),
  item_completed: (ctx, p) => threadItem(ctx, p.item, 'completed', FROM_ITEM_EVENT),
};

export function eventMsg(ctx: Ctx, p: Obj): boolean {
  const type = str(p.type);
  if (type === undefined) return false;
  const handler = Object.hasOwn(HANDLERS, type) ? HANDLERS[type] : undefined;
  if (handler) {
    handler(ctx, p);
    return true;
  }
  return HARMLESS.has(type);
}

/**
 * token_count carries the running session total and the last call's usage, and repeats the same
 * numbers several times (cx01: 703 events for 351 calls). Usage is the growth of the running
 * total, so repeats add nothing and a log that kept only some token_count events still sums to
 * the session's total. A total that shrinks (a reset) falls back to the last call's usage.
 */
function tokenCount(ctx: Ctx, p: Obj): void {
  const info = obj(p.info);
  if (!info) return;
  const total = obj(info.total_token_usage);
  const last = obj(info.last_token_usage);
  if (!total) {
    if (last) emitUsage(ctx, tokenCounts(last));
    return;
  }
  const cur = tokenCounts(total);
  const prev = ctx.st.prevTotal;
  ctx.st.prevTotal = cur;
  if (!prev) return emitUsage(ctx, cur);
  const delta = { input: cur.input - prev.input, cached: cur.cached - prev.cached, output: cur.output - prev.output, cacheWrite: cur.cacheWrite - prev.cacheWrite };
  if (delta.input < 0 || delta.cached < 0 || delta.output < 0 || delta.cacheWrite < 0) {
    if (last) emitUsage(ctx, tokenCounts(last));
    return;
  }
  emitUsage(ctx, delta);
}

function callIdOf(ctx: Ctx, p: Obj): string {
  return text(p.call_id) ?? text(p.callId) ?? syntheticId(ctx.line);
}

function commandOf(raw: unknown): string {
  if (Array.isArray(raw)) return argvToCommand(raw);
  return typeof raw === 'string' ? unwrapShellString(raw) : '';
}

/** A command seen through begin/end events only: the person's own `!cmd` is named user_shell. */
function execCall(ctx: Ctx, p: Obj, id: string): void {
  const cwd = text(p.cwd);
  const input: ToolInput = cwd === undefined ? { type: 'command', command: commandOf(p.command) } : { type: 'command', command: commandOf(p.command), workdir: cwd };
  ctx.st.emitCall(ctx, id, p.source === 'user_shell' ? 'user_shell' : 'exec_command', input);
}

function execBegin(ctx: Ctx, p: Obj): void {
  const id = callIdOf(ctx, p);
  if (!ctx.st.knowsCall(id)) execCall(ctx, p, id);
}

function execEnd(ctx: Ctx, p: Obj): void {
  const id = callIdOf(ctx, p);
  if (!ctx.st.knowsCall(id)) execCall(ctx, p, id);
  const status = str(p.status);
  const exitCode = int(p.exit_code) ?? null;
  const denied = status === 'declined';
  const output = str(p.aggregated_output) ?? str(p.formatted_output) ?? [str(p.stdout), str(p.stderr)].filter(Boolean).join('\n');
  const ms = durationMs(p.duration);
  ctx.st.endOfCall(ctx, id, {
    output, exitCode, denied, interrupted: false,
    isError: denied || status === 'failed' || (exitCode !== null && exitCode !== 0),
    ...(ms !== undefined ? { durationMs: ms } : {}),
  });
}

function patchBegin(ctx: Ctx, p: Obj): void {
  const id = callIdOf(ctx, p);
  if (!ctx.st.knowsCall(id)) ctx.st.emitCall(ctx, id, 'apply_patch', { type: 'patch', files: changesToFiles(p.changes) });
}

function patchEnd(ctx: Ctx, p: Obj): void {
  patchBegin(ctx, p);
  const status = str(p.status);
  const denied = status === 'declined';
  const failed = p.success === false || status === 'failed';
  const output = [str(p.stdout), str(p.stderr)].filter(Boolean).join('\n');
  ctx.st.endOfCall(ctx, callIdOf(ctx, p), { ...textOutput(output, failed || denied), denied });
}

function mcpCall(ctx: Ctx, p: Obj): void {
  const id = callIdOf(ctx, p);
  if (ctx.st.knowsCall(id)) return;
  const inv = obj(p.invocation) ?? {};
  const server = str(inv.server) ?? '';
  const tool = str(inv.tool) ?? '';
  ctx.st.emitCall(ctx, id, `${server}__${tool}`, mcpToolInput(server, tool, decodeArgs(inv.arguments)));
}


function mcpEnd(ctx: Ctx, p: Obj): void {
  mcpCall(ctx, p);
  const r = mcpResult(p.result);
  const ms = durationMs(p.duration);
  ctx.st.endOfCall(ctx, callIdOf(ctx, p), { ...textOutput(r.output, r.isError), ...(ms !== undefined ? { durationMs: ms } : {}) });
}

/** Hosted search results; the web_search_call item (no shared id) may already have shown the call. */
function webSearchEnd(ctx: Ctx, p: Obj): void {
  const input = webInput(p.action, text(p.query));
  const key = input.type === 'web_search' ? input.query : input.type === 'web_fetch' ? input.url : '';
  if (ctx.st.searches.isMirror(key, FROM_EVENT_MSG, ctx.line)) return;
  const id = callIdOf(ctx, p);
  ctx.st.emitCall(ctx, id, 'web_search', input);
  if (Array.isArray(p.results)) ctx.st.endOfCall(ctx, id, textOutput(searchResultsText(p.results), false));
}

function viewImage(ctx: Ctx, p: Obj): void {
  const id = callIdOf(ctx, p);
  const path = text(p.path);
  if (path !== undefined && !ctx.st.knowsCall(id)) ctx.st.emitCall(ctx, id, 'view_image', { type: 'file_read', path });
}

function dynamicRequest(ctx: Ctx, p: Obj): void {
  const tool = str(p.tool) ?? 'unknown';
  ctx.st.emitCall(ctx, callIdOf(ctx, p), tool, toolInput(tool, decodeArgs(p.arguments), text(p.namespace)));
}

function dynamicResponse(ctx: Ctx, p: Obj): void {
  const id = callIdOf(ctx, p);
  if (!ctx.st.knowsCall(id)) dynamicRequest(ctx, p);
  const failed = p.success === false || (p.error != null && p.error !== false);
  ctx.st.endOfCall(ctx, id, textOutput(partsText(p.content_items), failed));
}

/** An approval prompt shown to the person (escalation, patch outside the sandbox, permissions). */
function approvalRequest(ctx: Ctx, p: Obj): void {
  const what = commandOf(p.command) || (p.changes ? changesToFiles(p.changes).map((f) => f.path).join(', ') : '');
  const why = str(p.reason) ?? str(p.justification);
  emitSystem(ctx, 'approval_request', [what, why].filter(Boolean).join(' — '));
}

/** The guardian model's verdict on a risky action (status, risk level, rationale). */
function guardian(ctx: Ctx, p: Obj): void {
  const action = obj(p.action) ?? {};
  const target = str(action.command) ?? str(action.tool_name) ?? (Array.isArray(action.files) ? partsText(action.files, ', ') : '');
  const parts = [str(p.status), str(p.risk_level), str(action.type), target, str(p.rationale)];
  emitSystem(ctx, 'guardian_assessment', parts.filter(Boolean).join(' · '));
}

function review(ctx: Ctx, p: Obj): void {
  const out = obj(p.review_output);
  const body = str(p.user_facing_hint) ?? (out ? str(out.overall_explanation) : undefined);
  emitSystem(ctx, str(p.type) ?? 'review', body);
}

/** Codex sub-agents write their own rollout file: the spawn is recorded, the transcript is elsewhere. */
function spawnEnd(ctx: Ctx, p: Obj): void {
  const id = text(p.new_thread_id);
  if (id === undefined) return;
  const description = [str(p.new_agent_nickname), str(p.new_agent_role), str(p.prompt)].filter(Boolean).join(': ');
  ctx.sink.emit({ kind: 'subagent_start', index: -1, line: ctx.line, at: ctx.at, subagentId: id, ...(description ? { description } : {}) });
  ctx.sink.missingSubagent?.(id, ctx.line);
}

function closeEnd(ctx: Ctx, p: Obj): void {
  const id = text(p.receiver_thread_id);
  if (id !== undefined) ctx.sink.emit({ kind: 'subagent_end', index: -1, line: ctx.line, at: ctx.at, subagentId: id });
}
