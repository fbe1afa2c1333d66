// Recognising the three Codex formats from the first lines. Each is unmistakable when present:
// rollout envelopes {type: session_meta|response_item|event_msg|…, payload:{…}}, exec --json
// dotted event types (thread.started, item.completed…), and legacy bare OpenAI ResponseItems
// (role + content *array*, function_call with call_id) after a {id, timestamp, instructions} line.
// None of these shapes occur in Claude Code or Gemini CLI logs (Gemini stream-json "message"
// lines have a string `content`, which is why content must be an array here).
import type { DetectSample, Detection } from '../../ingest/types.ts';
import { isObj, tryJson, type Obj } from '../shared/values.ts';
import { isLegacyHead } from './meta.ts';
import { isCodexTraceLine } from './tracing-log.ts';
import { isHistoryEntry } from './history.ts';

const ENVELOPE_TYPES = new Set([
  'session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted', 'world_state',
  'inter_agent_communication', 'inter_agent_communication_metadata', 'token_usage_record',
]);
const EXEC_TYPES = new Set([
  'thread.started', 'turn.started', 'turn.completed', 'turn.failed', 'item.started', 'item.updated', 'item.completed',
]);

function isBareItem(v: Obj): boolean {
  switch (v.type) {
    case 'message': return typeof v.role === 'string' && Array.isArray(v.content);
    case 'reasoning': return Array.isArray(v.summary);
    case 'function_call': return typeof v.name === 'string' && (typeof v.call_id === 'string' || typeof v.arguments === 'string');
    case 'function_call_output':
    case 'custom_tool_call_output': return typeof v.call_id === 'string' && 'output' in v;
    case 'custom_tool_call': return typeof v.name === 'string' && typeof v.input === 'string';
    case 'local_shell_call': return isObj(v.action);
  }
  return false;
}

interface Tally {
  envelope: number;
  metaFirst: boolean;
  exec: number;
  threadStarted: boolean;
  bare: number;
  legacyHead: boolean;
  other: number;
}

function tally(values: unknown[]): Tally {
  const t: Tally = { envelope: 0, metaFirst: false, exec: 0, threadStarted: false, bare: 0, legacyHead: false, other: 0 };
  values.forEach((v, i) => {
    if (!isObj(v)) return;
    const type = v.type;
    if (typeof type === 'string' && ENVELOPE_TYPES.has(type) && isObj(v.payload)) {
      t.envelope++;
      if (i === 0 && type === 'session_meta') t.metaFirst = true;
    } else if (typeof type === 'string' && EXEC_TYPES.has(type)) {
      t.exec++;
      if (type === 'thread.started') t.threadStarted = true;
    } else if (isObj(v.msg) && typeof v.msg.type === 'string' && typeof v.id === 'string') {
      t.exec++; // pre-0.44 exec --json: {id, msg: {type, …}}
    } else if (isBareItem(v) || v.record_type === 'state') t.bare++;
    else if (i === 0 && isLegacyHead(v)) t.legacyHead = true;
    else t.other++;
  });
  return t;
}

/** Unrecognised lines among the sample lower the confidence (but a mixed log is still Codex). */
function scaled(score: number, hits: number, other: number): number {
  return other > hits ? Math.round(score * 70) / 100 : score;
}

export function detectCodex(sample: DetectSample): Detection | null {
  // the TUI's tracing log: text, most of its lines Codex's own trace events
  const traced = sample.lines.filter(isCodexTraceLine).length;
  if (traced >= 2 && traced * 2 >= sample.lines.filter((l) => l.trim() !== '').length) return { format: 'codex-tui-log', score: 0.95 };
  // the prompt history: every line a {session_id, ts, text} entry
  const objects = sample.values.filter(isObj);
  if (objects.length > 0 && objects.every(isHistoryEntry) && objects.length * 2 >= sample.lines.length) return { format: 'codex-history', score: 0.9 };
  const array = detectJsonArray(sample);
  if (array) return array;
  const t = tally(sample.values);
  if (t.envelope > 0 && t.envelope >= t.exec && t.envelope >= t.bare) {
    const score = t.metaFirst ? 0.99 : t.envelope >= 3 ? 0.95 : 0.85;
    return { format: 'codex-rollout', score: scaled(score, t.envelope, t.other) };
  }
  if (t.exec > 0 && t.exec >= t.bare) {
    const score = t.threadStarted || t.exec >= 2 ? 0.95 : 0.8;
    return { format: 'codex-exec-json', score: scaled(score, t.exec, t.other) };
  }
  if (t.bare > 0 || t.legacyHead) {
    // A huge first line (instructions) can fill the whole sample: the head alone still says Codex.
    const score = t.legacyHead && t.bare > 0 ? 0.97 : t.bare >= 3 ? 0.85 : t.legacyHead ? 0.75 : 0.6;
    return { format: 'codex-legacy', score: scaled(score, t.bare + (t.legacyHead ? 1 : 0), t.other) };
  }
  return null;
}

/** A pretty-printed rollout record's own keys: an envelope type, then its payload object. */
const ENVELOPE_KEY = new RegExp(String.raw`^\s*"type"\s*:\s*"(?:${[...ENVELOPE_TYPES].join('|')})"`, 'm');
const PAYLOAD_KEY = /^\s*"payload"\s*:\s*\{/m;

/**
 * A rollout saved as one JSON array (codex-json): the first line is "[" with the records
 * pretty-printed after it, or the whole array on one line, whose elements are rollout envelopes.
 */
function detectJsonArray(sample: DetectSample): Detection | null {
  const at = sample.lines.findIndex((l) => l.trim() !== '');
  const head = at < 0 ? '' : sample.lines[at]!.trim();
  if (!head.startsWith('[')) return null;
  const first = sample.values[at];
  if (Array.isArray(first)) {
    const t = tally(first);
    return t.envelope > 0 && t.envelope >= t.exec && t.envelope >= t.bare ? { format: 'codex-json', score: scaled(0.95, t.envelope, t.other) } : null;
  }
  if (head !== '[') return null;
  // one compact element a line (`{"timestamp":…,"type":"session_meta",…},`)
  const compact = sample.lines.slice(at + 1).map((l) => tryJson(l.trim().replace(/,$/, ''))).filter((v) => v !== undefined);
  if (compact.length > 0) {
    const t = tally(compact);
    if (t.envelope > 0 && t.envelope >= t.exec && t.envelope >= t.bare) return { format: 'codex-json', score: scaled(0.95, t.envelope, t.other) };
  }
  const raw = sample.lines.join('\n');
  return ENVELOPE_KEY.test(raw) && PAYLOAD_KEY.test(raw) ? { format: 'codex-json', score: 0.9 } : null;
}
