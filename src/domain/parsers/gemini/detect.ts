// Recognising the Gemini CLI forms from the first lines of a log. Claude Code records
// (`uuid`, `message`, `sessionId` with a `type`) and Codex records (`payload`, `item`, `thread_id`)
// are never claimed.
import type { Detection, DetectSample } from '../../ingest/types.ts';
import { isObj, obj, type Obj } from '../shared/values.ts';
import { FRONT_MATTER_MAX_LINES, SHARE_HEADING } from './markdown-share.ts';
import { sessionIdOf } from './prompt-log.ts';

const MESSAGE_TYPES = new Set(['user', 'gemini', 'info', 'error', 'warning']);
const STREAM_TYPES = new Set(['init', 'message', 'tool_use', 'tool_result', 'error', 'result']);

export function detectGemini(sample: DetectSample): Detection | null {
  return detectDocument(sample) ?? detectPromptLog(sample) ?? detectHistory(sample) ?? detectJsonl(sample) ?? detectStream(sample) ?? detectMarkdownShare(sample);
}

/**
 * `/chat share file.md`: the history as Markdown, opening with a "## USER 🧑‍💻" heading. The CLI's
 * preamble ("This is the Gemini CLI"), a tool block or a second turn after the "---" between turns
 * make it unmistakable.
 */
