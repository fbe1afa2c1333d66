// Finding collection: repeats merge into one finding per rule and key, evidence is de-duplicated
// and capped, the worst instance leads, and the list is ordered by severity then first sight.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { NormEvent } from '../model/events.ts';
import type { FindingDraft, RuleMeta } from '../rules/types.ts';
import { FindingCollector } from './findings.ts';
import { TimelineBuilder } from './timeline.ts';

const meta = (id: string, severity: RuleMeta['severity'], weight?: number): RuleMeta => ({ id, category: 'destructive', severity, title: `${id} title`, description: 'd', remediation: `fix ${id}`, weight });
const METAS = new Map([meta('x/crit', 'critical'), meta('x/warn', 'warning', 2), meta('x/info', 'info')].map((m) => [m.id, m]));

function setup(events = 30, mask = (t: string) => t) {
  const timeline = new TimelineBuilder();
  for (let i = 0; i < events; i++) timeline.add({ kind: 'prompt', index: i, line: i + 1, at: null, text: `p${i}` } as NormEvent, mask);
  return { timeline, collector: new FindingCollector(METAS, timeline, mask) };
}
const draft = (rule: string, index: number, extra: Partial<FindingDraft> = {}): FindingDraft => ({ rule, detail: `at ${index}`, evidence: [{ index, excerpt: `e${index}` }], ...extra });

test('drafts of one rule and key merge: occurrences counted, evidence appended without duplicates', () => {
  const { collector } = setup();
  collector.add(draft('x/warn', 1, { key: 'a' }));
  collector.add(draft('x/warn', 2, { key: 'a' }));
  collector.add(draft('x/warn', 2, { key: 'a' })); // same evidence again
  collector.add(draft('x/warn', 3, { key: 'b' }));
  const list = collector.finish();
  assert.equal(list.length, 2);
  assert.deepEqual(list[0].evidence.map((e) => e.excerpt), ['e1', 'e2']);
  assert.deepEqual([list[0].occurrences, list[1].occurrences], [3, 1]);
  assert.equal(list[0].weight, 2);
  assert.equal(list[0].remediation, 'fix x/warn');
});

test('evidence is capped at 10 per finding and the detail says how many occurrences there were', () => {
  const { collector } = setup();
  for (let i = 0; i < 25; i++) collector.add(draft('x/warn', i));
  const [f] = collector.finish();
  assert.equal(f.evidence.length, 10);
  assert.equal(f.occurrences, 25);
  assert.match(f.detail, /\(25 occurrences; the first 10 are shown\)$/);
});

test('a worse instance of the same finding leads with its severity, title and detail', () => {
  const { collector } = setup();
  collector.add(draft('x/warn', 1));
  collector.add(draft('x/warn', 2, { severity: 'critical', title: 'Worse', detail: 'why it is worse' }));
  collector.add(draft('x/warn', 3, { severity: 'info', title: 'Milder' }));
  const [f] = collector.finish();
  assert.deepEqual([f.severity, f.title, f.detail.startsWith('why it is worse')], ['critical', 'Worse', true]);
});

test('ordered by severity, then by where each first happened; ids f1, f2 … tag the timeline', () => {
  const { collector, timeline } = setup();
  collector.add(draft('x/info', 0));
  collector.add(draft('x/warn', 9, { key: 'late' }));
  collector.add(draft('x/warn', 4, { key: 'early' }));
  collector.add(draft('x/crit', 20));
  const list = collector.finish();
  assert.deepEqual(list.map((f) => [f.id, f.rule, f.evidence[0].timeline_index]), [['f1', 'x/crit', 20], ['f2', 'x/warn', 4], ['f3', 'x/warn', 9], ['f4', 'x/info', 0]]);
  const entries = timeline.finish();
  assert.deepEqual(entries[20].finding_ids, ['f1']);
  assert.deepEqual(entries[4].finding_ids, ['f2']);
});

test('an unknown rule id is recorded, not reported', () => {
  const { collector } = setup();
  collector.add(draft('x/nope', 1));
  assert.deepEqual(collector.finish(), []);
  assert.deepEqual([...collector.unknownRules], ['x/nope']);
});

test('titles, details and excerpts are masked and excerpts cut to 300 characters', () => {
  const mask = (t: string) => t.replaceAll('sk-live-123', 'sk-…');
  const { collector } = setup(5, mask);
  collector.add({ rule: 'x/crit', title: 'leak sk-live-123', detail: 'sent sk-live-123', evidence: [{ index: 1, excerpt: `sk-live-123 ${'y'.repeat(400)}` }] });
  const [f] = collector.finish();
  assert.ok(![f.title, f.detail, f.evidence[0].excerpt].some((s) => s.includes('sk-live-123')));
  assert.equal(f.evidence[0].excerpt.length, 300);
});

