import { test } from 'node:test';
import assert from 'node:assert/strict';
import { stripAnsi } from './ansi.ts';

test('colour, cursor and hyperlink sequences are removed, the text kept', () => {
  assert.equal(stripAnsi('\u001b[31mError:\u001b[0m build failed'), 'Error: build failed');
  assert.equal(stripAnsi('\u001b[1;32m✓\u001b[39;22m 12 passed\u001b[2K\u001b[1G'), '✓ 12 passed');
  assert.equal(stripAnsi('see \u001b]8;;https://x.test\u0007docs\u001b]8;;\u0007 now'), 'see docs now');
  assert.equal(stripAnsi('\u009b33mwarn\u009b0m'), 'warn');
  assert.equal(stripAnsi('cut here \u001b'), 'cut here ');
});

test('text without escapes, including brackets and the letter after them, is unchanged', () => {
  for (const s of ['[31m is not an escape', 'a [b] c', '']) assert.equal(stripAnsi(s), s);
});

test('what node:util stripVTControlCharacters leaves (why this module stays): non-ASCII window titles, private CSI, a lone ESC', () => {
  assert.equal(stripAnsi('\u001b]0;◇  Ready (ask-user)  \u0007\u001b[?7lstdout | evals'), 'stdout | evals');
  assert.equal(stripAnsi('\u001b[8m\u001b[?u\u001b]11;?\u001b\\\u001b[>q\u001b[>4;?m\u001b[c\u001b[2K\r\u001b[0mstdout'), '\rstdout');
  assert.equal(stripAnsi('cut here \u001b'), 'cut here ');
});
