// Claude Code's hook payloads saved by the hooks themselves (format claude-code-hooks): a hook
// script that appends every payload it receives to a file of its event — `logs/pre_tool_use.json`,
// `post_tool_use.json`, `user_prompt_submit.json` — as one JSON array or one payload a line. Each
// payload is what Claude Code sent the hook: the session, its cwd and permission mode, and for a
// tool event the call (`tool_name`, `tool_input`) and, after it ran, its result (`tool_response`,
// the same structured result a transcript keeps as `toolUseResult`; `error` for a failure).
//
// A payload becomes the transcript records that say the same, so one parser reads both: a
// PreToolUse payload is a call whose result is not in the file, a PostToolUse payload a call with
// its result, a UserPromptSubmit payload the user's prompt. Other events (Stop, Notification,
// SessionStart …) say nothing the rules read and give no record.
import { obj, str, type Obj } from '../shared/values.ts';

/** Hook events whose payloads carry a tool call, a result or a prompt. */
const TOOL_EVENTS: ReadonlySet<string> = new Set(['PreToolUse', 'PostToolUse', 'PostToolUseFailure']);

/** Claude Code's hook events (Codex and Gemini CLI name theirs otherwise, or keep their transcripts elsewhere). */
export const CLAUDE_EVENTS: ReadonlySet<string> = new Set([
  'PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'UserPromptSubmit', 'Stop', 'SubagentStop', 'SubagentStart',
  'Notification', 'SessionStart', 'SessionEnd', 'PreCompact', 'PermissionRequest',
]);

/**
 * Is `value` a Claude Code hook payload? The shape every hook receives, with one of Claude Code's
 * event names. (Codex's hooks send the same shape and names: their payloads are read the same way,
 * the calls as the tool names them.)
 */
export function isHookPayload(value: unknown): boolean {
  const rec = obj(value);
  if (rec === undefined || typeof rec.session_id !== 'string' || rec.type !== undefined) return false;
  const event = str(rec.hook_event_name);
  return event !== undefined && CLAUDE_EVENTS.has(event);
}

/**
 * The transcript records a hook payload stands for. `index` is the payload's place in the file,
 * for an id when the payload has none (payloads of older versions carry no tool_use_id).
 * `unanswered` pairs those: a PostToolUse with the same tool and input as a PreToolUse before it
 * that has had none is that call's result, not a second call (the caller keeps the map per file).
 */
export function hookRecords(value: unknown, index: number, unanswered: Map<string, string[]> = new Map()): Obj[] {
  const rec = obj(value);
  if (!rec || !isHookPayload(rec)) return [];
  const event = str(rec.hook_event_name) ?? '';
  const common = { sessionId: str(rec.session_id), cwd: str(rec.cwd), ...(str(rec.permission_mode) ? { permissionMode: str(rec.permission_mode) } : {}) };
  if (event === 'UserPromptSubmit') {
    const prompt = str(rec.prompt);
    return prompt === undefined ? [] : [{ ...common, type: 'user', uuid: `hook-${index}`, message: { role: 'user', content: prompt } }];
  }
  if (!TOOL_EVENTS.has(event)) return [];
  const name = str(rec.tool_name);
  if (name === undefined) return [];
  const id = str(rec.tool_use_id) ?? pairedId(event, name, rec.tool_input, index, unanswered);
  const call: Obj = { ...common, type: 'assistant', uuid: `hook-${index}-call`, message: { role: 'assistant', content: [{ type: 'tool_use', id, name, input: obj(rec.tool_input) ?? {} }] } };
  if (event === 'PreToolUse') return [call];
  const failed = event === 'PostToolUseFailure';
  const block: Obj = { type: 'tool_result', tool_use_id: id, content: failed ? str(rec.error) ?? 'The tool failed.' : '', ...(failed ? { is_error: true } : {}) };
  const response = rec.tool_response;
  // a plain-text response is the result's text; a structured one is read as a transcript's toolUseResult
  if (!failed && typeof response === 'string') block.content = response;
  const result: Obj = { ...common, type: 'user', uuid: `hook-${index}-result`, message: { role: 'user', content: [block] }, ...(!failed && typeof response === 'object' && response !== null ? { toolUseResult: response } : {}) };
  return [call, result];
}

/** Calls kept waiting for their PostToolUse, per file (the oldest is dropped beyond this). */
const UNANSWERED_MAX = 256;

/** The id of a payload that has none: a PreToolUse's own, taken again by the PostToolUse of the same call. */
function pairedId(event: string, name: string, input: unknown, index: number, unanswered: Map<string, string[]>): string {
  const key = `${name}\u0000${JSON.stringify(input ?? null)}`;
  const waiting = unanswered.get(key);
  if (event === 'PreToolUse') {
    const id = `hook-call-${index}`;
    // identical calls in flight answer in the order they were made (first in, first out)
    if (waiting) {
      if (waiting.length < UNANSWERED_MAX) waiting.push(id);
    } else {
      unanswered.set(key, [id]);
      if (unanswered.size > UNANSWERED_MAX) unanswered.delete(unanswered.keys().next().value!);
    }
    return id;
  }
  const id = waiting?.shift();
  if (waiting && waiting.length === 0) unanswered.delete(key);
  return id ?? `hook-call-${index}`;
}
