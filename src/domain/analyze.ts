// The analyser: a stream of bytes → the report object. Pure orchestration over the domain
// modules (lines → detection → parser → facts → rules → report); the caller does the I/O.
// Memory is bounded by the largest line plus the capped report, never by the file size.
//
// Two passes over each event (docs/performance.md, "Two threads"): the *rule pass* (parse, facts,
// the rules' handlers) and the *report pass* (known secrets, the prevention gate, timeline, tally,
// findings), which takes the drafts the rules reported for that event in catalogue order. On one
// thread the report pass follows each event's rule pass at once. With `opts.remote`, part of the
// catalogue runs on another thread over the same bytes (see shard.ts); the report pass then waits
// until both sides are past an event and merges their drafts in catalogue order, so the report is
// the same byte for byte whichever thread ran which rule.
import type { AgentId, EventSink, LogParser, NormEvent, ToolCallEvent } from './model/events.ts';
import type { Report } from './model/report.ts';
import type { EventFacts, FindingDraft, IngestFacts, Rule, RuleContext, RuleHandler, RuleMeta, SessionFacts } from './rules/types.ts';
import type { SecretHit } from './secrets/types.ts';
import { LineSplitter, type LineInfo, type LineProblem } from './ingest/lines.ts';
import { CALLS_ONLY_FORMATS, LOW_CONFIDENCE_FORMATS } from './agents.ts';
import { LateCapture, type LateStep } from './ingest/late-capture.ts';
import { detectFormat, foreignAgentOf, SAMPLE_MAX_BYTES, SAMPLE_MAX_LINES, TEXT_SAMPLE_MAX_LINES, type DetectResult } from './ingest/detect.ts';
import { FAMILIES, familyFor } from './parsers/index.ts';
import { RULES, RULE_METAS } from './rules/index.ts';
import { ruleFailed } from './rules/coverage.ts';
import { loadShellParser, parseShell } from './shell/parse.ts';
import { commandSource } from './shell/unwrap.ts';
import { detectSecrets, mightContainSecret } from './secrets/detect.ts';
import { knownMasker } from './secrets/mask.ts';
import { onlyText, textsOf } from './event-texts.ts';
import { elidedTail, resolveElided } from './elided-cwd.ts';
import { guessHome, resolvePath } from './paths.ts';
import { TimelineBuilder, DEFAULT_TIMELINE_CAP } from './report/timeline.ts';
import { shellChanges, Tally, type ShellChange } from './report/tally.ts';
import { FindingCollector } from './report/findings.ts';
import { assembleReport } from './report/assemble.ts';
import { CompletionTracker } from './report/completion.ts';
import { PreventionGate } from './report/prevented.ts';
import { isGuardDenial } from './guard/mark.ts';
import { FINISH, type RemoteRules, type RuleFailure, type ShardProgress, type TaggedDraft } from './shard-types.ts';

export type { RemoteRules, ShardProgress, TaggedDraft } from './shard-types.ts';

export interface AnalyzeOptions {
  /** The uploader's agent hint: breaks ties only. */
  agentHint?: AgentId | null;
  filename?: string;
  maxLineBytes?: number;
  timelineCap?: number;
  /**
   * The rule catalogue to run (default: all of RULES). A seam for tests — e.g. a rule that
   * throws — and for embedding a subset; coverage rules should always be part of it.
   */
  rules?: Rule[];
  /** Part of the catalogue (by position) runs elsewhere, over the same bytes: see shard.ts. */
  remote?: RemoteRules;
}

const SKIP_SAMPLES_MAX = 20;
const MAX_UNKNOWN_METADATA_TYPES = 20;
const OPEN_CALLS_MAX = 5_000;
const KNOWN_SECRETS_MAX = 10_000;
// Big reads (the CLI reads 4 MiB at a time) are fed in slices of this size, so the events of one
// slice, not of a whole read, are alive at once: less young-generation garbage, lower peak RSS.
const FEED_SLICE = 256 * 1024;
// With a remote shard: events whose rule pass is done here but whose report pass waits for the
// other thread. Past this many, reading stops until the other thread catches up (bounded memory).
const PENDING_MAX = 2_048;

