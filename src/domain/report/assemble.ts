// Puts the report object together from what the analyser collected, scores it, writes the
// narrative, and runs the final masking pass: no secret detected anywhere in the log may
// appear unmasked anywhere in the report.
import { PROMPTS_ONLY_FORMATS, agentLabel } from '../agents.ts';
import type { Report } from '../model/report.ts';
import type { IncompleteRun, IngestFacts } from '../rules/types.ts';
import { ACTIONS_NOT_IN_LOG } from '../rules/coverage.ts';
import type { DetectResult } from '../ingest/detect.ts';
import type { CollectedFinding } from './findings.ts';
import type { Tally } from './tally.ts';
import type { TimelineBuilder } from './timeline.ts';
import { fragmentMasker, knownMasker } from '../secrets/mask.ts';
import { outcomeOf, trustScore } from '../scoring/score.ts';
import { writeNarrative } from './narrative.ts';
import { ANALYZER_VERSION } from '../version.ts';

export interface AssembleInput {
  detection: DetectResult;
  ingest: IngestFacts;
  tally: Tally;
  timeline: TimelineBuilder;
  findings: CollectedFinding[];
  knownSecrets: Set<string>;
  omittedTimeline: number;
  incomplete: IncompleteRun | null;
  /** Runs found in the file (1 unless several were appended). */
  runs: number;
}

export function assembleReport(input: AssembleInput): Report {
  const { detection, ingest, tally, findings } = input;
  const files = tally.filesTouched(); // settles the changes still waiting for a result first
  const stats = { ...tally.stats, skipped_lines: ingest.skippedLines, lines: ingest.totalLines, timeline_omitted: input.omittedTimeline, runs: input.runs };
  const score = trustScore(findings);
  const actionsSeen = !PROMPTS_ONLY_FORMATS.has(detection.format) && !findings.some((f) => ACTIONS_NOT_IN_LOG.includes(f.rule));
  const outcome = outcomeOf(score, findings, { actionsSeen });
  const h = tally.header;
  // Runs appended in one file are timed one by one: the gap between them is not session time.
  const durationMs = tally.activeDurationMs();
  const publicFindings = findings.map(({ occurrences: _o, weight: _w, ...f }) => f);
  // A log that ends on its own export is complete: that call's result can never be in it.
  const cutOff = input.incomplete && input.incomplete.kind !== 'own-export' ? { ...input.incomplete, kind: input.incomplete.kind } : null;
  const narrative = writeNarrative({
    outcome, score, findings: publicFindings, stats,
    agentLabel: detection.agent ? agentLabel(detection.agent) : 'The agent',
    models: h.models, durationMs, lowConfidence: ingest.lowConfidence, incomplete: cutOff?.reason ?? null,
  });
  const report: Report = {
    session_id: null,
    report_id: null,
    status: 'complete',
    analyzer_version: ANALYZER_VERSION,
    agent: detection.agent,
    agent_detected: detection.agentDetected,
    format: detection.format,
    confidence: ingest.lowConfidence ? 'low' : 'high',
    repo: null,
    branch: h.branch,
    cwd: h.cwd,
    models: h.models,
    agent_version: h.agentVersion,
    started_at: h.startedAt,
    ended_at: h.endedAt,
    duration_ms: durationMs,
    incomplete: cutOff ? { reason: cutOff.kind, detail: cutOff.reason } : null,
    trust_score: score,
    outcome,
    ...narrative,
    findings_count: countBySeverity(publicFindings),
    findings: publicFindings,
    timeline: input.timeline.finish(),
    stats,
    files,
    commands: tally.commandList(),
  };
  return input.knownSecrets.size > 0 ? maskDeep(report, input.knownSecrets) : report;
}

function countBySeverity(findings: { severity: 'critical' | 'warning' | 'info' }[]) {
  const c = { critical: 0, warning: 0, info: 0 };
  for (const f of findings) c[f.severity]++;
  return c;
}

/**
 * Replace every known secret literal in every string of the object (a fresh copy), and what a
 * cut left of one (an excerpt clipped in the middle of a secret detected elsewhere in the session).
 */
const TIME_KEYS = new Set(['at', 'started_at', 'ended_at']);

function maskDeep<T>(value: T, secrets: Set<string>): T {
  const fragments = fragmentMasker(secrets);
  // The masker of the known values built once for the whole report, not looked up per string.
  const known = knownMasker(secrets);
  // Timestamps are written by the analyser, never by the log's text: a short sudo password "2026"
  // must not turn every `at` into "2…-01-02T…" (longer values are still masked there).
  const knownInTimes = knownMasker(secrets, { words: false });
  const walk = (v: unknown, key = ''): unknown => {
    if (typeof v === 'string') return fragments(TIME_KEYS.has(key) ? knownInTimes(v) : known(v));
    if (Array.isArray(v)) return v.map((x) => walk(x));
    if (v && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) out[k] = walk(x, k);
      return out;
    }
    return v;
  };
  return walk(value) as T;
}
