// Collects the rules' finding drafts: merges repeats of the same rule and key into one finding
// (evidence appended, capped), merges drafts that name the same cause — across rules and keys —
// into one finding too, resolves evidence to timeline entries, and orders the result.
import { SEVERITY_ORDER, type Finding, type Severity } from '../model/report.ts';
import type { FindingDraft, RuleMeta } from '../rules/types.ts';
import type { TimelineBuilder } from './timeline.ts';

const EVIDENCE_MAX = 10;
const EXCERPT_MAX = 300;

/** Cut with a marker: the final masking pass recognises what a cut left of a secret by the "…". */
function clipMarked(text: string, max: number): string {
  return text.length <= max ? text : text.slice(0, max - 1) + '…';
}
const FINDINGS_MAX = 500;

interface Pending {
  meta: RuleMeta;
  /** The rule+key of every draft merged here: more than one means a cause grouped them. */
  members: Set<string>;
  cause: FindingDraft['cause'];
  severity: Severity;
  title: string;
  detail: string;
  evidence: { timeline_index: number; excerpt: string }[];
  occurrences: number;
  first: number;
  /** The event index of its first evidence: where a posture began (its record is not in the timeline). */
  firstEvent: number;
  posture: boolean;
  /** Every draft merged here was a change the agent's default sandbox allows unasked (FindingDraft.sandboxAllows). */
  sandboxAllows: boolean;
  /** The member (rule and key) each evidence line came from. */
  evidenceOf: string[];
  /** A member merged after the evidence was full replaced a repeat: the lines shown are not the first ones. */
  reordered: boolean;
  /** The leading draft's reach (FindingDraft.reach; 0 when it says none). */
  reach: number;
}

/** Categories whose findings are risks a skipped approval let through (not coverage, reliability, context …). */
const RISK_CATEGORIES = new Set(['destructive', 'secrets', 'exfiltration', 'injection', 'permissions', 'supply-chain', 'scope', 'ci']);

export interface CollectedFinding extends Finding {
  occurrences: number;
  weight: number;
}

export class FindingCollector {
  private readonly byKey = new Map<string, Pending>();
  /** Drafts naming a rule id nobody registered: a programming error, surfaced in tests. */
  readonly unknownRules = new Set<string>();

  constructor(
    private readonly metas: Map<string, RuleMeta>,
    private readonly timeline: TimelineBuilder,
    /** Masks any secret in texts the rules wrote (defence in depth: rules already mask). */
    private readonly mask: (text: string) => string,
  ) {}

  add(draft: FindingDraft): void {
    const meta = this.metas.get(draft.rule);
    if (!meta) {
      this.unknownRules.add(draft.rule);
      return;
    }
    const member = `${draft.rule}\u0000${draft.key ?? ''}`;
    const key = draft.cause ? `\u0001cause\u0000${draft.cause.id}` : member;
    const evidence = draft.evidence.map((e) => ({ timeline_index: this.timeline.timelineIndexOf(e.index), excerpt: clipMarked(this.mask(e.excerpt), EXCERPT_MAX) }));
    const existing = this.byKey.get(key);
    if (existing) return this.merge(existing, meta, member, draft, evidence);
    if (this.byKey.size >= FINDINGS_MAX) return;
    const kept = evidence.slice(0, EVIDENCE_MAX);
    for (const e of kept) this.timeline.pin(e.timeline_index);
    this.byKey.set(key, {
      meta,
      members: new Set([member]),
      cause: draft.cause,
      severity: draft.severity ?? meta.severity,
      title: this.mask(draft.title ?? meta.title),
      detail: this.mask(draft.detail),
      evidence: kept,
      occurrences: 1,
      first: evidence[0]?.timeline_index ?? Number.MAX_SAFE_INTEGER,
      firstEvent: draft.evidence[0]?.index ?? Number.MAX_SAFE_INTEGER,
      posture: draft.posture === true,
      sandboxAllows: draft.sandboxAllows === true,
      evidenceOf: kept.map(() => member),
      reordered: false,
      reach: draft.reach ?? 0,
    });
  }

  /** Final list: ordered by severity, then by where it first happened; ids f1, f2, …. */
  finish(): CollectedFinding[] {
    this.raisePostures();
    const list = [...this.byKey.values()].sort(
      (a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] || a.first - b.first || a.meta.id.localeCompare(b.meta.id),
    );
    return list.map((p, i) => {
      const id = `f${i + 1}`;
      for (const e of p.evidence) this.timeline.tag(e.timeline_index, id);
      const more = p.evidence.length > 0 && p.occurrences > p.evidence.length ? ` (${p.occurrences} occurrences; ${p.evidence.length === 1 ? 'one is' : p.reordered && new Set(p.evidenceOf).size === p.members.size ? `${p.evidence.length}, each place at least once, are` : p.reordered ? `${p.evidence.length} are` : `the first ${p.evidence.length} are`} shown)` : '';
      const detail = p.cause && p.members.size > 1 ? `${this.mask(p.cause.summary)} One cause, reported once: ${p.members.size} findings merged.` : p.detail;
      return {
        id,
        rule: p.meta.id,
        category: p.meta.category,
        severity: p.severity,
        title: p.title,
        detail: detail + more,
        evidence: p.evidence,
        remediation: p.meta.remediation,
        occurrences: p.occurrences,
        weight: p.meta.weight ?? 1,
      };
    });
  }

