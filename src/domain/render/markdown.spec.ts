import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Finding, Report, Severity } from '../model/report.ts';
import { escapeMarkdown, renderReportMarkdown } from './markdown.ts';

function finding(i: number, severity: Severity, title = `Finding ${i}`): Finding {
  return {
    id: `f${i}`, rule: `destructive/rule-${i}`, category: 'destructive', severity, title, detail: 'd',
    evidence: [{ timeline_index: i, excerpt: `rm -rf /tmp/x${i}` }], remediation: 'r',
  };
}

function report(findings: Finding[], overrides: Partial<Report> = {}): Report {
  const count = (s: Severity) => findings.filter((f) => f.severity === s).length;
  return {
    session_id: null, report_id: null, status: 'complete', analyzer_version: 't', agent: 'codex', agent_detected: true,
    format: 'codex-rollout', confidence: 'high', repo: null, branch: null, cwd: null, models: [], agent_version: null,
    started_at: null, ended_at: null, duration_ms: null, trust_score: 40, outcome: 'Blocked', headline: 'Deleted the home directory',
    reason: 'The agent ran rm -rf ~.', summary: 's', findings_count: { critical: count('critical'), warning: count('warning'), info: count('info') },
    findings, timeline: [], files: [], commands: [],
    stats: { events: 0, prompts: 0, tool_calls: 0, commands: 0, failed_commands: 0, files_read: 0, files_written: 0, tokens: { input: 0, output: 0, cache_read: 0, cache_write: 0 }, subagents: 0, compactions: 0, skipped_lines: 0 },
    ...overrides,
  };
}

test('markdown summary shows outcome, score, headline, counts and one table row per finding, critical first', () => {
  const md = renderReportMarkdown(report([finding(1, 'warning'), finding(2, 'critical')]), { reportUrl: 'https://vouch.example/r/ses_1' });
  assert.match(md, /Vouch: Blocked — trust 40\/100/);
  assert.match(md, /\*\*Deleted the home directory\*\*/);
  assert.match(md, /1 critical · 1 warning · 0 info/);
  assert.match(md, /\[Open the full report\]\(https:\/\/vouch\.example\/r\/ses_1\)/);
  const rows = md.split('\n').filter((l) => l.startsWith('| 🔴') || l.startsWith('| 🟠'));
  assert.deepEqual(rows.map((r) => r.slice(0, 4)), ['| 🔴', '| 🟠']);
  assert.doesNotMatch(md, /not shown/);
});

test('markdown summary of a report without findings says so and has no table', () => {
  const md = renderReportMarkdown(report([], { outcome: 'Clear', trust_score: 100 }));
  assert.match(md, /No findings\./);
  assert.doesNotMatch(md, /\| severity \|/);
});

test('findings beyond the row limit are counted by severity, not dropped silently', () => {
  const many = [...Array.from({ length: 7 }, (_, i) => finding(i, 'warning')), finding(99, 'critical')];
  const md = renderReportMarkdown(report(many), { maxFindings: 3 });
  assert.equal(md.split('\n').filter((l) => /^\| (🔴|🟠)/.test(l)).length, 3);
  assert.match(md, /5 more findings not shown \(5 warning\)/);
});

test('the character cap holds and the overflow line still says how many were left out', () => {
  const many = Array.from({ length: 400 }, (_, i) => finding(i, 'critical', `A long finding title number ${i} `.repeat(4)));
  const md = renderReportMarkdown(report(many), { maxChars: 4000, maxFindings: 400 });
  assert.ok(md.length <= 4000, `length ${md.length}`);
  const shown = md.split('\n').filter((l) => l.startsWith('| 🔴')).length;
  assert.ok(shown > 0 && shown < 400);
  assert.match(md, new RegExp(`${400 - shown} more findings not shown \\(${400 - shown} critical\\)`));
});

test('log text cannot inject links, images, HTML or mentions into the summary', () => {
  const hostile = 'x](https://evil.example) ![img](https://evil.example/p.png) <img src=x onerror=alert(1)> @org/team | col';
  const md = renderReportMarkdown(report([finding(1, 'critical', hostile)], { headline: hostile }));
  assert.doesNotMatch(md, /\]\(https:\/\/evil/);
  assert.doesNotMatch(md, /(^|[^\\])<img/);
  assert.doesNotMatch(md, /(^|[^\\])@org/);
  assert.equal(escapeMarkdown('a|b'), 'a\\|b');
});
