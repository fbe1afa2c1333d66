// Every problem code the API can answer is explained: on its page (the catalogue) and in
// docs/errors.md, with the same statuses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { PROBLEM_CODES } from './problem.ts';
import { PROBLEM_DOCS } from './problem-catalog.ts';

const ERRORS_MD = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');

test('every code in problem.ts has a catalogue entry, and every entry is a code of problem.ts', () => {
  assert.deepEqual(PROBLEM_CODES.filter((c) => !PROBLEM_DOCS.has(c)), []);
  assert.deepEqual([...PROBLEM_DOCS.keys()].filter((c) => !PROBLEM_CODES.includes(c)), []);
});

test('docs/errors.md has a section per code with the statuses of the catalogue', () => {
  for (const doc of PROBLEM_DOCS.values()) {
    assert.ok(ERRORS_MD.includes(`## \`${doc.code}\` — ${doc.title} (HTTP ${doc.statuses.join(', ')})`), doc.code);
  }
});

