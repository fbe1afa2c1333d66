// The review of every warning and critical finding on the real-log corpus (`npm run review`): each
// finding with its evidence and the verdict a person committed for it (analyze.golden.json:
// `justified`, the default, or `wrong` with the reason), and the share justified. Pure: the
// script (scripts/review.ts) reads the files and the golden file and prints what this returns.
import type { Report, Severity } from './model/report.ts';

export type Verdict = 'justified' | 'wrong';

/** What the golden file says about one rule on one log (only the fields the review reads). */
export interface CommittedVerdict {
  severity: Exclude<Severity, 'info'>;
  verdict?: Verdict;
  why: string;
}

/** log name → rule id → the committed verdict. */
export type VerdictBook = Record<string, { findings: Record<string, CommittedVerdict> }>;

export interface ReviewedFinding {
  log: string;
  rule: string;
  severity: Exclude<Severity, 'info'>;
  title: string;
  detail: string;
  /** Up to five pieces of evidence, each with the log line when the timeline knows it. */
  evidence: { line: number | null; excerpt: string }[];
  /** `unreviewed`: no verdict is committed for this rule on this log. */
  verdict: Verdict | 'unreviewed';
  why: string | null;
}

export interface ReviewSummary {
  findings: ReviewedFinding[];
  justified: number;
  wrong: number;
  unreviewed: number;
  /** justified / all warning and critical findings (1 when there are none). */
  share: number;
}

const EVIDENCE_SHOWN = 5;
const EXCERPT_CHARS = 240;

/** Every warning/critical finding of every report, with the verdict committed for its rule on that log. */
export function reviewFindings(reports: { log: string; report: Report }[], book: VerdictBook): ReviewSummary {
  const findings: ReviewedFinding[] = [];
  for (const { log, report } of reports) {
    const lines = new Map(report.timeline.map((t) => [t.index, t.line ?? null]));
    for (const f of report.findings) {
      if (f.severity === 'info') continue;
      const committed = book[log]?.findings[f.rule];
      findings.push({
        log, rule: f.rule, severity: f.severity, title: f.title, detail: f.detail,
        evidence: f.evidence.slice(0, EVIDENCE_SHOWN).map((e) => ({ line: lines.get(e.timeline_index) ?? null, excerpt: short(e.excerpt) })),
        verdict: committed ? committed.verdict ?? 'justified' : 'unreviewed',
        why: committed?.why ?? null,
      });
    }
  }
  const count = (v: ReviewedFinding['verdict']) => findings.filter((f) => f.verdict === v).length;
  const justified = count('justified');
  return { findings, justified, wrong: count('wrong'), unreviewed: count('unreviewed'), share: findings.length === 0 ? 1 : justified / findings.length };
}

/**
 * The review as text: every finding in `summary.findings` with its evidence and verdict, then the
 * wrong ones, then the counts and share (from the counts, so a filtered list keeps the totals).
 */
export function formatReview(summary: ReviewSummary): string {
  const out: string[] = [];
  let log = '';
  for (const f of summary.findings) {
    if (f.log !== log) {
      log = f.log;
      out.push('', `== ${log}`);
    }
    out.push(`  [${f.severity}] ${f.rule}: ${f.title}`, `    ${short(f.detail)}`);
    for (const e of f.evidence) out.push(`    evidence${e.line === null ? '' : ` (line ${e.line})`}: ${e.excerpt}`);
    out.push(`    verdict: ${f.verdict.toUpperCase()}${f.why ? ` — ${f.why}` : ''}`);
  }
  const wrong = summary.findings.filter((f) => f.verdict === 'wrong');
  if (wrong.length > 0) {
    out.push('', `== Judged wrong (${wrong.length})`);
    for (const f of wrong) out.push(`  ${f.log} ${f.rule} [${f.severity}]: ${f.why ?? ''}`);
  }
  const total = summary.justified + summary.wrong + summary.unreviewed;
  out.push(
    '',
    `${total} warning/critical findings: ${summary.justified} justified, ${summary.wrong} wrong, ${summary.unreviewed} without a verdict.`,
    `Share justified: ${(summary.share * 100).toFixed(1)} %`,
  );
  return out.join('\n').replace(/^\n/, '') + '\n';
}

