// The terminal summary: outcome, findings with evidence references, stats; colour only on request.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderReportText } from './terminal.ts';
import { hostileReport } from './report-fixture.testing.ts';

test('outcome, score, headline, reason, summary and counts, without colour by default', () => {
  const text = renderReportText(hostileReport());
  const lines = text.split('\n');
  assert.equal(lines[0], 'BLOCKED  trust 30/100  claude-code · claude-code-transcript');
  assert.match(lines[1], /^Blocked: deleted /);
  assert.match(text, /^Findings: 1 critical, 0 warning, 1 info$/m);
  assert.match(text, /^3 events · 1 tool calls · 1 commands \(1 failed\) · 1 files written · 0 lines skipped$/m);
  assert.ok(!text.includes('\u001b['));
});

test('colour when asked: the outcome and severities are painted', () => {
  const text = renderReportText(hostileReport(), { color: true });
  assert.ok(text.includes('\u001b[31mBLOCKED\u001b[0m'));
  assert.ok(text.includes('\u001b[31m1 critical\u001b[0m'));
});

test('evidence: the timeline step as #N, session-level evidence as "session" (never #-1), whitespace collapsed', () => {
  const text = renderReportText(hostileReport());
  assert.match(text, /^ +#1 rm -rf ~\/<img src=x onerror=alert\(1\)>"'& and more$/m);
  assert.match(text, /^ +session claude-sonnet-4-5$/m);
  assert.ok(!text.includes('#-1'));
});

test('at most two evidence lines per finding by default, or as many as asked', () => {
  const count = (t: string) => t.split('\n').filter((l) => /^ {11}\S/.test(l)).length;
  assert.equal(count(renderReportText(hostileReport())), 3, 'two for f1, one for f2');
  assert.equal(count(renderReportText(hostileReport(), { evidencePerFinding: 3 })), 4);
});