/** Analyse a whole log given as a byte stream (file, upload, stdin). */
export async function analyzeStream(source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, opts: AnalyzeOptions = {}): Promise<Report> {
  await loadShellParser();
  const run = new AnalysisRun(opts, 'report');
  const remote = opts.remote;
  for await (const chunk of source) {
    for (let off = 0; off < chunk.byteLength; off += FEED_SLICE) {
      const piece = off === 0 && chunk.byteLength <= FEED_SLICE ? chunk : chunk.subarray(off, off + FEED_SLICE);
      remote?.push(piece);
      const pending = run.push(piece);
      if (pending) await pending;
      if (remote) await run.catchUp(PENDING_MAX);
    }
  }
  return run.finish();
}

/**
 * The rule pass alone, for the rules at `ruleIndexes` (positions in the catalogue): what the
 * other thread of a two-thread analysis runs. Each push returns the drafts its rules reported,
 * tagged with their event and rule, and how many events are through; `finish` adds the drafts
 * of the rules' finish() and their failures.
 */
/** A working directory on Windows (`D:\\repos\\app`, `C:/Users/me`): its shell commands are PowerShell's. */
const WINDOWS_DIR = /^[A-Za-z]:[\\/]/;

export class RuleShard {
  private readonly run: AnalysisRun;
  private loaded = false;

  constructor(opts: AnalyzeOptions, ruleIndexes: ReadonlySet<number>) {
    this.run = new AnalysisRun({ ...opts, remote: undefined }, 'rules', ruleIndexes);
  }

  async push(chunk: Uint8Array): Promise<ShardProgress> {
    if (!this.loaded) await this.load();
    const pending = this.run.push(chunk);
    if (pending) await pending;
    return this.run.progress();
  }

  async finish(): Promise<ShardProgress> {
    if (!this.loaded) await this.load();
    return this.run.finishShard();
  }

  private async load(): Promise<void> {
    await loadShellParser();
    this.loaded = true;
  }
}

/** Convenience for tests and small inputs. */
export function analyzeText(text: string, opts: AnalyzeOptions = {}): Promise<Report> {
  return analyzeStream([Buffer.from(text, 'utf8')], opts);
}

/**
 * `report`: the whole analysis (rule pass, then report pass); `rules`: the rule pass only, for the
 * rules given, collecting their drafts for the thread that assembles the report (RuleShard).
 */
type RunMode = 'report' | 'rules';

/** An event through the rule pass, waiting for its report pass (see PENDING_MAX). */
interface PendingEvent {
  event: NormEvent;
  call: ToolCallEvent | undefined;
  secrets: SecretHit[];
  found: string[] | null;
  drafts: TaggedDraft[] | null;
  changes: ShellChange[] | null;
}

class AnalysisRun {
  private readonly splitter: LineSplitter;
  private readonly ingest: IngestFacts;
  private readonly session: SessionFacts;
  private detection: DetectResult | null = null;
  private parser: LogParser | null = null;
  /** Plain text watched for an agent's capture that begins partway (late-capture.ts). */
  private late: LateCapture | null = null;
  private readonly sample: LineInfo[] = [];
  private sampleBytes = 0;
  /** Lines the sample holds before the format is decided (more for text nobody claimed yet). */
  private sampleLines = SAMPLE_MAX_LINES;
  private readonly queue: NormEvent[] = [];
  private eventCount = 0;
  /** The tail of a working directory the banner shortened, until the log shows it whole. */
  private elided: string | null = null;
  private readonly openCalls = new Map<string, ToolCallEvent>();
  private readonly knownSecrets = new Set<string>();
  private masker: (text: string) => string = identity;
  private maskerSize = 0;
  private readonly timeline: TimelineBuilder;
  private readonly tally = new Tally();
  private readonly findings: FindingCollector;
  private readonly rules: Rule[];
  /** The handlers this thread runs, with their rule's position in the catalogue. */
  private readonly handlers: RuleHandler[] = [];
  private readonly handlerRules: number[] = [];
  /** Per rule (catalogue order): its failure, once it has thrown. */
  private readonly failures: (RuleFailure | undefined)[];
  private readonly completion = new CompletionTracker();
  /** Holds findings on a call until its result shows whether `vouch guard` prevented it. */
  private readonly prevention: PreventionGate;
  private readonly sink: EventSink;
  private lastLineFailed = false;
  /** Where a draft being reported now comes from (the event or FINISH, and the rule). */
  private reportingEvent = FINISH;
  private reportingRule = 0;
  private captured: TaggedDraft[] | null = null;
  /** `rules` mode: drafts not yet handed out by progress(). */
  private outbox: TaggedDraft[] = [];
  // With a remote shard: events waiting for their report pass, the shard's drafts not yet
  // merged (in event order), and how many events the shard is through.
  private readonly pending: PendingEvent[] = [];
  private pendingHead = 0;
  private remoteDrafts: TaggedDraft[] = [];
  private remoteHead = 0;
  private remoteEvents = 0;
  private remoteEnd: ShardProgress['end'] | undefined;

