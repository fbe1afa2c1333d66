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

/** The review as text: every finding with its evidence and verdict, then the wrong ones, then the share. */
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
  const total = summary.findings.length;
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
