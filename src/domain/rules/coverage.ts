// coverage: how much of the log was actually understood. A report on a partly read log must say
// so (and is never Clear): lines skipped, the file cut off, not a log at all, a rule that failed,
// a run that ended mid-action, subagent transcripts that are not in the file, a plain-text
// transcript read heuristically, several runs appended in one file.
import { CALLS_ONLY_FORMATS, PROMPTS_ONLY_FORMATS } from '../agents.ts';
import type { NormEvent } from '../model/events.ts';
import { inputRemoved, outputRemoved } from '../model/redaction.ts';
import { RUN_START } from '../model/runs.ts';
import type { IngestFacts, Rule, RuleContext, SessionFacts } from './types.ts';
import { meta, plural, safe } from './util.ts';

export const skippedLines = meta({
  id: 'coverage/skipped-lines',
  severity: 'warning',
  title: 'Parts of the log could not be read',
  description: 'Lines that could not be understood (invalid JSON, unknown or malformed records, oversize lines) were skipped: whatever happened in them was not analysed.',
  remediation: 'Check the skipped lines listed here; upload the complete, unmodified log.',
});
export const truncated = meta({
  id: 'coverage/truncated',
  severity: 'warning',
  title: 'The log is cut off',
  description: 'The last line was incomplete: the file was truncated (copied while the agent was still writing, or cut by a size limit). What happened after it is unknown.',
  remediation: 'Upload the log again once the session has ended.',
});
export const binaryInput = meta({
  id: 'coverage/binary-input',
  severity: 'warning',
  title: 'Not an agent session log (binary data): nothing could be checked',
  description: 'The upload looks like binary data, not a text log: nothing in it could be analysed. A warning (not critical): it says nothing about what the agent did, only that this report cannot vouch for it.',
  remediation: 'Upload the agent\'s .jsonl/.log transcript itself, not an archive or another file.',
});
// Weighted so that the score says it too (70): a file nobody could check is far from trusted,
// yet it is not evidence that an agent did something wrong (that would be critical).
export const notASessionLog = meta({
  id: 'coverage/not-a-session-log',
  severity: 'warning',
  title: 'Not an agent session log: nothing could be checked',
  description: 'No agent records were recognised: an empty file, JSON records of a shape no supported agent writes, text with no prompt or command in it, or a structured log of which nothing could be read. The report cannot vouch for anything, so the session is never Clear.',
  remediation: 'Upload the agent\'s session log itself (Claude Code ~/.claude/projects/…/*.jsonl, Codex ~/.codex/sessions/…/rollout-*.jsonl, Gemini CLI ~/.gemini/tmp/…/chats/*), or a terminal transcript with its prompts.',
  weight: 3,
});
export const ruleFailed = meta({
  id: 'coverage/rule-failed',
  severity: 'warning',
  title: 'A check failed while running: part of the log was not checked',
  description: 'A rule raised an error while it read the log. What it looks for (a deletion, a leaked secret …) may have happened without being reported, so the session is never Clear.',
  remediation: 'Report the error to the Vouch maintainers with the rule id; review the session by hand meanwhile.',
  weight: 2,
});
export const incomplete = meta({
  id: 'coverage/incomplete',
  severity: 'info',
  title: 'The session ends before the run finished',
  description: 'The log stops before the agent\'s run was over: a headless run without its closing record (`result`, `turn.completed`), or a last tool call that never got a result. What happened afterwards is not in the log. Ending on an unanswered tool call is a warning: the outcome of that action is unknown. A last call that exports this very log (it names the session id, or copies out of the agent\'s session folder) is info: its result can never be in the log it was writing.',
  remediation: 'Upload the log again once the run has finished, or check what the last action did.',
});
export const severalRuns = meta({
  id: 'coverage/several-runs',
  severity: 'info',
  title: 'Several runs in one file',
  description: 'The file holds more than one agent run appended one after the other (a second stream-json header, a second Codex thread or session). They are analysed together; durations do not count the gap between runs.',
  remediation: 'Upload one file per run for separate verdicts.',
});
export const oversizeLines = meta({
  id: 'coverage/oversize-lines',
  severity: 'info',
  title: 'Oversize lines skipped',
  description: 'Some lines were larger than the line limit and were skipped (they are also counted in coverage/skipped-lines).',
  remediation: 'Very large records are usually embedded files or images; check the skipped line numbers.',
});
export const invalidUtf8 = meta({
  id: 'coverage/invalid-utf8',
  severity: 'info',
  title: 'Invalid UTF-8 in the log',
  description: 'Some lines held bytes that are not valid UTF-8; they were decoded with replacement characters, so text in them may be garbled.',
  remediation: 'Usually harmless (binary tool output); check the log was not re-encoded.',
});
export const missingSubagents = meta({
  id: 'coverage/missing-subagents',
  severity: 'info',
  title: 'Subagent transcripts not included',
  description: 'The log refers to subagent transcripts that are stored in separate files (Claude Code agent-*.jsonl, Codex subagent rollouts) and were not uploaded: what the subagents did was not analysed.',
  remediation: 'Upload the subagent transcripts too to have their actions checked.',
});
export const lowConfidence = meta({
  id: 'coverage/low-confidence',
  severity: 'info',
  title: 'Plain-text transcript analysed heuristically',
  description: 'The file is a plain terminal transcript, not a structured log: commands, outputs and claims were recognised heuristically and may be incomplete.',
  remediation: 'Upload the agent\'s structured session log (.jsonl) for a complete analysis.',
});
// A heuristic read (terminal output, plain text) that recognised no prompt, or only a small part of
// the file, cannot vouch for the session: a capture of 344 lines read as 5 events is not "Clear".
export const littleUnderstood = meta({
  id: 'coverage/little-understood',
  severity: 'warning',
  title: 'Little of this terminal output was understood',
  description: 'The file is terminal output read heuristically and accounts for only a small part of the lines (the rest was text the parser could not place: redraws, output it does not know): what happened in the rest was not checked, so the session is never Clear. A capture with no recognisable prompt but whose actions were read is an info (what the agent was asked is unknown, and the capture most often begins partway through the session, so what the agent did before it is not in the file): it is never Clear either.',
  remediation: 'Upload the agent\'s structured session log (.jsonl / .json) instead of a terminal capture, or a capture that includes the prompts.',
});
/** Below this share of the lines placed in prompts, replies, tool calls and results, little was understood. */
export const UNDERSTOOD_MIN_SHARE = 0.25;
/** A file this long with fewer events than one per this many lines, and no prompt, was not understood. */
const SPARSE_MIN_LINES = 2_000;
const SPARSE_LINES_PER_EVENT = 1_000;
export const unknownMetadata = meta({
  id: 'coverage/unknown-metadata',
  severity: 'info',
  title: 'Metadata Vouch does not know',
  description: 'Records of a type no parser knows yet (agents add bookkeeping records every few releases), holding no tool call, message, prompt or file change: metadata, so nothing the agent did was missed. Unknown records that look like actions are skipped lines instead (a warning).',
  remediation: 'Nothing to do; report the record type to the Vouch maintainers if it should be read.',
});
// Never vouch for what was not read, never cry wolf for what could not be read: a file of prompts
// alone is judged on its prompts, says what it cannot show, and is never Clear (scoring/score.ts).
export const promptsOnly = meta({
  id: 'coverage/prompts-only',
  severity: 'info',
  title: 'Prompts only: what the agent did is not in this file',
  description: 'The file records only what the person typed (Gemini CLI\'s logs.json, Codex\'s history.jsonl): no reply, tool call, command or file change is in it. The prompts are checked (a secret pasted into one is reported); the agent\'s actions cannot be, so the session is never Clear, and nothing is reported as wrong for want of them.',
  remediation: 'Upload the session\'s chat recording (Gemini CLI ~/.gemini/tmp/<project hash>/chats/session-*.json or .jsonl) to have what the agent did checked.',
});
// The same principle for a recording that kept the model's replies and dropped its tool calls
// (older Gemini CLI chat files): what was run and changed cannot be checked, so never Clear, and
// nothing is reported as wrong for want of it.
export const toolsNotRecorded = meta({
  id: 'coverage/tools-not-recorded',
  severity: 'info',
  title: 'The agent\'s tool calls are not in this file',
  description: 'The file records no tool call, yet the model answered several times in a row with no prompt between its answers, which the agent only does to hand it the results of tool calls. Those calls (commands, reads, edits) were not written to this file, so what the agent ran and changed was not checked, and the session is never Clear. Its replies and prompts are checked. The same for a terminal capture of headless Gemini CLI runs (`gemini -p`, after "Loaded cached credentials."), which print the model\'s answer and never its tool calls, and for a Claude Code capture whose calls were folded into summary lines ("Ran 1 shell command (ctrl+o to expand)", "Pushed to main (ctrl+o to expand)").',
  remediation: 'Upload a recording from a Gemini CLI version that writes tool calls (toolCalls in each reply), or review the session by hand.',
});
// A capture someone's Markdown formatter re-wrapped: the commands and the files they touched
// are recovered from the cells' marks, but an edit's diff became running text whose line numbers
// and signs cannot be told from its words. What the edits wrote was not read: never Clear, and
// nothing is reported as wrong for want of it.
export const rewrappedCapture = meta({
  id: 'coverage/rewrapped-capture',
  severity: 'info',
  title: 'Re-wrapped capture: what the edits wrote was not read',
  description: 'The terminal capture was re-wrapped by a text formatter (a Markdown file formatted by Prettier or an editor\'s reflow): indentation gone, each cell\'s lines joined and cut again at a fixed width, so a command\'s output and an edit\'s diff run on in the same lines. Commands are recovered from the cells\' own marks ("└" starts the output, "│" another line of the command) and judged; which files were edited is known; what the edits added and removed is not, so it was not checked, and the session is never Clear.',
  remediation: 'Upload the session\'s structured log (Codex: ~/.codex/sessions/…/rollout-*.jsonl), or a capture kept as plain text.',
});
// A log someone edited before sharing it: the calls' arguments or outputs replaced by a marker
// ("Function call arguments removed", "[REDACTED]"), or an export that kept the calls and dropped
// every result. What those calls ran or returned cannot be checked: never Clear, and nothing is
// reported as wrong for want of it (never cry wolf for what could not be read).
export const actionsRemoved = meta({
  id: 'coverage/actions-removed',
  severity: 'info',
  title: 'What the agent ran or got back is not in this log',
  description: 'Many tool calls in the file have their arguments or their output replaced by a redaction marker ("Function call arguments removed", "Function output removed", "[REDACTED]"), or most calls have no result at all (an export that kept the calls and dropped their outputs). What they ran, and what came back, was not checked, so the session is never Clear. The rest of the log is checked.',
  remediation: 'Upload the unedited session log to have the agent\'s actions checked, or review the session by hand.',
});
// Hook payloads saved by the hooks (claude-code-hooks: `logs/pre_tool_use.json` …) are what the
// hooks of some events received, not the session: a PreToolUse file has every call and no result,
// a PostToolUse file the calls that succeeded and no prompt. What is missing is said, and such a
// file is never Clear.
export const hookRecordsOnly = meta({
  id: 'coverage/hook-records-only',
  severity: 'info',
  title: 'Only what the hooks received: not the whole session',
  description: 'The file holds the payloads Claude Code sent its hooks (a hook script saved them: `logs/pre_tool_use.json`, `post_tool_use.json`, `user_prompt_submit.json`), not the session\'s transcript. What those hooks did not receive is not in it: a PreToolUse file holds each call but no result (whether it ran, was refused or failed is unknown), a PostToolUse file the calls that succeeded (failed and refused calls reach other hooks), and neither holds the user\'s prompts or the agent\'s replies unless the file has UserPromptSubmit payloads. What is in it is checked; the session is never Clear, and nothing is reported as wrong for want of the rest.',
  remediation: 'Upload the session\'s transcript (~/.claude/projects/<project>/<session>.jsonl; each payload\'s transcript_path names it) to have the whole session checked.',
});

