// A Markdown summary of a report for the places people already read: a CI job summary, a pull
// request comment, a chat message. It must fit the host's length limit (GitHub comments stop at
// 65,536 characters), so findings that do not fit are counted in a closing line, never dropped
// silently. Every piece of log text is escaped: a log must not be able to inject Markdown or HTML
// (links, images, mentions) into the page that shows the summary.
import { SEVERITY_ORDER, type Finding, type Report, type Severity } from '../model/report.ts';

export interface MarkdownOptions {
  /** Link to the report page, when the report lives on a server. */
  reportUrl?: string | null;
  /** Label for what was analysed (a file name), shown under the verdict. */
  source?: string | null;
  /** Hard cap on the output length in characters (default 60,000: under GitHub's 65,536). */
  maxChars?: number;
  /** Show at most this many findings in the table (default 50). */
  maxFindings?: number;
}

export const MARKDOWN_DEFAULT_MAX_CHARS = 60_000;
const DEFAULT_MAX_FINDINGS = 50;
const OUTCOME_ICON = { Clear: '✅', Review: '⚠️', Blocked: '⛔' } as const;
const SEVERITY_ICON: Record<Severity, string> = { critical: '🔴', warning: '🟠', info: '🔵' };

/** Escapes text for a Markdown table cell or paragraph: no markup, no HTML, no line breaks. */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\\`*_{}[\]()#+!|<>~]/g, (c) => `\\${c}`)
    .replace(/@/g, '@\u200b'); // no @mentions of people or teams from log text
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function verdictLines(report: Report, o: MarkdownOptions): string[] {
  const lines = [`### ${OUTCOME_ICON[report.outcome]} Vouch: ${report.outcome} — trust ${report.trust_score}/100`, ''];
  lines.push(`**${escapeMarkdown(report.headline)}**`, '');
  lines.push(escapeMarkdown(report.reason), '');
  const facts = [report.agent ?? 'unknown agent', report.format];
  if (o.source) facts.push(escapeMarkdown(o.source));
  const c = report.findings_count;
  facts.push(`${c.critical} critical · ${c.warning} warning · ${c.info} info`);
  lines.push(facts.join(' · '), '');
  if (o.reportUrl && /^https?:\/\//.test(o.reportUrl)) lines.push(`[Open the full report](${o.reportUrl.replace(/[()\s]/g, encodeURIComponent)})`, '');
  return lines;
}

function findingRow(f: Finding): string {
  const evidence = f.evidence[0];
  const where = evidence && evidence.timeline_index >= 0 ? `step ${evidence.timeline_index}` : 'session';
  const excerpt = evidence ? ` — \`${clip(evidence.excerpt.replace(/\s+/g, ' ').replace(/`/g, "'"), 120)}\`` : '';
  return `| ${SEVERITY_ICON[f.severity]} ${f.severity} | ${escapeMarkdown(f.title)}${excerpt.replace(/\|/g, '\\|')} | \`${f.rule}\` | ${where} |`;
}

/** Renders the summary; the result never exceeds `maxChars`. */
export function renderReportMarkdown(report: Report, o: MarkdownOptions = {}): string {
  const maxChars = o.maxChars ?? MARKDOWN_DEFAULT_MAX_CHARS;
  const maxFindings = o.maxFindings ?? DEFAULT_MAX_FINDINGS;
  const findings = [...report.findings].sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]);
  const head = verdictLines(report, o);
  if (findings.length === 0) return clip([...head, 'No findings.', ''].join('\n'), maxChars);
  const table = ['| severity | finding | rule | where |', '|---|---|---|---|'];
  // Reserve room for the closing "not shown" line so the cap holds whatever is left out.
  const reserve = 120;
  let used = head.join('\n').length + table.join('\n').length + reserve;
  let shown = 0;
  for (const f of findings.slice(0, maxFindings)) {
    const row = findingRow(f);
    if (used + row.length + 1 > maxChars) break;
    table.push(row);
    used += row.length + 1;
    shown++;
  }
  const lines = [...head, ...table, ''];
  const hidden = findings.length - shown;
  if (hidden > 0) {
    const bySeverity = (['critical', 'warning', 'info'] as const)
      .map((s) => [s, findings.slice(shown).filter((f) => f.severity === s).length] as const)
      .filter(([, n]) => n > 0)
      .map(([s, n]) => `${n} ${s}`)
      .join(', ');
    lines.push(`_${hidden} more finding${hidden === 1 ? '' : 's'} not shown (${bySeverity})${o.reportUrl ? ': see the full report' : ''}._`, '');
  }
  return clip(lines.join('\n'), maxChars);
}
