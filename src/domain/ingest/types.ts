// The contract between format detection and the parser families.
import type { FormatId, LogParser } from '../model/events.ts';

/** The first non-empty lines of a log (at most 50 lines / 64 KiB), as text and as parsed JSON. */
export interface DetectSample {
  lines: string[];
  /** JSON.parse(lines[i]), or undefined when the line is not valid JSON. */
  values: unknown[];
}

export interface Detection {
  format: FormatId;
  /** 0..1: how sure the family is. ≥ 0.9 means "unmistakable"; the agent hint only breaks ties below that. */
  score: number;
}

/** What each parser family module exports (claude-code.ts, codex.ts, gemini.ts, plain-text.ts). */
export interface ParserFamily {
  detect(sample: DetectSample): Detection | null;
  create(format: FormatId): LogParser;
}
