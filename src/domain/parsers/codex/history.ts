// Codex CLI's prompt history (format codex-history: `~/.codex/history.jsonl`): one line per prompt
// the person typed, in every session, `{"session_id": "…", "ts": <unix seconds>, "text": "…"}`.
// Like Gemini CLI's logs.json it holds what the person typed and nothing of what the agent did;
// coverage/prompts-only says so, and such a file is never Clear.
import type { EventSink, LogParser } from '../../model/events.ts';
import { isObj, num, str } from '../shared/values.ts';

/** Is `value` one line of the history: exactly a session id, a time in seconds and the text? */
export function isHistoryEntry(value: unknown): boolean {
  if (!isObj(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 3 && typeof value.session_id === 'string' && typeof value.ts === 'number' && typeof value.text === 'string';
}

export class CodexHistoryParser implements LogParser {
  readonly format = 'codex-history' as const;
  readonly agent = 'codex' as const;
  private session: string | undefined;

  record(value: unknown, line: number, sink: EventSink): void {
    if (!isObj(value)) return sink.skip(line, 'not a Codex history entry');
    const text = str(value.text);
    if (text === undefined) return sink.skip(line, 'a Codex history entry without its text');
    const seconds = num(value.ts);
    const at = seconds !== undefined && Number.isFinite(seconds) && Math.abs(seconds) < 1e11 ? new Date(seconds * 1000).toISOString() : null;
    const session = str(value.session_id);
    if (session !== undefined && session !== this.session) {
      this.session = session;
      sink.emit({ kind: 'session_meta', index: -1, line, at, sessionId: session });
    }
    sink.emit({ kind: 'prompt', index: -1, line, at, text });
  }

  end(): void {}
}
