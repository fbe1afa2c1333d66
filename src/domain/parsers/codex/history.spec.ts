import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { NormEvent } from '../../model/events.ts';
import { codex } from '../codex.ts';
import { sample } from './drive.testing.ts';
import { analyzeText } from '../../analyze.ts';

const entries = [
  { session_id: '019c5599-4588-7782-afa4-327ebaa3b90a', ts: 1770962767, text: 'set all docs to Chinese' },
  { session_id: '019c5599-4588-7782-afa4-327ebaa3b90a', ts: 1770962900, text: 'commit everything to GitHub' },
  { session_id: '019c55aa-0000-7782-afa4-327ebaa3b90b', ts: 1770963000, text: 'run the tests' },
];
const text = entries.map((e) => JSON.stringify(e)).join('\n');

test('Codex\'s prompt history (history.jsonl) is detected from its entries; a rollout or another JSONL is not (held-out set 59)', () => {
  assert.deepEqual(codex.detect(sample(text)), { format: 'codex-history', score: 0.9 });
  assert.notEqual(codex.detect(sample('{"session_id":"s","ts":1,"text":"x","extra":1}'))?.format, 'codex-history');
  assert.notEqual(codex.detect(sample('{"timestamp":"2026-01-01T00:00:00Z","type":"session_meta","payload":{"id":"x"}}'))?.format, 'codex-history');
});

test('each entry is a prompt at its time; a new session id is a new session\'s metadata; the report says it holds prompts only and is never Clear', async () => {
  const events: NormEvent[] = [];
  const parser = codex.create('codex-history');
  const sink = { emit: (e: NormEvent) => events.push(e), skip: () => {} };
  entries.forEach((e, i) => parser.record?.(e, i + 1, sink));
  parser.end(sink);
  assert.deepEqual(events.filter((e) => e.kind === 'prompt').map((e) => [e.line, e.at, e.kind === 'prompt' && e.text]), [[1, '2026-02-13T06:06:07.000Z', 'set all docs to Chinese'], [2, '2026-02-13T06:08:20.000Z', 'commit everything to GitHub'], [3, '2026-02-13T06:10:00.000Z', 'run the tests']]);
  assert.equal(events.filter((e) => e.kind === 'session_meta').length, 2);
  const report = await analyzeText(`${text}\n`);
  assert.equal(report.format, 'codex-history');
  assert.equal(report.outcome, 'Review');
  assert.ok(report.findings.some((f) => f.rule === 'coverage/prompts-only' && f.severity === 'info'));
  assert.ok(!report.findings.some((f) => f.rule === 'coverage/not-a-session-log'));
});