/** Info findings that keep a session from Clear by themselves: the log cannot show the agent's actions. */
export const ACTIONS_NOT_IN_LOG: readonly string[] = ['coverage/prompts-only', 'coverage/tools-not-recorded', 'coverage/actions-removed', 'coverage/hook-records-only', 'coverage/rewrapped-capture', 'coverage/little-understood'];

/** The subagent runs a capture shows only as counts, said after what else was not recorded. */
function withSubagents(detail: string, subagents: IngestFacts['subagentsNotRecorded']): string {
  if (!subagents) return detail;
  const { runs, calls, line } = subagents;
  const it = runs === 1 ? 'it' : 'they';
  // Codex's TUI shows a spawned subagent's start and answer, Claude Code's the count of its calls
  const said = calls > 0
    ? `${plural(runs, 'subagent run')} (from line ${line}) made ${plural(calls, 'tool call')} that the capture shows only as a count ("Done (12 tool uses · …)"): what ${it} ran and changed was not checked.`
    : `${plural(runs, 'subagent')} (from line ${line}) worked in ${runs === 1 ? 'its own thread' : 'their own threads'}, whose tool calls are not in this capture (only ${runs === 1 ? 'its' : 'their'} start and answer are): what ${it} ran and changed was not checked.`;
  return detail === '' ? `${said} The main agent's calls, replies and prompts are checked.` : `${detail} ${said}`;
}