  constructor(
    private readonly opts: AnalyzeOptions,
    private readonly mode: RunMode,
    ruleIndexes?: ReadonlySet<number>,
  ) {
    this.ingest = {
      skippedLines: 0, skippedSamples: [], oversizeLines: 0, invalidUtf8Lines: 0, truncatedTail: false, binary: false,
      missingSubagents: [], unknownMetadata: [], agentHint: opts.agentHint ?? null, hintConflict: false, lowConfidence: false,
      unrecognisedJson: false, incomplete: null, totalLines: 0, toolsNotRecorded: null, rewrapped: null,
    };
    this.session = { agent: opts.agentHint ?? null, format: 'plain-text', cwd: null, home: null, ingest: this.ingest };
    this.timeline = new TimelineBuilder(opts.timelineCap ?? DEFAULT_TIMELINE_CAP);
    this.rules = opts.rules ?? RULES;
    this.findings = new FindingCollector(metasOf(this.rules), this.timeline, (t) => this.maskAll(t));
    this.prevention = new PreventionGate((d) => this.findings.add(d), (rule) => RULE_METAS.get(rule));
    const ctx: RuleContext = { session: this.session, report: (d) => this.capture(d) };
    const remote = opts.remote?.rules;
    this.rules.forEach((r, i) => {
      const here = ruleIndexes ? ruleIndexes.has(i) : !remote?.has(i);
      if (!here) return;
      this.handlers.push(r.create(ctx));
      this.handlerRules.push(i);
    });
    this.failures = this.rules.map(() => undefined);
    this.sink = {
      emit: (e) => this.queue.push(e),
      skip: (line, reason) => this.skip(line, reason),
      missingSubagent: (id, line) => {
        if (this.ingest.missingSubagents.length < 100) this.ingest.missingSubagents.push({ id, line });
      },
      unknownMetadata: (line, type) => this.unknownMetadata(line, type),
      toolsNotRecorded: (turns, line, shown) => {
        this.ingest.toolsNotRecorded = { turns, line, ...(shown ? { shown } : {}) };
      },
      rewrapped: (line) => {
        this.ingest.rewrapped ??= { line };
      },
      subagentsNotRecorded: (runs, calls, line) => {
        this.ingest.subagentsNotRecorded = { runs, calls, line };
      },
    };
    this.splitter = new LineSplitter({
      maxLineBytes: opts.maxLineBytes,
      onLine: (info) => this.onLine(info),
      onProblem: (p) => this.onProblem(p),
    });
  }

  /** Feeds a chunk; returns a promise only when some event needed asynchronous work. */
  push(chunk: Uint8Array): Promise<void> | undefined {
    this.splitter.push(chunk);
    return this.drain();
  }

