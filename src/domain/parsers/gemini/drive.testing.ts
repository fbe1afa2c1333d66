// Test support (no I/O): a minimal stand-in for the analyser's ingest loop, so parser specs can
// feed a whole log as text the way analyze.ts will — detect on a sample, then record()/text().
import type { EventSink, FormatId, NormEvent } from '../../model/events.ts';
import type { DetectSample, Detection, ParserFamily } from '../../ingest/types.ts';

export interface Driven {
  detection: Detection | null;
  events: NormEvent[];
  skips: { line: number; reason: string }[];
  missing: { id: string; line: number }[];
  /** Records of unknown types that hold no action: (line, type). */
  metadata: { line: number; type: string }[];
  /** What the parser said of tool calls the file does not record (turns, first line), if anything. */
  toolsNotRecorded: { turns: number; line: number } | null;
  /** The line a terminal parser found the capture re-wrapped from, or null. */
  rewrapped: number | null;
  subagentsNotRecorded: { runs: number; calls: number; line: number } | null;
}

export function sampleOf(content: string): DetectSample {
  const lines: string[] = [];
  let bytes = 0;
  for (const line of content.split('\n')) {
    if (!line.trim()) continue;
    if (lines.length >= 50 || bytes + line.length > 64 * 1024) break;
    lines.push(line.replace(/\r$/, ''));
    bytes += line.length + 1;
  }
  return { lines, values: lines.map(tryJson) };
}

function tryJson(line: string): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch {
    return undefined;
  }
}

/** Detect with `family` (or use `format`), then parse every line as the analyser does. */
export function drive(family: ParserFamily, content: string, format?: FormatId): Driven {
  const detection = family.detect(sampleOf(content));
  const out: Driven = { detection, events: [], skips: [], missing: [], metadata: [], toolsNotRecorded: null, rewrapped: null, subagentsNotRecorded: null };
  const chosen = format ?? detection?.format;
  if (!chosen) return out;
  const sink: EventSink = {
    emit: (e) => out.events.push(e),
    skip: (line, reason) => out.skips.push({ line, reason }),
    missingSubagent: (id, line) => out.missing.push({ id, line }),
    unknownMetadata: (line, type) => out.metadata.push({ line, type }),
    subagentsNotRecorded: (runs, calls, line) => {
      out.subagentsNotRecorded = { runs, calls, line };
    },
    rewrapped: (line) => {
      out.rewrapped ??= line;
    },
    toolsNotRecorded: (turns, line) => {
      out.toolsNotRecorded = { turns, line };
    },
  };
  const parser = family.create(chosen);
  const lines = content.split('\n');
  if (lines.at(-1) === '') lines.pop();
  lines.forEach((raw, i) => {
    const line = raw.replace(/\r$/, '');
    if (parser.text) return parser.text(line, i + 1, sink);
    if (!line.trim()) return;
    const value = tryJson(line);
    if (value === undefined) sink.skip(i + 1, 'invalid JSON');
    else parser.record?.(value, i + 1, sink);
  });
  parser.end(sink);
  return out;
}

export { ofKind, countKinds } from '../event-queries.testing.ts';
