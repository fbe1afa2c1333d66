// The report object (src/domain/model/report.ts) as JSON Schema components, for
// GET /v1/sessions/{id}/report and the OpenAPI document. The type checks at the bottom make a
// change of the domain type that these schemas do not follow a compile error, both ways.
import { Type } from '@sinclair/typebox';
import type { Static, TSchema } from '@sinclair/typebox';
import { AGENT_IDS } from '../../../domain/model/events.ts';
import { CATEGORIES, SEVERITIES } from '../../../domain/model/report.ts';
import type { CommandRecord, Evidence, FileTouch, Finding, Report, ReportStats, TimelineEntry } from '../../../domain/model/report.ts';

/** A string enum as one `enum` keyword (not a union of constants: one precise error message). */
export const StringEnum = <T extends string>(values: readonly T[], opts: Record<string, unknown> = {}) =>
  Type.Unsafe<T>({ type: 'string', enum: [...values], ...opts });

export const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

export const OUTCOMES = ['Clear', 'Review', 'Blocked'] as const;
const TIMELINE_KINDS = ['prompt', 'message', 'thinking', 'tool_call', 'command', 'file_read', 'file_write', 'file_edit', 'web', 'subagent', 'system', 'error'] as const;
const ACTORS = ['user', 'assistant', 'system', 'tool', 'subagent'] as const;

export const OutcomeSchema = StringEnum(OUTCOMES, { description: 'Blocked: a critical finding or score < 50; Review: a warning or score < 80; else Clear' });
export const AgentSchema = StringEnum(AGENT_IDS);
const Count = Type.Integer({ minimum: 0 });

export const FindingsCountSchema = Type.Object(
  { critical: Count, warning: Count, info: Count },
  { $id: 'FindingsCount', additionalProperties: false, description: 'Findings by severity' },
);

export const EvidenceSchema = Type.Object(
  {
    timeline_index: Type.Integer({ minimum: -1, description: 'Index of the timeline entry this points at; -1 for session-level evidence' }),
    excerpt: Type.String({ description: 'The relevant excerpt, secrets masked' }),
  },
  { $id: 'Evidence', additionalProperties: false },
);

export const FindingSchema = Type.Object(
  {
    id: Type.String({ examples: ['f1'] }),
    rule: Type.String({ description: 'Rule id from the rule catalogue', examples: ['destructive.rm-rf-outside-worktree'] }),
    category: StringEnum(CATEGORIES),
    severity: StringEnum(SEVERITIES),
    title: Type.String(),
    detail: Type.String(),
    evidence: Type.Array(Type.Ref('Evidence')),
    remediation: Type.String(),
  },
  { $id: 'Finding', additionalProperties: false },
);

export const TimelineEntrySchema = Type.Object(
  {
    index: Type.Integer({ minimum: 0 }),
    at: Nullable(Type.String({ format: 'date-time' })),
    kind: StringEnum(TIMELINE_KINDS),
    actor: StringEnum(ACTORS),
    summary: Type.String(),
    tool: Nullable(Type.String()),
    detail: Nullable(Type.String()),
    status: Nullable(Type.String({ description: 'ok, error, denied or interrupted for tool steps' })),
    finding_ids: Type.Array(Type.String()),
    duration_ms: Nullable(Type.Number({ minimum: 0 })),
    line: Type.Optional(Type.Integer({ minimum: 1, description: 'Source line in the uploaded log' })),
    detail_length: Type.Optional(Type.Integer({ minimum: 0, description: 'Original length of `detail` when it was truncated' })),
  },
  { $id: 'TimelineEntry', additionalProperties: false },
);