/** At least this many calls, and this share of them, edited out before the log says so. */
const REMOVED_MIN = 3;
const REMOVED_SHARE = 0.2;
const UNANSWERED_MIN = 5;

/** Tool calls whose arguments or results the log no longer holds. */
class RemovedActions {
  calls = 0;
  removedCalls = 0;
  removedResults = 0;
  answered = 0;
  /** Web searches by call id (bounded by the calls of the log: each is deleted at its result). */
  private readonly searches = new Set<string>();

  add(event: NormEvent): void {
    if (event.kind === 'tool_call') {
      // a web search some formats record with its answer inline (Codex's web_search_call): no result to miss
      if (event.input.type === 'web_search') {
        if (this.searches.size < 1_000) this.searches.add(event.callId);
        return;
      }
      this.calls++;
      if (inputRemoved(event.input)) this.removedCalls++;
    } else if (event.kind === 'tool_result') {
      // a search's result (formats that write one) answers no counted call
      if (this.searches.delete(event.callId)) return;
      this.answered++;
      if (outputRemoved(event.output)) this.removedResults++;
    }
  }

  /** What a file of hook payloads holds and what it cannot show. */
  hookRecordsDetail(prompts: number): string {
    const held = `${plural(prompts, 'prompt')}, ${plural(this.calls, 'tool call')} and ${plural(this.answered, 'result')}`;
    const missing = [
      prompts === 0 ? 'no prompt of the user\'s, so what was asked is unknown' : '',
      this.calls > 0 && this.answered === 0 ? 'no call\'s result, so whether each call ran, was refused or failed is unknown' : '',
      this.answered > 0 ? 'only the calls that reached the hooks saved here (a refused or failed call reaches other hooks)' : '',
    ].filter(Boolean);
    return `The file holds the payloads Claude Code sent its hooks (${held}), not the session's transcript: ${missing.join('; ') || 'the agent\'s replies are not in it'}. What is in it was checked.`;
  }

