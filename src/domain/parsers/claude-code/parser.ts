// The streaming Claude Code parser: one JSON record per call → NormEvents. The same code reads
// session transcripts (~/.claude/projects/…/*.jsonl, standalone agent-*.jsonl files) and
// `--output-format stream-json` output; the two share their message shapes and differ only in
// field spelling (sessionId / session_id, toolUseResult / tool_use_result) and a few records.
// State is bounded (see messages.ts, subagents.ts and the caps below).
import type {
  CompactionEvent, EventSink, FormatId, LogParser, NormEvent, SessionMetaEvent, ToolResultEvent, UsageEvent,
} from '../../model/events.ts';
import { MessageAssembler } from './messages.ts';
import { Subagents } from './subagents.ts';
import { systemOutcome } from './system.ts';
import { SUBAGENT_TOOLS, toolInput } from './tool-input.ts';
import { resultFacts } from './tool-result.ts';
import { classifyUserText } from './user-text.ts';
import { num, obj, str, text, type Obj } from '../shared/values.ts';
import { textOf } from './values.ts';
import { boundedAdd, boundedSet } from '../../bounded.ts';
import { isoTime } from '../shared/values.ts';
import { PROMPT_UNRECORDED, RUN_INCOMPLETE, RUN_START } from '../../model/runs.ts';
import { ATTACHED_FILE, FILE_CHANGED_OUTSIDE, IDE_SELECTION } from '../../model/attachments.ts';
import { reportUnknownRecord } from '../shared/unknown-records.ts';

/** Where an event comes from: its line, time and thread (undefined = main thread). */
interface Ctx {
  line: number;
  at: string | null;
  agentId: string | undefined;
  sink: EventSink;
}

type Meta = Omit<SessionMetaEvent, 'kind' | 'index' | 'line' | 'at' | 'agentId'>;

// Calls awaiting their result; entries are deleted when the result arrives.
const MAX_PENDING_CALLS = 10_000;
// Recent tool_use ids, to emit a call once even if a split message repeats its block.
const MAX_SEEN_CALLS = 4_096;
const MAX_SEEN_PROGRESS = 4_096;
// Recently answered call ids: resumed sessions may copy a result record a second time.
const MAX_ANSWERED = 4_096;
const MAX_QUEUED = 64;
const MAX_TITLES = 256;

/** Record types that carry session metadata fields (cwd, gitBranch, version, permissionMode…). */
const META_TYPES: ReadonlySet<string> = new Set([
  'user', 'assistant', 'system', 'progress', 'attachment', 'permission-mode', 'relocated',
]);

/** Known records with nothing to analyse: UI state, bookkeeping, stream plumbing. */
const IGNORED_TYPES: ReadonlySet<string> = new Set([
  'file-history-snapshot', 'agent-name', 'last-prompt', 'mode', 'frame-link', 'bridge-session', 'atis-latch',
  'started', 'stream_event', 'control_request', 'control_response', 'control_cancel_request', 'keep_alive',
  'tool_progress', 'auth_status', 'rate_limit_event', 'permission-mode', 'relocated',
  // 2.1.3xx request bookkeeping: `api-request-shape` holds Claude Code's own system prompt and tool
  // definitions (by hash), `api-request` the request's parameters (model, betas, token limits)
  // and the hashes of the messages it sent; neither holds anything the agent did or was told.
  'api-request-shape', 'api-request',
  // 2.1.3xx running totals: `tools-used` lists the tool names called so far (the calls themselves
  // are in the assistant records), `cost-state` the session's cost, durations and token counts
  // (Vouch counts its own from the messages).
  'tools-used', 'cost-state',
]);

/** stream-json system records that only drive the live UI (request status, thinking-token estimates). */
const STREAM_PLUMBING_SUBTYPES: ReadonlySet<string> = new Set(['status', 'thinking_tokens']);

