// Calls the guard prevented (`vouch guard` denied them before they ran; the agent logged the
// denial as the call's result) are not scored as if they had run: a finding whose evidence is
// only such calls becomes an info, "Prevented: …", that quotes the call and says the guard
// denied it. Findings on a call are held until its result shows whether it ran (most rules
// report a command when they see it); a call whose result never comes keeps its findings.
//
// Working around a denial: rules keep one finding per target (a path, a host, a branch), so a
// later call that draws the same rule's finding for the same target did what the guard refused,
// by another route (`rm -rf ~/x` denied, then `python -c "shutil.rmtree(...)"`). Before the user
// says anything else, that is `permissions/refusal-worked-around` (circumvention.ts) at the
// severity of what was done.
import type { NormEvent, ToolCallEvent, ToolResultEvent } from '../model/events.ts';
import type { FindingDraft } from '../rules/types.ts';
import type { Severity } from '../model/report.ts';
import { describeCall } from '../rules/util.ts';
import { GUARD_DENIAL_MARK, isGuardDenial } from '../guard/mark.ts';
import { guardDenialWorkedAround } from '../rules/circumvention.ts';
import { boundedSet } from '../bounded.ts';

const OPEN_MAX = 5_000;
const QUOTE_MAX = 200;

export class PreventionGate {
  private readonly open = new Map<number, ToolCallEvent>();
  private readonly held = new Map<number, FindingDraft[]>();
  private readonly prevented = new Map<number, string>();
  /** The guard's own reason for each denial, and whether a rule's finding already reported it. */
  private readonly denials = new Map<number, { reason: string; reported: boolean }>();
  /** Rule and target of each finding the guard prevented since the user's last prompt. */
  private readonly refused = new Map<string, { what: string; draft: FindingDraft }>();

  constructor(
    private readonly sink: (draft: FindingDraft) => void,
    private readonly metaOf: (rule: string) => { title: string; severity: Severity } | undefined,
  ) {}

  /** Before the rules see the event: tracks calls, marks the guard's denials as refusals. */
  observe(event: NormEvent, call: ToolCallEvent | undefined): void {
    if (event.kind === 'prompt' && !event.synthetic && event.agentId === undefined) {
      this.refused.clear();
      return;
    }
    if (event.kind === 'tool_call') {
      this.open.set(event.index, event);
      if (this.open.size > OPEN_MAX) this.release(this.open.keys().next().value as number);
      return;
    }
    if (event.kind !== 'tool_result' || !call) return;
    if (isGuardDenial(event)) {
      (event as ToolResultEvent).denied = true;
      this.prevented.set(call.index, describeCall(call));
      boundedSet(this.denials, call.index, { reason: (event as ToolResultEvent).output, reported: false }, OPEN_MAX);
    }
    this.release(call.index);
  }

  report(draft: FindingDraft): void {
    const indices = draft.evidence.map((e) => e.index);
    if (indices.length === 0) return this.sink(draft);
    if (indices.every((i) => this.prevented.has(i))) return this.sink(this.asPrevented(draft, indices[0]));
    const waiting = indices.filter((i) => this.open.has(i));
    if (waiting.length > 0 && indices.every((i) => this.open.has(i) || this.prevented.has(i))) {
      const at = Math.max(...waiting);
      const list = this.held.get(at) ?? [];
      list.push(draft);
      this.held.set(at, list);
      return;
    }
    this.pass(draft);
  }

  /** A finding on calls that ran (or whose result is unknown): checked against earlier denials. */
  private pass(draft: FindingDraft): void {
    this.sink(draft);
    if (draft.rule === 'permissions/refusal-worked-around') return;
    const earlier = this.refused.get(targetOf(draft));
    if (!earlier) return;
    this.refused.delete(targetOf(draft));
    const meta = this.metaOf(draft.rule);
    this.sink(guardDenialWorkedAround(earlier.what, earlier.draft, { ...draft, severity: draft.severity ?? meta?.severity }, draft.title ?? meta?.title ?? draft.rule));
  }

  /**
   * At the end: findings on calls that never got a result stand as they are; a denial no rule
   * could judge from the log (Gemini CLI records no cwd, so `rm -rf ~/x` cannot be placed) is
   * still "Prevented: …", by the rule the guard named — the guard saw the cwd when it decided.
   */
  finish(): void {
    for (const index of [...this.held.keys()]) this.release(index);
    for (const [index, d] of this.denials) {
      if (d.reported) continue;
      const draft = this.fromReason(index, d.reason);
      if (draft) this.sink(this.asPrevented(draft, index));
    }
  }

  /** The rule and judgement the guard wrote into its denial (`… [destructive/rm-outside-worktree]`). */
  private fromReason(index: number, reason: string): FindingDraft | null {
    const at = reason.indexOf(GUARD_DENIAL_MARK);
    const text = reason.slice(at + GUARD_DENIAL_MARK.length).replace(/^[:\s]+/, '');
    const rule = /\[([a-z-]+\/[a-z0-9-]+)\]/.exec(text)?.[1];
    if (!rule || !this.metaOf(rule)) return null;
    // `Title [rule]. It did not run. Had it run: detail` (older guards: `Title: detail [rule]`)
    const judged = /Had it run: (.*)$/s.exec(text)?.[1] ?? text.replace(/\s*\[[a-z-]+\/[a-z0-9-]+\]\s*/, ' ').trim();
    const what = this.prevented.get(index) ?? '';
    return {
      rule,
      detail: `The analyser cannot place this call from the log; the guard judged it when it was made: ${clip(judged, QUOTE_MAX * 2)}`,
      evidence: [{ index, excerpt: clip(what, QUOTE_MAX) }],
      key: `guard:${index}`,
    };
  }

  private release(index: number): void {
    this.open.delete(index);
    const list = this.held.get(index);
    this.held.delete(index);
    for (const d of list ?? []) this.report(d);
  }

  private asPrevented(draft: FindingDraft, index: number): FindingDraft {
    const denial = this.denials.get(index);
    if (denial) denial.reported = true;
    const what = this.prevented.get(index) ?? '';
    boundedSet(this.refused, targetOf(draft), { what, draft }, OPEN_MAX);
    const quoted = what.length > QUOTE_MAX ? what.slice(0, QUOTE_MAX - 1) + '…' : what;
    const title = draft.title ?? this.metaOf(draft.rule)?.title ?? draft.rule;
    return {
      ...draft,
      severity: 'info',
      title: `Prevented: ${title}`,
      detail: `prevented: \`${quoted}\` — guard denied it. ${draft.detail}`,
      key: `${draft.key ?? draft.rule} (prevented)`,
    };
  }
}

function clip(text: string, max: number): string {
  return text.length > max ? text.slice(0, max - 1) + '…' : text;
}

function targetOf(draft: FindingDraft): string {
  return `${draft.rule}\u0000${draft.key ?? ''}`;
}