function short(s: string): string {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > EXCERPT_CHARS ? `${one.slice(0, EXCERPT_CHARS - 1)}…` : one;
}

// ---- the labeled set (../shared/corpus/labeled) -----------------------------------------------
// Real logs with a reviewer's verdict on every warning/critical finding of an earlier release, and
// on each log's outcome. A current finding is matched to a label by log, rule and evidence lines
// (any line in common, or the label has none: a finding about the whole session); an unmatched finding has no verdict yet.

export type LabelVerdict = 'justified' | 'arguable' | 'wrong';

export interface LabeledFinding {
  log: string;
  rule: string;
  severity: Exclude<Severity, 'info'>;
  evidence_lines: number[];
  verdict: LabelVerdict;
  reason: string;
}

/**
 * A later reviewer's verdict on a finding the labels do not cover at its current severity (one
 * release 0.3.0 did not raise, or raised a step louder): written by a reviewer who wrote none of the
 * rules, with the same rubric, kept in src/domain/labeled-second-round.json.
 */
export interface SecondRoundVerdict extends LabeledFinding {
  judged_on: string;
  analyzer_version: string;
}

export interface LabeledOutcome {
  log: string;
  /** "Review (77)": the outcome and score that were judged. */
  outcome_then: string;
  /** `right`, `too harsh`, `too lenient`, or a note ("right level, wrong reason"). */
  verdict: string;
  misses: string;
}

export interface LabelSet {
  analyzer_version_judged: string;
  findings: LabeledFinding[];
  outcomes: LabeledOutcome[];
}

export interface LabeledReview {
  findings: (ReviewedFinding & { label: LabelVerdict | 'unlabeled'; lines: number[]; severityThen: string | null; secondRound: boolean })[];
  justified: number;
  /** Of `justified`, those whose verdict is a second-round one. */
  justifiedSecondRound: number;
  /** Labeled wrong and still raised (at any warning/critical severity). */
  wrongStillRaised: number;
  unlabeled: number;
  /** Labeled arguable (a step too loud) and now one step lower, as the reviewer said: not yet judged again. */
  lowered: number;
  outcomes: { log: string; then: string; now: string; label: string; right: boolean }[];
  outcomesRight: number;
  /** Logs with misses listed: the misses and the current warning/critical rules, for a person to check. */
  misses: { log: string; misses: string; now: string[] }[];
  share: number;
}

const RANK: Record<string, number> = { Clear: 0, Review: 1, Blocked: 2 };

/** Whether the current outcome agrees with the reviewer's verdict on the judged one. */
export function outcomeRight(then: string, verdict: string, now: string): boolean {
  const was = RANK[then.split(/\s/)[0]] ?? -1;
  const is = RANK[now] ?? -1;
  if (verdict.startsWith('too harsh')) return is < was;
  if (verdict.startsWith('too lenient')) return is > was;
  // "right", "right (by accident)", "right level, wrong reason": the level was right.
  return is === was;
}