export class ClaudeCodeParser implements LogParser {
  readonly agent = 'claude-code' as const;
  private readonly meta: Meta = {};
  /** The session's first cwd: the directory its worktree is judged from (see toolCall). */
  private firstCwd: string | undefined;
  private mainSeen = false;
  private lastLine = 0;
  private lastAt: string | null = null;
  private synthCount = 0;
  private pendingCompaction: CompactionEvent | null = null;
  private readonly messages = new MessageAssembler();
  private readonly subagents = new Subagents();
  private readonly callNames = new Map<string, string>();
  private readonly seenCalls = new Set<string>();
  private readonly seenProgress = new Set<string>();
  private readonly answered = new Set<string>();
  private readonly queued = new Set<string>();
  /** Messages queued without their text, not yet dequeued (a dequeue brings the user record). */
  private queuedUnseen = 0;
  /** Such a message was removed from the queue: unless its text comes (an attachment, a user record) before the agent goes on, it is unrecorded. */
  private unrecordedPending = false;
  private readonly titles = new Set<string>();
  /** stream-json runs: `system/init` headers seen, and whether the current run still lacks its `result`. */
  private runs = 0;
  private runOpen = false;
  /** The current run's assistant messages carried token counts (else its `result` holds them). */
  private runUsage = false;
  readonly format: FormatId;

  constructor(format: FormatId) {
    this.format = format;
  }

  record(value: unknown, line: number, sink: EventSink): void {
    if (line > this.lastLine) this.lastLine = line;
    try {
      this.dispatch(value, line, sink);
    } catch (err) {
      // Last line of defence: a record we failed to read is reported, never fatal.
      sink.skip(line, `unreadable Claude Code record: ${err instanceof Error ? err.message : 'error'}`);
    }
  }

  end(sink: EventSink): void {
    this.flushCompaction(sink);
    this.messages.flush(sink);
    const ctx: Ctx = { line: this.lastLine, at: this.lastAt, agentId: undefined, sink };
    for (const id of this.subagents.closeAll()) this.emit(ctx, { kind: 'subagent_end', subagentId: id });
    for (const [id, line] of this.subagents.missing()) sink.missingSubagent?.(id, line);
    this.closeRun(ctx);
  }

  // ---- stream-json runs: `claude -p` writes system/init first and a `result` record last ----

  private get isStream(): boolean {
    return this.format === 'claude-code-stream-json';
  }

  /** A second system/init in one file is a second headless run appended to the first. */
  private runHeader(ctx: Ctx): void {
    if (!this.isStream) return;
    if (this.runs > 0 || this.runOpen) {
      this.closeRun(ctx);
      const id = this.meta.sessionId;
      this.emit(ctx, { kind: 'system', subtype: RUN_START, text: `A new headless run starts here${id ? ` (session ${id})` : ''}; the time between runs is not counted.` });
    }
    this.runs++;
    this.runOpen = true;
    this.runUsage = false;
  }

  /** The run so far ends here: without its `result` record it was cut off. */
  private closeRun(ctx: Ctx): void {
    if (!this.isStream || !this.runOpen) return;
    this.runOpen = false;
    this.emit(ctx, {
      kind: 'system', subtype: RUN_INCOMPLETE,
      text: 'The headless run ends without its final `result` record: it was cut off (killed, timed out, or still running when the file was copied).',
    });
  }

  private dispatch(value: unknown, line: number, sink: EventSink): void {
    const rec = obj(value);
    if (!rec) return sink.skip(line, 'not a JSON object');
    const type = str(rec.type);
    if (!type) return sink.skip(line, 'record without a type');
    // A compact boundary waits one record for its summary; anything else releases it.
    if (this.pendingCompaction && !(type === 'user' && rec.isCompactSummary === true)) this.flushCompaction(sink);
    const at = isoTime(rec.timestamp);
    if (at !== null) this.lastAt = at;
    if (META_TYPES.has(type)) this.trackMeta(rec, line, at, sink);
    // A stream that starts without its init header still has a run to finish with `result`.
    if (this.isStream && !this.runOpen && this.runs === 0 && (type === 'assistant' || type === 'user')) this.runOpen = true;
    // A queued message removed without its text and not delivered as an attachment before the
    // agent goes on: what it said is not in the file (said once, where the agent resumes).
    if (this.unrecordedPending && type === 'assistant' && rec.isSidechain !== true) {
      this.unrecordedPending = false;
      this.emit(this.context(rec, line, at, sink), { kind: 'system', subtype: PROMPT_UNRECORDED, text: 'A message the user sent while the agent worked is not in the log (queued without its text and taken in mid-turn).' });
    }
    switch (type) {
      case 'user':
        return this.onUser(rec, this.context(rec, line, at, sink));
      case 'assistant':
        return this.onAssistant(rec, this.context(rec, line, at, sink));
      case 'system':
        return this.onSystem(rec, this.context(rec, line, at, sink));
      case 'attachment':
        return this.onAttachment(rec, this.context(rec, line, at, sink));
      case 'progress':
        return this.onProgress(rec, this.context(rec, line, at, sink));
      default:
        return this.onMetadata(rec, type, { line, at, agentId: undefined, sink });
    }
  }

