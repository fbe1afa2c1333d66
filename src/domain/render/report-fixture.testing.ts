// A complete report with hostile text in every field that comes from a log, for the renderers'
// tests: whatever a log contains must reach a page or a terminal as inert text.
import type { Report } from '../model/report.ts';

export const EVIL = '<img src=x onerror=alert(1)>"\'&';

export function hostileReport(overrides: Partial<Report> = {}): Report {
  return {
    session_id: null, report_id: null, status: 'complete', analyzer_version: '0.1.0', agent: 'claude-code', agent_detected: true,
    format: 'claude-code-transcript', confidence: 'high', repo: `acme/${EVIL}`, branch: `main${EVIL}`, cwd: `/home/dev/${EVIL}`,
    models: [`model${EVIL}`], agent_version: '2.0.0', started_at: '2025-01-01T10:00:00.000Z', ended_at: '2025-01-01T10:02:05.000Z', duration_ms: 125_000,
    trust_score: 30, outcome: 'Blocked', headline: `Blocked: deleted ${EVIL}`, reason: `reason ${EVIL}`, summary: `summary ${EVIL}`,
    findings_count: { critical: 1, warning: 0, info: 1 },
    findings: [
      { id: 'f1', rule: 'destructive/rm-outside-worktree', category: 'destructive', severity: 'critical', title: `rm of ${EVIL}`, detail: `detail ${EVIL}`,
        evidence: [{ timeline_index: 1, excerpt: `rm -rf ~/${EVIL}\n   and   more` }, { timeline_index: 0, excerpt: 'second' }, { timeline_index: 0, excerpt: 'third' }], remediation: `restore ${EVIL}` },
      { id: 'f2', rule: 'context/models', category: 'context', severity: 'info', title: 'Models used', detail: 'Model: x.', evidence: [{ timeline_index: -1, excerpt: 'claude-sonnet-4-5' }], remediation: '' },
    ],
    timeline: [
      { index: 0, at: null, kind: 'prompt', actor: 'user', summary: `clean ${EVIL}`, tool: null, detail: `prompt ${EVIL}`, status: null, finding_ids: [], duration_ms: null, line: 1 },
      { index: 1, at: null, kind: 'command', actor: 'assistant', summary: `$ rm -rf ~/${EVIL}`, tool: 'Bash', detail: `output ${EVIL}`, status: 'error', finding_ids: ['f1'], duration_ms: 5, line: 2 },
    ],
    stats: { events: 3, prompts: 1, tool_calls: 1, commands: 1, failed_commands: 1, files_read: 0, files_written: 1, tokens: { input: 1, output: 1, cache_read: 0, cache_write: 0 }, subagents: 0, compactions: 0, skipped_lines: 0 },
    files: [{ path: `/home/dev/${EVIL}.ts`, reads: 0, writes: 1, created: true, deleted: false }],
    commands: [{ timeline_index: 1, command: `rm -rf ~/${EVIL}`, exit_code: 1 }],
    ...overrides,
  } as Report;
}