export const ReportStatsSchema = Type.Object(
  {
    events: Count,
    prompts: Count,
    tool_calls: Count,
    commands: Count,
    failed_commands: Count,
    files_read: Count,
    files_written: Count,
    tokens: Type.Object({ input: Count, output: Count, cache_read: Count, cache_write: Count }, { additionalProperties: false }),
    subagents: Count,
    compactions: Count,
    skipped_lines: Count,
    lines: Type.Optional(Count),
    timeline_omitted: Type.Optional(Count),
    runs: Type.Optional(Type.Integer({ minimum: 1, description: 'Agent runs in the file (more than 1 when runs were appended one after the other)' })),
  },
  { $id: 'ReportStats', additionalProperties: false },
);

export const FileTouchSchema = Type.Object(
  { path: Type.String(), reads: Count, writes: Count, created: Type.Boolean(), deleted: Type.Boolean() },
  { $id: 'FileTouch', additionalProperties: false },
);

export const CommandRecordSchema = Type.Object(
  { timeline_index: Type.Integer({ minimum: 0 }), command: Type.String(), exit_code: Nullable(Type.Integer()) },
  { $id: 'CommandRecord', additionalProperties: false },
);

export const ReportSchema = Type.Object(
  {
    session_id: Nullable(Type.String()),
    report_id: Nullable(Type.String()),
    status: Type.Literal('complete'),
    analyzer_version: Type.String(),
    agent: Nullable(AgentSchema),
    agent_detected: Type.Boolean(),
    format: Type.String({ description: 'The concrete log format recognised', examples: ['claude-code-transcript'] }),
    confidence: StringEnum(['high', 'low'] as const),
    repo: Nullable(Type.String()),
    branch: Nullable(Type.String()),
    cwd: Nullable(Type.String()),
    models: Type.Array(Type.String()),
    agent_version: Nullable(Type.String()),
    started_at: Nullable(Type.String({ format: 'date-time' })),
    ended_at: Nullable(Type.String({ format: 'date-time' })),
    duration_ms: Nullable(Type.Number({ minimum: 0 })),
    incomplete: Type.Optional(Nullable(Type.Object(
      {
        reason: StringEnum(['unanswered-call', 'no-closing-record'] as const),
        detail: Type.String({ description: 'Which call or record, in one sentence' }),
      },
      { additionalProperties: false, description: 'Set when the log ends mid-action or a headless run lacks its closing record' },
    ))),
    trust_score: Type.Integer({ minimum: 0, maximum: 100 }),
    outcome: OutcomeSchema,
    headline: Type.String({ maxLength: 120 }),
    reason: Type.String(),
    summary: Type.String(),
    findings_count: Type.Ref('FindingsCount'),
    findings: Type.Array(Type.Ref('Finding')),
    timeline: Type.Array(Type.Ref('TimelineEntry')),
    stats: Type.Ref('ReportStats'),
    files: Type.Array(Type.Ref('FileTouch')),
    commands: Type.Array(Type.Ref('CommandRecord')),
  },
  { $id: 'Report', additionalProperties: false, description: 'The trust report of one session (docs/report.md)' },
);

/** Every component above, in the order they must be registered (referenced ones first). */
export const REPORT_COMPONENTS = [
  FindingsCountSchema, EvidenceSchema, FindingSchema, TimelineEntrySchema, ReportStatsSchema, FileTouchSchema, CommandRecordSchema, ReportSchema,
];

// ---- compile-time agreement with the domain types (refs are checked through their targets) ----
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;
type Plain<S extends TSchema> = Static<S>;
export type SchemaAgreement = [
  Assert<Same<Plain<typeof EvidenceSchema>, Evidence>>,
  Assert<Same<Omit<Plain<typeof FindingSchema>, 'evidence'>, Omit<Finding, 'evidence'>>>,
  Assert<Same<Plain<typeof TimelineEntrySchema>, TimelineEntry>>,
  Assert<Same<Plain<typeof ReportStatsSchema>, ReportStats>>,
  Assert<Same<Plain<typeof FileTouchSchema>, FileTouch>>,
  Assert<Same<Plain<typeof CommandRecordSchema>, CommandRecord>>,
  Assert<Same<keyof Plain<typeof ReportSchema>, keyof Report>>,
];
