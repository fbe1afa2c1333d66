// Headline, reason and summary: someone reading only these knows what happened and why.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Finding, ReportStats } from '../model/report.ts';
import { formatDuration, writeNarrative, type NarrativeInput } from './narrative.ts';

const stats = (s: Partial<ReportStats> = {}): ReportStats => ({
  events: 10, prompts: 2, tool_calls: 5, commands: 3, failed_commands: 1, files_read: 2, files_written: 1,
  tokens: { input: 0, output: 0, cache_read: 0, cache_write: 0 }, subagents: 0, compactions: 0, skipped_lines: 0, ...s,
});
const finding = (severity: Finding['severity'], title: string): Finding => ({ id: 'f', rule: 'r/x', category: 'destructive', severity, title, detail: '', evidence: [], remediation: '' });
const input = (i: Partial<NarrativeInput>): NarrativeInput => ({ outcome: 'Clear', score: 100, findings: [], stats: stats(), agentLabel: 'Claude Code', models: ['claude-sonnet-4-5'], durationMs: 125_000, lowConfidence: false, incomplete: null, ...i });

test('a clear session says what was done and that nothing needs attention', () => {
  const n = writeNarrative(input({}));
  assert.equal(n.headline, 'Clear: 1 file changed, 3 commands run, nothing needs attention');
  assert.equal(n.reason, 'No critical findings and no warnings; the trust score is 100/100.');
  assert.equal(n.summary, 'Claude Code (claude-sonnet-4-5) worked through 2 prompts over 2 min. It made 5 tool calls, ran 3 commands (1 failed), read 2 files and changed 1 file. Vouch found nothing that needs attention.');
  assert.equal(writeNarrative(input({ stats: stats({ files_written: 0, tool_calls: 1, commands: 0 }) })).headline, 'Clear: 1 tool call, no files changed, nothing needs attention');
  // commands may change files the log cannot list (scripts, builds): the headline says what the log shows (held-out set 80)
  assert.equal(writeNarrative(input({ stats: stats({ files_written: 0, tool_calls: 16, commands: 12 }) })).headline, 'Clear: 12 commands run, no file edits in the log, nothing needs attention');
});

test('blocked by criticals: the headline names the first critical and counts the others; warnings do not lead', () => {
  const findings = [finding('warning', 'A warning'), finding('critical', 'Deleted the home directory.'), finding('critical', 'Piped curl to sh')];
  const n = writeNarrative(input({ outcome: 'Blocked', score: 20, findings }));
  assert.equal(n.headline, 'Blocked: Deleted the home directory. (+1 more)');
  assert.equal(n.reason, 'Blocked by 2 critical findings — something that must not have happened or must be undone: Deleted the home directory; Piped curl to sh.');
  assert.match(n.summary, /Vouch found 2 critical issues and 1 warning\./);
});

test('blocked by the score alone explains that warnings add up; review explains what to look at', () => {
  const warnings = [finding('warning', 'W1'), finding('warning', 'W2'), finding('warning', 'W3'), finding('warning', 'W4')];
  assert.equal(writeNarrative(input({ outcome: 'Blocked', score: 45, findings: warnings })).reason, 'Blocked because the trust score is 45/100 (below 50): 4 warnings add up — W1; W2; W3.');
  const review = writeNarrative(input({ outcome: 'Review', score: 90, findings: [finding('warning', 'Success claimed without a passing run'), finding('info', 'Models used')] }));
  assert.equal(review.headline, 'Review: Success claimed without a passing run');
  assert.equal(review.reason, 'A human should look before trusting the result: 1 warning — Success claimed without a passing run.');
  assert.match(review.summary, /1 warning, plus 1 for context\./);
});

test('the headline never exceeds 120 characters, however long the title', () => {
  const n = writeNarrative(input({ outcome: 'Blocked', score: 0, findings: [finding('critical', 'x'.repeat(500)), finding('critical', 'y')] }));
  assert.ok(n.headline.length <= 120, String(n.headline.length));
  assert.ok(n.headline.endsWith('… (+1 more)'));
});

test('the summary admits what it could not read: skipped lines, plain-text transcripts; it mentions subagents and compaction', () => {
  const n = writeNarrative(input({ stats: stats({ skipped_lines: 3, subagents: 2, compactions: 1 }), lowConfidence: true, models: [], durationMs: null }));
  assert.match(n.summary, /^Claude Code worked through 2 prompts\. /);
  assert.match(n.summary, /It used 2 subagents and its context was compacted 1 time\./);
  assert.match(n.summary, /3 lines of the log could not be understood, so this report is incomplete\./);
  assert.match(n.summary, /terminal output rather than a structured session record, analysed heuristically with lower confidence\./);
});

test('durations read as seconds, minutes, or hours and minutes', () => {
  assert.deepEqual([formatDuration(4_000), formatDuration(59_400), formatDuration(125_000), formatDuration(3_720_000)], ['4 s', '59 s', '2 min', '1 h 2 min']);
});