  private onMetadata(rec: Obj, type: string, ctx: Ctx): void {
    switch (type) {
      case 'summary':
        return this.title('summary', str(rec.summary), ctx);
      case 'custom-title':
        return this.title('custom-title', str(rec.customTitle), ctx);
      case 'ai-title':
        return this.title('ai-title', str(rec.aiTitle), ctx);
      case 'pr-link':
        return this.emit(ctx, { kind: 'system', subtype: 'pr-link', text: prLinkText(rec) });
      case 'worktree-state':
        return this.emit(ctx, { kind: 'system', subtype: 'worktree-state', text: worktreeText(rec) });
      case 'queue-operation':
        return this.onQueue(rec, ctx);
      case 'result':
        return this.onResult(rec, ctx);
      case 'api-request-blob':
        return this.onRequestBlob(rec, type, ctx);
      default:
        if (IGNORED_TYPES.has(type)) return;
        return this.onUnknown(rec, type, ctx);
    }
  }

  /**
   * `api-request-blob` (2.1.3xx): a content-addressed copy of a user-role message as it was sent
   * to the model — the prompt, Claude Code's context reminders, tool results — each of which the
   * log also records as its own user/attachment record. A copy adds nothing; a tool result that
   * no record answered yet is read here, so nothing is vouched for unread; any other shape is an
   * unknown record (skipped, said so).
   */
  private onRequestBlob(rec: Obj, type: string, ctx: Ctx): void {
    const message = obj(rec.message);
    const content = message?.content;
    if (message?.role !== 'user' || !(typeof content === 'string' || Array.isArray(content))) return this.onUnknown(rec, type, ctx);
    if (typeof content === 'string') return;
    for (const raw of content) {
      const block = obj(raw);
      if (block?.type === 'tool_result') {
        const id = text(block.tool_use_id);
        if (id === undefined || !this.answered.has(id)) this.toolResult(block, undefined, rec, ctx);
      } else if (!(typeof raw === 'string' || block?.type === 'text' || block?.type === 'image' || block?.type === 'document')) {
        return this.onUnknown(rec, type, ctx);
      }
    }
  }

  /** A new record type: metadata (info) unless something in it looks like an action (shared rule). */
  private onUnknown(rec: Obj, type: string, ctx: Ctx): void {
    reportUnknownRecord(ctx.sink, ctx.line, 'Claude Code', type, rec);
  }

  // ---- threads and session metadata ----

  private context(rec: Obj, line: number, at: string | null, sink: EventSink): Ctx {
    let agentId: string | undefined;
    if (rec.isSidechain === true) agentId = this.sidechainAgent(rec, line, at, sink);
    else {
      const parentCall = text(rec.parent_tool_use_id);
      if (parentCall !== undefined) agentId = this.startedAgent(parentCall, parentCall, line, at, sink);
    }
    return { line, at, agentId, sink };
  }

  private sidechainAgent(rec: Obj, line: number, at: string | null, sink: EventSink): string {
    const id = this.subagents.sidechainAgent(rec, line);
    if (this.subagents.begin(id)) {
      // An inline sidechain names no Task call: its first prompt is the Task's prompt.
      const text = rec.type === 'user' ? textOf(obj(rec.message)?.content) : '';
      const callId = this.subagents.linkByPrompt(text, id);
      this.emitStart(id, callId, { line, at, agentId: undefined, sink });
    }
    return id;
  }

