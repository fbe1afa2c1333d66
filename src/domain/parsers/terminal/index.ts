// The agents' own terminal output as a log: Claude Code's TUI transcript, Gemini CLI's TUI
// capture, Codex's TUI capture and `codex exec`'s human-readable output. One family, four dialects; all read by
// heuristics from text meant for a human, so the analyser marks them lower confidence.
import type { FormatId, LogParser } from '../../model/events.ts';
import type { ParserFamily } from '../../ingest/types.ts';
import { detectTerminal } from './detect.ts';
import { ClaudeTuiParser } from './claude-tui.ts';
import { GeminiTuiParser } from './gemini-tui.ts';
import { CodexExecTextParser } from './codex-exec.ts';
import { CodexTuiParser } from './codex-tui.ts';

export const terminal: ParserFamily = {
  detect: detectTerminal,
  create(format: FormatId): LogParser {
    switch (format) {
      case 'claude-code-tui':
        return new ClaudeTuiParser();
      case 'gemini-cli-tui':
        return new GeminiTuiParser();
      case 'codex-exec-text':
        return new CodexExecTextParser();
      case 'codex-tui':
        return new CodexTuiParser();
      default:
        throw new RangeError(`the terminal parser family does not handle ${format}`);
    }
  },
};
