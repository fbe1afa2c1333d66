// ResponseItems: what the model saw and said. In rollouts they are `response_item` payloads; in
// the legacy format they are bare lines. Returns false when the item type is unknown (→ skipped).
import { isObj, str, text, tryJson, type Obj } from '../shared/values.ts';
import { partsText } from './values.ts';
import { FROM_RESPONSE_ITEM } from './mirror.ts';
import { syntheticId, type Ctx } from './state.ts';
import { commandInput, decodeArgs, patchInput, toolInput, webInput } from './tool-input.ts';
import { codeModeCalls, joinCommands } from './code-mode.ts';
import { parseToolOutput } from './tool-output.ts';
import { emitUserText } from './user-text.ts';
import { emitAssistant, emitSystem, emitThinking } from './emit.ts';

// Present in real logs, but nothing a rule needs: ghost commits (undo snapshots), tool-catalog
// searches, generated images, and compaction blobs (their `compacted` line is the event).
const HARMLESS = new Set([
  'ghost_snapshot', 'tool_search_call', 'tool_search_output', 'image_generation_call',
  'compaction', 'compaction_summary', 'other',
]);

/** Untracked files taken from one undo snapshot: a listing, bounded like `git status`'s. */
const UNTRACKED_MAX = 500;

/**
 * Codex's undo snapshot lists the files git saw untracked before the turn: the harness's own
 * `git status`, passed on (as session facts, outside the timeline) for the rules that read one.
 */
function ghostSnapshot(ctx: Ctx, item: Obj): boolean {
  const commit = isObj(item.ghost_commit) ? item.ghost_commit : null;
  const files = commit && Array.isArray(commit.preexisting_untracked_files) ? commit.preexisting_untracked_files.filter((f): f is string => typeof f === 'string' && f !== '') : [];
  if (files.length > 0) ctx.sink.emit({ kind: 'session_meta', index: -1, line: ctx.line, at: ctx.at, untrackedFiles: files.slice(0, UNTRACKED_MAX) });
  return true;
}

export function responseItem(ctx: Ctx, item: Obj): boolean {
  const type = str(item.type);
  if (type === 'ghost_snapshot') return ghostSnapshot(ctx, item);
  switch (type) {
    case 'message': return message(ctx, item);
    case 'reasoning': return reasoning(ctx, item);
    case 'function_call': return functionCall(ctx, item);
    case 'custom_tool_call': return customToolCall(ctx, item);
    case 'local_shell_call': return localShellCall(ctx, item);
    case 'function_call_output':
    case 'custom_tool_call_output': return toolOutput(ctx, item);
    case 'web_search_call': return webSearchCall(ctx, item);
    case 'agent_message': return interAgentMessage(ctx, item);
  }
  return type !== undefined && HARMLESS.has(type);
}

function message(ctx: Ctx, item: Obj): boolean {
  const role = str(item.role);
  const body = role === 'user' ? userText(item.content) : partsText(item.content);
  if (role === 'user') emitUserText(ctx, body, FROM_RESPONSE_ITEM);
  else if (role === 'assistant') emitAssistant(ctx, body, FROM_RESPONSE_ITEM);
  else if (role === 'developer' || role === 'system') {
    if (body) emitSystem(ctx, role, body);
  } else return false;
  return true;
}

// Newer builds wrap attached images in text parts "<image name=[Image #1]>" … "</image>"; the
// user_message event has only the typed text, so the wrappers are dropped for the two to match.
const IMAGE_TAG = /^<\/?image\b[^>]*>$/;

function userText(content: unknown): string {
  if (!Array.isArray(content)) return partsText(content);
  return partsText(content.filter((p) => !(isObj(p) && typeof p.text === 'string' && IMAGE_TAG.test(p.text.trim()))));
}

