// Pure pieces of the dashboard's views: timeline paging and filters, finding links, edit diffs,
// sparkline geometry, list URLs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderToString } from 'preact-render-to-string';
import type { TimelineEntry } from '../../../domain/model/report.ts';
import { filterTimeline, pageOfEntry, timelineHref } from './report-timeline.tsx';
import { Gauge, diffLines } from './report-page.tsx';
import { sparkPoints } from './sparkline.tsx';
import { listHref } from './sessions-page.tsx';

const entry = (index: number, kind: TimelineEntry['kind'], extra: Partial<TimelineEntry> = {}): TimelineEntry => ({
  index, at: null, kind, actor: 'assistant', summary: `e${index}`, tool: null, detail: null, status: null, finding_ids: [], duration_ms: null, ...extra,
});

test('an entry is found on the page of its position, also when indexes have gaps (omitted entries)', () => {
  const timeline = [...Array.from({ length: 250 }, (_, i) => entry(i, 'message')), entry(900, 'command')];
  assert.equal(pageOfEntry(timeline, 0), 1);
  assert.equal(pageOfEntry(timeline, 199), 1);
  assert.equal(pageOfEntry(timeline, 200), 2);
  assert.equal(pageOfEntry(timeline, 900), 2, 'position 250, not index 900');
  assert.equal(pageOfEntry(timeline, 12345), 1, 'an unknown index falls back to the first page');
});

test('timeline filters: by kinds, and only entries with findings; none means all', () => {
  const timeline = [entry(0, 'prompt'), entry(1, 'command', { finding_ids: ['f1'] }), entry(2, 'command'), entry(3, 'message')];
  assert.deepEqual(filterTimeline(timeline, { kinds: [], flagged: false }).map((e) => e.index), [0, 1, 2, 3]);
  assert.deepEqual(filterTimeline(timeline, { kinds: ['command'], flagged: false }).map((e) => e.index), [1, 2]);
  assert.deepEqual(filterTimeline(timeline, { kinds: ['command', 'prompt'], flagged: true }).map((e) => e.index), [1]);
});

test('timeline links keep the filters and end at the timeline or the entry', () => {
  assert.equal(timelineHref('ses_1', { page: 1, kinds: [], flagged: false }), '/r/ses_1#timeline');
  assert.equal(timelineHref('ses_1', { page: 3, kinds: ['command', 'web'], flagged: true }, 't7'), '/r/ses_1?kind=command&kind=web&flagged=1&tl_page=3#t7');
});

test('edits read as diffs: removed and added blocks, multi-line texts kept in their block, output left out', () => {
  const e = entry(4, 'file_edit', { detail: '- const a = 1\nconst b = 2\n+ const a = 10\nconst b = 20\n--- output ---\nThe file was updated' });
  assert.deepEqual(diffLines(e), [
    { mark: '-', text: 'const a = 1' }, { mark: '-', text: 'const b = 2' },
    { mark: '+', text: 'const a = 10' }, { mark: '+', text: 'const b = 20' },
  ]);
  assert.deepEqual(diffLines(entry(5, 'file_write', { detail: 'line 1\nline 2' })).map((l) => l.mark), ['+', '+']);
});

test('the gauge fills its share of the ring and says the score in words', () => {
  const full = renderToString(<Gauge score={100} />);
  const none = renderToString(<Gauge score={0} />);
  assert.match(full, /stroke-dasharray="263\.9 263\.9"/);
  assert.match(none, /stroke-dasharray="0\.0 263\.9"/);
  assert.match(renderToString(<Gauge score={42} />), /aria-label="Trust score 42 of 100"/);
});

test('sparkline points: 100 at the top, 0 at the bottom, evenly spaced; one point is centred', () => {
  assert.deepEqual(sparkPoints([100, 0], 100, 20), [[3, 3], [97, 17]]);
  assert.deepEqual(sparkPoints([50], 100, 20), [[50, 10]]);
  assert.deepEqual(sparkPoints([]), []);
  assert.deepEqual(sparkPoints([150, -5], 100, 20), [[3, 3], [97, 17]], 'clamped to 0–100');
});

test('list URLs keep non-empty filters and leave out defaults', () => {
  assert.equal(listHref({}, 1), '/');
  assert.equal(listHref({ repo: 'acme/api', agent: '' }, 2, 50), '/?repo=acme%2Fapi&limit=50&page=2');
});
