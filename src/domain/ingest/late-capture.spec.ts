// A capture that begins partway into a text file (held-out set 83: a chat with another assistant
// pasted above a Claude Code capture; a capture that opens on the tail of a long tool output).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { LateCapture, WINDOW_LINES, type LateStep } from './late-capture.ts';
import type { LineInfo } from './lines.ts';
import { analyzeText } from '../analyze.ts';

const info = (text: string, line: number, last = false): LineInfo => ({ text, line, invalidUtf8: false, last });

/** Every step of a watch over these lines (the last one flagged), then its flush. */
function watch(texts: string[], detects: (lines: string[]) => boolean): LateStep[] {
  const late = new LateCapture(detects);
  const steps = texts.map((t, i) => late.offer(info(t, i + 1, i === texts.length - 1)));
  return [...steps, late.flush()];
}

test('lines pass until an agent\'s mark; from a mark, a window is held and detection decides it', () => {
  const seen: string[][] = [];
  const texts = ['You:', 'what is a rate limit?', 'ChatGPT:', 'A cap on requests.', '⏺ Bash(git status)', ...Array.from({ length: WINDOW_LINES }, (_, i) => `  line ${i}`)];
  const steps = watch(texts, (lines) => (seen.push(lines), true));
  assert.deepEqual(steps.slice(0, 4).map((s) => s.kind), ['pass', 'pass', 'pass', 'pass']);
  assert.deepEqual(steps.slice(4, 4 + WINDOW_LINES - 1).map((s) => s.kind), Array(WINDOW_LINES - 1).fill('held'));
  const decided = steps[4 + WINDOW_LINES - 1]!;
  assert.equal(decided.kind, 'switch');
  assert.equal(decided.kind === 'switch' && decided.lines.length, WINDOW_LINES);
  assert.equal(seen[0]![0], '⏺ Bash(git status)', 'detection reads the window from the mark on');
  assert.deepEqual(steps.slice(4 + WINDOW_LINES).map((s) => s.kind), ['pass', 'pass'], 'after a switch nothing is held again');
});

test('a window detection does not confirm is released, and the watch gives up after twenty looks', () => {
  const released = watch(['⏺ is how Claude Code marks a reply', 'plain words', 'more words'], () => false);
  assert.deepEqual(released.map((s) => s.kind), ['held', 'held', 'release', 'pass']);
  const last = released[2]!;
  assert.deepEqual(last.kind === 'release' && last.lines.map((l) => l.text), ['⏺ is how Claude Code marks a reply', 'plain words', 'more words'], 'released whole, at the end of the log');
  let looks = 0;
  const marks = Array.from({ length: 30 * WINDOW_LINES }, (_, i) => (i % WINDOW_LINES === 0 ? '● quoted mark' : 'text'));
  const steps = watch(marks, () => (looks++, false));
  assert.equal(looks, 20);
  assert.ok(steps.slice(20 * WINDOW_LINES).every((s) => s.kind === 'pass'));
  // the end of the log decides a window still held
  const late = new LateCapture(() => true);
  assert.equal(late.offer(info('✦ I will read the file.', 1)).kind, 'held');
  assert.equal(late.flush().kind, 'switch');
});

test('a chat pasted above a Claude Code capture: the capture is read by its parser and judged (the report says so)', async () => {
  const capture = readFileSync(new URL('../../../test/fixtures/terminal/claude-code-tui.txt', import.meta.url), 'utf8').split('\n').slice(8).join('\n');
  const chat = Array.from({ length: 300 }, (_, i) => (i % 3 === 0 ? 'You:' : i % 3 === 1 ? `Question ${i} about the design of the ledger, with some words to make it long enough.` : 'ChatGPT:\nAn answer in prose, with **markdown** and a list:\n- one\n- two')).join('\n\n');
  const r = await analyzeText(`${chat}\n\n${capture}`);
  assert.equal(r.format, 'claude-code-tui');
  assert.equal(r.agent, 'claude-code');
  assert.ok(r.stats.tool_calls >= 20, `tool calls read: ${r.stats.tool_calls}`);
  assert.ok(r.findings.some((f) => f.rule === 'coverage/low-confidence'), 'still read heuristically');
  // the same prose with no capture stays plain text, and so does prose that only mentions a mark
  const prose = await analyzeText(`${chat}\n\n⏺ is the mark Claude Code draws before a reply.\n\nMore prose.\n`);
  assert.equal(prose.format, 'plain-text');
});