  /** A subagent known through the Task call that started it (progress records, stream-json). */
  private startedAgent(id: string, callId: string | undefined, line: number, at: string | null, sink: EventSink): string {
    if (this.subagents.begin(id)) {
      if (callId !== undefined) this.subagents.link(callId, id);
      this.emitStart(id, callId, { line, at, agentId: undefined, sink });
    }
    return id;
  }

  private emitStart(id: string, callId: string | undefined, ctx: Ctx): void {
    const description = this.subagents.description(callId);
    this.emit(ctx, description === undefined ? { kind: 'subagent_start', subagentId: id } : { kind: 'subagent_start', subagentId: id, description });
  }

  /** Emit session_meta when a field first appears or changes (not on every line). */
  private trackMeta(rec: Obj, line: number, at: string | null, sink: EventSink): void {
    let changed = this.setMeta('sessionId', text(rec.sessionId) ?? text(rec.session_id));
    changed = this.setMeta('cwd', text(rec.cwd) ?? text(rec.relocatedCwd)) || changed;
    changed = this.setMeta('branch', text(rec.gitBranch)) || changed;
    changed = this.setMeta('agentVersion', text(rec.version) ?? text(rec.claude_code_version)) || changed;
    changed = this.setMeta('permissionMode', text(rec.permissionMode)) || changed;
    // The stream-json header names the model before any message does.
    if (rec.subtype === 'init' && rec.type === 'system') changed = this.setMeta('model', text(rec.model)) || changed;
    if (changed) this.emitMeta({ line, at, agentId: undefined, sink });
  }

  private setMeta(key: 'sessionId' | 'cwd' | 'branch' | 'agentVersion' | 'permissionMode' | 'model', value: string | undefined): boolean {
    if (value === undefined || value === this.meta[key]) return false;
    if (key === 'cwd') this.firstCwd ??= value;
    this.meta[key] = value;
    return true;
  }

  private setModel(model: string, ctx: Ctx): void {
    if (model === this.meta.model) return;
    this.meta.model = model;
    this.emitMeta(ctx);
  }

  /** A full snapshot, so a consumer that reads only the latest event still has every field. */
  private emitMeta(ctx: Ctx): void {
    this.emit({ ...ctx, agentId: undefined }, { kind: 'session_meta', ...this.meta });
  }

  // ---- user records: prompts and tool results ----

  private onUser(rec: Obj, ctx: Ctx): void {
    const message = obj(rec.message);
    if (!message) return ctx.sink.skip(ctx.line, 'user record without a message');
    const content = message.content;
    if (typeof content === 'string') return this.userText(content, rec.isMeta === true, rec.isCompactSummary === true, ctx);
    if (!Array.isArray(content)) return ctx.sink.skip(ctx.line, 'user message content is neither text nor blocks');
    let text = '';
    let structured = rec.toolUseResult !== undefined ? rec.toolUseResult : rec.tool_use_result;
    for (const raw of content) {
      const block = obj(raw);
      if (block?.type === 'tool_result') {
        // The record-level structured result describes its (single) tool_result block.
        this.toolResult(block, structured, rec, ctx);
        structured = undefined;
        continue;
      }
      const piece = typeof raw === 'string' ? raw : block?.type === 'image' ? '[image]' : str(block?.text) ?? '';
      if (piece !== '') text = text === '' ? piece : `${text}\n${piece}`;
    }
    if (text !== '') this.userText(text, rec.isMeta === true, rec.isCompactSummary === true, ctx);
  }

