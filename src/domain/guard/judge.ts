// The guard's judgement of one pending tool call: the analyser's own rule catalogue runs over the
// session so far (session.ts) followed by the pending call, and the findings that point at the
// pending call decide — through the policy — deny, ask or allow, with a one-line reason.
//
// Two passes: with the context (what the user asked, secrets seen, files read, the branch) and
// the pending call alone behind the prompts. Rules keep one finding per key, so a command tried
// again after a denial would be merged into the stored attempt's finding and never reach the
// pending call; the second pass sees it afresh. Findings of either pass count.
import type { AgentId, NormEvent, ToolCallEvent, ToolResultEvent } from '../model/events.ts';
import type { Severity } from '../model/report.ts';
import type { EventFacts, FindingDraft, IngestFacts, Rule, SessionFacts } from '../rules/types.ts';
import type { SecretHit } from '../secrets/types.ts';
import type { ParsedShell } from '../shell/types.ts';
import type { RuleMeta } from '../rules/types.ts';
import { DESTRUCTIVE_RULES } from '../rules/destructive.ts';
import { SECRETS_RULES } from '../rules/secrets.ts';
import { EXFILTRATION_RULES } from '../rules/exfiltration.ts';
import { EXPOSURE_RULES } from '../rules/exposure.ts';
import { INJECTION_RULES } from '../rules/injection.ts';
import { PERMISSIONS_RULES } from '../rules/permissions.ts';
import { TRUST_RULES } from '../rules/trust-settings.ts';
import { CREDENTIAL_HUNT_RULES } from '../rules/credential-hunt.ts';
import { CIRCUMVENTION_RULES } from '../rules/circumvention.ts';
import { SUPPLY_CHAIN_RULES } from '../rules/supply-chain.ts';
import { NPX_LOOKALIKE_RULES } from '../rules/npx-lookalikes.ts';
import { SCOPE_RULES } from '../rules/scope.ts';
import { LIVE_SYSTEM_RULES } from '../rules/live-systems.ts';
import { PROHIBITION_RULES } from '../rules/prohibitions.ts';
import { UNREQUESTED_PUSH_RULES } from '../rules/unrequested-push.ts';
import { REPOSITORY_PUBLISHED_RULES } from '../rules/repository-published.ts';
import { CI_RULES } from '../rules/ci.ts';
import { effectsOf, type Effects } from '../rules/effects.ts';
import { detectSecrets } from '../secrets/detect.ts';
import { loadShellParser, parseShell, parseShellWithoutTree } from '../shell/parse.ts';
import { commandSource } from '../shell/unwrap.ts';
import { textsOf } from '../event-texts.ts';
import { maskKnown } from '../secrets/mask.ts';
import { describeCall } from '../rules/util.ts';
import { guessHome } from '../paths.ts';
import { actionFor, commandAllowed, pathAllowed, type GuardPolicy, type RuleAction } from './policy.ts';
import { oneLine, type GuardDecision, type PendingCall } from './payload.ts';
import { GUARD_DENIAL_MARK } from './mark.ts';
import { secretsCarried, type GuardSession } from './session.ts';
import { concernBeforeRun } from './before-run.ts';
import { discardsOnlyHere } from './worktree.ts';

const SUMMARY_MAX = 300;

/**
 * The catalogue's rules that can judge one call (rules/index.ts has them all). Left out — and
 * not even loaded, to keep the hook fast — are those that judge a session as a whole: claims
 * against test runs (integrity), retries and failure rates (reliability), what the log let Vouch
 * read (coverage), the session summary (context), and files overwritten then pushed (overwrite: a
 * sequence of overwrite, commit and push judged with the file's earlier text).
 */
export const GUARD_RULES: Rule[] = [
  ...DESTRUCTIVE_RULES, ...SECRETS_RULES, ...EXFILTRATION_RULES, ...EXPOSURE_RULES, ...INJECTION_RULES, ...PERMISSIONS_RULES,
  ...CIRCUMVENTION_RULES, ...SUPPLY_CHAIN_RULES, ...NPX_LOOKALIKE_RULES, ...SCOPE_RULES, ...LIVE_SYSTEM_RULES, ...PROHIBITION_RULES, ...UNREQUESTED_PUSH_RULES, ...REPOSITORY_PUBLISHED_RULES, ...CI_RULES, ...TRUST_RULES, ...CREDENTIAL_HUNT_RULES,
];
const RULE_METAS: Map<string, RuleMeta> = new Map(GUARD_RULES.flatMap((r) => r.metas).map((m) => [m.id, m]));

