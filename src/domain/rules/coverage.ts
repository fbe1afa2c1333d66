// coverage: how much of the log was actually understood. A report on a partly read log must say
// so (and is never Clear): lines skipped, the file cut off, not a log at all, subagent transcripts
// that are not in the file, a plain-text transcript read heuristically.
import type { Rule } from './types.ts';
import { meta, plural } from './util.ts';

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
  title: 'The file is not a session log',
  description: 'The upload looks like binary data, not a text log: nothing in it could be analysed. A warning (not critical): it says nothing about what the agent did, only that this report cannot vouch for it.',
  remediation: 'Upload the agent\'s .jsonl/.log transcript itself, not an archive or another file.',
});
export const nothingUnderstood = meta({
  id: 'coverage/nothing-understood',
  severity: 'warning',
  title: 'Nothing in the log was understood',
  description: 'The file has lines but not a single event (prompt, message, tool call) could be recognised: the report cannot vouch for anything.',
  remediation: 'Check that the file is an agent session log in a supported format.',
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
export const hintConflict = meta({
  id: 'coverage/hint-conflict',
  severity: 'info',
  title: 'Agent hint contradicts the log',
  description: 'The uploader said the log came from one agent, but its content is clearly another agent\'s format; the detected format was used.',
  remediation: 'Check the upload script passes the right agent.',
});

export const COVERAGE_RULES: Rule[] = [
  {
    metas: [skippedLines, truncated, binaryInput, nothingUnderstood, oversizeLines, invalidUtf8, missingSubagents, lowConfidence, hintConflict],
    create(ctx) {
      let events = 0;
      return {
        onEvent() {
          events++;
        },
        finish() {
          const ing = ctx.session.ingest;
          const lines = ing.totalLines > 0 ? ` of ${ing.totalLines}` : '';
          if (ing.binary) {
            ctx.report({ rule: binaryInput.id, detail: `The upload looks like binary data (${plural(ing.skippedLines, 'line')} with NUL bytes or unreadable).`, evidence: [] });
          } else if (events === 0 && ing.totalLines > ing.skippedLines) {
            ctx.report({ rule: nothingUnderstood.id, detail: `None of the ${plural(ing.totalLines, 'line')} produced an event.`, evidence: [] });
          }
          if (ing.skippedLines > 0 && !ing.binary) {
            const samples = ing.skippedSamples.slice(0, 5).map((s) => `line ${s.line}: ${s.reason}`).join('; ');
            ctx.report({ rule: skippedLines.id, detail: `${plural(ing.skippedLines, 'line')}${lines} could not be understood and were skipped (${samples}).`, evidence: [] });
          }
          if (ing.truncatedTail) ctx.report({ rule: truncated.id, detail: 'The last line of the log is incomplete: the file was cut off.', evidence: [] });
          if (ing.oversizeLines > 0) ctx.report({ rule: oversizeLines.id, detail: `${plural(ing.oversizeLines, 'line')} over the size limit skipped.`, evidence: [] });
          if (ing.invalidUtf8Lines > 0) ctx.report({ rule: invalidUtf8.id, detail: `${plural(ing.invalidUtf8Lines, 'line')} with invalid UTF-8.`, evidence: [] });
          if (ing.missingSubagents.length > 0) {
            const ids = ing.missingSubagents.slice(0, 5).map((m) => `${m.id} (line ${m.line})`).join(', ');
            ctx.report({ rule: missingSubagents.id, detail: `${plural(ing.missingSubagents.length, 'subagent transcript')} referenced but not in this file: ${ids}.`, evidence: [] });
          }
          if (ing.lowConfidence) ctx.report({ rule: lowConfidence.id, detail: 'This is a plain-text transcript: findings rest on heuristics and may miss things.', evidence: [] });
          if (ing.hintConflict) ctx.report({ rule: hintConflict.id, detail: `The upload said "${ing.agentHint ?? 'unknown'}", but the content is ${ctx.session.agent ?? 'a different format'} (${ctx.session.format}).`, evidence: [] });
        },
      };
    },
  },
];
