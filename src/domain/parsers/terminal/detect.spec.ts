import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { detectFormat } from '../../ingest/detect.ts';
import { FAMILIES } from '../index.ts';
import { sampleOf } from '../gemini/drive.testing.ts';
import { SHARED } from '../../../../test/helpers/shared.ts';
import { detectTerminal } from './detect.ts';
import { fixture } from './fixtures.testing.ts';

const formatOf = (text: string) => detectFormat(sampleOf(text), FAMILIES, null);

describe('terminal detection: each dialect wins over plain text when its markers are there', () => {
  for (const [file, format, agent] of [
    ['claude-code-tui.txt', 'claude-code-tui', 'claude-code'],
    ['claude-code-tui-v2-destructive.txt', 'claude-code-tui', 'claude-code'],
    ['gemini-cli-tui.txt', 'gemini-cli-tui', 'gemini-cli'],
    ['gemini-cli-tui-destructive.txt', 'gemini-cli-tui', 'gemini-cli'],
    ['codex-exec.txt', 'codex-exec-text', 'codex'],
    ['codex-exec-legacy-destructive.txt', 'codex-exec-text', 'codex'],
    ['codex-tui.txt', 'codex-tui', 'codex'],
  ] as const) {
    test(`${file} is ${format}, agent ${agent}, detected from the content`, () => {
      assert.deepEqual(formatOf(fixture(file)), { format, agent, agentDetected: true, hintConflict: false });
    });
  }

  test('ANSI colours and CRLF line ends do not hide the markers', () => {
    const coloured = fixture('claude-code-tui-v2-destructive.txt').replace(/^● (\w+)\(/gm, '\x1b[32m●\x1b[0m \x1b[1m$1\x1b[22m(').replace(/\n/g, '\r\n');
    assert.equal(formatOf(coloured).format, 'claude-code-tui');
  });

  test('Codex output without its header is still recognised from its sections', () => {
    const text = "user\nfix it\ncodex\nLooking.\nexec\nbash -lc ls in /repo succeeded in 5ms:\na.txt\ntokens used\n1,024\n";
    assert.deepEqual(detectTerminal(sampleOf(text)), { format: 'codex-exec-text', score: 0.5 });
  });
});

describe('terminal detection: Gemini CLI captures without tool boxes in their first lines', () => {
  const corpusHead = (prefix: string) => {
    const dir = SHARED + 'corpus/gemini-cli/';
    const file = readdirSync(dir).find((f) => f.startsWith(prefix))!;
    return readFileSync(dir + file, 'utf8');
  };

  test('gm10 starts mid-reply: "✦ text" and its two-column gutter are the Gemini TUI', () => {
    assert.deepEqual(formatOf(corpusHead('gm10')), { format: 'gemini-cli-tui', agent: 'gemini-cli', agentDetected: true, hintConflict: false });
  });

  test('gm12 (raw PTY stream): the ANSI-art banner "Gemini CLI v0.34.0-nightly" with its tips', () => {
    assert.equal(formatOf(corpusHead('gm12')).format, 'gemini-cli-tui');
  });

  test('the banner with the input box, in any language of the prompt typed after it', () => {
    const text = '  ▝▜▄     Gemini CLI v0.1.9\n    ▝▜▄\nTips for getting started:\n1. Ask coding questions\n> 修复登录页面的错误\n';
    assert.deepEqual(detectTerminal(sampleOf(text)), { format: 'gemini-cli-tui', score: 0.8 });
  });

  test('a short "✦" paragraph, or prose naming "Gemini CLI v0.34", is not a capture', () => {
    assert.equal(detectTerminal(sampleOf('✦ Fast and small\n  really\n  it is\nThe end.\n')), null);
    assert.equal(detectTerminal(sampleOf('We upgraded to Gemini CLI v0.34.0 last week.\nIt works.\n')), null);
  });
});

describe('terminal detection: what it does not claim', () => {
  test('the shell-prompt transcript of the conformance fixtures stays plain text', () => {
    const text = readFileSync(SHARED + 'conformance/fixtures/terminal.log', 'utf8');
    assert.equal(detectTerminal(sampleOf(text)), null);
    assert.equal(formatOf(text).format, 'plain-text');
  });

  test('prose that quotes one "⏺ Bash(…)" line is not a Claude Code transcript', () => {
    const text = 'Release notes\n\nClaude Code shows tool calls like ⏺ Bash(npm test) in its UI.\n⏺ Bash(git status) is how a call looks when pasted.\nNothing else here.\n';
    assert.equal(detectTerminal(sampleOf(text)), null);
  });

  test('a bullet list with ✦ and boxes drawn by hand is not a Gemini capture', () => {
    const text = '✦ Fast\n✦ Small\n╭──────╮\n│ hello │\n╰──────╯\n';
    assert.equal(detectTerminal(sampleOf(text)), null);
  });

  test('a document that only mentions "codex" and "exec" words is not codex exec output', () => {
    const text = 'codex\nis a tool; exec runs it.\nuser guide below\n';
    assert.equal(detectTerminal(sampleOf(text)), null);
  });

  test('JSON logs are never claimed', () => {
    const text = readFileSync(SHARED + 'conformance/fixtures/claude-code.jsonl', 'utf8');
    assert.equal(detectTerminal(sampleOf(text)), null);
  });

  test('an uploader hint for another agent does not override clear terminal markers', () => {
    const r = detectFormat(sampleOf(fixture('codex-exec.txt')), FAMILIES, 'claude-code');
    assert.deepEqual([r.format, r.agent, r.hintConflict], ['codex-exec-text', 'codex', true]);
  });
});
