// The two timestamp readers the parsers share, and the one path basename: their rules, side by side.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isoOrSpacedTime, isoTime } from './values.ts';
import { basename } from '../../paths.ts';

test('isoTime takes YYYY-MM-DDThh:mm… up to 64 characters, nothing else', () => {
  for (const t of ['2025-06-01T12:00:00.123Z', '2025-06-01T12:00', '2025-06-01T12:00:00.123456789+05:30']) assert.equal(isoTime(t), t);
  for (const t of ['2025-06-01 12:00:00', '2025-06-01T12', '[trimmed]', '', 1717243200000, null, '2025-06-01T12:00' + 'x'.repeat(49)]) assert.equal(isoTime(t), null);
});

test('isoOrSpacedTime (Codex) also takes the space-separated form and a time cut after the hour', () => {
  for (const t of ['2025-06-01T12:00:00.123Z', '2025-06-01 12:00:00', '2025-06-01T12']) assert.equal(isoOrSpacedTime(t), t);
  for (const t of ['2025-06-01', '[trimmed]', '2025/06/01T12:00', 42]) assert.equal(isoOrSpacedTime(t), null);
});

test('basename: the last segment of any path form, trailing separators ignored', () => {
  const cases: [string, string][] = [['/bin/bash', 'bash'], ['bash', 'bash'], ['C:\\Tools\\bash.exe', 'bash.exe'], ['/home/dev/.claude/', '.claude'], ['', '']];
  for (const [path, base] of cases) assert.equal(basename(path), base, path);
});
