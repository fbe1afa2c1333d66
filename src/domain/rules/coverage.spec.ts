import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IngestFacts } from './types.ts';
import { only, prompt, runRules, ruleIds, severityOf } from './testing.ts';

const events = [prompt('hello')];

async function coverage(ingest: Partial<IngestFacts>, evts = events) {
  const drafts = await runRules(evts, { ingest });
  return drafts.filter((d) => d.rule.startsWith('coverage/'));
}

test('a clean ingest has no coverage findings', async () => {
  assert.deepEqual(await coverage({}), []);
});

test('skipped lines are a warning with samples', async () => {
  const d = await coverage({ skippedLines: 3, totalLines: 100, skippedSamples: [{ line: 7, reason: 'invalid JSON' }] });
  assert.deepEqual(ruleIds(d), ['coverage/skipped-lines']);
  assert.equal(severityOf(d[0]), 'warning');
  assert.match(d[0].detail, /3 lines of 100.*line 7: invalid JSON/);
});

test('a truncated log is a warning', async () => {
  assert.deepEqual(only(await coverage({ truncatedTail: true }), 'coverage/truncated').map(severityOf), ['warning']);
});

test('binary input is a warning and replaces the skipped-lines finding', async () => {
  const d = await coverage({ binary: true, skippedLines: 40, totalLines: 41 }, []);
  assert.deepEqual(ruleIds(d), ['coverage/binary-input']);
  assert.equal(severityOf(d[0]), 'warning');
});

test('a log with lines but no events is a warning', async () => {
  assert.deepEqual(ruleIds(await coverage({ totalLines: 12 }, [])), ['coverage/nothing-understood']);
  assert.deepEqual(ruleIds(await coverage({ totalLines: 0 }, [])), []);
});

test('oversize lines, invalid UTF-8, missing subagents, plain text and hint conflicts are info', async () => {
  const d = await coverage({ oversizeLines: 1, invalidUtf8Lines: 2, missingSubagents: [{ id: 'agent-a1b2', line: 40 }], lowConfidence: true, hintConflict: true, agentHint: 'codex' });
  assert.deepEqual(ruleIds(d), ['coverage/hint-conflict', 'coverage/invalid-utf8', 'coverage/low-confidence', 'coverage/missing-subagents', 'coverage/oversize-lines']);
  assert.ok(d.every((x) => severityOf(x) === 'info'));
  assert.match(only(d, 'coverage/missing-subagents')[0].detail, /agent-a1b2 \(line 40\)/);
});