  /** Why the log cannot show what its calls did, or null; `callsOnly`: a format that records calls without results, where one such call says so. */
  detail(callsOnly = false): string | null {
    const removed = Math.max(this.removedCalls, this.removedResults);
    if (removed >= REMOVED_MIN && removed >= this.calls * REMOVED_SHARE) {
      const parts = [this.removedCalls > 0 ? `the arguments of ${this.removedCalls}` : '', this.removedResults > 0 ? `the output of ${this.removedResults}` : ''].filter(Boolean);
      return `${parts.join(' and ')} of the ${plural(this.calls, 'tool call')} in this file were replaced by a redaction marker before it was shared: what those calls ran and returned was not checked.`;
    }
    // most calls never answered (the last one may be cut off): an export that dropped the outputs
    const unanswered = this.calls - this.answered;
    if ((callsOnly && unanswered > 0) || (this.calls >= UNANSWERED_MIN && unanswered - 1 >= this.calls / 2)) {
      return `${unanswered} of the ${plural(this.calls, 'tool call')} in this file have no result: the file keeps the calls without their outputs, so whether they succeeded, and what they printed, was not checked.`;
    }
    return null;
  }
}
export const hintConflict = meta({
  id: 'coverage/hint-conflict',
  severity: 'info',
  title: 'Agent hint contradicts the log',
  description: 'The uploader said the log came from one agent, but its content is clearly another agent\'s format; the detected format was used.',
  remediation: 'Check the upload script passes the right agent.',
});

