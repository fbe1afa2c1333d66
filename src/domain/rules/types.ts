// The contract between the analyser and the rules. A rule is a streaming handler with bounded
// state: it sees every event once, in order, with the shared facts the analyser computed for it.
import type { AgentId, FormatId, NormEvent, ToolCallEvent } from '../model/events.ts';
import type { Category, Severity } from '../model/report.ts';
import type { ParsedShell } from '../shell/types.ts';
import type { SecretHit } from '../secrets/types.ts';

export interface RuleMeta {
  /** Stable id, "<category>/<kebab-name>", e.g. "destructive/rm-outside-worktree". */
  id: string;
  category: Category;
  severity: Severity;
  title: string;
  description: string;
  remediation: string;
  /**
   * Score weight multiplier (1 = normal for its severity; see scoring/). Only coverage findings
   * that say the file could not be vouched for use it; info costs nothing whatever its weight.
   */
  weight?: number;
}

export interface FindingDraft {
  rule: string;
  /** Overrides the rule's default severity (e.g. a secret in output escalates when sent out). */
  severity?: Severity;
  /** Overrides the rule's title for this instance. */
  title?: string;
  detail: string;
  evidence: { index: number; excerpt: string }[];
  /**
   * Findings of the same rule with the same key are merged into one finding (evidence appended,
   * capped). Default key: the rule id (one finding per rule per session).
   */
  key?: string;
  /**
   * What caused the finding, across rules and keys (issue 15, "one cause, many findings"): drafts
   * with the same cause id become one finding — the most severe leads, every occurrence counts
   * once in it and its evidence is kept — so the score sees the cause once. `summary` is the
   * finding's detail once drafts of more than one rule or key share it ("17 values labelled
   * `key` in the output of get_styles"); a lone draft keeps its own detail.
   */
  cause?: { id: string; summary: string };
  /**
   * How far the data the finding follows went (issue 25, data flows): 1 written into a file, 2
   * committed, 3 pushed or sent. Under one cause, among drafts of the same severity, the one that
   * went furthest leads: its title says where the value ended ("Secret committed and pushed").
   */
  reach?: 1 | 2 | 3;
  /**
   * Context that is info by itself and a warning once something risky ran under it (issue 25,
   * "posture is context"): a permission mode that skips approvals. The collector raises it when
   * another finding of a risk category at warning or worse comes after it, quoting those as what
   * it let through unasked.
   */
  posture?: true;
  /**
   * The finding is about what the agent chose to do (it obeyed instructions planted in a file or
   * page), not what the action changed: an attempt that failed on its own (no such host, no
   * network) still shows the choice and stays a warning; one a person, a sandbox or a hook refused
   * is an attempt like any other (the defence held).
   */
  choice?: true;
  /**
   * How the call's own output changes the finding once it ran (issue 25: what the action did): a
   * force push whose output shows it created the branch overwrote nothing. Read by Outcomes when
   * the result arrives (never reported itself); the draft stands as it is when this returns null.
   */
  whenRan?: (output: string) => FindingDraft | null;
  /**
   * The agent's default sandbox lets this change through without asking (an edit inside Codex's
   * workspace): a posture that skips approvals did not let it through, so it does not raise one.
   */
  sandboxAllows?: true;
}

/** Facts the analyser computed once per event and shares with every rule. */
export interface EventFacts {
  /** For command tool calls (and plain-text commands): the parsed shell. */
  shell?: ParsedShell;
  /** Secrets found in any text of the event (prompt, command, input, output, content). */
  secrets: SecretHit[];
  /** For tool results: the call they answer, if it was seen. */
  call?: ToolCallEvent;
}

export interface SessionFacts {
  agent: AgentId | null;
  format: FormatId;
  /** Working directory when known (updated as session_meta events arrive). */
  cwd: string | null;
  /** Home directory guessed from cwd (/home/x, /Users/x, /root) or null. */
  home: string | null;
  /** The agent recorded that the working directory is in a git repository (a branch, a remote). */
  repository?: boolean;
  /** What the ingest stage saw; live-updated, complete by the time `finish()` runs. */
  readonly ingest: IngestFacts;
}

export interface IngestFacts {
  /** Lines that could not be understood (JSON errors, unknown records, binary, oversize). */
  skippedLines: number;
  /** Up to 20 examples: line number and reason. */
  skippedSamples: { line: number; reason: string }[];
  oversizeLines: number;
  invalidUtf8Lines: number;
  /** The last line had no newline and did not parse: the log was cut off. */
  truncatedTail: boolean;
  /** Looks like a binary file (NUL bytes in most lines). */
  binary: boolean;
  /** Records of types no parser knows that hold no action (metadata): per type, its first line and count (≤ 20 types). */
  unknownMetadata: { type: string; line: number; count: number }[];
  /** Subagent transcripts the log references that are not in this file. */
  missingSubagents: { id: string; line: number }[];
  /** The agent hint given by the uploader, and whether it contradicted the detected format. */
  agentHint: AgentId | null;
  hintConflict: boolean;
  /** Plain-text transcript: analysed heuristically, lower confidence. */
  lowConfidence: boolean;
  /** The lines are mostly JSON records that no parser family recognised (read as plain text). */
  unrecognisedJson: boolean;
  /** Another coding agent's session, by its own markers (OpenCode, Aider, Cline), which Vouch does not read; null otherwise. */
  foreignAgent?: string | null;
  /** Model turns that followed a model turn with no tool call recorded and no prompt between, in a log that records no tool call at all (≥ 2, else null). */
  toolsNotRecorded: { turns: number; line: number; shown?: string } | null;
  /** A terminal capture a text formatter joined and wrapped again, from this line (the parser saw a cell's marks inside a line); null otherwise. */
  rewrapped: { line: number } | null;
  /** Subagent runs whose tool calls the log shows only as a count (ingest: EventSink.subagentsNotRecorded); null when none. */
  subagentsNotRecorded?: { runs: number; calls: number; line: number } | null;
  /** The log stops before the run finished; set by the analyser before the rules' finish(). */
  incomplete: IncompleteRun | null;
  totalLines: number;
}

export interface IncompleteRun {
  /** `unanswered-call`: the log ends on a tool call with no result; `no-closing-record`: a
   *  headless run lacks its final record (`result`, `turn.completed`); `own-export`: the only
   *  unanswered calls export this very log (their result cannot be in it), so the run is complete. */
  kind: 'unanswered-call' | 'no-closing-record' | 'own-export';
  reason: string;
  /** The event to point at as evidence (the unanswered call, or the parser's notice). */
  eventIndex?: number;
  /** `unanswered-call`: one of the calls could have changed something outside the working tree. */
  consequential?: boolean;
  /** The unanswered call that exports this very log, when there is one (the log is its copy). */
  exportIndex?: number;
}

export interface RuleContext {
  readonly session: SessionFacts;
  report(draft: FindingDraft): void;
}

export interface RuleHandler {
  onEvent(event: NormEvent, facts: EventFacts): void;
  finish?(): void;
}

export interface Rule {
  /** One module may define several related rule ids; each finding names one of them. */
  metas: RuleMeta[];
  create(ctx: RuleContext): RuleHandler;
}
