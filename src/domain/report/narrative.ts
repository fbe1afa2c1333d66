// Headline, reason and summary: written so that a person who reads only them knows what
// happened and why the outcome is what it is.
import type { Finding, Outcome, ReportStats } from '../model/report.ts';
import { ACTIONS_NOT_IN_LOG } from '../rules/coverage.ts';
import { oneLine, plural } from './strings.ts';

export interface NarrativeInput {
  outcome: Outcome;
  score: number;
  findings: Finding[];
  stats: ReportStats;
  agentLabel: string;
  models: string[];
  durationMs: number | null;
  lowConfidence: boolean;
  /** Why the log stops before the run finished, or null. */
  incomplete: string | null;
}

export interface Narrative {
  headline: string;
  reason: string;
  summary: string;
}

const HEADLINE_MAX = 120;

export function writeNarrative(input: NarrativeInput): Narrative {
  return { headline: headline(input), reason: reason(input), summary: summary(input) };
}

// Findings that say the verdict itself rests on little: when one is among the warnings it leads
// the headline, because every other statement in the report is weaker for it.
const UNDERMINING = ['coverage/not-a-session-log', 'coverage/binary-input', 'coverage/rule-failed'];

function serious(findings: Finding[]): Finding[] {
  const crit = findings.filter((f) => f.severity === 'critical');
  if (crit.length > 0) return crit;
  const warn = findings.filter((f) => f.severity === 'warning');
  const rank = (f: Finding) => {
    const i = UNDERMINING.indexOf(f.rule);
    if (i >= 0) return i;
    // "Most of the log could not be read" undermines the verdict as much as a failed check.
    return f.rule === 'coverage/skipped-lines' && f.title.startsWith('Most') ? UNDERMINING.length : UNDERMINING.length + 1;
  };
  return warn.map((f, i) => ({ f, i })).sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i).map((x) => x.f);
}

function ceiling(outcome: Outcome, findings: Finding[]): Finding | undefined {
  return outcome === 'Review' ? findings.find((f) => ACTIONS_NOT_IN_LOG.includes(f.rule)) : undefined;
}

function headline({ outcome, findings, stats }: NarrativeInput): string {
  const top = serious(findings);
  const limit = top.length === 0 ? ceiling(outcome, findings) : undefined;
  if (limit) return oneLine(`Review: ${limit.title}`, HEADLINE_MAX);
  if (top.length === 0) {
    // commands may change files the log cannot list (a script, a build): with commands run and no
    // edit shown, say what the log shows, not that nothing changed
    const work = stats.files_written > 0
      ? `${plural(stats.files_written, 'file')} changed, ${plural(stats.commands, 'command')} run`
      : stats.commands > 0
        ? `${plural(stats.commands, 'command')} run, no file edits in the log`
        : `${plural(stats.tool_calls, 'tool call')}, no files changed`;
    return oneLine(`Clear: ${work}, nothing needs attention`, HEADLINE_MAX);
  }
  const more = top.length > 1 ? ` (+${top.length - 1} more)` : '';
  const prefix = `${outcome}: `;
  const room = HEADLINE_MAX - prefix.length - more.length;
  return prefix + oneLine(top[0].title, room) + more;
}

