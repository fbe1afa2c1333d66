// Gemini CLI's prompt log, `~/.gemini/tmp/<project hash>/logs.json`: what the person typed, one
// entry per message, across every session of the project (packages/core logger.ts):
//   [{"sessionId": "…", "messageId": 0, "type": "user", "message": "fix the build", "timestamp": "2025-…Z"}, …]
// Only the prompts: no reply, no tool call, no file change is in it (those are in the chat
// recordings, chats/session-*.json[l]). The report says so (coverage/prompts-only) and does not
// vouch for actions it never saw. The document is read whole by GeminiDocumentParser.
import type { EventSink } from '../../model/events.ts';
import { RUN_START } from '../../model/runs.ts';
import { obj } from '../shared/values.ts';

/** True when `doc` is the prompt log: an array whose entries carry a sessionId, a messageId and a message. */
export function isPromptLog(doc: unknown): doc is unknown[] {
  if (!Array.isArray(doc) || doc.length === 0) return false;
  const first = obj(doc[0]);
  return first !== undefined && isEntryShape(first);
}

function isEntryShape(e: Record<string, unknown>): boolean {
  return sessionIdOf(e.sessionId) !== null && typeof e.messageId === 'number' && typeof e.message === 'string' && typeof e.type === 'string';
}

/**
 * The entry's session id: a string, or in the first releases (May 2025) a number — the session's
 * start in seconds (`"sessionId": 1748393130`).
 */
export function sessionIdOf(value: unknown): string | null {
  if (typeof value === 'string') return value;
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? String(value) : null;
}

/**
 * One prompt event per user entry (in the file's order, which is the order they were typed);
 * a new sessionId starts a new run, as a second session appended to a recording does.
 */
export function emitPromptLog(doc: unknown[], lineOf: (i: number) => number, sink: EventSink): void {
  let session: string | null = null;
  doc.forEach((raw, i) => {
    const line = lineOf(i);
    const e = obj(raw);
    if (!e || !isEntryShape(e)) return sink.skip(line, 'Gemini logs.json entry without sessionId, messageId and message');
    const at = typeof e.timestamp === 'string' && !Number.isNaN(Date.parse(e.timestamp)) ? e.timestamp : null;
    const id = sessionIdOf(e.sessionId)!;
    if (id !== session) {
      if (session !== null) sink.emit({ kind: 'system', index: -1, line, at, subtype: RUN_START, text: `session ${id.slice(0, 80)}` });
      session = id;
      sink.emit({ kind: 'session_meta', index: -1, line, at, sessionId: id });
    }
    if (e.type === 'user') sink.emit({ kind: 'prompt', index: -1, line, at, text: e.message as string });
    else sink.emit({ kind: 'system', index: -1, line, at, subtype: 'info', text: `${String(e.type).slice(0, 40)}: ${e.message as string}` });
  });
}

/** A logs.json cut off mid-entry: the complete entries before the cut ("\n  }" closes each). */
export function salvagePromptLog(body: string): unknown {
  let at = body.lastIndexOf('\n  }');
  for (let attempt = 0; attempt < 3 && at > 0; attempt++) {
    try {
      return JSON.parse(body.slice(0, at + 4) + '\n]') as unknown;
    } catch {
      at = body.lastIndexOf('\n  }', at - 1);
    }
  }
  return undefined;
}