  /** The end of the log: everything up to the rules' finish() (both modes). */
  private async endOfLog(): Promise<void> {
    this.splitter.end();
    if (!this.detection) this.decide();
    if (this.late) this.lateStep(this.late.flush());
    this.ingest.totalLines = this.splitter.lines;
    const parser = this.parser;
    if (parser) safely(() => parser.end(this.sink), (e) => this.skip(this.splitter.lines, `parser error at end: ${e}`));
    if (this.lastLineFailed) this.ingest.truncatedTail = true;
    this.ingest.binary = this.looksBinary();
    await this.drain();
    // files that record calls without their results (hook payloads, Codex's tracing log): a call
    // without a result there is the file's nature, not a run cut off
    this.ingest.incomplete = CALLS_ONLY_FORMATS.has(this.detection?.format ?? 'plain-text') ? null : this.completion.finish();
    this.reportingEvent = FINISH;
    this.handlers.forEach((h, k) => {
      this.reportingRule = this.handlerRules[k];
      try {
        h.finish?.();
      } catch (e) {
        this.ruleFailed(this.handlerRules[k], 'finish', e, null);
      }
    });
  }

  async finish(): Promise<Report> {
    await this.endOfLog();
    const finishDrafts = this.takeCaptured();
    const remote = this.opts.remote;
    if (remote) {
      remote.end();
      while (!this.remoteEnd) this.absorb(await remote.next());
      if (this.remoteEvents !== this.eventCount) throw new Error(`the analysis threads disagree: ${this.remoteEvents} events on one, ${this.eventCount} on the other`);
      this.replayPending();
      for (const f of this.remoteEnd.failures) this.failures[f.rule] = f.failure;
    }
    this.reportDrafts(finishDrafts, FINISH);
    this.prevention.finish();
    this.reportRuleFailures();
    return assembleReport({
      detection: this.detection!,
      ingest: this.ingest,
      tally: this.tally,
      timeline: this.timeline,
      findings: this.findings.finish(),
      knownSecrets: this.knownSecrets,
      omittedTimeline: this.timeline.omitted,
      incomplete: this.ingest.incomplete,
      runs: this.completion.runs,
    });
  }

  // ---- two threads -----------------------------------------------------------------------------

  /** `rules` mode: the drafts reported since the last call, and how many events are through. */
  progress(): ShardProgress {
    const drafts = this.outbox;
    this.outbox = [];
    return { events: this.eventCount, drafts };
  }

  /** `rules` mode, at the end of the log: the last drafts (finish() included) and the failures. */
  async finishShard(): Promise<ShardProgress> {
    await this.endOfLog();
    const last = this.takeCaptured();
    if (last) this.outbox.push(...last);
    const failures: { rule: number; failure: RuleFailure }[] = [];
    this.failures.forEach((failure, rule) => failure && failures.push({ rule, failure }));
    return { ...this.progress(), end: { failures } };
  }

  /**
   * Takes whatever the shard sent, runs the report pass as far as both threads are, and waits
   * for the shard while more than `max` events wait for it.
   */
  async catchUp(max: number): Promise<void> {
    const remote = this.opts.remote!;
    for (let p = remote.poll(); p; p = remote.poll()) this.absorb(p);
    this.replayPending();
    while (this.pending.length - this.pendingHead > max) {
      this.absorb(await remote.next());
      this.replayPending();
    }
  }

  private absorb(p: ShardProgress): void {
    if (p.drafts.length > 0) {
      if (this.remoteHead > 0) {
        this.remoteDrafts = this.remoteDrafts.slice(this.remoteHead);
        this.remoteHead = 0;
      }
      for (const d of p.drafts) this.remoteDrafts.push(d);
    }
    this.remoteEvents = p.events;
    if (p.end) this.remoteEnd = p.end;
  }

  /** The report pass of every pending event the shard is through too. */
  private replayPending(): void {
    const pending = this.pending;
    let i = this.pendingHead;
    for (; i < pending.length && pending[i].event.index < this.remoteEvents; i++) {
      const p = pending[i];
      this.reportPass(p.event, p.call, p.secrets, p.found, p.drafts, p.changes);
    }
    if (i === pending.length) {
      pending.length = 0;
      this.pendingHead = 0;
    } else if (i > 1024) {
      pending.splice(0, i);
      this.pendingHead = 0;
    } else {
      this.pendingHead = i;
    }
  }

