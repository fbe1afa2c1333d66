// reliability: signs the agent was struggling rather than working — repeating the same call,
// retrying the same failing command, failing a large share of its tool calls, being interrupted or
// refused, hitting API errors. None of these is harmful by itself; they say how much to trust
// that the end result was reached deliberately. All are context (info) since analyser 0.4.0: on
// every set of real logs reviewers judged, a struggling agent was not what a security lead had to
// look at; what it did while struggling is judged by the other rules.
import { effectsOf } from './effects.ts';
import { failureExcerpt } from './excerpt-window.ts';
import { answerExit } from './exit-status.ts';
import { inputRemoved } from '../model/redaction.ts';
import type { NormEvent, ToolCallEvent, ToolResultEvent } from '../model/events.ts';
import type { ParsedShell } from '../shell/types.ts';
import type { EventFacts, Rule, RuleContext } from './types.ts';
import { clip, describeCall, evidence, meta, plural, pushCapped, QUOTE_MAX, safe, setCapped, type EvidenceItem } from './util.ts';

export const loop = meta({
  id: 'reliability/loop',
  severity: 'info',
  title: 'Agent repeated the same call',
  description: 'The same tool call with the same input ran three or more times in a row. Polling tools (BashOutput, write_stdin …), commands that sleep (waiting for CI), file reads and searches (their offsets and modes are not in the normalised input) and runs where every call failed (reported as failing-retry) are not counted.',
  remediation: 'Look at what the agent was waiting for or stuck on; the result after a loop deserves a closer check.',
});
export const failingRetry = meta({
  id: 'reliability/failing-retry',
  severity: 'info',
  title: 'Failing command retried',
  description: 'The same command failed three or more times in a row unchanged: the same failure each time and no file changed between the runs, so the agent kept trying instead of changing its approach. A fix-and-rerun loop (files edited between runs, or a different failure each time) is iteration, not a retry.',
  remediation: 'Check whether the problem behind the failure was ever solved or worked around.',
});
export const highFailureRate = meta({
  id: 'reliability/high-failure-rate',
  severity: 'info',
  title: 'Many tool calls failed',
  description: 'More than 30 % of at least 10 tool calls failed (error or non-zero exit). Calls the user refused are not counted as failures, nor is exit status 1 that answers a question: grep/rg with no match, a false `test`/`[ ]`, diff/cmp/`git diff --exit-code` finding differences, `which` finding nothing.',
  remediation: 'Skim the failures in the timeline: a result reached through many failed attempts needs a closer review.',
});
export const interrupted = meta({
  id: 'reliability/interrupted',
  severity: 'info',
  title: 'Turns interrupted',
  description: 'The user interrupted the agent or a turn was aborted (interruptions the user follows by resending the same request are listed as such).',
  remediation: 'Read what the user stopped: it often marks the moment the agent went off track.',
});
export const denied = meta({
  id: 'reliability/denied-calls',
  severity: 'info',
  title: 'Tool calls refused',
  description: 'The user or a policy refused tool calls the agent wanted to make. Context: the refused actions did not run, but show what the agent was trying to do.',
  remediation: 'Look at the refused calls to see what the agent attempted.',
});
export const apiErrors = meta({
  id: 'reliability/api-errors',
  severity: 'info',
  title: 'API errors during the session',
  description: 'The model API returned errors (overload, rate limit, network) during the session; work may have been retried or cut short.',
  remediation: 'Check that the session reached its end normally.',
});

const POLLING_TOOLS = /^(BashOutput|TaskOutput|AgentOutputTool|write_stdin|read_output|KillShell|KillBash|TodoWrite|update_plan|todo_write|write_todos)$/i;
const LOOP_MIN = 3;
const RETRY_MIN = 3;
const OPEN_MAX = 2_000;
const COMMANDS_MAX = 500;
const RETRY_FINDINGS_MAX = 10;

const FINGERPRINT_MAX = 4_000;

function fingerprint(call: ToolCallEvent): string {
  const i = call.input;
  const body = i.type === 'command' ? i.command.trim() : JSON.stringify(i, shortStrings);
  return clip(`${call.name}\u0000${body}`, FINGERPRINT_MAX);
}

/**
 * Cuts long strings (a written file's content) before they are serialised: the fingerprint keeps
 * only its first FINGERPRINT_MAX characters, and a string cut to that many characters serialises
 * to at least as many, so the kept prefix — and whether it is clipped — is exactly the same.
 */
function shortStrings(_key: string, value: unknown): unknown {
  return typeof value === 'string' && value.length > FINGERPRINT_MAX ? value.slice(0, FINGERPRINT_MAX) : value;
}

