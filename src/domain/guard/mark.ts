// The words every guard denial starts with. The agent hands the reason back as the refused
// call's result (Claude Code and Codex as the tool's error, Gemini CLI as the tool's error sent to
// the model), so the analyser recognises a call the guard prevented by them in the log itself.
import type { ToolResultEvent } from '../model/events.ts';

export const GUARD_DENIAL_MARK = 'Vouch guard denied this';

/** Whether the result is the guard's denial (the mark near its start, after any agent prefix). */
export function isGuardDenial(result: ToolResultEvent): boolean {
  const at = result.output.indexOf(GUARD_DENIAL_MARK);
  return at >= 0 && at < 500;
}
