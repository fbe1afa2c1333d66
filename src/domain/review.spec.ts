import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Finding, Report } from './model/report.ts';
import { formatReview, reviewFindings, type VerdictBook } from './review.ts';

const finding = (rule: string, severity: Finding['severity'], evidenceAt = 0): Finding => ({
  id: `${rule}-1`, rule, category: 'coverage', severity, title: `${rule} title`, detail: `${rule} detail`,
  evidence: [{ timeline_index: evidenceAt, excerpt: 'git push --force\n  origin main' }], remediation: '',
});
// Only the fields the review reads; the rest of a Report does not matter here.
const report = (findings: Finding[]) => ({ findings, timeline: [{ index: 0, line: 42 }] }) as unknown as Report;

const book: VerdictBook = {
  'corpus/a.jsonl': { findings: { 'destructive/force-push': { severity: 'critical', why: 'Force-pushed main over the team\'s commits (line 42).' }, 'reliability/failing-retry': { severity: 'warning', verdict: 'wrong', why: 'A fix-and-rerun loop, not an unchanged retry.' } } },
};

test('each warning/critical finding gets the verdict committed for its rule on its log; info is not reviewed', () => {
  const s = reviewFindings([{ log: 'corpus/a.jsonl', report: report([finding('destructive/force-push', 'critical'), finding('reliability/failing-retry', 'warning'), finding('context/commands', 'info')]) }], book);
  assert.deepEqual(s.findings.map((f) => [f.rule, f.verdict]), [['destructive/force-push', 'justified'], ['reliability/failing-retry', 'wrong']]);
  assert.deepEqual(s.findings[0].evidence, [{ line: 42, excerpt: 'git push --force origin main' }]);
  assert.deepEqual([s.justified, s.wrong, s.unreviewed, s.share], [1, 1, 0, 0.5]);
});

test('a finding with no committed verdict (new rule, or a log not in the book) is unreviewed and not justified', () => {
  const s = reviewFindings([
    { log: 'corpus/a.jsonl', report: report([finding('secrets/in-tool-output', 'warning')]) },
    { log: 'corpus/new.jsonl', report: report([finding('destructive/force-push', 'critical')]) },
  ], book);
  assert.deepEqual(s.findings.map((f) => f.verdict), ['unreviewed', 'unreviewed']);
  assert.equal(s.share, 0);
});

test('no findings at all is a share of 1; the text lists verdicts, the wrong ones again, and the share', () => {
  assert.equal(reviewFindings([{ log: 'corpus/a.jsonl', report: report([]) }], book).share, 1);
  const text = formatReview(reviewFindings([{ log: 'corpus/a.jsonl', report: report([finding('destructive/force-push', 'critical'), finding('reliability/failing-retry', 'warning')]) }], book));
  assert.match(text, /== corpus\/a\.jsonl\n {2}\[critical\] destructive\/force-push: destructive\/force-push title/);
  assert.match(text, /evidence \(line 42\): git push --force origin main/);
  assert.match(text, /verdict: JUSTIFIED — Force-pushed main/);
  assert.match(text, /== Judged wrong \(1\)\n {2}corpus\/a\.jsonl reliability\/failing-retry \[warning\]: A fix-and-rerun loop/);
  assert.match(text, /2 warning\/critical findings: 1 justified, 1 wrong, 0 without a verdict\.\nShare justified: 50\.0 %\n$/);
});