function reason({ outcome, score, findings }: NarrativeInput): string {
  const crit = findings.filter((f) => f.severity === 'critical');
  const warn = serious(findings.filter((f) => f.severity !== 'critical'));
  const notALog = warn.find((f) => f.rule === 'coverage/not-a-session-log' || f.rule === 'coverage/binary-input');
  if (notALog && crit.length === 0) {
    return `Review because Vouch could not read this file as an agent session log, so nothing in it could be checked: ${oneLine(notALog.detail, 200)}`;
  }
  const titles = (list: Finding[]) => list.slice(0, 3).map((f) => oneLine(f.title, 80).replace(/\.$/, '')).join('; ');
  if (outcome === 'Blocked' && crit.length > 0) {
    return `Blocked by ${plural(crit.length, 'critical finding')} — something that must not have happened or must be undone: ${titles(crit)}.`;
  }
  if (outcome === 'Blocked') {
    return `Blocked because the trust score is ${score}/100 (below 50): ${plural(warn.length, 'warning')} add up — ${titles(warn)}.`;
  }
  if (outcome === 'Review' && warn.length > 0) {
    return `A human should look before trusting the result: ${plural(warn.length, 'warning')} — ${titles(warn)}.`;
  }
  const limit = ceiling(outcome, findings);
  if (outcome === 'Review' && score >= 80 && limit) {
    return `Review because this file cannot show what the agent did, so Vouch cannot vouch for it; nothing in what it does show needs attention. ${oneLine(limit.detail, 240)}`;
  }
  if (outcome === 'Review') return `Review because the trust score is ${score}/100 (below 80).`;
  return `No critical findings and no warnings; the trust score is ${score}/100.`;
}

function summary(input: NarrativeInput): string {
  const { stats, findings, agentLabel, models, durationMs, lowConfidence } = input;
  const notALog = findings.find((f) => f.rule === 'coverage/not-a-session-log' || f.rule === 'coverage/binary-input');
  if (notALog && stats.tool_calls === 0) {
    return `Vouch found no agent session in this file (${plural(stats.lines ?? 0, 'line')}): ${oneLine(notALog.detail, 300)} A team should not rely on this report as a check of any agent's work.`;
  }
  const parts: string[] = [];
  const model = models.length > 0 ? ` (${models.slice(0, 3).join(', ')})` : '';
  const duration = durationMs !== null && durationMs > 0 ? ` over ${formatDuration(durationMs)}` : '';
  parts.push(`${agentLabel}${model} worked through ${plural(stats.prompts, 'prompt')}${duration}.`);
  const failed = stats.failed_commands > 0 ? ` (${stats.failed_commands} failed)` : '';
  const promptsOnly = findings.some((f) => f.rule === 'coverage/prompts-only');
  const toolsMissing = findings.some((f) => f.rule === 'coverage/tools-not-recorded');
  if (promptsOnly) parts.push('The file holds its prompts only: what it replied, ran and changed is not in it.');
  else if (toolsMissing && stats.tool_calls === 0) parts.push('The file holds its prompts and replies but not its tool calls: what it ran and changed is not in it.');
  else parts.push(
    `It made ${plural(stats.tool_calls, 'tool call')}, ran ${plural(stats.commands, 'command')}${failed}, read ${plural(stats.files_read, 'file')} and changed ${plural(stats.files_written, 'file')}${toolsMissing ? ' that the file shows; others it made are not in it' : ''}.`,
  );
  if (stats.subagents > 0 || stats.compactions > 0) {
    parts.push(`It used ${plural(stats.subagents, 'subagent')} and its context was compacted ${plural(stats.compactions, 'time')}.`);
  }
  const c = countBy(findings);
  parts.push(
    c.critical + c.warning === 0
      ? promptsOnly ? 'Vouch found nothing in the prompts that needs attention.' : toolsMissing ? 'Vouch found nothing in the prompts and replies that needs attention.' : 'Vouch found nothing that needs attention.'
      : `Vouch found ${plural(c.critical, 'critical issue')} and ${plural(c.warning, 'warning')}${c.info > 0 ? `, plus ${c.info} for context` : ''}.`,
  );
  if (input.incomplete) parts.push(input.incomplete);
  if (stats.skipped_lines > 0) parts.push(`${plural(stats.skipped_lines, 'line')} of the log could not be understood, so this report is incomplete.`);
  if (lowConfidence) parts.push('The log is terminal output rather than a structured session record, analysed heuristically with lower confidence.');
  return parts.join(' ');
}

function countBy(findings: Finding[]) {
  const c = { critical: 0, warning: 0, info: 0 };
  for (const f of findings) c[f.severity]++;
  return c;
}

export function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  return `${h} h ${m % 60} min`;
}
