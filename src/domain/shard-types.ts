// What the two threads of one analysis tell each other (analyze.ts, "Two threads"). Plain data:
// it crosses a worker_threads port as a structured clone.
import type { FindingDraft } from './rules/types.ts';

/** The event index of drafts a rule reported from its finish(), after every event. */
export const FINISH = -1;

/** A draft as a rule reported it: during which event (or FINISH) and which rule (catalogue position). */
export interface TaggedDraft {
  event: number;
  rule: number;
  draft: FindingDraft;
}

/** A rule that raised an error: how often, and the first error (for the coverage finding). */
export interface RuleFailure {
  count: number;
  phase: 'onEvent' | 'finish';
  message: string;
  line: number | null;
}

/** What the shard has done so far: its drafts since the last message, in order. */
export interface ShardProgress {
  /** Events through the shard's rule pass (all of them once `end` is set). */
  events: number;
  drafts: TaggedDraft[];
  /** Set on the last message, after the shard's rules finished. */
  end?: { failures: { rule: number; failure: RuleFailure }[] };
}

/**
 * The other thread's side of a two-thread analysis, as the analysing thread sees it. It runs the
 * rules at `rules` (catalogue positions) over the same bytes, which the analyser hands it as it
 * reads them; this thread runs the others and assembles the report.
 */
export interface RemoteRules {
  readonly rules: ReadonlySet<number>;
  /** The next bytes of the log (the same slices this thread analyses). */
  push(chunk: Uint8Array): void;
  /** The log ended: the other side finishes its rules and sends its last progress (with `end`). */
  end(): void;
  /** Progress the other side already sent, without waiting; undefined when there is none. */
  poll(): ShardProgress | undefined;
  /** Waits for the next progress message (rejects when the other side failed). */
  next(): Promise<ShardProgress>;
}
