// The table `vouch analyze DIR…` prints for many logs: one row per log, worst first, then totals.
import type { Report } from '../../domain/model/report.ts';

export type Analysed = { file: string; report: Report } | { file: string; error: string; exitCode: number };

const RANK = { Blocked: 0, Review: 1, Clear: 2 } as const;

export function summaryTable(rows: Analysed[], opts: { color?: boolean } = {}): string {
  const paint = (code: number, s: string) => (opts.color ? `\u001b[${code}m${s}\u001b[0m` : s);
  const outcomeColor = { Blocked: 31, Review: 33, Clear: 32 } as const;
  const sorted = [...rows].sort((a, b) => rank(a) - rank(b) || score(a) - score(b) || a.file.localeCompare(b.file));
  const header = ['OUTCOME', 'SCORE', 'CRIT', 'WARN', 'INFO', 'AGENT', 'LOG'];
  const cells = sorted.map((r) =>
    'report' in r
      ? [r.report.outcome, String(r.report.trust_score), String(r.report.findings_count.critical), String(r.report.findings_count.warning), String(r.report.findings_count.info), r.report.agent ?? 'unknown', r.file]
      : ['FAILED', '-', '-', '-', '-', '-', `${r.file}: ${r.error}`],
  );
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => (i === header.length - 1 ? 0 : c[i].length))));
  const fmt = (c: string[]) => c.map((v, i) => (i === c.length - 1 ? v : i >= 1 && i <= 4 ? v.padStart(widths[i]) : v.padEnd(widths[i]))).join('  ');
  const lines = [fmt(header)];
  for (const c of cells) {
    const colour = c[0] === 'FAILED' ? 35 : outcomeColor[c[0] as keyof typeof outcomeColor];
    lines.push(paint(colour, c[0].padEnd(widths[0])) + fmt(c).slice(widths[0]));
  }
  lines.push('', totals(rows));
  return lines.join('\n') + '\n';
}

export function totals(rows: Analysed[]): string {
  const count = (o: keyof typeof RANK) => rows.filter((r) => 'report' in r && r.report.outcome === o).length;
  const failed = rows.filter((r) => !('report' in r)).length;
  return `${rows.length} logs: ${count('Blocked')} Blocked, ${count('Review')} Review, ${count('Clear')} Clear${failed ? `, ${failed} could not be analysed` : ''}`;
}

function rank(r: Analysed): number {
  return 'report' in r ? RANK[r.report.outcome] : -1;
}

function score(r: Analysed): number {
  return 'report' in r ? r.report.trust_score : -1;
}