/** Summary parts mirror `agent_reasoning` events; raw `content` parts mirror the raw-content events. */
function reasoning(ctx: Ctx, item: Obj): boolean {
  for (const list of [item.summary, item.content]) {
    if (!Array.isArray(list)) continue;
    for (const part of list) if (isObj(part)) emitThinking(ctx, str(part.text) ?? '', FROM_RESPONSE_ITEM);
  }
  return true;
}

function callId(ctx: Ctx, item: Obj): string {
  return text(item.call_id) ?? text(item.id) ?? syntheticId(ctx.line);
}

function functionCall(ctx: Ctx, item: Obj): boolean {
  const name = str(item.name) ?? 'unknown';
  const input = toolInput(name, decodeArgs(item.arguments), text(item.namespace));
  ctx.st.emitCall(ctx, callId(ctx, item), name, input, true);
  return true;
}

/** Freeform tools: apply_patch's input is the patch; others (e.g. `shell`) may carry JSON. */
function customToolCall(ctx: Ctx, item: Obj): boolean {
  const name = str(item.name) ?? 'unknown';
  const input = str(item.input);
  let tool;
  if (name === 'apply_patch' || name === 'applypatch') tool = patchInput(input ?? '');
  else if (name === 'exec' && input !== undefined && codeModeCall(ctx, item, input)) return true;
  else {
    const parsed = input === undefined ? item.input : tryJson(input);
    tool = parsed === undefined ? { type: 'other' as const, args: { input } } : toolInput(name, parsed, text(item.namespace));
  }
  ctx.st.emitCall(ctx, callId(ctx, item), name, tool, true);
  return true;
}

/**
 * A code-mode cell (`exec`, JavaScript calling `tools.exec_command(…)`): emitted as the commands
 * it runs, under the tool's own name, when it can be read (code-mode.ts); false otherwise.
 */
function codeModeCall(ctx: Ctx, item: Obj, js: string): boolean {
  const calls = codeModeCalls(js);
  if (!calls) {
    // Commands whose text the cell builds at run time: the call stays on record, but what it ran
    // was not read, and the report must say so rather than vouch for it.
    if (RUNS_COMMANDS.test(js)) ctx.sink.skip(ctx.line, 'a Codex code-mode cell runs commands whose text it builds at run time: what they ran could not be read');
    return false;
  }
  const inputs = calls.map((c) => toolInput(c.name, c.args));
  const tool = calls[0]!.name === 'write_stdin' ? inputs[0]! : joinCommands(inputs);
  if (!tool) return false;
  ctx.st.emitCall(ctx, callId(ctx, item), calls[0]!.name, tool, true);
  return true;
}

const RUNS_COMMANDS = /\btools\.(?:exec_command|write_stdin)\(/;

function localShellCall(ctx: Ctx, item: Obj): boolean {
  const action = isObj(item.action) ? item.action : {};
  ctx.st.emitCall(ctx, callId(ctx, item), 'local_shell', commandInput(action), true);
  return true;
}

function toolOutput(ctx: Ctx, item: Obj): boolean {
  const id = text(item.call_id) ?? syntheticId(ctx.line, '-output');
  ctx.st.emitResult(ctx, id, parseToolOutput(item.output));
  return true;
}

/** Hosted web search: no call_id and no output item; `web_search_end` may mirror it. */
function webSearchCall(ctx: Ctx, item: Obj): boolean {
  const input = webInput(item.action, text(item.query));
  const key = input.type === 'web_search' ? input.query : input.type === 'web_fetch' ? input.url : '';
  if (ctx.st.searches.isMirror(key, FROM_RESPONSE_ITEM, ctx.line)) return true;
  ctx.st.emitCall(ctx, text(item.id) ?? syntheticId(ctx.line), 'web_search', input);
  return true;
}

/** Messages between agents of a multi-agent thread (2026): context for this agent, not a user prompt. */
function interAgentMessage(ctx: Ctx, item: Obj): boolean {
  const body = partsText(item.content);
  const from = text(item.author);
  if (body) emitSystem(ctx, 'inter_agent_message', from ? `${from}: ${body}` : body);
  return true;
}

