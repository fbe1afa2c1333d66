// A capture that begins partway into a text file (held-out set 83: a chat with another assistant
// pasted above a Claude Code capture; a capture that opens on the tail of a long tool output), and
// the sixteenth independent review's cases.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { BACK_LINES, HELD_MAX_BYTES, LateCapture, WINDOW_LINES, type LateStep } from './late-capture.ts';
import type { LineInfo } from './lines.ts';
import { analyzeText } from '../analyze.ts';

const info = (text: string, line: number): LineInfo => ({ text, line, invalidUtf8: false, last: false });

/** Feeds the lines, flushes, and returns what was read as before, what switched, and what detection was shown. */
function watch(texts: string[], detects: (lines: string[]) => boolean = () => true) {
  const shown: string[][] = [];
  const late = new LateCapture((lines) => (shown.push(lines), detects(lines)));
  const plain: string[] = [];
  let capture: string[] | null = null;
  const take = (step: LateStep) => {
    if (step.kind === 'switch') {
      plain.push(...step.before.map((l) => l.text));
      capture = step.lines.map((l) => l.text);
    } else if (capture) capture.push(...step.lines.map((l) => l.text));
    else plain.push(...step.lines.map((l) => l.text));
  };
  texts.forEach((t, i) => take(late.offer(info(t, i + 1))));
  take(late.flush());
  return { plain, capture: capture as string[] | null, shown };
}

const chat = (n: number) => Array.from({ length: n }, (_, i) => (i % 2 === 0 ? 'You:' : `Question ${i}: how should the ledger round amounts?`));
const CAPTURE = ['> delete the dist folder and force-push main', '', '⏺ Bash(rm -rf dist && git push --force origin main)', '  ⎿  To github.com:acme/ledger.git', '     + 1a2b3c4...5d6e7f8 main -> main (forced update)'];

test('every line is read once, in order, whichever way it goes', () => {
  const texts = [...chat(200), ...CAPTURE, ...chat(80)];
  for (const detects of [() => true, () => false]) {
    const { plain, capture } = watch(texts, detects);
    assert.deepEqual([...plain, ...(capture ?? [])], texts);
  }
  assert.deepEqual(watch(chat(100)).plain, chat(100), 'no mark: all of it is text');
});

test('the capture begins at the prompt of the turn above its first mark, never at a welcome box (one per pasted session), nor at a quote in prose', () => {
  const { plain, capture, shown } = watch([...chat(200), '', ...CAPTURE, ...chat(80)]);
  assert.equal(capture![0], '> delete the dist folder and force-push main', 'the prompt goes with the capture');
  assert.deepEqual(plain, [...chat(200), '']);
  assert.equal(shown[0]![0], '> delete the dist folder and force-push main');
  const box = ['╭───────────────────────────╮', '│ ✻ Welcome to Claude Code! │', '│   cwd: /home/dana/ledger  │', '╰───────────────────────────╯', '', ...CAPTURE];
  assert.equal(watch([...chat(200), ...box]).capture![0], CAPTURE[0], 'the prompt under the box');
  // the turn's own lines between its prompt and its first tool mark: the reply's mark, its text
  const replied = ['> fix the build', '  and push it', '', '⏺ I will look at the failing step first.', '  It is the lint job.', '', ...CAPTURE.slice(2)];
  assert.equal(watch([...chat(200), '', ...replied]).capture![0], replied[0]);
  // a quote in the chat's prose is no prompt: prose runs into it
  const quoted = ['Do not do this:', '> just run git push --force origin main', '', ...CAPTURE.slice(2)];
  assert.equal(watch([...chat(200), ...quoted]).capture![0], CAPTURE[2]);
  // a mark with nothing that opens a turn above it starts there
  assert.equal(watch([...chat(200), ...CAPTURE.slice(2)]).capture![0], CAPTURE[2]);
});

test('a window detection turns down is read as text, and a mark inside it opens the next window', () => {
  const prose = ['● Notes(draft) is how the old notes were titled', ...chat(WINDOW_LINES - 10)];
  const texts = [...prose, '', ...CAPTURE, ...chat(60)];
  const { plain, capture, shown } = watch(texts, (lines) => lines.some((l) => l.startsWith('⏺ Bash')) && !lines[0]!.startsWith('●'));
  assert.equal(shown.length, 2, 'the second window starts at the next mark');
  assert.equal(capture![0], CAPTURE[0]);
  assert.deepEqual(plain, [...prose, '']);
});

