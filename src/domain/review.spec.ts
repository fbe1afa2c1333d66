import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Finding, Report } from './model/report.ts';
import { formatLabeledReview, formatReview, reviewFindings, reviewLabeled, type VerdictBook } from './review.ts';

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

test('a filtered list (only the wrong ones) keeps the totals and the share of the whole review', () => {
  const all = reviewFindings([{ log: 'corpus/a.jsonl', report: report([finding('destructive/force-push', 'critical'), finding('reliability/failing-retry', 'warning')]) }], book);
  const text = formatReview({ ...all, findings: all.findings.filter((f) => f.verdict !== 'justified') });
  assert.doesNotMatch(text, /destructive\/force-push/);
  assert.match(text, /2 warning\/critical findings: 1 justified, 1 wrong, 0 without a verdict\.\nShare justified: 50\.0 %/);
});

test('labeled set: a second-round verdict judges a finding the first labels do not cover at its severity, and only such a finding', () => {
  const labels = {
    analyzer_version_judged: '0.3.0',
    findings: [
      { log: 'a.jsonl', rule: 'x/rule', severity: 'critical' as const, evidence_lines: [42], verdict: 'arguable' as const, reason: 'a step too loud' },
      { log: 'a.jsonl', rule: 'y/rule', severity: 'warning' as const, evidence_lines: [42], verdict: 'justified' as const, reason: 'right' },
    ],
    outcomes: [],
  };
  const second = [
    { log: 'a.jsonl', rule: 'x/rule', severity: 'warning' as const, evidence_lines: [42], verdict: 'justified' as const, reason: 'right at warning', judged_on: '2026-12-04', analyzer_version: '0.11.0' },
    { log: 'a.jsonl', rule: 'y/rule', severity: 'warning' as const, evidence_lines: [42], verdict: 'wrong' as const, reason: 'ignored: the first label covers it', judged_on: '2026-12-04', analyzer_version: '0.11.0' },
    { log: 'a.jsonl', rule: 'z/rule', severity: 'warning' as const, evidence_lines: [7], verdict: 'justified' as const, reason: 'other lines', judged_on: '2026-12-04', analyzer_version: '0.11.0' },
  ];
  const findings = [finding('x/rule', 'warning'), finding('y/rule', 'warning'), finding('z/rule', 'warning')];
  const r = reviewLabeled([{ log: 'a.jsonl', report: report(findings) }], labels, second);
  assert.deepEqual(r.findings.map((f) => [f.rule, f.label, f.secondRound]), [['x/rule', 'justified', true], ['y/rule', 'justified', false], ['z/rule', 'unlabeled', false]]);
  assert.equal(r.justified, 2);
  assert.equal(r.justifiedSecondRound, 1);
  assert.equal(r.unlabeled, 1);
  assert.match(formatLabeledReview(r, { all: true }), /\(second round\)/);
});