  // ---- rule failures -------------------------------------------------------------------------

  private ruleFailed(i: number, phase: RuleFailure['phase'], e: unknown, line: number | null): void {
    const known = this.failures[i];
    if (known) {
      known.count++;
      return;
    }
    const message = (e instanceof Error ? e.message : String(e)).slice(0, 300) || 'unknown error';
    this.failures[i] = { count: 1, phase, message, line };
  }

  /**
   * A rule that threw may have missed exactly what it looks for (a deletion, a leaked secret):
   * the report says which rule failed and how, as a coverage warning, so the session is never
   * Clear. Reported after every finish(), by the analyser, so no rule's order matters.
   */
  private reportRuleFailures(): void {
    this.failures.forEach((f, i) => {
      if (!f) return;
      const name = ruleName(this.rules[i]);
      const where = f.phase === 'finish' ? 'at the end of the log' : `at line ${f.line}`;
      const times = f.count > 1 ? ` (${f.count} errors in all)` : '';
      this.findings.add({
        rule: ruleFailed.id,
        key: name,
        title: `Check ${name} failed: part of the log was not checked`,
        detail: `The check ${name} raised an error ${where}: "${f.message}"${times}. Whatever it looks for may have happened without being reported.`,
        evidence: [],
      });
    });
  }

  // ---- lines ---------------------------------------------------------------------------------

  private onLine(info: LineInfo): void {
    if (info.invalidUtf8) this.ingest.invalidUtf8Lines++;
    if (this.detection) return this.feed(info);
    this.sample.push(info);
    this.sampleBytes += info.text.length;
    if (this.sample.length >= this.sampleLines || this.sampleBytes >= SAMPLE_MAX_BYTES) this.decide(this.sampleBytes < SAMPLE_MAX_BYTES);
  }

  private onProblem(p: LineProblem): void {
    if (p.kind === 'oversize') this.ingest.oversizeLines++;
    this.skip(p.line, p.kind === 'oversize' ? `line of ${p.bytes} bytes is over the size limit` : 'binary data (NUL bytes)');
  }

  /** `more`: the sample can still grow (more lines allowed, bytes left, input not ended). */
  private decide(more = false): void {
    const lines = this.sample.map((l) => l.text);
    const values = lines.map(tryJson);
    const detection = detectFormat({ lines, values }, FAMILIES, this.opts.agentHint ?? null);
    const text = values.every((v) => v === null || typeof v !== 'object');
    if (more && detection.format === 'plain-text' && text && this.sampleLines < TEXT_SAMPLE_MAX_LINES) {
      this.sampleLines = TEXT_SAMPLE_MAX_LINES;
      return;
    }
    this.detection = detection;
    this.parser = familyFor(this.detection.format).create(this.detection.format);
    this.session.format = this.detection.format;
    this.session.agent = this.detection.agent;
    this.ingest.hintConflict = this.detection.hintConflict;
    this.ingest.lowConfidence = LOW_CONFIDENCE_FORMATS.has(this.detection.format);
    // JSON records nobody recognised fall back to plain text: they must not pass as a transcript.
    const jsonRecords = values.filter((v) => v !== null && typeof v === 'object').length;
    this.ingest.unrecognisedJson = this.detection.format === 'plain-text' && jsonRecords * 2 > lines.length;
    this.ingest.foreignAgent = this.detection.format === 'plain-text' ? foreignAgentOf(lines) : null;
    if (this.detection.format === 'plain-text' && text) this.late = new LateCapture((texts) => this.capturedBy(texts) !== null);
    const sample = this.sample.splice(0);
    sample.forEach((info, i) => this.feed(info, values[i]));
  }

  /** What detection makes of these lines, when it is an agent's terminal output. */
  private capturedBy(texts: string[]): DetectResult | null {
    const found = detectFormat({ lines: texts, values: texts.map(tryJson) }, FAMILIES, this.opts.agentHint ?? null);
    return found.format !== 'plain-text' && LOW_CONFIDENCE_FORMATS.has(found.format) ? found : null;
  }