test('at most 500 distinct findings are kept; repeats of kept ones still merge', () => {
  const { collector } = setup(1);
  for (let i = 0; i < 600; i++) collector.add(draft('x/info', 0, { key: `k${i}` }));
  collector.add(draft('x/info', 0, { key: 'k0' }));
  const list = collector.finish();
  assert.equal(list.length, 500);
  assert.equal(list.find((f) => f.detail.startsWith('at 0') && f.occurrences === 2)?.occurrences, 2);
});

test('evidence from an event without a timeline entry (usage, metadata) resolves to timeline index -1', () => {
  const { collector, timeline } = setup(1);
  timeline.add({ kind: 'session_meta', index: 1, line: 2, at: null } as NormEvent, (t) => t);
  collector.add({ rule: 'x/info', detail: 'models', evidence: [{ index: 1, excerpt: 'claude-sonnet-4-5' }] });
  assert.equal(collector.finish()[0].evidence[0].timeline_index, -1);
});

test('drafts with one cause become one finding across rules and keys; the most severe rule leads', () => {
  const { collector } = setup();
  const cause = { id: 'credential:gh', summary: 'One pasted token.' };
  collector.add(draft('x/warn', 1, { key: 'prompt', cause }));
  collector.add(draft('x/crit', 2, { key: 'file', cause }));
  collector.add(draft('x/warn', 3, { key: 'other' })); // no cause: its own finding
  const list = collector.finish();
  assert.equal(list.length, 2);
  const [grouped] = list;
  assert.equal(grouped.rule, 'x/crit');
  assert.equal(grouped.severity, 'critical');
  assert.equal(grouped.occurrences, 2);
  assert.deepEqual(grouped.evidence.map((e) => e.excerpt), ['e1', 'e2']);
  assert.equal(grouped.detail, 'One pasted token. One cause, reported once: 2 findings merged.');
});

test('seventeen drafts of one cause are one finding with a count and every occurrence (capped) in evidence', () => {
  const { collector } = setup();
  for (let i = 0; i < 17; i++) collector.add(draft('x/warn', i, { key: `value-${i}`, cause: { id: 'tool-output', summary: 'Values labelled `key` in one tool\'s output.' } }));
  const list = collector.finish();
  assert.equal(list.length, 1);
  assert.equal(list[0].occurrences, 17);
  assert.equal(list[0].evidence.length, 10);
  assert.match(list[0].detail, /17 findings merged\. \(17 occurrences; the first 10 are shown\)$/);
});

test('a lone draft with a cause keeps its own detail; different causes stay apart', () => {
  const { collector } = setup();
  collector.add(draft('x/warn', 1, { cause: { id: 'a', summary: 'A.' } }));
  collector.add(draft('x/warn', 2, { cause: { id: 'b', summary: 'B.' } }));
  const list = collector.finish();
  assert.deepEqual(list.map((f) => f.detail), ['at 1', 'at 2']);
});

test('a new place under one cause shows its line even after ten lines of another: the same value in fifty commands, then written into a file', () => {
  const { collector } = setup(70);
  const cause = { id: 'credential:db', summary: 'One database password.' };
  for (let i = 0; i < 50; i++) collector.add(draft('x/warn', i, { key: 'commands', cause }));
  collector.add(draft('x/warn', 60, { key: 'file', cause }));
  const [f] = collector.finish();
  assert.equal(f.evidence.length, 10);
  assert.deepEqual(f.evidence.map((e) => e.excerpt), ['e0', 'e1', 'e2', 'e3', 'e4', 'e5', 'e6', 'e7', 'e8', 'e60']);
  assert.match(f.detail, /\(51 occurrences; 10, each place at least once, are shown\)$/);
});

test('when more new places come than lines are left to show, the note does not claim each place is shown', () => {
  const { collector } = setup(40);
  const cause = { id: 'credential:db', summary: 'One database password.' };
  for (let i = 0; i < 10; i++) collector.add(draft('x/warn', i, { key: 'commands', cause }));
  for (let i = 0; i < 12; i++) collector.add(draft('x/warn', 20 + i, { key: `file-${i}`, cause }));
  const [f] = collector.finish();
  assert.equal(f.evidence.length, 10);
  assert.match(f.detail, /\(22 occurrences; 10 are shown\)$/);
});
