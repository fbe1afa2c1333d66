// Thread items: the `item` of `codex exec --json` lines (snake_case types: command_execution,
// file_change, mcp_tool_call, …) and of 2026 rollout `item_started`/`item_completed` events
// (PascalCase: CommandExecution, FileChange, McpToolCall, …). Same concepts, so one handler: the
// type is compared with case and underscores removed. A tool item is a call when first seen and a
// result when completed; its id is the call id, so rollout copies join their function_call.
import type { ToolInput } from '../../model/events.ts';
import { int, isObj, obj, str, text, type Obj } from '../shared/values.ts';
import { mcpToolInput } from '../shared/tool-input.ts';
import { durationMs, partsText } from './values.ts';
import { syntheticId, type Ctx } from './state.ts';
import { changesToFiles, emitAssistant, emitErrorOrNotice, emitThinking, mcpResult, searchResultsText } from './emit.ts';
import { emitUserText } from './user-text.ts';
import { textOutput } from './tool-output.ts';
import { decodeArgs, webInput } from './tool-input.ts';
import { argvToCommand, unwrapShellString } from './shell-words.ts';

export type Phase = 'started' | 'updated' | 'completed';

// Items that are understood but carry nothing for the rules (plans, to-do lists, review markers…).
const HARMLESS = new Set([
  'plan', 'todolist', 'contextcompaction', 'imageview', 'imagegeneration', 'enteredreviewmode',
  'exitedreviewmode', 'hookprompt', 'extension',
]);

export function threadItem(ctx: Ctx, raw: unknown, phase: Phase, source: number): boolean {
  const item = obj(raw);
  if (!item) return false;
  const type = (str(item.type) ?? str(item.item_type) ?? '').replace(/_/g, '').toLowerCase();
  const id = text(item.id) ?? syntheticId(ctx.line);
  const done = phase === 'completed';
  switch (type) {
    case 'usermessage': if (done) emitUserText(ctx, itemText(item), source); return true;
    case 'agentmessage':
    case 'assistantmessage': if (done) emitAssistant(ctx, itemText(item), source); return true;
    case 'reasoning': if (done) reasoning(ctx, item, source); return true;
    case 'commandexecution': command(ctx, item, id, done); return true;
    case 'filechange': fileChange(ctx, item, id, done); return true;
    case 'mcptoolcall': mcp(ctx, item, id, done); return true;
    case 'websearch': web(ctx, item, id, done); return true;
    case 'collabtoolcall': if (done) collab(ctx, item); return true;
    case 'error': if (done) emitErrorOrNotice(ctx, item.message); return true;
  }
  // 2026 rollouts record web searches as generic "Extension" items with an action and results.
  if (type === 'extension' && isObj(item.action)) {
    web(ctx, item, id, done);
    return true;
  }
  return HARMLESS.has(type);
}

function itemText(item: Obj): string {
  return str(item.text) ?? partsText(item.content);
}

function reasoning(ctx: Ctx, item: Obj, source: number): void {
  const t = str(item.text);
  if (t !== undefined) emitThinking(ctx, t, source);
  for (const list of [item.summary_text, item.summary, item.raw_content]) {
    if (!Array.isArray(list)) continue;
    for (const part of list) emitThinking(ctx, typeof part === 'string' ? part : partsText(part), source);
  }
}

/** Terminal statuses: completed, failed, declined (an item may end without a "completed" event). */
function finished(item: Obj, done: boolean): boolean {
  const s = str(item.status);
  return done || s === 'completed' || s === 'failed' || s === 'declined';
}

function command(ctx: Ctx, item: Obj, id: string, done: boolean): void {
  const raw = item.command;
  const cmd = Array.isArray(raw) ? argvToCommand(raw) : typeof raw === 'string' ? unwrapShellString(raw) : '';
  const cwd = text(item.cwd);
  const input: ToolInput = cwd ? { type: 'command', command: cmd, workdir: cwd } : { type: 'command', command: cmd };
  ctx.st.emitCall(ctx, id, 'command_execution', input);
  if (!finished(item, done)) return;
  const status = str(item.status);
  const exitCode = int(item.exit_code) ?? null;
  const denied = status === 'declined';
  const ms = durationMs(item.duration);
  ctx.st.endOfCall(ctx, id, {
    output: str(item.aggregated_output) ?? str(item.formatted_output) ?? '',
    exitCode, denied, interrupted: false,
    isError: denied || status === 'failed' || (exitCode !== null && exitCode !== 0),
    ...(ms !== undefined ? { durationMs: ms } : {}),
  });
}

function fileChange(ctx: Ctx, item: Obj, id: string, done: boolean): void {
  ctx.st.emitCall(ctx, id, 'file_change', { type: 'patch', files: changesToFiles(item.changes) });
  if (!finished(item, done)) return;
  const status = str(item.status);
  const output = [str(item.stdout), str(item.stderr)].filter(Boolean).join('\n');
  ctx.st.endOfCall(ctx, id, { ...textOutput(output, status === 'failed' || status === 'declined'), denied: status === 'declined' });
}

function mcp(ctx: Ctx, item: Obj, id: string, done: boolean): void {
  const server = str(item.server) ?? '';
  const tool = str(item.tool) ?? '';
  ctx.st.emitCall(ctx, id, `${server}__${tool}`, mcpToolInput(server, tool, decodeArgs(item.arguments)));
  if (!finished(item, done)) return;
  const r = mcpResult(item.result, item.error);
  const ms = durationMs(item.duration);
  const failed = r.isError || str(item.status) === 'failed';
  ctx.st.endOfCall(ctx, id, { ...textOutput(r.output, failed), ...(ms !== undefined ? { durationMs: ms } : {}) });
}

function web(ctx: Ctx, item: Obj, id: string, done: boolean): void {
  ctx.st.emitCall(ctx, id, 'web_search', webInput(item.action, text(item.query)));
  if (done && Array.isArray(item.results)) ctx.st.endOfCall(ctx, id, textOutput(searchResultsText(item.results), false));
}

/** A spawned collaborator runs in its own thread, whose transcript is not in this log. */
function collab(ctx: Ctx, item: Obj): void {
  if (str(item.tool) !== 'spawn_agent' || !Array.isArray(item.receiver_thread_ids)) return;
  for (const rid of item.receiver_thread_ids) {
    if (typeof rid !== 'string' || !rid) continue;
    const prompt = text(item.prompt);
    ctx.sink.emit({ kind: 'subagent_start', index: -1, line: ctx.line, at: ctx.at, subagentId: rid, ...(prompt ? { description: prompt } : {}) });
    ctx.sink.missingSubagent?.(rid, ctx.line);
  }
}
