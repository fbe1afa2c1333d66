// The parser families, in the order detection asks them: one per agent (in the registry's order),
// then the agents' terminal output, then plain text last: it claims anything.
import { AGENT_IDS, FORMAT_AGENT, TERMINAL_FORMATS, type AgentId } from '../agents.ts';
import type { FormatId } from '../model/events.ts';
import type { ParserFamily } from '../ingest/types.ts';
import { claudeCode } from './claude-code.ts';
import { codex } from './codex.ts';
import { gemini } from './gemini.ts';
import { plainText } from './plain-text.ts';
import { terminal } from './terminal/index.ts';

/** Each agent's parser family: a new agent in the registry needs its entry here. */
export const PARSERS: Readonly<Record<AgentId, ParserFamily>> = { 'claude-code': claudeCode, codex, 'gemini-cli': gemini };

export const FAMILIES: ParserFamily[] = [...AGENT_IDS.map((a) => PARSERS[a]), terminal, plainText];

export function familyFor(format: FormatId): ParserFamily {
  // The agents' terminal output has its own family, whatever the agent.
  if (TERMINAL_FORMATS.includes(format)) return terminal;
  const agent = FORMAT_AGENT[format];
  return agent ? PARSERS[agent] : plainText;
}