function detectMarkdownShare(sample: DetectSample): Detection | null {
  const first = afterFrontMatter(sample.lines).find((l) => l.trim() !== '');
  if (first === undefined || !SHARE_HEADING.test(first)) return null;
  const body = sample.lines.join('\n');
  const sure = /This is the Gemini CLI|^\*\*Tool (?:Command|Response)\*\*:$|\n---\n\n(?:## (?:USER|MODEL) |(?:🧑\u200d?💻|✨) ## (?:USER|MODEL))/mu.test(body);
  return { format: 'gemini-markdown', score: sure ? 0.95 : 0.8 };
}

/**
 * The lines after a YAML front matter block ("---" … "---" or "...") that heads a Markdown file:
 * people keep exports in note vaults and static sites (Obsidian, Jekyll), which add one above the
 * export's first heading. Lines with no such block are returned as they are.
 */
function afterFrontMatter(lines: readonly string[]): readonly string[] {
  const start = lines.findIndex((l) => l.trim() !== '');
  if (start === -1 || lines[start]!.trimEnd() !== '---') return lines;
  const end = lines.slice(start + 1, start + 1 + FRONT_MATTER_MAX_LINES).findIndex((l) => l.trimEnd() === '---' || l.trimEnd() === '...');
  return end === -1 ? lines : lines.slice(start + end + 2);
}

/**
 * The prompt log `logs.json`: a JSON array (pretty-printed, first line "[") of
 * `{sessionId, messageId, type, message, timestamp}`. The five keys together are Gemini CLI's
 * logger's own; Claude Code's records carry `uuid` and an object `message`.
 */
function detectPromptLog(sample: DetectSample): Detection | null {
  const first = sample.values[0];
  if (Array.isArray(first)) {
    const e = obj(first[0]);
    return e && sessionIdOf(e.sessionId) !== null && typeof e.messageId === 'number' && typeof e.message === 'string' && !('uuid' in e) ? { format: 'gemini-logs', score: 0.9 } : null;
  }
  const head = sample.lines[0]?.trim() ?? '';
  if (head !== '[') return null;
  const raw = sample.lines.join('\n');
  const keys = [/"sessionId"\s*:\s*(?:"|\d)/, /"messageId"\s*:\s*\d/, /"type"\s*:\s*"user"/, /"message"\s*:\s*"/];
  if (!keys.every((k) => k.test(raw)) || /"uuid"\s*:/.test(raw)) return null;
  return { format: 'gemini-logs', score: /"timestamp"\s*:\s*"/.test(raw) ? 0.9 : 0.75 };
}

/**
 * A Gemini API conversation history (`Content[]`): a JSON array of `{role: "user"|"model",
 * parts: [...]}`, pretty-printed (first line "[") or on one line, bare or as the `history` of a
 * `/chat save` checkpoint. `role: "model"` and `parts`
 * are the Gemini API's own spelling (OpenAI and Anthropic say "assistant" and "content").
 */
function detectHistory(sample: DetectSample): Detection | null {
  const first = sample.values[0];
  const wrapper = obj(first);
  const history = Array.isArray(first) ? first : wrapper && Array.isArray(wrapper.history) ? wrapper.history as unknown[] : wrapper && isObj(wrapper.error) && Array.isArray(wrapper.context) ? wrapper.context as unknown[] : undefined;
  if (history) {
    const entry = obj(history[0]);
    return entry && (entry.role === 'user' || entry.role === 'model') && Array.isArray(entry.parts) ? { format: 'gemini-history', score: 0.9 } : null;
  }
  const head = sample.lines[0]?.trim() ?? '';
  const raw = sample.lines.join('\n');
  // A `/chat save` checkpoint of newer builds wraps the history: {"history": [...], "authType": …};
  // an error report wraps the conversation it was sending: {"error": {…}, "context": [...]}.
  const wrapped = head === '{' && (/"history"\s*:\s*\[/.test(raw) || (/^[ \t]*"error"\s*:\s*\{/m.test(raw) && /"context"\s*:\s*\[/.test(raw))) && !/"sessionId"\s*:/.test(raw);
  if (head !== '[' && !head.startsWith('[{') && !wrapped) return null;
  if (!/"role"\s*:\s*"(?:user|model)"/.test(raw) || !/"parts"\s*:\s*\[/.test(raw)) return null;
  // The CLI's own preamble, or a model turn, makes it unmistakable; a bare user turn is likely.
  return /"role"\s*:\s*"model"|<session_context>|This is the Gemini CLI/.test(raw) ? { format: 'gemini-history', score: 0.9 } : { format: 'gemini-history', score: 0.7 };
}

/** Session metadata: `{sessionId, projectHash, startTime, …}` with no record `type`. */
function isMetadata(v: Obj): boolean {
  return typeof v.sessionId === 'string' && (typeof v.projectHash === 'string' || typeof v.startTime === 'string')
    && !('type' in v) && !('uuid' in v) && !('payload' in v);
}

/** A MessageRecord: `{id, timestamp, type, content}` (Claude's have uuid/message, Codex's payload). */
function isMessageRecord(v: Obj): boolean {
  return typeof v.id === 'string' && MESSAGE_TYPES.has(v.type as string) && 'content' in v
    && !('uuid' in v) && !('message' in v) && !('sessionId' in v) && !('payload' in v);
}

function isPatch(v: Obj): boolean {
  return isObj(v.$set) || typeof v.$rewindTo === 'string';
}

function detectJsonl(sample: DetectSample): Detection | null {
  const first = obj(sample.values[0]);
  if (first && (isMetadata(first) || isPatch(first))) return { format: 'gemini-jsonl', score: 0.95 };
  // Without its first line (a cut or concatenated upload), message records still say Gemini.
  let messages = 0;
  let gemini = 0;
  for (const raw of sample.values) {
    const v = obj(raw);
    if (!v) continue;
    if (isPatch(v)) gemini++;
    else if (isMessageRecord(v)) {
      messages++;
      if (v.type === 'gemini' || Array.isArray(v.toolCalls)) gemini++;
    }
  }
  if (gemini > 0) return { format: 'gemini-jsonl', score: 0.85 };
  return messages > 0 ? { format: 'gemini-jsonl', score: 0.6 } : null;
}

/**
 * The legacy document is pretty-printed: its first line is "{" (not JSON on its own), and the
 * keys show up in the raw text. Users rename these files, so the extension says nothing.
 */
function detectDocument(sample: DetectSample): Detection | null {
  const head = sample.lines[0]?.trimStart() ?? '';
  if (!head.startsWith('{') || sample.values[0] !== undefined) return null;
  const raw = sample.lines.join('\n');
  if (!/"sessionId"\s*:/.test(raw)) return null;
  return /"(?:projectHash|messages)"\s*:/.test(raw) ? { format: 'gemini-json', score: 0.9 } : null;
}

function detectStream(sample: DetectSample): Detection | null {
  let strong = 0;
  let weak = 0;
  for (const raw of sample.values) {
    const v = obj(raw);
    if (!v || !STREAM_TYPES.has(v.type as string) || 'subtype' in v || ('message' in v && v.type !== 'error')) continue;
    if (v.type === 'init' && (typeof v.session_id === 'string' || typeof v.model === 'string')) strong++;
    else if (v.type === 'tool_use' && typeof v.tool_name === 'string' && 'tool_id' in v) strong++;
    else if (v.type === 'tool_result' && 'tool_id' in v && 'status' in v) strong++;
    else if (v.type === 'message' && (v.role === 'user' || v.role === 'assistant') && typeof v.content === 'string') weak++;
  }
  if (strong > 0) return { format: 'gemini-stream-json', score: 0.95 };
  return weak > 0 ? { format: 'gemini-stream-json', score: 0.6 } : null;
}