  private feed(info: LineInfo, parsed?: unknown): void {
    if (this.late) return this.lateStep(this.late.offer(info));
    this.parse(info, parsed);
  }

  private lateStep(step: LateStep): void {
    if (step.kind === 'switch') {
      for (const info of step.before) this.parse(info);
      this.switchToCapture(step.lines.map((l) => l.text));
    }
    for (const info of step.lines) this.parse(info);
  }

  /**
   * The plain text read so far ends where an agent's capture begins: the text parser closes what it
   * holds, and the capture's own parser reads from there on. The log is that agent's from now on
   * (its format and agent in the report), and stays low-confidence.
   */
  private switchToCapture(texts: string[]): void {
    const found = this.capturedBy(texts)!;
    const previous = this.parser!;
    safely(() => previous.end(this.sink), (e) => this.skip(this.splitter.lines, `parser error: ${e}`));
    this.late = null;
    this.detection = found;
    this.parser = familyFor(found.format).create(found.format);
    this.session.format = found.format;
    this.session.agent = found.agent;
    this.ingest.lowConfidence = true;
    // what was decided of the text as a whole is decided again for the capture
    this.ingest.hintConflict = found.hintConflict;
    this.ingest.foreignAgent = null;
    this.ingest.unrecognisedJson = false;
  }

  private parse(info: LineInfo, parsed?: unknown): void {
    const parser = this.parser!;
    this.lastLineFailed = false;
    if (parser.text) return safely(() => parser.text!(info.text, info.line, this.sink), (e) => this.skip(info.line, `parser error: ${e}`));
    let value = parsed;
    if (value === undefined) {
      try {
        value = JSON.parse(info.text);
      } catch {
        if (info.last) this.lastLineFailed = true;
        return this.skip(info.line, info.last ? 'truncated last line (invalid JSON)' : 'invalid JSON');
      }
    }
    safely(() => parser.record!(value, info.line, this.sink), (e) => this.skip(info.line, `parser error: ${e}`));
  }

  /** Counted per type (20 types at most; records of further types are added to the last type's count). */
  private unknownMetadata(line: number, type: string): void {
    const known = this.ingest.unknownMetadata;
    const entry = known.find((k) => k.type === type);
    if (entry) entry.count++;
    else if (known.length < MAX_UNKNOWN_METADATA_TYPES) known.push({ type, line, count: 1 });
    else known[known.length - 1].count++;
  }

  private skip(line: number, reason: string): void {
    this.ingest.skippedLines++;
    if (this.ingest.skippedSamples.length < SKIP_SAMPLES_MAX) this.ingest.skippedSamples.push({ line, reason });
  }

  private looksBinary(): boolean {
    const binaryLines = this.ingest.skippedSamples.filter((s) => s.reason.startsWith('binary')).length;
    return binaryLines > 0 && binaryLines >= Math.min(this.ingest.skippedSamples.length, 3) && this.ingest.totalLines - this.ingest.skippedLines < 3;
  }

  // ---- events --------------------------------------------------------------------------------

  /**
   * Processes the queued events in order; the queue holds at most one slice's worth. Most events
   * need nothing asynchronous (only secret detection is), so the loop stays synchronous until an
   * event does and only then continues asynchronously.
   */
  private drain(from = 0): Promise<void> | undefined {
    const queue = this.queue;
    for (let i = from; i < queue.length; i++) {
      const pending = this.process(queue[i]);
      if (pending) return pending.then(() => this.drain(i + 1));
    }
    queue.length = 0;
    return undefined;
  }