function failed(r: ToolResultEvent): boolean {
  return !r.denied && (r.isError || (r.exitCode !== null && r.exitCode !== 0));
}

interface Streak {
  fp: string;
  count: number;
  failures: number;
  results: number;
  /** The run's first call: its evidence is built only when the run is reported. */
  first: ToolCallEvent;
  firstFacts: EventFacts;
  command: boolean;
}

interface Retry {
  /** Failures in the current unchanged run (same failure, no file changed in between). */
  chain: number;
  chainEvidence: EvidenceItem[];
  /** The longest unchanged run so far, and its evidence. */
  fails: number;
  evidence: EvidenceItem[];
  text: string;
  /** Normalised failure of the last run, to tell "failed again the same way" from a new failure. */
  failure: string;
  /** A file changed (by another call) since the last failure: the rerun tests something new. */
  changedSince: boolean;
}

export const RELIABILITY_RULES: Rule[] = [
  {
    metas: [loop, failingRetry, highFailureRate],
    create(ctx) {
      let streak: Streak | null = null;
      const open = new Map<string, OpenCall>();
      const retries = new Map<string, Retry>();
      let results = 0;
      let failures = 0;
      const failureEvidence: EvidenceItem[] = [];
      return {
        onEvent(event, facts) {
          if (event.kind === 'tool_call') {
            const fp = fingerprint(event);
            // Reads and searches lose offset/limit/mode in the normalised input: repeats of them
            // are usually different pages of one file, not a loop.
            // Calls whose arguments were removed from the file look alike whatever they ran.
            const pollish = POLLING_TOOLS.test(event.name) || event.input.type === 'file_read' || event.input.type === 'search' || inputRemoved(event.input)
              || (event.input.type === 'command' && /\bsleep\s+\d/.test(event.input.command));
            if (streak && streak.fp === fp && !pollish) streak.count++;
            else {
              endStreak(ctx, streak);
              streak = pollish ? null : { fp, count: 1, failures: 0, results: 0, first: event, firstFacts: facts, command: event.input.type === 'command' };
            }
            setCapped(open, event.callId, { fp, event, shell: facts.shell, secrets: facts.secrets.map((h) => h.value) }, OPEN_MAX);
            const fx = effectsOf(event, facts, ctx.session);
            if (fx.writes.length > 0 || fx.deletes.length > 0) noteChange(retries, fp);
          } else if (event.kind === 'tool_result') {
            const call = open.get(event.callId);
            open.delete(event.callId);
            if (event.denied) return;
            results++;
            // grep/rg with no match, a false `test`, diff finding differences: an answer, not a failure.
            const bad = failed(event) && !(call?.event.input.type === 'command' && answerExit(call.event.input.command, call.shell, event));
            if (bad) {
              failures++;
              // (built only while there is room for it)
              if (failureEvidence.length < 5) pushCapped(failureEvidence, evidence(event, `${call ? describeCall(call.event) + ' → ' : ''}${failureExcerpt(event.output)}`, facts, call?.secrets), 5);
            }
            if (call && streak && call.fp === streak.fp) {
              streak.results++;
              if (bad) streak.failures++;
            }
            if (bad && call && call.event.input.type === 'command') noteRetry(retries, call, event, facts);
          }
        },
        finish() {
          endStreak(ctx, streak);
          let n = 0;
          for (const r of retries.values()) {
            if (r.fails < RETRY_MIN || n++ >= RETRY_FINDINGS_MAX) continue;
            ctx.report({ rule: failingRetry.id, detail: `\`${r.text}\` failed ${r.fails} times the same way, with no file changed between the runs.`, evidence: r.evidence, key: r.text });
          }
          if (results >= 10 && failures / results > 0.3) {
            ctx.report({ rule: highFailureRate.id, detail: `${failures} of ${results} tool calls failed (${Math.round((failures / results) * 100)} %).`, evidence: failureEvidence });
          }
        },
      };
    },
  },
  {
    metas: [interrupted, denied, apiErrors],
    create(ctx) {
      const counts = { interrupted: 0, denied: 0, api: 0 };
      const ev = { interrupted: [] as EvidenceItem[], denied: [] as EvidenceItem[], api: [] as EvidenceItem[] };
      const note = (k: keyof typeof counts, e: NormEvent, text: string) => {
        counts[k]++;
        pushCapped(ev[k], { index: e.index, excerpt: safe(text) }, 10);
      };
      // An interruption the user follows by sending the same request again is the user's own
      // retry (a cancelled request resent), not a sign the agent went wrong: it is listed, but
      // only the others make the finding a warning.
      const resends = { lastPrompt: '', pending: 0, resent: 0 };
      const interruptedHere = () => {
        resends.pending++;
      };
      return {
        onEvent(event, facts) {
          if (event.kind === 'prompt' && !event.synthetic && event.agentId === undefined) {
            if (resends.pending > 0 && isResend(resends.lastPrompt, event.text)) resends.resent += resends.pending;
            resends.pending = 0;
            resends.lastPrompt = event.text.slice(0, 2_000);
          }
          if (event.kind === 'interrupt') {
            note('interrupted', event, event.reason || 'interrupted');
            interruptedHere();
          } else if (event.kind === 'tool_result' && event.interrupted) {
            note('interrupted', event, `${facts.call ? describeCall(facts.call) + ': ' : ''}interrupted`);
            interruptedHere();
          }
          if (event.kind === 'tool_result' && event.denied) note('denied', event, facts.call ? safe(describeCall(facts.call), facts) : event.output);
          if (event.kind === 'error' || (event.kind === 'system' && /api[_-]?error/i.test(event.subtype))) note('api', event, safe(event.text, facts));
        },
        finish() {
          const resent = resends.resent > 0 ? ` ${resends.resent} of them the user followed by sending the same request again.` : '';
          report(ctx, interrupted.id, counts.interrupted, ev.interrupted, 'turn interrupted', 'turns interrupted', counts.interrupted - resends.resent >= 3, resent);
          report(ctx, denied.id, counts.denied, ev.denied, 'tool call refused', 'tool calls refused', false);
          report(ctx, apiErrors.id, counts.api, ev.api, 'API error', 'API errors', false);
        },
      };
    },
  },
];

