// Is this sample a Claude Code log, and which form? Each parsed line casts a vote:
// - transcript: `type` user/assistant/system/progress/attachment threaded by sessionId / parentUuid
//   / isSidechain, or one of the transcript-only metadata records (summary, file-history-snapshot…);
// - stream-json (`claude -p --output-format stream-json`): snake_case `session_id` without
//   `sessionId`, `system/init`, `assistant`/`user` with a message, final `result`;
// - foreign: shapes that belong to Codex (`payload` envelopes, `record_type`, dotted exec events)
//   or Gemini CLI (`projectHash`, `$set`, type gemini, stream-json `init` without subtype…).
import type { DetectSample, Detection } from '../../ingest/types.ts';
import { obj, str, type Obj } from '../shared/values.ts';
import { CLAUDE_EVENTS, isHookPayload } from './hook-records.ts';

type Vote = 'transcript' | 'transcript-strong' | 'weak' | 'stream' | 'stream-strong' | 'foreign' | 'none';

const CONVERSATION: ReadonlySet<string> = new Set(['user', 'assistant', 'system', 'progress', 'attachment']);

const TRANSCRIPT_META: ReadonlySet<string> = new Set([
  'summary', 'file-history-snapshot', 'queue-operation', 'permission-mode', 'custom-title', 'ai-title',
  'agent-name', 'last-prompt', 'pr-link', 'worktree-state', 'api-request-shape', 'api-request-blob', 'api-request',
]);

/** Top-level record types Claude Code never writes but Codex or Gemini CLI do. */
const FOREIGN_TYPES: ReadonlySet<string> = new Set([
  'session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted', 'gemini', 'init', 'message',
  'tool_use', 'tool_result', 'function_call', 'function_call_output', 'custom_tool_call',
  'custom_tool_call_output', 'reasoning', 'local_shell_call', 'web_search_call', 'info', 'warning', 'error',
]);

export function detectClaudeCode(sample: DetectSample): Detection | null {
  const array = detectJsonArray(sample);
  if (array) return array;
  const hooks = detectHookLines(sample);
  if (hooks) return hooks;
  const tally = { transcript: 0, 'transcript-strong': 0, weak: 0, stream: 0, 'stream-strong': 0, foreign: 0, none: 0 };
  let objects = 0;
  for (const value of sample.values) {
    const rec = obj(value);
    if (!rec) continue;
    objects++;
    tally[vote(rec)]++;
  }
  const transcript = tally.transcript + tally['transcript-strong'];
  const stream = tally.stream + tally['stream-strong'];
  const ours = transcript + stream + tally.weak;
  if (ours === 0 || tally.foreign >= ours) return null;
  const isStream = stream > transcript + tally.weak;
  const strong = isStream ? tally['stream-strong'] > 0 || stream >= 3 : tally['transcript-strong'] > 0;
  let score = strong ? 0.95 : Math.min(0.85, 0.5 + (0.35 * ours) / objects);
  if (transcript + stream === 0) score = Math.min(score, 0.6);
  if (tally.foreign > 0) score = Math.min(score, 0.6);
  // Mostly non-JSON lines: a Claude-looking line inside text is weak evidence.
  if (objects * 2 < sample.values.length) score = Math.min(score, 0.5);
  return { format: isStream ? 'claude-code-stream-json' : 'claude-code-transcript', score };
}

/**
 * A transcript saved as one JSON array (claude-code-json): the first line is "[" with records
 * pretty-printed after it, or the whole array on one line. Its records vote as lines do.
 */
function detectJsonArray(sample: DetectSample): Detection | null {
  const at = sample.lines.findIndex((l) => l.trim() !== '');
  const head = at < 0 ? '' : sample.lines[at].trim();
  if (!head.startsWith('[')) return null;
  const first = sample.values[at];
  if (Array.isArray(first) && first.length > 0 && first.every(isHookPayload)) return { format: 'claude-code-hooks', score: 0.9 };
  if (Array.isArray(first)) {
    const inner = detectClaudeCode({ lines: first.map(() => ''), values: first });
    return inner && inner.format === 'claude-code-transcript' ? { format: 'claude-code-json', score: inner.score } : null;
  }
  if (head !== '[') return null;
  const raw = sample.lines.join('\n');
  if (/"(?:projectHash|payload|record_type)"\s*:/.test(raw)) return null; // Gemini's or Codex's
  // the payloads hooks received: every element names its hook event and session, none is a transcript record
  if (CLAUDE_HOOK_EVENT.test(raw) && /^\s*"session_id"\s*:\s*"/m.test(raw) && !/"(?:parentUuid|sessionId)"\s*:/.test(raw)) return { format: 'claude-code-hooks', score: 0.9 };
  const threaded = /"sessionId"\s*:\s*"/.test(raw) && /"(?:parentUuid|leafUuid|isSidechain)"\s*:/.test(raw);
  const typed = /"type"\s*:\s*"(?:user|assistant|summary|system|file-history-snapshot)"/.test(raw);
  return threaded && typed ? { format: 'claude-code-json', score: 0.9 } : null;
}

/** A pretty-printed payload's event, one of Claude Code's (hook-records.ts's list). */
const CLAUDE_HOOK_EVENT = new RegExp(String.raw`^\s*"hook_event_name"\s*:\s*"(?:${[...CLAUDE_EVENTS].join('|')})"`, 'm');

/** Hook payloads one a line (a hook that appends each payload as a line): most of the sample's objects are payloads. */
function detectHookLines(sample: DetectSample): Detection | null {
  let objects = 0;
  let payloads = 0;
  for (const value of sample.values) {
    if (!obj(value)) continue;
    objects++;
    if (isHookPayload(value)) payloads++;
  }
  return payloads > 0 && payloads * 2 > objects ? { format: 'claude-code-hooks', score: 0.9 } : null;
}

function vote(rec: Obj): Vote {
  if (isForeign(rec)) return 'foreign';
  const type = str(rec.type);
  if (!type) return 'none';
  if (typeof rec.session_id === 'string' && rec.sessionId === undefined) return streamVote(rec, type);
  if (CONVERSATION.has(type)) {
    const threaded = typeof rec.sessionId === 'string' || 'parentUuid' in rec || 'isSidechain' in rec;
    if (threaded) return typeof rec.uuid === 'string' ? 'transcript-strong' : 'transcript';
    return obj(rec.message) ? 'weak' : 'none';
  }
  if (TRANSCRIPT_META.has(type)) {
    const distinctive = type === 'file-history-snapshot' || (type === 'summary' && 'leafUuid' in rec);
    return distinctive ? 'transcript-strong' : 'transcript';
  }
  return 'none';
}

function streamVote(rec: Obj, type: string): Vote {
  if (type === 'system') return rec.subtype === 'init' ? 'stream-strong' : 'stream';
  if (type === 'assistant' || type === 'user') return obj(rec.message) ? 'stream' : 'none';
  if (type === 'result') return typeof rec.subtype === 'string' || 'is_error' in rec ? 'stream' : 'none';
  return type === 'stream_event' ? 'stream' : 'none';
}

function isForeign(rec: Obj): boolean {
  if ('payload' in rec && typeof rec.timestamp === 'string') return true; // Codex envelope
  if ('record_type' in rec || 'projectHash' in rec || '$set' in rec || '$rewindTo' in rec) return true;
  const type = str(rec.type);
  if (type === undefined) return 'instructions' in rec && 'id' in rec; // legacy Codex first line
  return FOREIGN_TYPES.has(type) || type.includes('.');
}
