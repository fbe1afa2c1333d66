import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { FormatId } from '../../model/events.ts';
import { detectTerminal } from './detect.ts';
import { sampleOf } from '../gemini/drive.testing.ts';
import { MAX_BLOCK_CHARS } from './text.ts';
import { calls, fixture, ofKind, run } from './fixtures.testing.ts';

const FORMATS: FormatId[] = ['claude-code-tui', 'gemini-cli-tui', 'codex-exec-text', 'codex-tui'];

const HOSTILE: [string, string][] = [
  ['empty', ''],
  ['only blanks', '   \n\t\n  \n'],
  ['lone glyphs', '⏺\n⎿\n●\n❯\n│\n╭\n╰\n✦\n✻\nexec\nuser\ncodex\nfile update\ntokens used\n'],
  ['unclosed calls and boxes', '⏺ Bash(rm -rf /\n╭──\n│ ✔  Shell\nexec\nbash -lc \'x\nfile update\nM\n'],
  ['control bytes and broken escapes', '\x1b[\x1b]8;;\x07⏺\x1b[31m Bash(ls)\x08\x08\x7f\n  ⎿ \x1b[999999999999C ok\r\n'],
  ['replacement characters', '\uFFFD\uFFFD⏺ Bash(\uFFFD)\n  ⎿  \uFFFD\n'],
  ['prototype names as markers', 'constructor\n__proto__\ntoString\n⏺ constructor\n⏺ __proto__\n⏺ toString(x)\n│ ✔  constructor │\nhasOwnProperty\n'],
  ['a result before any call', '  ⎿  orphan\n│ orphan │\napply_patch(auto_approved=true) exited 0 in 1ms:\nSuccess.\n'],
  ['codex TUI cells without bodies or titles', '• Ran\n• Explored\n  └\n• Edited\n    1 +\n• Called\n  └ x\n• Updated Plan\n✗ You canceled the request to run\n■\n›\n▌\n> Thinking\n│ >_ OpenAI Codex (v\n╭──\nToken usage: total=1 input=x\n'],
  ['gemini 0.4x bands and one-line tools without content', '▄▄▄▄▄▄▄▄▄▄\n > \n▀▀▀▀▀▀▀▀▀▀\n  ✓  Edit  \n   → \n      1 +\n  ✓  ReadFile   → \n  x  Shell\n   → → →\n  Subject:\n'],
  ['codex 2025 labels and emoji cells without content', 'user\ncodex\nthinking\n⚡ Ran command\n⚡\n  ⎿\n📋\n✏️\n🌐\n>_ You are using OpenAI Codex in \n$ \n✗ (x) • \n✓ • \n$ a\n'],
  ['a cell continued forever', '• Ran x\n' + '  │ y\n'.repeat(5_000) + '  └ z\n' + '    w\n'.repeat(5_000)],
  ['markers of all three mixed', fixture('gemini-cli-tui.txt').slice(0, 800) + fixture('codex-exec.txt').slice(0, 800) + fixture('claude-code-tui.txt').slice(0, 800) + fixture('codex-tui.txt').slice(0, 800)],
];

describe('terminal parsers: hostile input never throws and yields well-formed events', () => {
  for (const format of FORMATS) {
    for (const [name, text] of HOSTILE) {
      test(`${format}: ${name}`, () => {
        const out = run(text, format);
        for (const e of out.events) {
          assert.equal(e.index, -1);
          assert.ok(Number.isInteger(e.line) && e.line >= 1, `line of ${e.kind}`);
        }
        const ids = calls(out.events).map((c) => c.callId);
        assert.equal(new Set(ids).size, ids.length, 'call ids are unique');
        const resultIds = ofKind(out.events, 'tool_result').map((r) => r.callId);
        assert.ok(resultIds.every((id) => ids.includes(id)), 'every result answers a call');
      });
    }
  }

  test('detection on hostile input never throws', () => {
    for (const [, text] of HOSTILE) assert.doesNotThrow(() => detectTerminal(sampleOf(text)));
  });
});

describe('terminal parsers: huge input stays bounded', () => {
  test('a 2 MB result line is kept up to the block cap and said to be cut', () => {
    const out = run(`⏺ Bash(cat big.log)\n  ⎿  ${'x'.repeat(2_000_000)}\n`, 'claude-code-tui');
    const r = ofKind(out.events, 'tool_result')[0];
    assert.ok(r.output.length < MAX_BLOCK_CHARS + 100);
    assert.match(r.output, /more characters not kept\]$/);
  });

  test('a long run of blanks (a quadratic-regex trap) is handled in one pass', () => {
    for (const format of FORMATS) {
      const out = run(`> hi\n${' '.repeat(300_000)}x\n✦ ${' '.repeat(300_000)}y\n`, format);
      assert.ok(out.events.length >= 1, format);
    }
  });

  test('a Codex TUI command wrapped over thousands of lines stays bounded', () => {
    const out = run(`• Ran ${'x'.repeat(70)}\n${`  │ ${'y'.repeat(70)}\n`.repeat(10_000)}`, 'codex-tui');
    const call = calls(out.events)[0];
    assert.ok(call.input.type === 'command' && call.input.command.length <= 256 * 1024 + 100);
  });

  test('a Codex TUI diff or exploration that never ends is kept up to the argument cap', () => {
    const diff = run(`• Edited a.ts (+1 -0)\n${`    1 +${'z'.repeat(100)}\n`.repeat(5_000)}`, 'codex-tui');
    const patch = calls(diff.events)[0];
    assert.ok(patch.input.type === 'patch' && patch.input.files[0].added.length <= 256 * 1024);
    const explored = run(`• Explored\n  └ Read a.ts\n${`         ${'w'.repeat(100)}\n`.repeat(5_000)}`, 'codex-tui');
    const read = calls(explored.events)[0];
    assert.ok(read.input.type === 'file_read' && read.input.path.length <= 256 * 1024 + 200);
  });

  test('a codex command that never ends is cut into a call, not buffered forever', () => {
    const lines = Array.from({ length: 2_000 }, (_, i) => `echo ${i}`).join('\n');
    const out = run(`exec\n${lines}\n`, 'codex-exec-text');
    assert.equal(calls(out.events).length, 1);
  });
});
