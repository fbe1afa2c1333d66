// Counts what happened in a session — stats, files touched, commands with exit codes, models,
// times — from the event stream, with bounded memory (lists are capped; counts stay exact).
import type { NormEvent, ToolCallEvent, ToolResultEvent } from '../model/events.ts';
import { RUN_START } from '../model/runs.ts';
import type { CommandRecord, FileTouch, ReportStats } from '../model/report.ts';
import type { EventFacts, SessionFacts } from '../rules/types.ts';
import { effectsOf } from '../rules/effects.ts';
import { oneLine } from './strings.ts';
import { boundedSet } from '../bounded.ts';

/** A file a shell command wrote (`cat > f`, `sed -i`, `tee`, `cp`, PowerShell's Set-Content …). */
export interface ShellChange {
  path: string;
  how: 'write' | 'edit';
}

// A path as people write one: no line breaks, backticks or control characters (text a parse of
// prose or a here-string turned into a redirect target is no file).
const PLAIN_PATH = /^[^\n\r`\u0000-\u001f]{1,300}$/;

/**
 * The files a command call writes, as the rules read them (effects.ts): what "Files changed" must
 * list beside the write tools' files, or a session that edits through the shell (sed -i, heredocs,
 * PowerShell) says "no files changed". Scratch files in temp space are left out. Null for other events.
 */
export function shellChanges(event: NormEvent, facts: EventFacts, session: SessionFacts): ShellChange[] | null {
  if (event.kind !== 'tool_call' || event.input.type !== 'command') return null;
  const out: ShellChange[] = [];
  for (const w of effectsOf(event, facts, session).writes) {
    if (w.via !== 'command' || w.zone === 'tmp' || w.zone === 'device' || !PLAIN_PATH.test(w.path)) continue;
    out.push({ path: w.abs, how: w.kind === 'edit' ? 'edit' : 'write' });
  }
  return out.length > 0 ? out : null;
}

const FILES_MAX = 5_000;
const COMMANDS_MAX = 5_000;
const COMMAND_TEXT_MAX = 500;

export interface SessionHeader {
  sessionId: string | null;
  cwd: string | null;
  branch: string | null;
  repositoryUrl: string | null;
  agentVersion: string | null;
  models: string[];
  startedAt: string | null;
  endedAt: string | null;
}

export class Tally {
  readonly stats: ReportStats = {
    events: 0, prompts: 0, tool_calls: 0, commands: 0, failed_commands: 0, files_read: 0, files_written: 0,
    tokens: { input: 0, output: 0, cache_read: 0, cache_write: 0 },
    subagents: 0, compactions: 0, skipped_lines: 0,
  };
  readonly header: SessionHeader = {
    sessionId: null, cwd: null, branch: null, repositoryUrl: null, agentVersion: null, models: [], startedAt: null, endedAt: null,
  };
  private readonly files = new Map<string, FileTouch>();
  private filesOmitted = 0;
  private readonly commands: CommandRecord[] = [];
  /** callId → command record (or null when the command list is full), until the result comes. */
  private readonly openCommands = new Map<string, CommandRecord | null>();
  /** callId → file changes the call would make, kept until its result shows they happened. */
  private readonly pendingTouches = new Map<string, { path: string; how: 'write' | 'edit' | 'delete' }[]>();
  private readonly subagents = new Set<string>();
  private readonly readPaths = new Set<string>();
  private readonly writtenPaths = new Set<string>();
  /** Time span of the current run, and the summed spans of the runs before it. */
  private runStart: number | null = null;
  private runEnd: number | null = null;
  private earlierRunsMs = 0;
  private timed = false;
  /** The last timestamp parsed: a record's events share one, so most events parse none. */
  private lastAt = '';
  private lastTime = NaN;

  /** `displayPath` turns an absolute path into the form shown in the report (relative to cwd). */
  add(event: NormEvent, timelineIndex: number, displayPath: (p: string) => string, changes: ShellChange[] | null = null): void {
    this.stats.events++;
    // A new run's first event (this marker) already belongs to the new run.
    if (event.kind === 'system' && event.subtype === RUN_START) this.closeRun();
    // Usage may be emitted late (deduplicated per message), so it does not time runs.
    this.trackTime(event.at, event.kind !== 'usage');
    if (event.agentId) this.trackSubagent(event.agentId);
    switch (event.kind) {
      case 'session_meta':
        return this.meta(event);
      case 'prompt':
        if (!event.synthetic) this.stats.prompts++;
        return;
      case 'message':
        if (event.model) this.addModel(event.model);
        return;
      case 'usage':
        if (event.model) this.addModel(event.model);
        this.stats.tokens.input += num(event.input);
        this.stats.tokens.output += num(event.output);
        this.stats.tokens.cache_read += num(event.cacheRead);
        this.stats.tokens.cache_write += num(event.cacheWrite);
        return;
      case 'compaction':
        this.stats.compactions++;
        return;
      case 'subagent_start':
        this.trackSubagent(event.subagentId);
        return;
      case 'tool_call':
        if (changes) for (const c of changes) this.change(event.callId, displayPath(c.path), c.how);
        return this.call(event, timelineIndex, displayPath);
      case 'tool_result':
        return this.result(event);
      default:
        return;
    }
  }

  filesTouched(): FileTouch[] {
    this.flushChanges();
    return [...this.files.values()];
  }

  /** Session time: each run's first-to-last timestamp, summed; null when the log has no times. */
  activeDurationMs(): number | null {
    if (!this.timed) return null;
    return this.earlierRunsMs + this.currentRunMs();
  }

  private currentRunMs(): number {
    return this.runStart !== null && this.runEnd !== null ? Math.max(0, this.runEnd - this.runStart) : 0;
  }

  private closeRun(): void {
    this.earlierRunsMs += this.currentRunMs();
    this.runStart = null;
    this.runEnd = null;
  }

  commandList(): CommandRecord[] {
    return this.commands;
  }

  get omittedFiles(): number {
    return this.filesOmitted;
  }

  private meta(event: Extract<NormEvent, { kind: 'session_meta' }>): void {
    const h = this.header;
    if (event.sessionId && !h.sessionId) h.sessionId = event.sessionId;
    if (event.cwd && !h.cwd) h.cwd = event.cwd;
    if (event.branch) h.branch = event.branch;
    if (event.repositoryUrl) h.repositoryUrl = event.repositoryUrl;
    if (event.agentVersion) h.agentVersion = event.agentVersion;
    if (event.model) this.addModel(event.model);
  }

  private call(call: ToolCallEvent, timelineIndex: number, displayPath: (p: string) => string): void {
    this.stats.tool_calls++;
    const input = call.input;
    switch (input.type) {
      case 'command': {
        this.stats.commands++;
        const record = this.commands.length < COMMANDS_MAX
          ? { timeline_index: timelineIndex, command: oneLine(input.command, COMMAND_TEXT_MAX), exit_code: null }
          : null;
        if (record) this.commands.push(record);
        boundedSet(this.openCommands, call.callId, record, COMMANDS_MAX);
        return;
      }
      case 'file_read':
        return this.touch(displayPath(input.path), 'read');
      case 'file_write':
        return this.change(call.callId, displayPath(input.path), 'write');
      case 'file_edit':
        return this.change(call.callId, displayPath(input.path), 'edit');
      case 'patch':
        for (const f of input.files) {
          this.change(call.callId, displayPath(f.path), f.op === 'add' ? 'write' : f.op === 'delete' ? 'delete' : 'edit');
          if (f.moveTo) this.change(call.callId, displayPath(f.moveTo), 'write');
        }
        return;
      case 'subagent':
        return;
      default:
        return;
    }
  }

  /**
   * "Files changed" lists changes that happened (issue 25): a change waits for its call's result,
   * and a refused or failed call changed nothing. A call whose result never came keeps its change
   * (what it did is unknown, and the report says so elsewhere).
   */
  private change(callId: string, path: string, how: 'write' | 'edit' | 'delete'): void {
    const list = this.pendingTouches.get(callId) ?? [];
    list.push({ path, how });
    boundedSet(this.pendingTouches, callId, list, COMMANDS_MAX);
  }

  private settleChanges(r: ToolResultEvent): void {
    const list = this.pendingTouches.get(r.callId);
    if (!list) return;
    this.pendingTouches.delete(r.callId);
    if (r.denied || r.isError || r.interrupted) return;
    for (const t of list) this.touch(t.path, t.how);
  }

  private flushChanges(): void {
    for (const list of this.pendingTouches.values()) for (const t of list) this.touch(t.path, t.how);
    this.pendingTouches.clear();
  }

  private result(r: ToolResultEvent): void {
    this.settleChanges(r);
    if (!this.openCommands.has(r.callId)) return;
    const record = this.openCommands.get(r.callId);
    this.openCommands.delete(r.callId);
    const failed = r.isError || (r.exitCode !== null && r.exitCode !== 0);
    if (failed && !r.denied) this.stats.failed_commands++;
    // a refused call did not run: it has no exit status, whatever error the agent recorded for it
    if (record) record.exit_code = r.denied ? null : r.exitCode ?? (failed ? 1 : 0);
  }

  private touch(path: string, how: 'read' | 'write' | 'edit' | 'delete'): void {
    if (!path) return;
    let f = this.files.get(path);
    if (!f) {
      if (this.files.size >= FILES_MAX) {
        this.filesOmitted++;
        return;
      }
      f = { path, reads: 0, writes: 0, created: how === 'write', deleted: false };
      this.files.set(path, f);
    }
    if (how === 'read') {
      f.reads++;
      if (!this.readPaths.has(path)) {
        this.readPaths.add(path);
        this.stats.files_read++;
      }
      return;
    }
    f.writes++;
    if (how === 'delete') f.deleted = true;
    if (!this.writtenPaths.has(path)) {
      this.writtenPaths.add(path);
      this.stats.files_written++;
    }
  }

  private addModel(model: string): void {
    if (!this.header.models.includes(model) && this.header.models.length < 20) this.header.models.push(model);
  }

  private trackSubagent(id: string): void {
    if (this.subagents.has(id) || this.subagents.size >= 10_000) return;
    this.subagents.add(id);
    this.stats.subagents++;
  }

  private trackTime(at: string | null, timesRun: boolean): void {
    if (!at) return;
    if (at !== this.lastAt) {
      this.lastAt = at;
      this.lastTime = Date.parse(at);
    }
    const t = this.lastTime;
    if (timesRun && Number.isFinite(t)) {
      this.timed = true;
      if (this.runStart === null || t < this.runStart) this.runStart = t;
      if (this.runEnd === null || t > this.runEnd) this.runEnd = t;
    }
    if (!this.header.startedAt || at < this.header.startedAt) this.header.startedAt = at;
    if (!this.header.endedAt || at > this.header.endedAt) this.header.endedAt = at;
  }
}

function num(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0;
}