  private process(event: NormEvent): Promise<void> | undefined {
    event.index = this.eventCount++;
    if (event.kind === 'session_meta' && event.cwd && !this.session.cwd && this.elided === null) {
      // a banner that shortened the folder ("/…/Documents/ws/app") names it only when the log shows it whole
      this.elided = elidedTail(event.cwd);
      if (this.elided === null) {
        this.session.cwd = event.cwd;
        this.session.home = guessHome(event.cwd);
      }
    }
    if (this.elided !== null && event.kind === 'tool_call' && !this.session.cwd) {
      const whole = resolveElided(this.elided, JSON.stringify(event.input).slice(0, 20_000));
      if (whole) {
        this.session.cwd = whole;
        this.session.home = guessHome(whole);
        this.elided = null;
      }
    }
    // the repository flag only from a record of the session's own working directory (a later
    // record's cwd can be a subfolder the agent moved into)
    if (event.kind === 'session_meta' && (event.branch || event.repositoryUrl) && event.cwd && event.cwd === this.session.cwd) this.session.repository = true;
    const candidates = secretCandidates(event);
    if (candidates === null) {
      this.conclude(event, [], null);
      return undefined;
    }
    // A prompt's passwords written in sentences are evidence: the user's own words (secrets/prose.ts),
    // not text the harness injected into the prompt (an instruction file, a skill's body).
    return this.secretsIn(candidates, event.kind === 'prompt' && !event.synthetic).then(({ hits, found }) => this.conclude(event, hits, found));
  }

  /** The rule pass of one event, then (on one thread) its report pass. */
  private conclude(event: NormEvent, secrets: SecretHit[], found: string[] | null): void {
    const facts = this.factsFor(event, secrets);
    // The one thing the prevention gate changes that rules see: a result the guard denied.
    if (event.kind === 'tool_result' && facts.call && isGuardDenial(event)) event.denied = true;
    this.completion.add(event);
    // A rule bug must never take the analysis down; it is recorded and reported (coverage).
    // Plain loop with an inlined try: no closure per handler per event on this hot path.
    const handlers = this.handlers;
    const rules = this.handlerRules;
    this.reportingEvent = event.index;
    for (let i = 0; i < handlers.length; i++) {
      this.reportingRule = rules[i];
      try {
        handlers[i].onEvent(event, facts);
      } catch (e) {
        this.ruleFailed(rules[i], 'onEvent', e, event.line);
      }
    }
    const drafts = this.takeCaptured();
    if (this.mode === 'rules') {
      if (drafts) for (const d of drafts) this.outbox.push(d);
      return;
    }
    const changes = shellChanges(event, facts, this.session);
    if (this.opts.remote) {
      this.pending.push({ event, call: facts.call, secrets, found, drafts, changes });
    } else {
      this.reportPass(event, facts.call, secrets, found, drafts, changes);
    }
  }

  /**
   * The report pass of one event, in event order: its secrets become known (masked everywhere
   * from here on), the gate tracks calls and refusals, the timeline and tally take the event,
   * then its drafts go through the gate to the findings in catalogue order.
   */
  private reportPass(event: NormEvent, call: ToolCallEvent | undefined, secrets: SecretHit[], found: string[] | null, drafts: TaggedDraft[] | null, changes: ShellChange[] | null): void {
    if (found) for (const v of found) if (this.knownSecrets.size < KNOWN_SECRETS_MAX) this.knownSecrets.add(v);
    this.prevention.observe(event, call);
    const eventMask = secrets.length > 0 ? knownMasker(secrets.map((s) => s.value)) : identity;
    const timelineIndex = this.timeline.add(event, eventMask);
    this.tally.add(event, timelineIndex, (p) => this.displayPath(p), changes);
    this.reportDrafts(drafts, event.index);
  }

  /** This thread's drafts for an event (or FINISH) merged with the shard's, in catalogue order. */
  private reportDrafts(local: TaggedDraft[] | null, event: number): void {
    const remote = this.remoteDrafts;
    let r = this.remoteHead;
    if (r >= remote.length || remote[r].event !== event) {
      if (local) for (const d of local) this.prevention.report(d.draft);
      return;
    }
    let l = 0;
    const n = local?.length ?? 0;
    while (l < n || (r < remote.length && remote[r].event === event)) {
      const takeRemote = r < remote.length && remote[r].event === event && (l >= n || remote[r].rule < local![l].rule);
      this.prevention.report(takeRemote ? remote[r++].draft : local![l++].draft);
    }
    this.remoteHead = r;
  }