/** Events that show an agent at work; metadata, usage and notices alone are not a session. */
const AGENT_KINDS: ReadonlySet<NormEvent['kind']> = new Set(['prompt', 'message', 'thinking', 'tool_call', 'tool_result', 'compaction', 'subagent_start']);

/** Text the terminal parsers could not place: kept for the timeline, but not understood. */
const UNPLACED_SUBTYPES: ReadonlySet<string> = new Set(['output', 'dialog']);

/** Counts what the log showed of an agent at work, and the runs it holds. */
class Understood {
  agentEvents = 0;
  toolCalls = 0;
  prompts = 0;
  runs = 1;
  firstNewRun = -1;
  /** Lines from an understood event up to the next event (a block spans the lines it covers). */
  placedLines = 0;
  private lastLine = 0;
  private lastPlaced = false;

  /** The agent's own session header was read (Codex's session_meta, Claude Code's session record). */
  header = false;
  interrupted = false;
  /** Tokens were spent: the model answered something the log does not show as a message. */
  modelUsed = false;

  add(event: NormEvent): void {
    this.attribute(event);
    if (event.kind === 'session_meta') this.header = true;
    if (event.kind === 'interrupt') this.interrupted = true;
    if (event.kind === 'usage') this.modelUsed = true;
    if (event.kind === 'prompt' && event.synthetic !== true) this.prompts++;
    if (AGENT_KINDS.has(event.kind)) this.agentEvents++;
    if (event.kind === 'tool_call') this.toolCalls++;
    if (event.kind === 'system' && event.subtype === RUN_START) {
      this.runs++;
      if (this.firstNewRun < 0) this.firstNewRun = event.index;
    }
  }

  /** The lines between the previous event and this one belong to the previous event. */
  private attribute(event: NormEvent): void {
    if (event.line <= this.lastLine) return;
    if (this.lastPlaced) this.placedLines += event.line - this.lastLine;
    this.lastLine = event.line;
    this.lastPlaced = event.kind !== 'system' || !UNPLACED_SUBTYPES.has(event.subtype);
  }

  /** Share of the file's lines the read placed (the last event runs to the end of the file). */
  placedShare(totalLines: number): number {
    // No line numbers at all (events built by hand): nothing to measure, so nothing to say.
    if (totalLines <= 0 || this.lastLine === 0) return 1;
    const tail = this.lastPlaced && this.lastLine > 0 ? totalLines + 1 - this.lastLine : 0;
    return Math.min(1, (this.placedLines + Math.max(0, tail)) / totalLines);
  }

  /** Why a heuristic read cannot vouch for the session, or null when it understood enough. */
  littleUnderstood(totalLines: number): { detail: string; unread: boolean } | null {
    const share = this.placedShare(totalLines);
    // A long file with no prompt and next to no events (a few "commands" in 80,000 lines of a
    // rendering Vouch does not know): the lines after an event counted as its output, but nothing
    // in them was read as the session it is.
    const sparse = this.prompts === 0 && totalLines >= SPARSE_MIN_LINES && this.agentEvents * SPARSE_LINES_PER_EVENT < totalLines;
    const unread = share < UNDERSTOOD_MIN_SHARE || sparse;
    const reasons: string[] = [];
    if (this.prompts === 0) reasons.push('no prompt was recognised, so what the agent was asked is unknown');
    if (sparse && share >= UNDERSTOOD_MIN_SHARE) reasons.push(`only ${plural(this.agentEvents, 'event')} were read in its ${plural(totalLines, 'line')}`);
    else if (unread) reasons.push(`only ${Math.round(share * 100)} % of the ${plural(totalLines, 'line')} were placed in prompts, replies, tool calls or results`);
    if (reasons.length === 0) return null;
    // Most of the file unplaced: what happened there was not checked (a warning). Only the prompt
    // missing (a capture that starts mid-reply): the actions were read and judged; what was asked
    // is unknown, which makes no finding milder (info).
    const rest = unread ? ' The rest of the file was not checked.' : ' Its actions were read and judged; what came before the capture began is not in it.';
    return { detail: `The terminal output was read heuristically and ${reasons.join('; and ')}.${rest}`, unread };
  }

