import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isoAfter, newId, nowIso, ulid } from './ids.ts';

const CROCKFORD = /^[0-9A-HJKMNP-TV-Z]{26}$/;

test('ids are a prefix and a 26-character Crockford base32 ULID', () => {
  const id = newId('ses');
  assert.match(id, /^ses_/);
  assert.match(id.slice(4), CROCKFORD);
  assert.match(newId('wh').slice(3), CROCKFORD);
});

function decodeTime(id: string): number {
  return [...id.slice(0, 10)].reduce((n, c) => n * 32 + '0123456789ABCDEFGHJKMNPQRSTVWXYZ'.indexOf(c), 0);
}

test('the time part encodes the milliseconds, so ids sort by creation time', async () => {
  const before = Date.now();
  const first = ulid();
  const after = Date.now();
  assert.ok(decodeTime(first) >= before && decodeTime(first) <= after, 'time part is the current millisecond');
  await new Promise((r) => setTimeout(r, 5));
  const second = ulid();
  assert.ok(decodeTime(second) > decodeTime(first));
  assert.ok(first < second);
});

test('ids made in the same millisecond (or with a clock stepping back) still sort in order', () => {
  const at = Date.now();
  const ids = Array.from({ length: 1000 }, () => ulid(at));
  ids.push(ulid(at - 10)); // clock went backwards
  assert.deepEqual([...ids].sort(), ids);
  assert.equal(new Set(ids).size, ids.length);
});

test('timestamps are ISO-8601 UTC with milliseconds', () => {
  assert.equal(nowIso(0), '1970-01-01T00:00:00.000Z');
  assert.equal(isoAfter(1500, 0), '1970-01-01T00:00:01.500Z');
  assert.match(nowIso(), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
});

test('ids made before the ulid package and after it have one format: the same pattern, the same decoded time', async () => {
  const { isValid, decodeTime: libDecodeTime } = await import('ulid');
  const older = 'ses_01JD8Z6Q3N7V2K4T9W5X1Y0ABC'; // an id of the hand-written generator
  const newer = newId('ses');
  for (const id of [older, newer]) {
    assert.match(id, /^ses_[0-9A-HJKMNP-TV-Z]{26}$/); // the path-id check of the API (routes/sessions/schemas.ts)
    assert.ok(isValid(id.slice(4)));
    assert.equal(libDecodeTime(id.slice(4)), decodeTime(id.slice(4)));
  }
  assert.ok(older < newer, 'a new id sorts after every older one');
});
