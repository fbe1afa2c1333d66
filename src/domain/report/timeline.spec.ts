// The timeline: one entry per step, a call and its result merged, secrets masked, long texts
// bounded, and a cap that never loses an entry a finding points at.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { NormEvent } from '../model/events.ts';
import { TimelineBuilder } from './timeline.ts';

const noMask = (t: string) => t;
let n = 0;
const at = '2025-01-01T10:00:00.000Z';
const prompt = (text: string): NormEvent => ({ kind: 'prompt', index: n++, line: n, at, text });
const command = (callId: string, cmd: string): NormEvent => ({ kind: 'tool_call', index: n++, line: n, at, callId, name: 'Bash', input: { type: 'command', command: cmd } });
const result = (callId: string, output: string, extra: Partial<Extract<NormEvent, { kind: 'tool_result' }>> = {}): NormEvent =>
  ({ kind: 'tool_result', index: n++, line: n, at, callId, output, exitCode: 0, isError: false, denied: false, ...extra });

test('a tool call and its result are one entry: status, exit code and output in the detail, duration', () => {
  const t = new TimelineBuilder();
  const call = command('c1', 'npm test');
  const i = t.add(call, noMask);
  const r = result('c1', '3 failing', { exitCode: 1, isError: true, durationMs: 1234.4 });
  assert.equal(t.add(r, noMask), i, 'the result maps to its call\'s entry');
  assert.equal(t.timelineIndexOf(r.index), i);
  const [entry] = t.finish();
  assert.deepEqual([entry.kind, entry.summary, entry.tool, entry.status, entry.duration_ms, entry.line], ['command', '$ npm test', 'Bash', 'error', 1234, call.line]);
  assert.match(entry.detail ?? '', /npm test\n--- output \(exit 1\) ---\n3 failing/);
});

test('denied and interrupted results are told apart from errors; a call without result stays pending', () => {
  const t = new TimelineBuilder();
  t.add(command('a', 'rm -rf /'), noMask);
  t.add(result('a', '', { denied: true, exitCode: null }), noMask);
  t.add(command('b', 'sleep 100'), noMask);
  t.add(result('b', '', { interrupted: true, exitCode: null }), noMask);
  t.add(command('c', 'ls'), noMask);
  assert.deepEqual(t.finish().map((e) => e.status), ['denied', 'interrupted', 'pending']);
});

test('a result whose call is not in the log gets an entry of its own, by the tool', () => {
  const t = new TimelineBuilder();
  const i = t.add(result('nope', 'output', { name: 'Bash' }), noMask);
  const [entry] = t.finish();
  assert.equal(entry.index, i);
  assert.deepEqual([entry.actor, entry.summary, entry.status], ['tool', 'Result of Bash', 'ok']);
});

test('session metadata and usage make no entry (index -1)', () => {
  const t = new TimelineBuilder();
  const meta: NormEvent = { kind: 'session_meta', index: n++, line: 1, at, cwd: '/x' };
  assert.equal(t.add(meta, noMask), -1);
  assert.equal(t.timelineIndexOf(meta.index), -1);
  assert.deepEqual(t.finish(), []);
});

test('texts are masked before they are stored, and long details are bounded with their length kept', () => {
  const t = new TimelineBuilder();
  const mask = (s: string) => s.replaceAll('ghp_SECRET', 'ghp_…');
  t.add(prompt(`use ghp_SECRET ${'x'.repeat(5000)}`), mask);
  const [entry] = t.finish();
  assert.ok(!entry.summary.includes('ghp_SECRET') && !(entry.detail ?? '').includes('ghp_SECRET'));
  assert.ok((entry.detail ?? '').length < 2100);
  assert.match(entry.detail ?? '', /characters omitted/);
  assert.equal(entry.detail_length, 'use ghp_… '.length + 5000);
});

test('past the cap entries are omitted, except those pinned by a finding, which are kept in order', () => {
  const t = new TimelineBuilder(3);
  const indexes = Array.from({ length: 10 }, (_, k) => t.add(prompt(`p${k}`), noMask));
  t.pin(indexes[8]);
  t.pin(indexes[1]); // under the cap: already kept, a no-op
  const kept = t.finish();
  assert.deepEqual(kept.map((e) => e.summary), ['p0', 'p1', 'p2', 'p8']);
  assert.equal(t.omitted, 6);
  t.tag(indexes[8], 'f1');
  assert.deepEqual(kept[3].finding_ids, ['f1']);
});

test('a result arriving after its call went past the cap still completes the pinned entry', () => {
  const t = new TimelineBuilder(1);
  t.add(prompt('first'), noMask);
  const i = t.add(command('late', 'make'), noMask);
  t.pin(i);
  t.add(result('late', 'ok'), noMask);
  const entries = t.finish();
  assert.equal(entries[1].status, 'ok');
});
