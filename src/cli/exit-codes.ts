// Exit codes shared by `vouch analyze` and `vouch upload --wait`: CI pipelines gate on them.
import type { Outcome, Report } from '../domain/model/report.ts';

export const EXIT = {
  CLEAR: 0,
  REVIEW: 1,
  BLOCKED: 2,
  /** Wrong arguments or options. */
  USAGE: 3,
  /** The input could not be read (missing file, a directory, no permission). */
  INPUT: 4,
  /** The server refused or could not be reached (upload). */
  REMOTE: 5,
  /** Anything unexpected. */
  INTERNAL: 6,
} as const;

export type FailOn = 'warning' | 'critical';

/** 0/1/2 by outcome, or by the worst severity present when `--fail-on` is given. */
export function exitCodeFor(report: Pick<Report, 'outcome' | 'findings_count'>, failOn?: FailOn): number {
  if (!failOn) return outcomeExit(report.outcome);
  if (report.findings_count.critical > 0) return EXIT.BLOCKED;
  if (failOn === 'warning' && report.findings_count.warning > 0) return EXIT.REVIEW;
  return EXIT.CLEAR;
}

export function outcomeExit(outcome: Outcome): number {
  return outcome === 'Blocked' ? EXIT.BLOCKED : outcome === 'Review' ? EXIT.REVIEW : EXIT.CLEAR;
}
