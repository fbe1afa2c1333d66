import { test } from 'node:test';
import assert from 'node:assert/strict';
import { failureExcerpt } from './excerpt-window.ts';

test('a failed Next.js build shows its error line, not the npm banner that follows or the warnings before', () => {
  const output = [
    'npm warn Unknown env config "verify-deps-before-run". This will stop working in the next major version of npm.',
    '',
    '> Build error occurred',
    '[TypeError: generate is not a function]',
    '',
    '> todo-app@0.1.0 build',
    '> next build',
  ].join('\n');
  assert.equal(failureExcerpt(output), '> Build error occurred [TypeError: generate is not a function] > todo-app@0.1.0 build');
});

test('a failing test run shows the FAIL line and the assertion after it, colours removed', () => {
  const output = '> vitest run\n\n\u001b[31m FAIL \u001b[39m src/date.test.ts > pads months\nAssertionError: expected 1 to be 2\n\n Tests  1 failed | 11 passed';
  assert.equal(failureExcerpt(output, 2), 'FAIL  src/date.test.ts > pads months AssertionError: expected 1 to be 2');
});

test('without a failure line, the last lines (the runner summary) are shown', () => {
  assert.equal(failureExcerpt('compiling\nlinking\n\ndone in 3s\nexit status 2\n'), 'linking done in 3s exit status 2');
});

test('"0 errors" and npm warnings are not taken for the failure', () => {
  const output = 'npm warn config production Use `--omit=dev` instead.\nFound 0 errors.\nsrc/a.ts(3,1): error TS2304: Cannot find name x';
  assert.equal(failureExcerpt(output, 1), 'src/a.ts(3,1): error TS2304: Cannot find name x');
});

test('empty output gives an empty excerpt', () => {
  assert.equal(failureExcerpt(''), '');
  assert.equal(failureExcerpt('\n\n'), '');
});