export interface JudgedFinding {
  rule: string;
  severity: Severity;
  title: string;
  detail: string;
  action: RuleAction;
}

export interface Judgement {
  decision: GuardDecision;
  /** One line, shown by the agent (and to the model for a deny). */
  reason: string;
  /** What the policy would have done in enforce mode (dry-run answers allow). */
  wouldBe: GuardDecision;
  findings: JudgedFinding[];
  /** The call in a reviewer's words, secrets masked, clipped: what the journal and the report quote. */
  summary: string;
}

/** Judges the pending call. Never throws on input; the caller still fails open on any error. */
export async function judge(pending: PendingCall, session: GuardSession, policy: GuardPolicy): Promise<Judgement> {
  const asWritten = await judgeCall(pending, session, policy);
  const joined = asWritten.wouldBe === 'allow' && pending.call.input.type === 'command' ? joinSplitOptions(pending.call.input.command) : null;
  if (joined === null || pending.call.input.type !== 'command') return asWritten;
  // `git reset\n--hard`: the shell runs `git reset`, then fails on `--hard`; one edit away (a lost
  // backslash) it runs as written on one line. Asked about as the writer meant it.
  const meant = await judgeCall({ ...pending, call: { ...pending.call, input: { ...pending.call.input, command: joined } } }, session, policy);
  if (meant.wouldBe === 'allow') return asWritten;
  const by = meant.findings.find((f) => f.action === 'deny') ?? meant.findings.find((f) => f.action === 'ask');
  const what = `a line of this command starts with an option, cut from the command above it by a line break; joined, as it reads, it is \`${clip(joined.replace(/\s+/g, ' '), 120)}\`${by ? `: ${by.title} [${by.rule}]` : ''}`;
  const decision: GuardDecision = policy.mode === 'dry-run' ? 'allow' : 'ask';
  const reason = policy.mode === 'dry-run' ? oneLine(`Vouch guard (dry run) would ask: ${what}`) : oneLine(`Vouch guard asks: ${what}. It has not run yet.`);
  return { ...meant, decision, wouldBe: 'ask', reason };
}

/**
 * The command with each line that starts with an option joined to the line above (`git reset\n--hard`
 * → `git reset --hard`), or null when no line does. A line ending in `\\` already continues;
 * one ending in an operator (`&&`, `|`, `;`) or inside a heredoc is left alone.
 */