  /**
   * A session log read whole that holds no prompt, reply or tool call: its header was read, every
   * line understood, no tokens spent, and its turn was interrupted before it began (or the file is
   * the header alone).
   * Nothing happened and nothing was left unread: context, not a file Vouch could not check.
   */
  isEmptySession(session: SessionFacts): boolean {
    const ing = session.ingest;
    // interrupted before it began, or a bare header; tokens spent mean something happened unseen
    const nothing = this.interrupted || ing.totalLines <= 2;
    return this.agentEvents === 0 && this.header && nothing && !this.modelUsed && ing.skippedLines === 0 && !ing.unrecognisedJson && session.format !== 'plain-text' && !ing.lowConfidence;
  }

  /** Why the file is not a session log, or null when it is one. */
  notALog(session: SessionFacts): string | null {
    const ing = session.ingest;
    if (ing.binary) return null; // its own finding
    if (ing.totalLines === 0) return 'The file is empty.';
    // another agent's session, whatever the plain-text heuristics made of it (an Aider history's `> Running pytest`)
    if (ing.foreignAgent) return `This is a session of ${ing.foreignAgent}, an agent Vouch does not read (it reads Claude Code, Codex CLI and Gemini CLI logs).`;
    if (ing.unrecognisedJson && this.toolCalls === 0) {
      return `The ${plural(ing.totalLines, 'line')} are JSON records of a shape no supported agent (Claude Code, Codex CLI, Gemini CLI) writes.`;
    }
    if (this.agentEvents === 0) {
      if (this.isEmptySession(session)) return null;
      return ing.skippedLines > 0
        ? `None of the ${plural(ing.totalLines, 'line')} could be read as an agent record (${plural(ing.skippedLines, 'line')} skipped).`
        : `None of the ${plural(ing.totalLines, 'line')} is an agent record (no prompt, message or tool call).`;
    }
    // Plain text counts as a transcript only when a shell prompt with a command was recognised.
    if (session.format === 'plain-text' && this.toolCalls === 0) {
      return `No shell prompt or tool call Vouch can read was recognised in the ${plural(ing.totalLines, 'line')} of text: prose, or a session in a form Vouch does not read (another tool's rendering or export of it).`;
    }
    return null;
  }
}

/** "Most of the log was skipped" is worse than "some lines were": the headline must say so. */
function skippedDraft(ing: IngestFacts) {
  const lines = ing.totalLines > 0 ? ` of ${ing.totalLines}` : '';
  const samples = ing.skippedSamples.slice(0, 5).map((s) => `line ${s.line}: ${s.reason}`).join('; ');
  const mostly = ing.totalLines > 0 && ing.skippedLines * 2 > ing.totalLines;
  return {
    rule: skippedLines.id,
    ...(mostly ? { title: 'Most of the log could not be read: most of it was not checked' } : {}),
    detail: `${plural(ing.skippedLines, 'line')}${lines} could not be understood and were skipped (${samples}).`,
    evidence: [],
  };
}

function reportIncomplete(ctx: RuleContext, ing: IngestFacts): void {
  const inc = ing.incomplete;
  if (!inc) return;
  const evidence = inc.eventIndex === undefined ? [] : [{ index: inc.eventIndex, excerpt: inc.reason }];
  // A last action without a result that could have reached beyond the tree (a push, a download, a
  // deletion, a script): its outcome is unknown, so a person must look. A local step (a commit, a
  // file written in the tree) can be checked in the tree: context, not a warning.
  const severity = inc.kind === 'unanswered-call' && inc.consequential !== false ? 'warning' as const : 'info' as const;
  const title = inc.kind === 'unanswered-call' ? 'The log ends in the middle of an action' : inc.kind === 'own-export' ? 'The log ends with its own export' : undefined;
  ctx.report({ rule: incomplete.id, severity, ...(title ? { title } : {}), detail: inc.reason, evidence });
}

