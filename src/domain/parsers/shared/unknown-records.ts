// What a parser does with a record type it does not know: the one rule for every family.
//
// Agents add record types every few releases (Codex 0.171's `token_usage_record`, Claude Code's
// `ai-title`, …). A record that holds nothing an agent does — ids, counters, titles, settings —
// is metadata Vouch does not know: reported once as info, never as an unreadable line, so a new
// bookkeeping record cannot turn every current session into Review. A record that looks like an
// action — a command, tool call or arguments, a message, file content or a patch — may hide what
// the agent did, so it stays a skipped line (a coverage warning) until a parser reads it.
import type { EventSink } from '../../model/events.ts';
import { isObj, type Obj } from './values.ts';

/** Keys that carry (or point at) agent activity: a tool call, its input or output, a message, a file change. */
const ACTION_KEYS: ReadonlySet<string> = new Set([
  // tool calls and their input
  'command', 'cmd', 'argv', 'arguments', 'args', 'input', 'parameters', 'call_id', 'callId', 'tool_use_id',
  'tool', 'tool_name', 'toolName', 'toolCalls', 'tool_calls', 'function_call', 'functionCall', 'functionResponse',
  'toolUseResult', 'tool_use_result',
  // results
  'output', 'stdout', 'stderr', 'aggregated_output', 'result', 'exit_code', 'exitCode',
  // messages and prompts
  'message', 'messages', 'content', 'text', 'prompt', 'parts', 'role',
  // file changes
  'patch', 'diff', 'unified_diff', 'changes', 'file_path', 'filePath', 'new_string', 'old_string', 'edits',
  // a URL fetched or a query sent
  'url', 'query',
]);

// Bounded walk: a hostile record may be arbitrarily deep or wide.
const MAX_DEPTH = 4;
const MAX_KEYS = 500;

/** True when the record holds anything that may be agent activity (see ACTION_KEYS). */
export function looksLikeAction(rec: unknown): boolean {
  const budget = { keys: MAX_KEYS };
  return hasActionKey(rec, 0, budget);
}

function hasActionKey(v: unknown, depth: number, budget: { keys: number }): boolean {
  if (depth > MAX_DEPTH) return false;
  if (Array.isArray(v)) {
    for (const item of v.slice(0, 50)) if (hasActionKey(item, depth + 1, budget)) return true;
    return false;
  }
  if (!isObj(v)) return false;
  for (const key of Object.keys(v)) {
    // Out of budget: an enormous record is not waved through as metadata.
    if (--budget.keys < 0) return true;
    if (ACTION_KEYS.has(key)) return true;
    const child = (v as Obj)[key];
    if (typeof child === 'object' && child !== null && hasActionKey(child, depth + 1, budget)) return true;
  }
  return false;
}

/**
 * Reports a record of a type the parser does not know: metadata (info) when nothing in it looks
 * like an action, else a skipped line naming the type (a coverage warning).
 */
export function reportUnknownRecord(sink: EventSink, line: number, agent: string, type: string | undefined, rec: unknown): void {
  const name = type === undefined ? undefined : type.slice(0, 60);
  if (!looksLikeAction(rec)) {
    if (sink.unknownMetadata) return sink.unknownMetadata(line, name ?? '(untyped)');
    return;
  }
  sink.skip(line, name === undefined ? `unrecognised ${agent} record` : `unknown ${agent} record type "${name}"`);
}
