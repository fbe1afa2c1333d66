// The texts of an event that may carry a secret: what the analyser (and the rules' test helper)
// hand to secret detection. One list, so tests see exactly what production scans.
import type { NormEvent, ToolInput } from './model/events.ts';

export function textsOf(event: NormEvent): string[] {
  const one = onlyText(event);
  if (one !== undefined) return one === null ? [] : [one];
  return event.kind === 'tool_call' ? inputTexts(event.input) : [];
}

/**
 * The event's one text when it has exactly one (or null when it has none), undefined when it may
 * have several: the analyser's per-event path checks a single text without allocating a list.
 */
export function onlyText(event: NormEvent): string | null | undefined {
  switch (event.kind) {
    case 'prompt':
    case 'message':
    case 'thinking':
    case 'error':
    case 'system':
      return event.text;
    case 'tool_result':
      return event.output;
    case 'compaction':
      return event.summary ? event.summary : null;
    case 'tool_call':
      return event.input.type === 'command' ? event.input.command : undefined;
    case 'session_meta':
      // The git remote the agent recorded (Codex): a token in its URL is in every copy of the log.
      return event.repositoryUrl ?? null;
    default:
      return null;
  }
}

function inputTexts(i: ToolInput): string[] {
  switch (i.type) {
    case 'command':
      return [i.command];
    case 'file_write':
      return [i.path, i.content];
    case 'file_edit':
      return [i.path, ...i.edits.map((e) => e.newText)];
    case 'patch':
      return i.files.map((f) => f.added);
    case 'web_fetch':
      return [i.url, i.prompt ?? ''];
    case 'web_search':
      return [i.query];
    case 'subagent':
      return [i.prompt];
    case 'mcp':
    case 'other':
      return [stringifySafely(i.args)];
    default:
      return [];
  }
}

/** Arguments of unknown tools: any shape, possibly cyclic-looking or too deep to stringify. */
function stringifySafely(value: unknown): string {
  try {
    const s = JSON.stringify(value);
    return typeof s === 'string' ? s : '';
  } catch {
    return '';
  }
}
