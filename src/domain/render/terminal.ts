// A readable terminal summary of a report. Colour only when asked (the CLI asks on a TTY).
import type { Report, Severity } from '../model/report.ts';

export interface TextOptions {
  color?: boolean;
  /** Show at most this many evidence items per finding. */
  evidencePerFinding?: number;
}

const CODES = { red: 31, yellow: 33, blue: 34, green: 32, dim: 2, bold: 1 } as const;
type Style = keyof typeof CODES;

/** `#12` for a timeline step; evidence about the whole session (index -1) has no step number. */
function evidenceRef(index: number): string {
  return index >= 0 ? `#${index}` : 'session';
}

export function renderReportText(report: Report, opts: TextOptions = {}): string {
  const paint = (style: Style, s: string) => (opts.color ? `\u001b[${CODES[style]}m${s}\u001b[0m` : s);
  const sevStyle: Record<Severity, Style> = { critical: 'red', warning: 'yellow', info: 'blue' };
  const outStyle: Style = report.outcome === 'Blocked' ? 'red' : report.outcome === 'Review' ? 'yellow' : 'green';
  const lines: string[] = [];
  lines.push(`${paint('bold', paint(outStyle, report.outcome.toUpperCase()))}  trust ${paint('bold', String(report.trust_score))}/100  ${report.agent ?? 'unknown agent'} · ${report.format}`);
  lines.push(paint('bold', report.headline));
  lines.push(report.reason);
  lines.push('');
  lines.push(report.summary);
  const c = report.findings_count;
  lines.push('');
  lines.push(`Findings: ${paint('red', `${c.critical} critical`)}, ${paint('yellow', `${c.warning} warning`)}, ${paint('blue', `${c.info} info`)}`);
  for (const f of report.findings) {
    lines.push(`  ${paint(sevStyle[f.severity], f.severity.padEnd(8))} ${f.title} ${paint('dim', `[${f.rule}]`)}`);
    for (const e of f.evidence.slice(0, opts.evidencePerFinding ?? 2)) {
      lines.push(`           ${paint('dim', evidenceRef(e.timeline_index))} ${e.excerpt.replace(/\s+/g, ' ').slice(0, 160)}`);
    }
  }
  const s = report.stats;
  lines.push('');
  lines.push(paint('dim', `${s.events} events · ${s.tool_calls} tool calls · ${s.commands} commands (${s.failed_commands} failed) · ${s.files_written} files written · ${s.skipped_lines} lines skipped`));
  return lines.join('\n') + '\n';
}