  /**
   * A posture finding (approvals skipped) is context: risky findings after it are what it let
   * through unasked, and it names them, staying an info (each is a finding of its own). It is a
   * warning only when its own evidence holds risky calls the posture rule saw (code from outside
   * the project run unasked), which no other finding reports.
   */
  private raisePostures(): void {
    for (const p of this.byKey.values()) {
      if (!p.posture) continue;
      // Only what happened after the posture began (Codex can switch to "never" mid-session): the
      // posture record is often not in the timeline, so event indices decide.
      const start = p.firstEvent;
      const risky = [...this.byKey.values()].filter((o) => !o.posture && !o.sandboxAllows && o.severity !== 'info' && RISK_CATEGORIES.has(o.meta.category) && o.firstEvent >= start);
      const own = p.evidence.length > 1;
      if (risky.length === 0 && !own) continue;
      // The calls it let through are findings of their own, each at its own severity: the posture
      // stays the context that names them (held-out reviewers called a second warning for the
      // same calls redundant, issue 25 item 4). Only risky calls the posture rule itself saw, and
      // no other finding covers, make it a warning.
      if (own) p.severity = 'warning';
      const names = risky.slice(0, 3).map((o) => o.title.toLowerCase());
      const let_ = names.length > 0 ? ` It let these through without asking anyone: ${names.join('; ')}${risky.length > 3 ? ` and ${risky.length - 3} more` : ''}.` : '';
      p.detail = `${p.detail}${let_}`;
      for (const o of risky) {
        const e = o.evidence[0];
        if (!e || p.evidence.length >= EVIDENCE_MAX || p.evidence.some((x) => x.timeline_index === e.timeline_index)) continue;
        this.timeline.pin(e.timeline_index);
        p.evidence.push(e);
      }
    }
  }

  private merge(p: Pending, meta: RuleMeta, member: string, draft: FindingDraft, evidence: Pending['evidence']): void {
    p.occurrences++;
    p.sandboxAllows &&= draft.sandboxAllows === true;
    const newMember = !p.members.has(member);
    p.members.add(member);
    const severity = draft.severity ?? meta.severity;
    // A worse instance of the same finding (or, under one cause, a worse rule's) leads — its rule,
    // title and detail explain the severity; so does one as severe that followed the data further
    // (a secret pasted, then committed and pushed: the title says it was pushed).
    if (SEVERITY_ORDER[severity] < SEVERITY_ORDER[p.severity] || (severity === p.severity && (draft.reach ?? 0) > p.reach)) {
      p.meta = meta;
      p.severity = severity;
      p.title = this.mask(draft.title ?? p.meta.title);
      p.detail = this.mask(draft.detail);
      p.reach = draft.reach ?? 0;
    }
    // Only evidence the finding keeps pins its step: a step past the timeline's cap that no
    // finding shows would be kept for nothing (on a huge log, one per repeated finding).
    // A new member under one cause (the same value written into a file after fifty commands) is
    // another sink of the event: its first line is shown even when the evidence is full, in
    // place of a later repeat of a member already shown.
    const first = evidence[0];
    if (newMember && first && p.evidence.length >= EVIDENCE_MAX && !p.evidence.some((x) => x.timeline_index === first.timeline_index)) {
      const repeat = lastRepeat(p.evidenceOf);
      if (repeat >= 0) {
        this.timeline.pin(first.timeline_index);
        p.evidence.splice(repeat, 1);
        p.evidenceOf.splice(repeat, 1);
        p.evidence.push(first);
        p.evidenceOf.push(member);
        p.reordered = true;
      }
      return;
    }
    for (const e of evidence) {
      if (p.evidence.length >= EVIDENCE_MAX) break;
      if (p.evidence.some((x) => x.timeline_index === e.timeline_index && x.excerpt === e.excerpt)) continue;
      this.timeline.pin(e.timeline_index);
      p.evidence.push(e);
      p.evidenceOf.push(member);
    }
  }
}

/** The last shown evidence whose member has another line shown too (-1 when each member shows one). */
function lastRepeat(members: readonly string[]): number {
  for (let i = members.length - 1; i >= 0; i--) if (members.indexOf(members[i]!) !== i) return i;
  return -1;
}
