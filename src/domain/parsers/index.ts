// The parser families, in the order detection asks them. Plain text last: it claims anything.
import type { FormatId } from '../model/events.ts';
import type { ParserFamily } from '../ingest/types.ts';
import { FORMAT_AGENT } from '../ingest/detect.ts';
import { claudeCode } from './claude-code.ts';
import { codex } from './codex.ts';
import { gemini } from './gemini.ts';
import { plainText } from './plain-text.ts';
import { terminal, TERMINAL_FORMATS } from './terminal/index.ts';

export const FAMILIES: ParserFamily[] = [claudeCode, codex, gemini, terminal, plainText];

export function familyFor(format: FormatId): ParserFamily {
  // The agents' terminal output has its own family, whatever the agent.
  if (TERMINAL_FORMATS.includes(format)) return terminal;
  switch (FORMAT_AGENT[format]) {
    case 'claude-code':
      return claudeCode;
    case 'codex':
      return codex;
    case 'gemini-cli':
      return gemini;
    default:
      return plainText;
  }
}
