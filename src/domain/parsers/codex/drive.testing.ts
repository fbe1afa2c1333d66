// Test support for the Codex specs (pure; specs do the file reading): feeds a log's text through
// detection and the parser the way the analyser does — first lines as a sample, then one
// JSON.parse per line — and collects events, skips and missing sub-agents.
import type { EventSink, FormatId, NormEvent } from '../../model/events.ts';
import type { DetectSample, Detection } from '../../ingest/types.ts';
import { codex } from '../codex.ts';

export interface Run {
  detection: Detection | null;
  events: NormEvent[];
  skips: { line: number; reason: string }[];
  missing: string[];
  /** Records of unknown types that hold no action: (line, type). */
  metadata: { line: number; type: string }[];
}

function parseLine(line: string): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch {
    return undefined;
  }
}

export function sample(text: string): DetectSample {
  const lines = text.split('\n').map((l) => l.replace(/\r$/, '')).filter((l) => l.trim() !== '').slice(0, 50);
  return { lines, values: lines.map(parseLine) };
}

export function jsonl(...records: unknown[]): string {
  return records.map((r) => JSON.stringify(r)).join('\n') + '\n';
}

/** Parses `text` as `format`, or as whatever the Codex family detects (rollout if nothing). */
export function run(text: string, format?: FormatId): Run {
  const detection = codex.detect(sample(text));
  const out: Run = { detection, events: [], skips: [], missing: [], metadata: [] };
  const sink: EventSink = {
    emit: (e) => out.events.push(e),
    skip: (line, reason) => out.skips.push({ line, reason }),
    missingSubagent: (id) => out.missing.push(id),
    unknownMetadata: (line, type) => out.metadata.push({ line, type }),
  };
  const parser = codex.create(format ?? detection?.format ?? 'codex-rollout');
  text.split('\n').forEach((raw, i) => {
    if (raw.trim() === '') return;
    // a whole-document format (codex-json) reads its lines as text, as the analyser hands them over
    if (parser.text) return parser.text(raw.replace(/\r$/, ''), i + 1, sink);
    const value = parseLine(raw.replace(/\r$/, ''));
    if (value === undefined) sink.skip(i + 1, 'invalid JSON');
    else parser.record?.(value, i + 1, sink);
  });
  parser.end(sink);
  return out;
}

export { ofKind, countKinds } from '../event-queries.testing.ts';

/** Envelope helper for rollout records. */
export function env(type: string, payload: unknown, timestamp = '2026-01-01T00:00:00.000Z'): unknown {
  return { timestamp, type, payload };
}