  private capture(draft: FindingDraft): void {
    (this.captured ??= []).push({ event: this.reportingEvent, rule: this.reportingRule, draft });
  }

  private takeCaptured(): TaggedDraft[] | null {
    const drafts = this.captured;
    this.captured = null;
    return drafts;
  }

  private factsFor(event: NormEvent, secrets: SecretHit[]): EventFacts {
    const facts: EventFacts = { secrets };
    if (event.kind === 'tool_call') {
      if (event.input.type === 'command') facts.shell = safeParseShell(commandSource(event.input, WINDOWS_DIR.test(this.session.cwd ?? '')));
      this.openCalls.set(event.callId, event);
      if (this.openCalls.size > OPEN_CALLS_MAX) this.openCalls.delete(this.openCalls.keys().next().value as string);
    } else if (event.kind === 'tool_result') {
      facts.call = this.openCalls.get(event.callId);
      this.openCalls.delete(event.callId);
    }
    return facts;
  }

  /** Secrets in the candidate texts: those the rules see, and every value to mask (in order). */
  private async secretsIn(candidates: string[], proseEvidence: boolean): Promise<{ hits: SecretHit[]; found: string[] | null }> {
    let hits: SecretHit[] | null = null;
    let values: string[] | null = null;
    for (const text of candidates) {
      // Mask-only values (a secret-labelled value that is no evidence for a finding) are masked
      // everywhere in the report, and never handed to the rules.
      const found = await detectSecrets(text, { maskable: true, proseEvidence });
      if (found.length === 0) continue;
      for (const h of found) {
        (values ??= []).push(h.value);
        if (h.maskOnly) continue;
        hits ??= [];
        hits.push(h);
      }
    }
    return { hits: hits ?? [], found: values };
  }

  private maskAll(text: string): string {
    const size = this.knownSecrets.size;
    if (size === 0) return text;
    // The set only grows: its size says whether the masker built for it is still the one.
    if (size !== this.maskerSize) {
      this.masker = knownMasker(this.knownSecrets);
      this.maskerSize = size;
    }
    return this.masker(text);
  }

  private displayPath(p: string): string {
    const cwd = this.session.cwd;
    const abs = resolvePath(p, cwd, this.session.home);
    if (cwd && abs.startsWith(cwd.endsWith('/') ? cwd : cwd + '/')) return abs.slice(cwd.length + (cwd.endsWith('/') ? 0 : 1));
    return abs;
  }
}

/** The texts of an event that the cheap prefilter says may hold a secret, or null when none does. */
function secretCandidates(event: NormEvent): string[] | null {
  const one = onlyText(event);
  if (one !== undefined) return one && mightContainSecret(one) ? [one] : null;
  let out: string[] | null = null;
  for (const text of textsOf(event)) {
    if (!text || !mightContainSecret(text)) continue;
    (out ??= []).push(text);
  }
  return out;
}

function safeParseShell(command: string) {
  try {
    return parseShell(command);
  } catch {
    return undefined;
  }
}

function tryJson(text: string): unknown {
  const c = text.charCodeAt(0);
  // Only objects and arrays can be records; skip the parse for plain text lines.
  if (c !== 0x7b && c !== 0x5b) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The rule ids the catalogue reports under: the default catalogue's, plus any a test brings. */
function metasOf(rules: Rule[]): Map<string, RuleMeta> {
  if (rules === RULES) return RULE_METAS;
  const metas = new Map(RULE_METAS);
  for (const r of rules) for (const m of r.metas) metas.set(m.id, m);
  return metas;
}

/** How a rule module is named in a report: its first rule id, and how many more it holds. */
function ruleName(rule: Rule): string {
  const first = rule.metas[0]?.id ?? 'unnamed rule';
  return rule.metas.length > 1 ? `${first} (+${rule.metas.length - 1} related)` : first;
}

function identity(t: string): string {
  return t;
}

/** A rule or parser bug must never take the analysis down; it is reported where it can be. */
function safely(fn: () => void, onError?: (e: unknown) => void): void {
  try {
    fn();
  } catch (e) {
    onError?.(e instanceof Error ? e.message : String(e));
  }
}