  private userText(text: string, isMeta: boolean, isCompactSummary: boolean, ctx: Ctx): void {
    if (ctx.agentId === undefined) this.mainSeen = true;
    if (isCompactSummary) return this.compactSummary(text, ctx);
    const what = classifyUserText(text, isMeta, ctx.agentId !== undefined);
    if (what.kind === 'interrupt') return this.emit(ctx, { kind: 'interrupt', reason: what.reason });
    if (what.kind === 'local_output') return this.emit(ctx, { kind: 'system', subtype: 'local_command', text });
    if (what.kind === 'notice') {
      // Shown once: the queue-operation that announced it may already have emitted it.
      if (this.queued.delete(text)) return;
      return this.emit(ctx, { kind: 'system', subtype: what.subtype, text: what.text });
    }
    // the queued message's words, here after all (a drained queue, a queued_command attachment):
    // a prompt of the user's, not a harness notice or an interruption
    if (!what.synthetic && ctx.agentId === undefined) {
      this.queuedUnseen = 0;
      this.unrecordedPending = false;
    }
    // A prompt typed while the agent was busy was already emitted from its queue-operation.
    if (!what.synthetic && this.queued.delete(text)) return;
    this.emit(ctx, { kind: 'prompt', text, synthetic: what.synthetic });
  }

  private onQueue(rec: Obj, ctx: Ctx): void {
    // A message queued without its text comes back as a user record when it is dequeued; one that
    // is removed instead was taken in mid-turn, and the file never shows its words.
    if (rec.operation === 'dequeue' && this.queuedUnseen > 0) this.queuedUnseen--;
    if (rec.operation === 'remove' && this.queuedUnseen > 0) {
      this.queuedUnseen = 0;
      this.unrecordedPending = true;
      return;
    }
    if (rec.operation !== 'enqueue') return;
    if (rec.content === undefined) {
      this.queuedUnseen++;
      return;
    }
    const text = textOf(rec.content);
    // Slash commands come back as <command-name> user records; plain text may never reappear.
    if (text === '' || text.startsWith('/')) return;
    // The harness queues its own background-task records as JSON ({"task_id", "task_type": …}):
    // a notice of the agent's own work, never words of the user (issue 25: harness texts).
    if (isTaskRecord(text)) return this.emit(ctx, { kind: 'system', subtype: 'task_notification', text });
    boundedAdd(this.queued, text, MAX_QUEUED);
    // Background-task notices are queued like typed messages, but the harness wrote them.
    const what = classifyUserText(text, false, false);
    if (what.kind === 'notice') return this.emit(ctx, { kind: 'system', subtype: what.subtype, text: what.text });
    this.emit(ctx, { kind: 'prompt', text, synthetic: false });
  }

  private toolResult(block: Obj, structured: unknown, rec: Obj, ctx: Ctx): void {
    const given = text(block.tool_use_id) ?? text(rec.sourceToolUseID);
    if (given !== undefined) {
      if (this.answered.has(given)) return;
      boundedAdd(this.answered, given, MAX_ANSWERED);
    }
    const callId = given ?? this.synthId('result', ctx.line);
    const name = this.callNames.get(callId);
    if (name !== undefined) this.callNames.delete(callId);
    const facts = resultFacts(block, structured, name, rec.toolDenialKind);
    if (this.subagents.isTask(callId) || (name !== undefined && SUBAGENT_TOOLS.has(name)) || facts.subagentId !== undefined) {
      this.subagentReturned(callId, facts.subagentId, ctx);
    }
    const event: Omit<ToolResultEvent, 'index' | 'line' | 'at' | 'agentId'> = {
      kind: 'tool_result', callId, output: facts.output, exitCode: facts.exitCode, isError: facts.isError, denied: facts.denied,
    };
    if (name !== undefined) event.name = name;
    if (facts.interrupted) event.interrupted = true;
    if (facts.durationMs !== undefined) event.durationMs = facts.durationMs;
    this.emit(ctx, event);
  }

  private subagentReturned(callId: string, named: string | undefined, ctx: Ctx): void {
    if (named !== undefined) this.subagents.reference(named, ctx.line);
    const ended = this.subagents.finishCall(callId, named);
    if (ended) this.emit(ctx, { kind: 'subagent_end', subagentId: ended.agentId, description: ended.description });
  }