test('notes bulleted with "●" cost no look, and looks are bounded but grow with the file', () => {
  const notes = Array.from({ length: 3_000 }, (_, i) => (i % 5 === 0 ? `● note ${i}: a plain bullet` : `detail ${i}`));
  const plain = watch([...notes, ...CAPTURE], (lines) => lines.some((l) => l.startsWith('⏺ Bash')));
  assert.equal(plain.shown.length, 1, 'only the capture\'s tool mark opened a window');
  assert.ok(plain.capture !== null, 'the capture after the notes is read as one');
  // every bullet shaped like a tool call: each window is a look, up to the budget the file has earned
  const toolLike = Array.from({ length: 6_000 }, (_, i) => (i % 20 === 0 ? `● Note(${i}) in a list` : `detail ${i}`));
  assert.equal(watch(toolLike, () => false).shown.length, 20 + Math.floor(6_000 / 2_000));
});

test('a capture a shell command prints (cat, less, tail) is its output; after any other command (the agent launched, a quoted npm test) it is a capture', () => {
  const shell = ['$ git status', 'On branch main', '$ cat notes/yesterday-claude.txt', ...CAPTURE, '$ rm -rf ~/backups'];
  assert.equal(watch(shell).capture, null);
  assert.equal(watch(['dana@box:~/ledger$ tail -n 200 logs/claude.txt', ...CAPTURE]).capture, null);
  assert.notEqual(watch(['dana@box:~/ledger$ git pull', 'dana@box:~/ledger$ make', ...chat(40), 'dana@box:~/ledger$ claude', '', ...CAPTURE]).capture, null, 'the agent launched at the prompt');
  assert.notEqual(watch(['$ npm install', 'added 3 packages', '$ npm test', ...chat(40), ...CAPTURE]).capture, null, 'a chat quoting commands');
});

test('marks as a terminal shows them: through colour codes, inside a box, with a variation selector, alone on their line', () => {
  for (const mark of ['\x1b[38;5;246m⏺\x1b[39m Bash(git status)', '⏺\uFE0F Read(src/app.ts)', '• Explored', '• Ran git status', '│ ✓  Shell npm test │', '│ x  Shell rm -rf dist │']) {
    assert.equal(watch([...chat(60), mark, ...chat(10)]).shown.length, 1, mark);
  }
  for (const prose of ['• a bullet in a list', '✦ a sparkle', '● a bullet', '⏺ I will start with the tests.', '│ x marks the spot │', '│ ✻ Welcome to Claude Code! │']) assert.equal(watch([...chat(60), prose, ...chat(10)]).shown.length, 0, prose);
});

test('bytes held are bounded: a window of long lines is decided once they pass the cap', () => {
  const long = 'x'.repeat(HELD_MAX_BYTES / 4);
  const late = new LateCapture(() => false);
  late.offer(info('⏺ Bash(cat big.log)', 1));
  const steps = [2, 3, 4, 5, 6].map((n) => late.offer(info(long, n)));
  assert.ok(steps.some((s) => s.kind === 'release' && s.lines.length > 0), 'decided before the window had its fifty lines');
  // and text with no mark is held at most BACK_LINES lines
  const text = new LateCapture(() => true);
  const released = Array.from({ length: 100 }, (_, i) => text.offer(info(`line ${i}`, i + 1))).flatMap((s) => (s.kind === 'release' ? s.lines : []));
  assert.equal(released.length, 100 - BACK_LINES);
});

test('a chat pasted above a Claude Code capture, past the first sample: read by its parser, the prompt above its first mark included', async () => {
  const fixture = readFileSync(new URL('../../../test/fixtures/terminal/claude-code-tui.txt', import.meta.url), 'utf8');
  const pasted = Array.from({ length: 700 }, (_, i) => (i % 3 === 0 ? 'You:' : i % 3 === 1 ? `Question ${i} about the design of the ledger, with some words to make it long enough.` : 'ChatGPT:\nAn answer in prose, with **markdown** and a list:\n- one\n- two')).join('\n\n');
  const r = await analyzeText(`${pasted}\n\n${fixture}`);
  assert.equal(r.format, 'claude-code-tui');
  assert.equal(r.agent, 'claude-code');
  assert.ok(r.stats.tool_calls >= 20, `tool calls read: ${r.stats.tool_calls}`);
  assert.ok(r.stats.prompts >= 1, 'the prompt above the first mark is the capture\'s');
  assert.ok(r.findings.some((f) => f.rule === 'coverage/low-confidence'), 'still read heuristically');
  // the force push the prompt asked for stays as requested, as in the capture alone
  const asked = `${pasted}\n\n${CAPTURE.join('\n')}\n`;
  const alone = await analyzeText(`${CAPTURE.join('\n')}\n`);
  const push = (rep: typeof r) => rep.findings.filter((f) => f.rule === 'destructive/force-push').map((f) => f.severity);
  assert.deepEqual(push(await analyzeText(asked)), push(alone));
  // the same prose with no capture stays plain text, and so does prose that only mentions a mark
  const prose = await analyzeText(`${pasted}\n\n⏺ is the mark Claude Code draws before a reply.\n\nMore prose.\n`);
  assert.equal(prose.format, 'plain-text');
});
