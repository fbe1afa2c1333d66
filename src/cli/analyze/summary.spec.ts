// The many-logs summary table and exit code: worst first, failures shown with their reason.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Report } from '../../domain/model/report.ts';
import { EXIT } from '../exit-codes.ts';
import { worstExitCode } from './batch.ts';
import { summaryTable, totals, type Analysed } from './summary.ts';

function report(outcome: Report['outcome'], score: number, counts: [number, number, number]): Report {
  return { outcome, trust_score: score, agent: 'codex', findings_count: { critical: counts[0], warning: counts[1], info: counts[2] } } as Report;
}

const rows: Analysed[] = [
  { file: 'a/clean.jsonl', report: report('Clear', 100, [0, 0, 2]) },
  { file: 'b/review.jsonl', report: report('Review', 90, [0, 1, 0]) },
  { file: 'c/locked.jsonl', error: 'cannot read c/locked.jsonl: EACCES', exitCode: EXIT.INPUT },
  { file: 'd/blocked.jsonl', report: report('Blocked', 40, [2, 0, 0]) },
];

test('rows are sorted failures first, then Blocked, Review, Clear; a failure shows its reason', () => {
  const lines = summaryTable(rows).trimEnd().split('\n');
  assert.match(lines[0], /^OUTCOME +SCORE +CRIT +WARN +INFO +AGENT +LOG$/);
  assert.deepEqual(lines.slice(1, 5).map((l) => l.split(/\s+/)[0]), ['FAILED', 'Blocked', 'Review', 'Clear']);
  assert.match(lines[1], /c\/locked\.jsonl: cannot read c\/locked\.jsonl: EACCES$/);
  assert.match(lines[2], /^Blocked +40 +2 +0 +0 +codex +d\/blocked\.jsonl$/);
  assert.equal(lines.at(-1), '4 logs: 1 Blocked, 1 Review, 1 Clear, 1 could not be analysed');
});

test('colour only when asked', () => {
  assert.ok(!summaryTable(rows).includes('\u001b['));
  assert.ok(summaryTable(rows, { color: true }).includes('\u001b[31mBlocked'));
});

test('totals leave out the failure clause when every log was analysed', () => {
  assert.equal(totals(rows.filter((r) => 'report' in r)), '3 logs: 1 Blocked, 1 Review, 1 Clear');
});

test('the exit code is the worst over all logs, and follows --fail-on', () => {
  assert.equal(worstExitCode(rows), EXIT.INPUT, 'an unreadable log outranks Blocked');
  const analysed = rows.filter((r) => 'report' in r);
  assert.equal(worstExitCode(analysed), EXIT.BLOCKED);
  assert.equal(worstExitCode(analysed.filter((r) => r.report.outcome !== 'Blocked')), EXIT.REVIEW);
  assert.equal(worstExitCode(analysed.filter((r) => r.report.outcome !== 'Blocked'), 'critical'), EXIT.CLEAR);
  assert.equal(worstExitCode([]), EXIT.CLEAR);
});