  private compactSummary(text: string, ctx: Ctx): void {
    const pending = this.pendingCompaction;
    if (pending) {
      pending.summary = text;
      return this.flushCompaction(ctx.sink);
    }
    // A summary without a boundary record (older builds): still a compaction.
    this.emit(ctx, { kind: 'compaction', summary: text });
  }

  private flushCompaction(sink: EventSink): void {
    const pending = this.pendingCompaction;
    if (!pending) return;
    this.pendingCompaction = null;
    sink.emit(pending);
  }

  // ---- assistant records: text, thinking, tool calls, usage ----

  private onAssistant(rec: Obj, ctx: Ctx): void {
    const message = obj(rec.message);
    if (!message) return ctx.sink.skip(ctx.line, 'assistant record without a message');
    const content = message.content;
    const usage = obj(message.usage);
    const blocks = typeof content === 'string' ? [{ type: 'text', text: content }] : content;
    if (!Array.isArray(blocks) && !usage) return ctx.sink.skip(ctx.line, 'assistant message without content');
    const model = text(message.model);
    // Subagents often run a smaller model; they set the session's model only in a standalone file.
    if (model !== undefined && model !== '<synthetic>' && (ctx.agentId === undefined || !this.mainSeen)) this.setModel(model, ctx);
    if (ctx.agentId === undefined) this.mainSeen = true;
    const msgId = text(message.id) ?? text(rec.requestId);
    const thread = ctx.agentId ?? '';
    if (Array.isArray(blocks)) {
      const apiError = rec.isApiErrorMessage === true;
      for (const raw of blocks) this.assistantBlock(obj(raw), msgId, thread, model, apiError, ctx);
    }
    if (usage && hasTokens(usage)) this.runUsage = true;
    if (usage) {
      const base: UsageEvent = { kind: 'usage', index: -1, line: ctx.line, at: ctx.at, agentId: ctx.agentId, model, input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
      this.messages.addUsage(thread, msgId, usage, base, ctx.sink);
    }
  }

  private assistantBlock(b: Obj | undefined, msgId: string | undefined, thread: string, model: string | undefined, apiError: boolean, ctx: Ctx): void {
    if (!b) return;
    const type = str(b.type) ?? '';
    if (type === 'text' || type === 'thinking') {
      const text = str(type === 'text' ? b.text : b.thinking);
      if (!text || !NON_SPACE.test(text) || !this.messages.blockIsNew(thread, msgId, blockKey(type, text), ctx.sink)) return;
      if (type === 'thinking') return this.emit(ctx, { kind: 'thinking', text });
      // Claude Code writes API failures as assistant messages ("API Error: 529 …").
      if (apiError) return this.emit(ctx, { kind: 'error', text });
      return this.emit(ctx, model === undefined ? { kind: 'message', text } : { kind: 'message', text, model });
    }
    if (type === 'tool_use' || type === 'server_tool_use' || type === 'mcp_tool_use') return this.toolCall(b, ctx);
    // Server-side tools (web search) answer inside the assistant message.
    if (type.endsWith('_tool_result')) this.toolResult(b, undefined, {}, ctx);
  }

  private toolCall(b: Obj, ctx: Ctx): void {
    const given = text(b.id);
    if (given !== undefined) {
      if (this.seenCalls.has(given)) return;
      boundedAdd(this.seenCalls, given, MAX_SEEN_CALLS);
    }
    const callId = given ?? this.synthId('call', ctx.line);
    const name = text(b.name) ?? 'unknown';
    const input = toolInput(name, b.input);
    // Claude Code's shell keeps its directory from call to call (`cd clone` in one call, `git add .`
    // in the next runs in the clone), and every record carries that directory as `cwd`: a command
    // starts where its record says, once that is not where the session began.
    if (input.type === 'command' && this.meta.cwd !== undefined && this.meta.cwd !== this.firstCwd) input.workdir = this.meta.cwd;
    boundedSet(this.callNames, callId, name, MAX_PENDING_CALLS);
    if (input.type === 'subagent') this.subagents.noteTask(callId, input.prompt, input.description);
    this.emit(ctx, { kind: 'tool_call', callId, name, input });
  }

  // ---- system, attachment, progress, result ----

  private onSystem(rec: Obj, ctx: Ctx): void {
    // The stream-json session header holds only metadata (read by trackMeta), and opens a run.
    if (rec.subtype === 'init') return this.runHeader(ctx);
    if (this.isStream && STREAM_PLUMBING_SUBTYPES.has(str(rec.subtype) ?? '')) return;
    const out = systemOutcome(rec);
    if (out.kind === 'compaction') {
      this.flushCompaction(ctx.sink);
      const { kind: _kind, ...fields } = out;
      this.pendingCompaction = { kind: 'compaction', index: -1, line: ctx.line, at: ctx.at, agentId: ctx.agentId, ...fields };
      return;
    }
    if (out.kind === 'error') return this.emit(ctx, { kind: 'error', text: out.text });
    this.emit(ctx, { kind: 'system', subtype: out.subtype, text: out.text });
  }

  private onAttachment(rec: Obj, ctx: Ctx): void {
    const a = obj(rec.attachment);
    if (!a) return;
    switch (a.type) {
      case 'queued_command': {
        // A prompt the person typed while the agent was busy, delivered as an attachment.
        const text = textOf(a.prompt);
        if (text !== '') this.userText(text, a.isMeta === true || rec.isMeta === true, false, ctx);
        return;
      }
      case 'hook_blocking_error': {
        const err = obj(a.blockingError);
        const text = str(err?.blockingError) ?? str(a.blockingError) ?? '';
        const command = str(err?.command) ?? str(a.command);
        return this.emit(ctx, { kind: 'system', subtype: 'hook_blocking_error', text: hookText(a, command, text) });
      }
      case 'hook_non_blocking_error':
        return this.emit(ctx, { kind: 'system', subtype: 'hook_error', text: hookText(a, str(a.command), str(a.stderr) ?? '') });
      case 'file':
      case 'edited_text_file':
      case 'selected_lines_in_ide':
        return this.attachedContent(a, ctx);
      default:
        // Context the harness attached (files, memory, reminders, listings): not agent actions.
        return;
    }
  }

  /**
   * File text the harness put in front of the model (an @-attached file, a file changed outside the
   * agent, an IDE selection): read like any text the model saw, never an action of the agent.
   */
  private attachedContent(a: Obj, ctx: Ctx): void {
    const file = obj(obj(a.content)?.file);
    const path = str(file?.filePath) ?? str(a.filename) ?? str(a.displayPath) ?? 'a file';
    const body = a.type === 'file' ? str(file?.content) : a.type === 'edited_text_file' ? str(a.snippet) : str(a.content);
    if (!body || !NON_SPACE.test(body)) return;
    const subtype = a.type === 'file' ? ATTACHED_FILE : a.type === 'edited_text_file' ? FILE_CHANGED_OUTSIDE : IDE_SELECTION;
    const head = a.type === 'file' ? `Attached ${path}` : a.type === 'edited_text_file' ? `${path} changed outside the agent` : `Selected in the IDE: ${path}`;
    this.emit(ctx, { kind: 'system', subtype, text: `${head}\n${body}` });
  }

  private onProgress(rec: Obj, ctx: Ctx): void {
    const data = obj(rec.data);
    // hook/bash/mcp progress are live UI updates; the final results arrive as tool_result.
    if (!data || data.type !== 'agent_progress') return;
    const inner = obj(data.message);
    if (!inner) return;
    const uuid = text(inner.uuid);
    if (uuid !== undefined) {
      if (this.seenProgress.has(uuid)) return;
      boundedAdd(this.seenProgress, uuid, MAX_SEEN_PROGRESS);
    }
    const callId = text(rec.parentToolUseID);
    const agentId = text(data.agentId) ?? callId ?? 'subagent';
    this.startedAgent(agentId, callId, ctx.line, ctx.at, ctx.sink);
    const innerCtx: Ctx = { line: ctx.line, at: isoTime(inner.timestamp) ?? ctx.at, agentId, sink: ctx.sink };
    if (inner.type === 'user') this.onUser(inner, innerCtx);
    else if (inner.type === 'assistant') this.onAssistant(inner, innerCtx);
  }

  /** stream-json / --output-format json final record; other `result` records are metadata. */
  private onResult(rec: Obj, ctx: Ctx): void {
    if (typeof rec.subtype !== 'string' && !('is_error' in rec) && !('duration_ms' in rec)) return;
    this.runOpen = false;
    this.runs = Math.max(this.runs, 1);
    const subtype = str(rec.subtype) || 'result';
    let text = str(rec.result) ?? '';
    const denials = Array.isArray(rec.permission_denials) ? rec.permission_denials.length : 0;
    if (denials > 0) text = `${text}${text ? '\n' : ''}(${denials} permission denial${denials === 1 ? '' : 's'})`;
    this.runTotals(obj(rec.usage), ctx);
    if (rec.is_error === true || subtype.startsWith('error')) return this.emit(ctx, { kind: 'error', text: `${subtype}: ${text}` });
    this.emit(ctx, { kind: 'system', subtype: 'result', text });
  }

  /**
   * A run whose messages carried no token counts (proxied models report zeros while streaming)
   * still spent what its `result` totals: counted once, from there.
   */
  private runTotals(usage: Obj | undefined, ctx: Ctx): void {
    if (!usage || this.runUsage || !hasTokens(usage)) return;
    this.runUsage = true;
    const base: UsageEvent = { kind: 'usage', index: -1, line: ctx.line, at: ctx.at, agentId: undefined, model: this.meta.model, input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
    this.messages.addUsage('', undefined, usage, base, ctx.sink);
  }

  private title(subtype: string, text: string | undefined, ctx: Ctx): void {
    // Transcripts repeat titles (one summary per leaf); the same title is shown once.
    if (!text || this.titles.has(text)) return;
    boundedAdd(this.titles, text, MAX_TITLES);
    this.emit(ctx, { kind: 'system', subtype, text });
  }

  // ---- helpers ----

  private synthId(kind: string, line: number): string {
    this.synthCount++;
    return `cc-${kind}-${line}-${this.synthCount}`;
  }

  private emit(ctx: Ctx, fields: DistributiveOmit<NormEvent, 'index' | 'line' | 'at' | 'agentId'>): void {
    ctx.sink.emit({ index: -1, line: ctx.line, at: ctx.at, agentId: ctx.agentId, ...fields } as NormEvent);
  }
}

const NON_SPACE = /\S/;

function hasTokens(usage: Obj): boolean {
  return ['input_tokens', 'output_tokens', 'cache_read_input_tokens', 'cache_creation_input_tokens'].some((k) => (num(usage[k]) ?? 0) > 0);
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** Identifies a text block of a split message without hashing the whole (possibly huge) text. */
function blockKey(type: string, text: string): string {
  return `${type}:${text.length}:${text.slice(0, 48)}:${text.slice(-16)}`;
}

function hookText(a: Obj, command: string | undefined, detail: string): string {
  const hook = str(a.hookName) ?? str(a.hookEvent) ?? 'hook';
  return `${hook}${command ? ` (${command})` : ''}${detail ? `: ${detail}` : ''}`;
}

function prLinkText(rec: Obj): string {
  const url = str(rec.prUrl);
  if (url) return url;
  const n = num(rec.prNumber);
  return n === undefined ? 'pull request' : `pull request #${n}`;
}

function worktreeText(rec: Obj): string {
  const ws = obj(rec.worktreeSession);
  if (!ws) return 'left worktree';
  const branch = str(ws.worktreeBranch);
  return `worktree ${str(ws.worktreePath) ?? '(unknown path)'}${branch ? ` on branch ${branch}` : ''}`;
}

/** `{"task_id":"aef001a","description":"…","task_type":"local_agent"}`: a queued background-task record. */
function isTaskRecord(text: string): boolean {
  if (!text.startsWith('{"task_id"') && !text.startsWith('{"task_type"')) return false;
  try {
    const v = JSON.parse(text) as unknown;
    return typeof v === 'object' && v !== null && ('task_id' in v || 'task_type' in v);
  } catch {
    return false;
  }
}
