// The progress bar: drawn on a terminal only, and erased at the end.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createProgress } from './progress.ts';

function fakeStream(isTTY: boolean) {
  const writes: string[] = [];
  return { writes, stream: { isTTY, columns: 100, write: (s: string) => writes.push(s) } as unknown as NodeJS.WriteStream };
}

test('on a terminal it draws count and bar, and clears its line when done', () => {
  const { writes, stream } = fakeStream(true);
  const p = createProgress(2, stream);
  p.tick('a.jsonl');
  p.tick('b.jsonl');
  p.done();
  assert.match(writes.join(''), /\[#{30}\] 2\/2 b\.jsonl/);
  assert.equal(writes.at(-1), '\r\u001b[2K');
});

test('not on a terminal (a pipe, a CI log) nothing is written', () => {
  const { writes, stream } = fakeStream(false);
  const p = createProgress(5, stream);
  p.tick('a.jsonl');
  p.done();
  assert.deepEqual(writes, []);
});
