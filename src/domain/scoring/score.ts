// Trust score and outcome (PRODUCT.md §4).
//
// The formula, in words: start at 100. Every finding costs a base penalty for its severity —
// critical 35, warning 10, info 0 (info is context, not doubt) — times its rule's weight, plus
// 5 % per additional occurrence merged into it (at most +50 %). Penalties are sorted, largest
// first, and the k-th one (k = 0, 1, 2 …) counts with a factor of 0.75^k: diminishing returns, so
// twenty small warnings do not outweigh one real problem, yet each finding still lowers the score.
// The score is rounded and clamped to 0..100.
//
// Outcome: Blocked if any critical finding or score < 50; Review if any warning, score < 80, or
// a log that records none of the agent's actions (prompts only); else Clear. One critical finding alone leaves 65 — Blocked by the first rule, not by the score.
import type { Finding, Outcome, Severity } from '../model/report.ts';

export const BASE_PENALTY: Record<Severity, number> = { critical: 35, warning: 10, info: 0 };
export const OCCURRENCE_BONUS = 0.05;
export const OCCURRENCE_BONUS_MAX = 0.5;
export const DECAY = 0.75;

export interface Scored {
  severity: Severity;
  /** Rule weight (default 1). */
  weight?: number;
  /** How many occurrences were merged into the finding (default 1). */
  occurrences?: number;
}

export function findingPenalty(f: Scored): number {
  const extra = Math.min(OCCURRENCE_BONUS_MAX, OCCURRENCE_BONUS * Math.max(0, (f.occurrences ?? 1) - 1));
  return BASE_PENALTY[f.severity] * (f.weight ?? 1) * (1 + extra);
}

export function trustScore(findings: Scored[]): number {
  const penalties = findings.map(findingPenalty).filter((p) => p > 0).sort((a, b) => b - a);
  const total = penalties.reduce((sum, p, k) => sum + p * DECAY ** k, 0);
  return Math.max(0, Math.min(100, Math.round(100 - total)));
}

/** What the log can show: `actionsSeen: false` when it records prompts only (Gemini CLI's logs.json). */
export interface Evidence {
  actionsSeen: boolean;
}

/** A log with no record of the agent's actions is never Clear: Vouch does not vouch for what it did not read. */
export function outcomeOf(score: number, findings: Pick<Finding, 'severity'>[], evidence: Evidence = { actionsSeen: true }): Outcome {
  if (findings.some((f) => f.severity === 'critical') || score < 50) return 'Blocked';
  if (findings.some((f) => f.severity === 'warning') || score < 80 || !evidence.actionsSeen) return 'Review';
  return 'Clear';
}
