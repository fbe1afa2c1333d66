// The line splitter: bytes in any chunking → the same lines, with hostile input turned into
// counted problems instead of text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LineSplitter, type LineInfo, type LineProblem } from './lines.ts';

function split(chunks: (string | Buffer)[], maxLineBytes?: number) {
  const lines: LineInfo[] = [];
  const problems: LineProblem[] = [];
  const s = new LineSplitter({ maxLineBytes, onLine: (l) => lines.push(l), onProblem: (p) => problems.push(p) });
  for (const c of chunks) s.push(typeof c === 'string' ? Buffer.from(c, 'utf8') : c);
  s.end();
  return { lines, problems, count: s.lines, bytes: s.bytesSeen };
}

const bytewise = (text: string | Buffer) => [...(typeof text === 'string' ? Buffer.from(text, 'utf8') : text)].map((b) => Buffer.from([b]));

test('LF and CRLF line ends; empty lines are numbered but not handed on', () => {
  const { lines, count } = split(['a\r\n\nb\n\r\nc\n']);
  assert.deepEqual(lines.map((l) => [l.line, l.text]), [[1, 'a'], [3, 'b'], [5, 'c']]);
  assert.equal(count, 5);
});

test('the same lines whatever the chunking, multi-byte characters cut between chunks included', () => {
  const text = 'é€😀 first\n{"k":"ünïcødé"}\nlast line\n';
  const whole = split([text]).lines;
  const pieces = split(bytewise(text)).lines;
  assert.deepEqual(pieces, whole);
  assert.deepEqual(whole.map((l) => l.text), ['é€😀 first', '{"k":"ünïcødé"}', 'last line']);
  assert.ok(whole.every((l) => !l.invalidUtf8));
});

test('a BOM is dropped at the start of the stream only', () => {
  const bom = Buffer.from([0xef, 0xbb, 0xbf]);
  const { lines } = split([Buffer.concat([bom, Buffer.from('x\n')]), Buffer.concat([bom, Buffer.from('y\n')])]);
  assert.deepEqual(lines.map((l) => l.text), ['x', '\uFEFFy']);
});

test('the last line is flagged when the stream ends without a newline, and only then', () => {
  assert.deepEqual(split(['a\nb']).lines.map((l) => [l.text, l.last]), [['a', false], ['b', true]]);
  assert.deepEqual(split(['a\nb\n']).lines.map((l) => l.last), [false, false]);
});

test('a line over the cap is dropped while streaming and reported with its size; the next lines go on', () => {
  const { lines, problems } = split(['ok\n', 'x'.repeat(60), 'x'.repeat(60), '\nafter\n'], 100);
  assert.deepEqual(lines.map((l) => [l.line, l.text]), [[1, 'ok'], [3, 'after']]);
  assert.deepEqual(problems, [{ line: 2, kind: 'oversize', bytes: 120 }]);
  const fits = split(['y'.repeat(100) + '\n'], 100);
  assert.equal(fits.lines.length, 1, 'exactly the cap is allowed');
  assert.deepEqual(fits.problems, []);
});

test('an oversize last line without a newline is still reported', () => {
  assert.deepEqual(split(['z'.repeat(50)], 10).problems, [{ line: 1, kind: 'oversize', bytes: 50 }]);
});

test('a line with NUL bytes is reported as binary, not handed on', () => {
  const { lines, problems } = split([Buffer.from('a\nb\u0000c\nd\n')]);
  assert.deepEqual(lines.map((l) => l.text), ['a', 'd']);
  assert.deepEqual(problems, [{ line: 2, kind: 'binary', bytes: 3 }]);
});

test('invalid UTF-8 is decoded with U+FFFD and flagged; an encoded U+FFFD is not an error', () => {
  const bad = split([Buffer.concat([Buffer.from('caf'), Buffer.from([0xc3, 0x28]), Buffer.from('\n')])]).lines[0];
  assert.equal(bad.text, 'caf\uFFFD(');
  assert.equal(bad.invalidUtf8, true);
  const good = split(['caf\uFFFD(\n']).lines[0];
  assert.equal(good.invalidUtf8, false);
});

test('counts every byte seen, BOM included; an empty stream gives nothing', () => {
  assert.equal(split([Buffer.from([0xef, 0xbb, 0xbf]), 'ab\n']).bytes, 6);
  const empty = split([]);
  assert.deepEqual([empty.lines, empty.problems, empty.count], [[], [], 0]);
});

test('UTF-16 text with its byte-order mark (PowerShell redirects) is decoded as it streams, in any chunking; zero bytes without the mark stay binary', () => {
  const text = '╭ OpenAI Codex\r\n› fix the toolbar émoji 😀\r\n• Ran git status\r\n';
  const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
  const be = Buffer.from(le.toString('utf16le'), 'utf16le').swap16();
  be[0] = 0xfe;
  be[1] = 0xff;
  const expected = ['╭ OpenAI Codex', '› fix the toolbar émoji 😀', '• Ran git status'];
  assert.deepEqual(split([le]).lines.map((l) => l.text), expected);
  assert.deepEqual(split(bytewise(le)).lines.map((l) => l.text), expected, 'cut between every byte');
  assert.deepEqual(split([be]).lines.map((l) => l.text), expected, 'big-endian');
  const unmarked = split([Buffer.from(text, 'utf16le')]);
  assert.deepEqual(unmarked.lines, [], 'no mark: not guessed');
  assert.ok(unmarked.problems.length > 0 && unmarked.problems.every((p) => p.kind === 'binary'));
  assert.deepEqual(split(['a', 'b']).lines.map((l) => l.text), ['ab'], 'a stream shorter than a mark');
  const markOnly = split([Buffer.from([0xff, 0xfe])]);
  assert.deepEqual([markOnly.lines, markOnly.problems], [[], []], 'a mark alone is an empty file');
});
