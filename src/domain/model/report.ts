// The report object of PRODUCT.md §4: what `vouch analyze --format json` prints and what
// GET /v1/sessions/{id}/report returns (the service adds session_id/report_id/repo).
import type { AgentId } from './events.ts';

export type Severity = 'critical' | 'warning' | 'info';

/** Severities from the most serious: sort by it, or take the worst of several. */
export const SEVERITY_ORDER: Readonly<Record<Severity, number>> = { critical: 0, warning: 1, info: 2 };
export const SEVERITIES: readonly Severity[] = ['critical', 'warning', 'info'];
export type Outcome = 'Clear' | 'Review' | 'Blocked';
export type Category =
  | 'destructive'
  | 'secrets'
  | 'exfiltration'
  | 'injection'
  | 'permissions'
  | 'integrity'
  | 'supply-chain'
  | 'scope'
  | 'ci'
  | 'reliability'
  | 'coverage'
  | 'context';
export const CATEGORIES: readonly Category[] = [
  'destructive', 'secrets', 'exfiltration', 'injection', 'permissions', 'integrity',
  'supply-chain', 'scope', 'ci', 'reliability', 'coverage', 'context',
];

export type TimelineKind =
  | 'prompt' | 'message' | 'thinking' | 'tool_call' | 'command' | 'file_read' | 'file_write'
  | 'file_edit' | 'web' | 'subagent' | 'system' | 'error';

export interface Evidence {
  timeline_index: number;
  excerpt: string;
}

export interface Finding {
  id: string;
  rule: string;
  category: Category;
  severity: Severity;
  title: string;
  detail: string;
  evidence: Evidence[];
  remediation: string;
}

export interface TimelineEntry {
  index: number;
  at: string | null;
  kind: TimelineKind;
  actor: 'user' | 'assistant' | 'system' | 'tool' | 'subagent';
  summary: string;
  tool: string | null;
  detail: string | null;
  /** ok | error | denied | interrupted | null (not a tool step) */
  status: string | null;
  finding_ids: string[];
  duration_ms: number | null;
  /** Source line in the uploaded log (evidence back-reference). */
  line?: number;
  /** Original length of `detail` when it was truncated. */
  detail_length?: number;
}

export interface ReportStats {
  events: number;
  prompts: number;
  tool_calls: number;
  commands: number;
  failed_commands: number;
  files_read: number;
  files_written: number;
  tokens: { input: number; output: number; cache_read: number; cache_write: number };
  subagents: number;
  compactions: number;
  skipped_lines: number;
  /** Lines in the file (physical), and how many timeline entries were left out of the report. */
  lines?: number;
  timeline_omitted?: number;
  /** Agent runs found in the file: 1, or more when runs were appended one after the other. */
  runs?: number;
}

/** Why the log does not cover the whole run (see docs/report.md). */
export interface IncompleteInfo {
  /** `unanswered-call`: it ends on a tool call that never got a result; `no-closing-record`: a
   *  headless run lacks its final record (`result`, `turn.completed`). */
  reason: 'unanswered-call' | 'no-closing-record';
  /** One sentence for people: which call, which record. */
  detail: string;
}

export interface FileTouch {
  path: string;
  reads: number;
  writes: number;
  created: boolean;
  deleted: boolean;
}

export interface CommandRecord {
  timeline_index: number;
  command: string;
  exit_code: number | null;
}

export interface Report {
  session_id: string | null;
  report_id: string | null;
  status: 'complete';
  analyzer_version: string;
  agent: AgentId | null;
  agent_detected: boolean;
  /** The concrete format recognised, and how confident the parse is ("high" | "low" for text). */
  format: string;
  confidence: 'high' | 'low';
  repo: string | null;
  branch: string | null;
  cwd: string | null;
  models: string[];
  agent_version: string | null;
  started_at: string | null;
  ended_at: string | null;
  duration_ms: number | null;
  /**
   * null when the log covers the whole run; otherwise why it stops early. Always present in
   * reports this analyser version writes (optional only for reports stored by older versions).
   */
  incomplete?: IncompleteInfo | null;
  trust_score: number;
  outcome: Outcome;
  headline: string;
  reason: string;
  summary: string;
  findings_count: { critical: number; warning: number; info: number };
  findings: Finding[];
  timeline: TimelineEntry[];
  stats: ReportStats;
  files: FileTouch[];
  commands: CommandRecord[];
}