export function joinSplitOptions(command: string): string | null {
  if (!command.includes('\n') || /<<-?\s*['"]?\w/.test(command)) return null;
  const joined = command.replace(/([^\s\\&|;(])[ \t]*\r?\n[ \t]*(?=--?[A-Za-z])/g, '$1 ');
  return joined === command ? null : joined;
}

async function judgeCall(pending: PendingCall, session: GuardSession, policy: GuardPolicy): Promise<Judgement> {
  const cwd = pending.cwd ?? session.cwd;
  const call = { ...pending.call };
  const home = pending.home ?? (cwd ? guessHome(cwd) : null);
  const drafts = await findingsOnCall(call, session, cwd, home, pending.agent);
  const facts = await factsFor(call);
  const findings = dedupe(drafts).map((d) => judged(d, policy)).filter((f) => f.action !== 'off');
  const sessionFacts = sessionFactsFor(cwd, home, pending);
  const wouldBe = decide(findings, policy, call, facts, sessionFacts, pending);
  const decision = policy.mode === 'dry-run' ? 'allow' : wouldBe.decision;
  const summary = clip(maskKnown(describeCall(call), facts.secrets.map((h) => h.value)), SUMMARY_MAX);
  return { decision, wouldBe: wouldBe.decision, reason: reasonFor(decision, wouldBe, policy), findings, summary };
}

async function findingsOnCall(call: ToolCallEvent, session: GuardSession, cwd: string | null, home: string | null, agent: AgentId | null): Promise<FindingDraft[]> {
  // The pending call stands last; stored copies of it (the agent may have written it to the
  // transcript before asking) are left out.
  const context = session.events.filter((e) => !(e.kind === 'tool_call' && e.callId === call.callId) && !(e.kind === 'tool_result' && e.callId === call.callId));
  const carried = secretsCarried(session, textsOf(call));
  const shown: NormEvent[] = carried.map((text, i) => ({ kind: 'tool_result', index: -1, line: 0, at: null, callId: `vouch-guard-seen-${i}`, output: text, exitCode: 0, isError: false, denied: false }) satisfies ToolResultEvent);
  const prompts = context.filter((e) => e.kind === 'prompt');
  const meta: NormEvent = { kind: 'session_meta', index: -1, line: 0, at: null, cwd: cwd ?? undefined, branch: session.branch ?? undefined };
  const withContext = await runOver([meta, ...context, ...shown, call], cwd, home, agent);
  if (!context.some((e) => e.kind === 'tool_call')) return withContext; // nothing earlier to merge into
  const alone = await runOver([meta, ...prompts, ...shown, call], cwd, home, agent);
  return [...withContext, ...alone];
}

/** What the guard knows of its input: the events it built itself, all read. */
function cleanIngest(totalLines: number): IngestFacts {
  return {
    skippedLines: 0, skippedSamples: [], oversizeLines: 0, invalidUtf8Lines: 0, truncatedTail: false, binary: false,
    missingSubagents: [], agentHint: null, hintConflict: false, lowConfidence: false, unrecognisedJson: false, incomplete: null,
    unknownMetadata: [], totalLines, toolsNotRecorded: null, rewrapped: null,
  };
}

/** Runs the guard's rules over the events; returns the drafts with evidence on the last one. */
async function runOver(events: NormEvent[], cwd: string | null, home: string | null, agent: AgentId | null): Promise<FindingDraft[]> {
  const ingest = cleanIngest(events.length);
  // the agent that will run the call: what its tools can do matters (can it type into a prompt?)
  const sessionFacts: SessionFacts = { agent, format: 'claude-code-transcript', cwd, home, ingest };
  const drafts: FindingDraft[] = [];
  const handlers = GUARD_RULES.map((r) => r.create({ session: sessionFacts, report: (d) => drafts.push(d) }));
  const calls = new Map<string, ToolCallEvent>();
  const last = events.length - 1;
  for (const [i, e] of events.entries()) {
    const event = { ...e, index: i, line: i + 1 } as NormEvent;
    const facts = await factsFor(event, calls);
    for (const h of handlers) safely(() => h.onEvent(event, facts));
  }
  for (const h of handlers) safely(() => h.finish?.());
  return drafts.filter((d) => d.evidence.some((ev) => ev.index === last));
}

async function factsFor(event: NormEvent, calls = new Map<string, ToolCallEvent>()): Promise<EventFacts> {
  const secrets: SecretHit[] = [];
  for (const text of textsOf(event)) if (text) secrets.push(...(await detectSecrets(text)));
  const facts: EventFacts = { secrets };
  if (event.kind === 'tool_call') {
    if (event.input.type === 'command') facts.shell = await shellOf(commandSource(event.input));
    calls.set(event.callId, event);
  } else if (event.kind === 'tool_result') {
    facts.call = calls.get(event.callId);
  }
  return facts;
}

/** The parsed command, loading tree-sitter only for a line the plain path cannot read. */
async function shellOf(command: string): Promise<ParsedShell> {
  const plain = parseShellWithoutTree(command);
  if (plain) return plain;
  await loadShellParser();
  return parseShell(command);
}

function sessionFactsFor(cwd: string | null, home: string | null, pending: PendingCall): SessionFacts {
  return {
    agent: pending.agent, format: 'claude-code-transcript', cwd, home,
    ingest: cleanIngest(0),
  };
}

function dedupe(drafts: FindingDraft[]): FindingDraft[] {
  const seen = new Set<string>();
  return drafts.filter((d) => {
    const k = `${d.rule}\u0000${severityOf(d)}\u0000${d.detail}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

function severityOf(d: FindingDraft): Severity {
  return d.severity ?? RULE_METAS.get(d.rule)?.severity ?? 'warning';
}

function judged(d: FindingDraft, policy: GuardPolicy): JudgedFinding {
  const severity = severityOf(d);
  const title = d.title ?? RULE_METAS.get(d.rule)?.title ?? d.rule;
  return { rule: d.rule, severity, title, detail: d.detail, action: actionFor(policy, d.rule, severity) };
}

interface Decided {
  decision: GuardDecision;
  by: JudgedFinding | null;
  allowListed: 'command' | 'paths' | 'worktree' | null;
}

/** The asking finding a concern stands for, so the journal and the reason read like a rule's. */
const CONCERN_RULE = 'guard/before-run';

function decide(findings: JudgedFinding[], policy: GuardPolicy, call: ToolCallEvent, facts: EventFacts, session: SessionFacts, pending: PendingCall): Decided {
  const by = findings.find((f) => f.action === 'deny') ?? findings.find((f) => f.action === 'ask') ?? null;
  const listed = call.input.type === 'command' && commandAllowed(policy, call.input.command);
  const fx = effectsOf(call, facts, session);
  // The command allow-list is the user's word on this exact command: it answers every question.
  // A relaxation (a disposable worktree, allowed paths) clears findings, not the questions below.
  const concern = listed ? null : concernBeforeRun(call, fx.commands, session.cwd, policy);
  const asked: Decided | null = concern ? { decision: 'ask', by: { rule: CONCERN_RULE, severity: 'warning', title: concern.title, detail: concern.detail, action: 'ask' }, allowListed: null } : null;
  if (!by) return asked ?? { decision: 'allow', by: null, allowListed: null };
  if (listed) return { decision: 'allow', by, allowListed: 'command' };
  if (inDisposableWorktree(findings, policy, fx.commands, session.cwd, pending)) return asked ?? { decision: 'allow', by, allowListed: 'worktree' };
  const touched = [...fx.writes, ...fx.deletes];
  if (touched.length > 0 && fx.net.length === 0 && touched.every((op) => pathAllowed(policy, op.abs, session.home))) {
    return asked ?? { decision: 'allow', by, allowListed: 'paths' };
  }
  return { decision: by.action === 'deny' ? 'deny' : 'ask', by, allowListed: null };
}

/**
 * `[worktrees] linked = "disposable"`: in a linked worktree with a plain configuration, a call
 * whose only stopping findings are discards of uncommitted work, made by one plain git command
 * right there, is the worktree's own business.
 */
function inDisposableWorktree(findings: JudgedFinding[], policy: GuardPolicy, commands: Effects['commands'], cwd: string | null, pending: PendingCall): boolean {
  if (policy.linkedWorktrees !== 'disposable' || !pending.worktree?.linked || !pending.worktree.plainConfig) return false;
  const stopping = findings.filter((f) => f.action === 'deny' || f.action === 'ask');
  return stopping.every((f) => f.rule === 'destructive/git-discard') && discardsOnlyHere(commands, cwd, pending.env ?? {});
}

function reasonFor(decision: GuardDecision, d: Decided, policy: GuardPolicy): string {
  if (!d.by) return 'Vouch guard: no finding on this call.';
  const detail = d.by.detail.replace(/\s*The result is not in the log\.?/g, '');
  const what = `${d.by.title}: ${detail} [${d.by.rule}]`;
  if (d.allowListed) return oneLine(`Vouch guard allowed this (${ALLOWED_BECAUSE[d.allowListed]}): ${what}`);
  if (policy.mode === 'dry-run') return oneLine(`Vouch guard (dry run) would ${d.decision}: ${what}`);
  // The rules describe what a call did, as a report reads it afterwards ("deleted", "overwrote");
  // a refused call did nothing, so the reason says so before it says what the call would do.
  const named = `${d.by.title} [${d.by.rule}]`;
  if (decision === 'deny') return oneLine(`${GUARD_DENIAL_MARK}: ${named}. It did not run. Had it run: ${detail}`);
  return oneLine(`Vouch guard asks: ${named}. It has not run yet. If it runs: ${detail}`);
}

const ALLOWED_BECAUSE: Record<NonNullable<Decided['allowListed']>, string> = {
  command: 'the command is on the allow-list',
  paths: 'every path it changes is on the allow-list',
  worktree: 'it only discards uncommitted work in this linked worktree, which the policy calls disposable',
};

function clip(text: string, max: number): string {
  return text.length > max ? text.slice(0, max - 1) + '…' : text;
}

function safely(fn: () => void): void {
  try {
    fn();
  } catch {
    // A rule bug must not decide a call; the other rules still judge it.
  }
}
