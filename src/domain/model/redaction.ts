// Marks an editor (a person, an exporter) leaves where a tool call's arguments or output were
// before sharing a log: Codex exports write `{"redacted": true, "message": "Function call
// arguments removed"}` and "Function output removed"; people write "[REDACTED]". What was there is
// not in the log: it cannot be judged, and two removed calls are not the same call.
import type { ToolInput } from './events.ts';

const REMOVED_OUTPUT = /^\s*(?:function (?:call )?output removed|output removed|\[?redacted(?:[ _][a-z_ ]{0,30})?\]?|<redacted>)\s*\.?\s*$/i;
const REMOVED_COMMAND = /^\s*(?:\[redacted(?:[ _][a-z_ ]{0,30})?\]|<redacted>|redacted)\s*$/i;

/** Whether a call's arguments were replaced by a redaction marker. */
export function inputRemoved(input: ToolInput): boolean {
  if (input.type === 'command') return REMOVED_COMMAND.test(input.command);
  if (input.type !== 'other') return false;
  const args = input.args as { redacted?: unknown } | null | undefined;
  return typeof args === 'object' && args !== null && args.redacted === true;
}

/** Whether a result's output is only a redaction marker. */
export function outputRemoved(output: string): boolean {
  return output.length < 200 && REMOVED_OUTPUT.test(output);
}