function endStreak(ctx: RuleContext, s: Streak | null): void {
  if (!s || s.count < LOOP_MIN) return;
  // Every call failed: that is a failing retry (commands) rather than a loop.
  if (s.command && s.results > 0 && s.failures === s.results) return;
  const first = evidence(s.first, describeCall(s.first), s.firstFacts);
  ctx.report({ rule: loop.id, detail: `The same call ran ${s.count} times in a row: \`${clip(first.excerpt, QUOTE_MAX)}\`.`, evidence: [first], key: s.fp });
}

interface OpenCall {
  fp: string;
  event: ToolCallEvent;
  shell: ParsedShell | undefined;
  /** Secrets found in the call itself, to mask when it is quoted next to its result. */
  secrets: string[];
}

/**
 * A call changed files: every other failing command's next run tests changed code (a fix-and-rerun
 * loop), so it starts a new chain. The command's own writes (`npm test > log`) do not count.
 */
function noteChange(retries: Map<string, Retry>, fp: string): void {
  for (const [key, r] of retries) if (key !== fp) r.changedSince = true;
}

/** The failure with numbers (timings, line numbers, pids, ports) blurred, to compare two runs. */
function failureShape(output: string): string {
  return failureExcerpt(output).replace(/\d+/g, '#');
}

function noteRetry(retries: Map<string, Retry>, call: OpenCall, result: ToolResultEvent, facts: EventFacts): void {
  const failure = failureShape(result.output);
  let r = retries.get(call.fp);
  if (!r) {
    r = { chain: 0, chainEvidence: [], fails: 0, evidence: [], text: safe(describeCall(call.event), facts, QUOTE_MAX, call.secrets), failure, changedSince: false };
    setCapped(retries, call.fp, r, COMMANDS_MAX);
  }
  if (r.chain > 0 && (r.changedSince || r.failure !== failure)) {
    r.chain = 0;
    r.chainEvidence = [];
  }
  r.chain++;
  r.failure = failure;
  r.changedSince = false;
  pushCapped(r.chainEvidence, { index: result.index, excerpt: safe(`${describeCall(call.event)} → ${failureExcerpt(result.output)}`, facts, undefined, call.secrets) }, 5);
  if (r.chain > r.fails) {
    r.fails = r.chain;
    r.evidence = r.chainEvidence;
  }
}

function report(ctx: RuleContext, rule: string, n: number, ev: EvidenceItem[], one: string, many: string, loud: boolean, more = ''): void {
  if (n === 0) return;
  ctx.report({ rule, detail: `${plural(n, one, many)}.${more}${loud ? ' Many: worth a glance at what was stopped.' : ''}`, evidence: ev });
}

/** The same request sent again: one prompt begins with the other (whitespace and case aside). */
export function isResend(before: string, after: string): boolean {
  const norm = (t: string) => t.replace(/\s+/g, ' ').trim().toLowerCase().slice(0, 200);
  const a = norm(before);
  const b = norm(after);
  if (a.length < 8 || b.length < 8) return a === b && a !== '';
  const n = Math.min(a.length, b.length, 80);
  return a.slice(0, n) === b.slice(0, n);
}