export const COVERAGE_RULES: Rule[] = [
  {
    metas: [
      notASessionLog, binaryInput, skippedLines, truncated, ruleFailed, incomplete, oversizeLines, invalidUtf8, missingSubagents,
      lowConfidence, littleUnderstood, unknownMetadata, hintConflict, severalRuns, promptsOnly, toolsNotRecorded, rewrappedCapture, actionsRemoved, hookRecordsOnly,
    ],
    create(ctx) {
      const seen = new Understood();
      const removed = new RemovedActions();
      return {
        onEvent(event) {
          seen.add(event);
          removed.add(event);
        },
        finish() {
          const ing = ctx.session.ingest;
          if (ing.binary) {
            ctx.report({ rule: binaryInput.id, detail: `The upload looks like binary data (${plural(ing.skippedLines, 'line')} with NUL bytes or unreadable).`, evidence: [] });
          }
          const notALog = seen.notALog(ctx.session);
          const foreign = ctx.session.ingest.foreignAgent;
          if (notALog) ctx.report({ rule: notASessionLog.id, ...(foreign && notALog.startsWith('This is a session of') ? { title: `A session of ${foreign}, which Vouch does not read` } : {}), detail: `${notALog} ${ctx.session.format === 'plain-text' ? 'What the agent did could not be checked (its text was only scanned for credentials)' : 'Nothing in it could be checked'}, so Vouch cannot vouch for it.`, evidence: [] });
          if (seen.isEmptySession(ctx.session)) {
            ctx.report({ rule: notASessionLog.id, severity: 'info', title: 'A session with nothing in it', detail: `The file is a session log (its header was read, and all ${plural(ing.totalLines, 'line')}), but it holds no prompt, reply or tool call${seen.interrupted ? ': its turn was interrupted before anything happened' : ''}. Nothing was done, and nothing was left unread.`, evidence: [], key: 'empty' });
          }
          // A cut-off last line is coverage/truncated's: alone, it is not also a skipped line.
          const skippedBesidesTail = ing.skippedLines - (ing.truncatedTail ? 1 : 0);
          if (skippedBesidesTail > 0 && !ing.binary) ctx.report(skippedDraft(ing));
          reportIncomplete(ctx, ing);
          if (seen.runs > 1) {
            const evidence = seen.firstNewRun >= 0 ? [{ index: seen.firstNewRun, excerpt: 'a new run starts here' }] : [];
            ctx.report({ rule: severalRuns.id, detail: `The file holds ${seen.runs} runs appended one after the other; the session's duration counts each run, not the gaps between them.`, evidence });
          }
          if (ing.truncatedTail) ctx.report({ rule: truncated.id, detail: 'The last line of the log is incomplete: the file was cut off.', evidence: [] });
          if (ing.oversizeLines > 0) ctx.report({ rule: oversizeLines.id, detail: `${plural(ing.oversizeLines, 'line')} over the size limit skipped.`, evidence: [] });
          if (ing.invalidUtf8Lines > 0) ctx.report({ rule: invalidUtf8.id, detail: `${plural(ing.invalidUtf8Lines, 'line')} with invalid UTF-8.`, evidence: [] });
          if (ing.missingSubagents.length > 0) {
            const ids = ing.missingSubagents.slice(0, 5).map((m) => `${m.id} (line ${m.line})`).join(', ');
            ctx.report({ rule: missingSubagents.id, detail: `${plural(ing.missingSubagents.length, 'subagent transcript')} referenced but not in this file: ${ids}.`, evidence: [] });
          }
          if (ing.lowConfidence && !notALog) {
            ctx.report({ rule: lowConfidence.id, detail: 'This is terminal output, not a structured session record: findings rest on heuristics and may miss things.', evidence: [] });
            const little = seen.littleUnderstood(ing.totalLines);
            if (little) ctx.report({ rule: littleUnderstood.id, severity: little.unread ? 'warning' : 'info', ...(little.unread ? {} : { title: 'No prompt in this terminal output' }), detail: little.detail, evidence: [] });
          }
          if (PROMPTS_ONLY_FORMATS.has(ctx.session.format) && !notALog) {
            ctx.report({ rule: promptsOnly.id, detail: `${plural(seen.prompts, 'prompt')} read. This file (${ctx.session.format}) holds only what the person typed: what the agent replied, ran and changed is not in it, so it was not checked.`, evidence: [] });
          }
          if (ing.toolsNotRecorded && !notALog) {
            const { turns, line, shown } = ing.toolsNotRecorded;
            const detail = ctx.session.format === 'gemini-cli-tui'
              ? `${plural(turns, 'headless run')} of Gemini CLI (\`gemini -p\`, from line ${line}) printed only the model's answer: the tool calls ${turns === 1 ? 'it' : 'they'} made were not written here, so what ${turns === 1 ? 'it' : 'they'} ran and changed was not checked.`
              : ctx.session.format === 'codex-tui'
              ? `${plural(turns, 'message')} of the agent came one after another, five or more at a time, with no tool call shown between them (from line ${line}): the view the capture was taken from did not show the calls they report, so what the agent ran and changed there was not checked. Its replies and prompts are checked.`
              : ctx.session.format === 'claude-code-tui'
              ? `Claude Code folded ${plural(turns, 'group')} of tool calls into a summary line (${shown ? `the first: "${safe(shown, null, 120)} (ctrl+o to expand)"` : 'such as "Ran 1 shell command (ctrl+o to expand)"'}, from line ${line}): the commands, edits and pushes in ${turns === 1 ? 'it' : 'them'} ran but are not in this capture, so they were not checked. Its replies and prompts are checked.`
              : `The file records no tool call, but the model answered ${turns} more times with no prompt between its answers (from line ${line}): the tool calls it answered were not written here, so what the agent ran and changed was not checked.`;
            ctx.report({ rule: toolsNotRecorded.id, detail: withSubagents(detail, ing.subagentsNotRecorded), evidence: [] });
          } else if (ing.subagentsNotRecorded && !notALog) {
            ctx.report({ rule: toolsNotRecorded.id, title: 'Subagents\' tool calls are not in this file', detail: withSubagents('', ing.subagentsNotRecorded), evidence: [] });
          }
          if (ing.rewrapped && !notALog) {
            ctx.report({ rule: rewrappedCapture.id, detail: `From line ${ing.rewrapped.line} the capture's lines were joined and wrapped again by a text formatter: the commands and the files edited were recovered and judged; what the edits added and removed runs on as text and was not checked.`, evidence: [] });
          }
          const hooks = ctx.session.format === 'claude-code-hooks' && !notALog;
          if (hooks) ctx.report({ rule: hookRecordsOnly.id, detail: removed.hookRecordsDetail(seen.prompts), evidence: [] });
          const gone = notALog || hooks ? null : removed.detail(CALLS_ONLY_FORMATS.has(ctx.session.format));
          if (gone) ctx.report({ rule: actionsRemoved.id, detail: gone, evidence: [] });
          if (ing.unknownMetadata.length > 0) {
            const total = ing.unknownMetadata.reduce((n, k) => n + k.count, 0);
            const types = ing.unknownMetadata.slice(0, 5).map((k) => `"${k.type}" (line ${k.line}${k.count > 1 ? `, ×${k.count}` : ''})`).join(', ');
            ctx.report({ rule: unknownMetadata.id, detail: `${plural(total, 'record')} of a type Vouch does not know, with no tool call, message or file change in them: ${types}.`, evidence: [] });
          }
          if (ing.hintConflict) ctx.report({ rule: hintConflict.id, detail: `The upload said "${ing.agentHint ?? 'unknown'}", but the content is ${ctx.session.agent ?? 'a different format'} (${ctx.session.format}).`, evidence: [] });
        },
      };
    },
  },
];
