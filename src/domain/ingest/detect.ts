// Format detection: every parser family looks at the first lines and says how sure it is.
// The content decides; the uploader's agent hint only breaks ties between unsure candidates.
import { FORMAT_AGENT, type AgentId } from '../agents.ts';
import type { FormatId } from '../model/events.ts';
import type { DetectSample, Detection, ParserFamily } from './types.ts';

export const SAMPLE_MAX_LINES = 50;
export const SAMPLE_MAX_BYTES = 64 * 1024;
/**
 * Text nobody claimed in its first lines is sampled further before it is called plain text: a
 * terminal capture can open with whatever was on the screen (a diff, a pasted file) before the
 * agent's first marker. The byte cap still bounds the sample.
 */
export const TEXT_SAMPLE_MAX_LINES = 1_000;
/** At or above this score a detection is unmistakable and a contradicting hint is overruled. */
const CERTAIN = 0.9;

export interface DetectResult {
  format: FormatId;
  agent: AgentId | null;
  /** The agent came from the content (true) or from the hint (false). */
  agentDetected: boolean;
  /** The hint named another agent than the content clearly shows. */
  hintConflict: boolean;
}

export function detectFormat(sample: DetectSample, families: ParserFamily[], hint: AgentId | null): DetectResult {
  const candidates = families
    .map((f) => safeDetect(f, sample))
    .filter((d): d is Detection => d !== null && d.score > 0)
    .sort((a, b) => b.score - a.score);
  const best = candidates[0];
  const agentOf = (d: Detection) => FORMAT_AGENT[d.format];
  if (!best || agentOf(best) === null) {
    // Plain text: no agent can be read from the content, so the hint is taken as given.
    return { format: 'plain-text', agent: hint, agentDetected: false, hintConflict: false };
  }
  if (!hint || agentOf(best) === hint) {
    return { format: best.format, agent: agentOf(best), agentDetected: true, hintConflict: false };
  }
  if (best.score < CERTAIN) {
    const hinted = candidates.find((d) => agentOf(d) === hint && best.score - d.score < 0.3);
    if (hinted) return { format: hinted.format, agent: hint, agentDetected: false, hintConflict: false };
  }
  return { format: best.format, agent: agentOf(best), agentDetected: true, hintConflict: true };
}

/** A family that throws on odd input simply does not claim the log. */
function safeDetect(family: ParserFamily, sample: DetectSample): Detection | null {
  try {
    return family.detect(sample);
  } catch {
    return null;
  }
}

/**
 * Another coding agent's session that no parser reads, by markers only that agent writes: an
 * OpenCode export (`"id": "ses_…"` with `"projectID"`) or its records (`"agent":"opencode"`), the
 * oh-my-opencode plugin's transcript (`{"type":"tool_use","timestamp":…,"tool_name":…}`), an
 * Aider chat history (`# aider chat started at`), a Cline task (`"say": "api_req_started"`). So a
 * report can say what the file is rather than only that it was not read.
 */
export function foreignAgentOf(lines: readonly string[]): string | null {
  const head = lines.slice(0, FOREIGN_SAMPLE_LINES).join('\n').slice(0, FOREIGN_SAMPLE_CHARS);
  for (const [agent, marker] of FOREIGN_AGENTS) if (marker.test(head)) return agent;
  return null;
}
const FOREIGN_SAMPLE_LINES = 200;
const FOREIGN_SAMPLE_CHARS = 64 * 1024;
const FOREIGN_AGENTS: ReadonlyArray<[string, RegExp]> = [
  ['OpenCode', /"agent"\s*:\s*"opencode"|"id"\s*:\s*"ses_[A-Za-z0-9]{8,}"[\s\S]{0,400}"projectID"\s*:/],
  // the transcript the oh-my-opencode plugin's hook writes: one flat record per tool call and result
  ['OpenCode (the oh-my-opencode transcript hook)', /^\{"type":"tool_use","timestamp":"[^"\n]{10,40}","tool_name":"[^"\n]+","tool_input":/m],
  ['Aider', /^# aider chat started at \d{4}-\d{2}-\d{2}/m],
  ['Cline', /"say"\s*:\s*"api_req_started"/],
];
