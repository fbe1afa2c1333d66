// The Claude Code parser family: session transcripts (~/.claude/projects/<cwd>/<session>.jsonl and
// agent-*.jsonl subagent files) and `claude -p --output-format stream-json` output.
// Implementation in ./claude-code/: detect.ts (format votes), parser.ts (records → events).
import type { FormatId, LogParser } from '../model/events.ts';
import type { ParserFamily } from '../ingest/types.ts';
import { detectClaudeCode } from './claude-code/detect.ts';
import { ClaudeCodeParser } from './claude-code/parser.ts';
import { ClaudeCodeDocumentParser } from './claude-code/document.ts';

export { detectClaudeCode } from './claude-code/detect.ts';
export { ClaudeCodeParser } from './claude-code/parser.ts';

export const claudeCode: ParserFamily = {
  detect: detectClaudeCode,
  create(format: FormatId): LogParser {
    if (format === 'claude-code-json' || format === 'claude-code-hooks') return new ClaudeCodeDocumentParser(format);
    // The JSONL forms share one parser; an unrelated format id is a caller bug, read as a transcript.
    const own = format === 'claude-code-stream-json' ? format : 'claude-code-transcript';
    return new ClaudeCodeParser(own);
  },
};
