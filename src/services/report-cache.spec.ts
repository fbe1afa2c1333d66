import { test } from 'node:test';
import assert from 'node:assert/strict';
import { REPORT_CACHE_MAX_CHARS, keepReport, keptChars, keptReport } from './report-cache.ts';

test('a kept report is found by its session, with the report id it was kept under', () => {
  keepReport('ses_a', 'rep_a', '{"a":1}');
  assert.deepEqual(keptReport('ses_a'), { reportId: 'rep_a', json: '{"a":1}' });
  assert.equal(keptReport('ses_never'), undefined);
});

test('keeping a session again replaces its entry (the total counts it once)', () => {
  const before = keptChars();
  keepReport('ses_b', 'rep_b1', 'x'.repeat(100));
  keepReport('ses_b', 'rep_b2', 'y'.repeat(40));
  assert.deepEqual(keptReport('ses_b'), { reportId: 'rep_b2', json: 'y'.repeat(40) });
  assert.equal(keptChars(), before + 40);
});

test('past the bound the least recently used reports go first; a recently read one stays', () => {
  const size = REPORT_CACHE_MAX_CHARS / 16;
  for (let i = 0; i < 16; i++) keepReport(`ses_fill${i}`, `rep_${i}`, String(i % 10).repeat(size));
  keptReport('ses_fill0'); // read: now the most recent
  keepReport('ses_new', 'rep_new', 'n'.repeat(size));
  assert.ok(keptChars() <= REPORT_CACHE_MAX_CHARS);
  assert.ok(keptReport('ses_fill0'), 'recently read: kept');
  assert.equal(keptReport('ses_fill1'), undefined, 'least recently used: dropped');
  assert.ok(keptReport('ses_new'));
});

test('a report larger than an eighth of the bound is not kept (it would push out everything else)', () => {
  keepReport('ses_giant', 'rep_giant', 'g'.repeat(REPORT_CACHE_MAX_CHARS / 8 + 1));
  assert.equal(keptReport('ses_giant'), undefined);
});
