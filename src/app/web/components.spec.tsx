// The shared page pieces render what the pages rely on: times with a UTC fallback and the UTC
// instant in datetime/title, pager windows, score bands, and escaping inside the layout.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderToString } from 'preact-render-to-string';
import { Pager, Score, Time, formatDuration, pagerItems, scoreBand, utcText } from './components.tsx';
import { Layout, renderDocument } from './page.tsx';

test('Time renders UTC text with the UTC instant in datetime and title, for time.js to localise', () => {
  const out = renderToString(<Time iso="2026-03-01T10:20:30.000+02:00" />);
  assert.match(out, /datetime="2026-03-01T08:20:30.000Z"/);
  assert.match(out, /title="2026-03-01 08:20:30 UTC"/);
  assert.match(out, />2026-03-01 08:20 UTC</);
  assert.match(out, /data-local/);
});

test('Time without a value or with an unreadable one renders no <time> element', () => {
  assert.doesNotMatch(renderToString(<Time iso={null} />), /<time/);
  assert.equal(renderToString(<Time iso="yesterday" />), '<span>yesterday</span>');
  assert.equal(utcText('nope'), 'nope');
});

test('pagerItems keeps first, last and a window around the current page, with gaps', () => {
  assert.deepEqual(pagerItems(1, 3), [1, 2, 3]);
  assert.deepEqual(pagerItems(10, 20), [1, 0, 8, 9, 10, 11, 12, 0, 20]);
  assert.deepEqual(pagerItems(1, 1), [1]);
});

test('Pager renders nothing for a single page, and prev/next links otherwise', () => {
  assert.equal(renderToString(<Pager page={1} pageCount={1} href={(p) => `?page=${p}`} />), '');
  const out = renderToString(<Pager page={2} pageCount={3} href={(p) => `?page=${p}&repo=a%26b`} />);
  assert.match(out, /href="\?page=1&amp;repo=a%26b" rel="prev"/);
  assert.match(out, /href="\?page=3&amp;repo=a%26b" rel="next"/);
  assert.match(out, /<span aria-current="page">2<\/span>/);
});

test('scores fall in the bands of the outcome thresholds', () => {
  assert.equal(scoreBand(49), 'blocked');
  assert.equal(scoreBand(50), 'review');
  assert.equal(scoreBand(80), 'clear');
  assert.match(renderToString(<Score value={72} />), /score-review/);
  assert.match(renderToString(<Score value={null} />), /–/);
});

test('durations read as a person would say them', () => {
  assert.equal(formatDuration(850), '850 ms');
  assert.equal(formatDuration(12_400), '12 s');
  assert.equal(formatDuration(4_200), '4.2 s');
  assert.equal(formatDuration(185_000), '3 min 05 s');
  assert.equal(formatDuration(null), '–');
});

test('the layout carries the nonce on its stylesheet and script and escapes the title', () => {
  const doc = renderDocument(<Layout title={'<script>x</script>'}><p>body</p></Layout>, 'N0NCE');
  assert.ok(doc.startsWith('<!doctype html>'));
  assert.match(doc, /<link rel="stylesheet" href="\/assets\/app\.css\?v=[\w-]+" nonce="N0NCE"/);
  assert.match(doc, /<script src="\/assets\/time\.js\?v=[\w-]+" nonce="N0NCE" defer>/);
  assert.ok(!doc.includes('<script>x'));
  assert.ok(!doc.includes('Sign out'), 'no account block for visitors');
});