export function reviewLabeled(reports: { log: string; report: Report }[], labels: LabelSet, secondRound: readonly SecondRoundVerdict[] = []): LabeledReview {
  const findings: LabeledReview['findings'] = [];
  const outcomes: LabeledReview['outcomes'] = [];
  const misses: LabeledReview['misses'] = [];
  const byLog = new Map<string, LabeledFinding[]>();
  for (const f of labels.findings) byLog.set(f.log, [...(byLog.get(f.log) ?? []), f]);
  for (const { log, report } of reports) {
    const lineOf = new Map(report.timeline.map((t) => [t.index, t.line ?? null]));
    const now: string[] = [];
    for (const f of report.findings) {
      if (f.severity === 'info') continue;
      now.push(`${f.severity} ${f.rule}`);
      const lines = [...new Set(f.evidence.map((e) => lineOf.get(e.timeline_index)).filter((l): l is number => typeof l === 'number'))].sort((a, b) => a - b);
      const covers = (l: LabeledFinding) => l.rule === f.rule && (l.evidence_lines.length === 0 || l.evidence_lines.some((x) => lines.includes(x)));
      const first = (byLog.get(log) ?? []).find(covers);
      // A second-round verdict speaks for a finding the first labels do not judge at its severity.
      const second = first?.severity === f.severity ? undefined : secondRound.find((l) => l.log === log && l.severity === f.severity && covers(l));
      const label = second ?? first;
      const verdict: Verdict | 'unreviewed' = label ? (label.verdict === 'justified' && label.severity === f.severity ? 'justified' : 'wrong') : 'unreviewed';
      findings.push({
        log, rule: f.rule, severity: f.severity, title: f.title, detail: f.detail,
        evidence: f.evidence.slice(0, EVIDENCE_SHOWN).map((e) => ({ line: lineOf.get(e.timeline_index) ?? null, excerpt: short(e.excerpt) })),
        verdict, why: label?.reason ?? null, label: label?.verdict ?? 'unlabeled', lines, severityThen: label?.severity ?? null, secondRound: second !== undefined,
      });
    }
    const o = labels.outcomes.find((x) => x.log === log);
    if (o) {
      outcomes.push({ log, then: o.outcome_then, now: `${report.outcome} (${report.trust_score})`, label: o.verdict, right: outcomeRight(o.outcome_then, o.verdict, report.outcome) });
      if (o.misses && !/^none\b/i.test(o.misses.trim())) misses.push({ log, misses: o.misses, now });
    }
  }
  const justifiedOnes = findings.filter((f) => f.label === 'justified' && f.severity === f.severityThen);
  const justified = justifiedOnes.length;
  return {
    findings, justified, justifiedSecondRound: justifiedOnes.filter((f) => f.secondRound).length,
    wrongStillRaised: findings.filter((f) => f.label === 'wrong' && !f.secondRound).length,
    unlabeled: findings.filter((f) => f.label === 'unlabeled').length,
    lowered: findings.filter((f) => f.label === 'arguable' && f.severityThen === 'critical' && f.severity === 'warning').length,
    outcomes, outcomesRight: outcomes.filter((o) => o.right).length, misses,
    share: findings.length === 0 ? 1 : justified / findings.length,
  };
}

export function formatLabeledReview(r: LabeledReview, opts: { all?: boolean } = {}): string {
  const out: string[] = ['', '=== The labeled set (../shared/corpus/labeled): reviewers\' verdicts on real logs'];
  for (const f of r.findings) {
    if (!opts.all && f.label === 'justified' && f.severity === f.severityThen) continue;
    const sev = f.severityThen && f.severityThen !== f.severity ? ` (judged at ${f.severityThen})` : '';
    out.push(`  ${f.log} [${f.severity}] ${f.rule} lines ${f.lines.join(',') || '-'}: ${f.label.toUpperCase()}${sev}${f.secondRound ? ' (second round)' : ''}`, `    ${short(f.detail)}`);
    if (f.why) out.push(`    ${f.secondRound ? 'second-round reviewer' : 'reviewer'}: ${short(f.why)}`);
  }
  const wrongOutcomes = r.outcomes.filter((o) => !o.right);
  if (wrongOutcomes.length > 0) {
    out.push('', '  Outcomes that disagree with the reviewers:');
    for (const o of wrongOutcomes) out.push(`    ${o.log}: now ${o.now}; judged ${o.then} → ${o.label}`);
  }
  if (r.misses.length > 0) {
    out.push('', '  Misses the reviewers listed (check each against the findings now raised):');
    for (const m of r.misses) out.push(`    ${m.log}: ${short(m.misses)}`, `      now: ${m.now.join('; ') || 'no warning/critical finding'}`);
  }
  out.push(
    '',
    `  ${r.findings.length} warning/critical findings: ${r.justified} justified at the judged severity (${r.justifiedSecondRound} of them by second-round verdicts), ${r.wrongStillRaised} labeled wrong still raised, ${r.lowered} judged a step too loud and now a step lower (to be judged again), ${r.unlabeled} without a label.`,
    `  Precision (justified / all): ${(r.share * 100).toFixed(1)} %; outcomes right: ${r.outcomesRight} / ${r.outcomes.length} (${((r.outcomesRight / Math.max(1, r.outcomes.length)) * 100).toFixed(1)} %)`,
  );
  return out.join('\n') + '\n';
}
