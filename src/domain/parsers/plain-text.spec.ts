import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { plainText, cleanLine, parsePrompt, MAX_OUTPUT_CHARS, MAX_MESSAGE_CHARS } from './plain-text.ts';
import { drive, ofKind, sampleOf } from './gemini/drive.testing.ts';
import { countWork } from './work-counter.testing.ts';
import { SHARED } from '../../../test/helpers/shared.ts';

const run = (text: string) => drive(plainText, text, 'plain-text');
const results = (text: string) => ofKind(run(text).events, 'tool_result');

describe('plain-text: the terminal.log fixture', () => {
  const out = drive(plainText, readFileSync(SHARED + 'conformance/fixtures/terminal.log', 'utf8'));

  test('is claimed at the fallback score', () => {
    assert.deepEqual(out.detection, { format: 'plain-text', score: 0.1 });
    assert.deepEqual(out.skips, []);
  });

  test('gives five commands, each followed by its output', () => {
    assert.deepEqual(out.events.map((e) => e.kind), Array(5).fill(['tool_call', 'tool_result']).flat());
    const calls = ofKind(out.events, 'tool_call');
    assert.deepEqual(calls.map((c) => [c.line, c.input.type === 'command' ? c.input.command : '']), [
      [1, 'cd ~/src/acme-api && git checkout -b fix/flaky-retry'],
      [3, 'npm test -- retry'],
      [9, "sed -i 's/attempt <= max/attempt < max/' src/retry.ts"],
      [10, 'npm test'],
      [13, 'git commit -am "fix off-by-one in retry loop"'],
    ]);
    const res = ofKind(out.events, 'tool_result');
    assert.ok(res.every((r, i) => r.callId === calls[i].callId && r.at === null));
    assert.equal(res[1].output, 'FAIL src/retry.test.ts\n  retry > gives up after 3 attempts\n    Expected: 3\n    Received: 4\nTests: 1 failed, 22 passed, 23 total');
    assert.equal(res[2].output, '');
    assert.equal(res[4].line, 14);
  });

  test('the failing test run is an error; the others are not', () => {
    assert.deepEqual(ofKind(out.events, 'tool_result').map((r) => [r.isError, r.exitCode]), [
      [false, null], [true, null], [false, null], [false, null], [false, null],
    ]);
  });
});

describe('plain-text: prompts', () => {
  test('prompt styles', () => {
    assert.deepEqual(parsePrompt('$ ls -la'), { kind: 'shell', command: 'ls -la' });
    assert.deepEqual(parsePrompt('dev@box:~/src/app$ npm test'), { kind: 'shell', command: 'npm test', workdir: '~/src/app' });
    assert.deepEqual(parsePrompt('root@srv:/etc# systemctl restart nginx'), { kind: 'shell', command: 'systemctl restart nginx', workdir: '/etc' });
    assert.deepEqual(parsePrompt('(venv) me@mac ~/proj % pytest -q'), { kind: 'shell', command: 'pytest -q', workdir: '~/proj' });
    assert.deepEqual(parsePrompt('[ec2-user@ip-10-0-0-1 ~]$ sudo yum update'), { kind: 'shell', command: 'sudo yum update', workdir: '~' });
    assert.deepEqual(parsePrompt('PS C:\\Users\\me> dir'), { kind: 'shell', command: 'dir', workdir: 'C:\\Users\\me' });
    assert.deepEqual(parsePrompt('# apt-get install -y curl'), { kind: 'hash', command: 'apt-get install -y curl' });
    assert.deepEqual(parsePrompt('> git status'), { kind: 'gt', command: 'git status' });
    assert.equal(parsePrompt('Author: Bob <bob@example.com>'), null);
    assert.equal(parsePrompt('git@github.com: Permission denied (publickey).'), null);
    assert.equal(parsePrompt('costs $5 total'), null);
  });

  test('"#" headings, quotes and prose are text, not commands', () => {
    const out = run('# Release notes\n> please remove the old files in this repo\n# rm -rf /var/cache/app\n');
    assert.deepEqual(out.events.map((e) => e.kind), ['message', 'tool_call', 'tool_result']);
    assert.equal(ofKind(out.events, 'message')[0].text, '# Release notes\n> please remove the old files in this repo');
    assert.deepEqual(ofKind(out.events, 'tool_call')[0].input, { type: 'command', command: 'rm -rf /var/cache/app' });
  });

  test('continuation lines join the command; npm banners stay output', () => {
    const out = run('$ for f in *.log; do\n> gzip "$f"\n> done\n$ cat <<EOF > notes.txt\n> hello\n> EOF\n$ npm run build\n\n> app@1.0.0 build\n> tsc -p .\n\nok\n');
    const commands = ofKind(out.events, 'tool_call').map((c) => (c.input.type === 'command' ? c.input.command : ''));
    assert.deepEqual(commands, ['for f in *.log; do\ngzip "$f"\ndone', 'cat <<EOF > notes.txt\nhello\nEOF', 'npm run build']);
    assert.equal(ofKind(out.events, 'tool_result')[2].output, '> app@1.0.0 build\n> tsc -p .\n\nok');
  });

  test('an empty prompt ends the command; free text is coalesced into one message', () => {
    const out = run('Intro line one\nintro line two\n\n$ make\nbuilt\n$\nThe agent then said\nsomething else\n\n');
    assert.deepEqual(out.events.map((e) => e.kind), ['message', 'tool_call', 'tool_result', 'message']);
    const messages = ofKind(out.events, 'message');
    assert.deepEqual(messages.map((m) => [m.line, m.text]), [[1, 'Intro line one\nintro line two'], [7, 'The agent then said\nsomething else']]);
    assert.equal(ofKind(out.events, 'tool_result')[0].output, 'built');
  });
});

describe('plain-text: exit hints', () => {
  const cases: [string, number | null, boolean][] = [
    ['$ false; echo "exit code: $?"\nexit code: 1\n', 1, true],
    ['$ ./deploy.sh\nDone.\nExit status 2\n', 2, true],
    ['$ make\n[exit 127]\n', 127, true],
    ['$ ./ok.sh\nexited with code 0\n', 0, false],
    ['$ foo\nbash: foo: command not found\n', 127, true],
    ['$ npm install\nnpm ERR! code E404\n', null, true],
    ['$ pytest\n=== 2 FAILED, 10 passed ===\n', null, true],
    ['$ node x.js\nError: Cannot find module \'y\'\n', null, true],
    ['$ node x.js\nTypeError: x is not a function\n', null, true],
    ['$ tsc\nsrc/a.ts(1,1): error TS2304: Cannot find name \'x\'.\n', null, true],
    ['$ git push\nfatal: not a git repository\n', null, true],
    ['$ cat nope\ncat: nope: No such file or directory\n', null, true],
    ['$ npm test\nTests: 0 failed, 3 passed\n', null, false],
    ['$ grep -c error log.txt\n3\n', null, false],
    ['$ ./run\nerror: build failed\nexit code 0\n', 0, false],
  ];
  for (const [text, exitCode, isError] of cases) {
    test(JSON.stringify(text.split('\n')[1]), () => {
      const [result] = results(text);
      assert.deepEqual([result.exitCode, result.isError, result.denied], [exitCode, isError, false]);
    });
  }
});

describe('plain-text: ANSI and terminal noise', () => {
  test('escapes stripped, carriage-return redraws and backspaces applied', () => {
    assert.equal(cleanLine('\x1b[1;32mdev@box\x1b[0m:\x1b[34m~/app\x1b[0m$ ls'), 'dev@box:~/app$ ls');
    assert.equal(cleanLine('\x1b]0;title\x07$ make\x1b[K'), '$ make');
    assert.equal(cleanLine('Downloading 10%\rDownloading 55%\rDownloading 100%\r'), 'Downloading 100%');
    assert.equal(cleanLine('gti\b\bit status'), 'git status');
    assert.equal(cleanLine('a\x00b\x07c\x1b(Bd'), 'abcd');
  });

  test('a coloured prompt is still a prompt', () => {
    const out = run('\x1b[01;32mdev@box\x1b[00m:\x1b[01;34m~/src\x1b[00m$ \x1b[Kls\n\x1b[0m\x1b[01;34mdir\x1b[0m\n');
    assert.deepEqual(ofKind(out.events, 'tool_call')[0].input, { type: 'command', command: 'ls', workdir: '~/src' });
    assert.equal(ofKind(out.events, 'tool_result')[0].output, 'dir');
  });
});

describe('plain-text: bounds and hostile input', () => {
  test('output is capped per command, the rest counted', () => {
    const big = 'x'.repeat(1000);
    const text = '$ yes\n' + Array(200).fill(big).join('\n') + '\nexit code 3\n';
    const [result] = results(text);
    assert.ok(result.output.length <= MAX_OUTPUT_CHARS + 64);
    assert.match(result.output, /\[… \d+ more characters not kept\]$/);
    assert.equal(result.exitCode, 3, 'hints are still read past the cap');
  });

  test('messages are capped too: a longer run of text is several messages, every line kept; one over-long line is cut', () => {
    const out = run(Array(100).fill('y'.repeat(2000)).join('\n'));
    const messages = ofKind(out.events, 'message');
    assert.ok(messages.length >= 3 && messages.every((m) => m.text.length <= MAX_MESSAGE_CHARS));
    assert.equal(messages.reduce((n, m) => n + m.text.split('\n').length, 0), 100, 'every line is in one of them');
    const long = ofKind(run('z'.repeat(MAX_MESSAGE_CHARS * 2)).events, 'message');
    assert.equal(long.length, 1);
    assert.match(long[0]!.text, /more characters not kept/);
  });

  test('binary junk lines: skipped outside commands, dropped inside, never thrown', () => {
    const junk = '\uFFFD\uFFFD\uFFFD\uFFFDab\uFFFD\uFFFD';
    const out = run(`${junk}\n$ cat /bin/ls\n${junk}\nELF\n`);
    assert.deepEqual(out.skips.map((s) => s.line), [1]);
    assert.match(ofKind(out.events, 'tool_result')[0].output, /^ELF\n\[… 8 more characters not kept\]$/);
    const noise = Array.from({ length: 300 }, (_, i) => String.fromCharCode(i * 7919 % 0xffff)).join('');
    assert.doesNotThrow(() => run(`${noise}\n${noise}$ ${noise}\n# ${noise}\n> ${noise}\n`));
  });

  // (How fast these go is the benchmark's business: a clock limit here would fail under load.)
  test('pathological prompt-like lines are messages, not prompts; a 10 MB command line is one command', () => {
    const odd = run('u@h' + ':'.repeat(100_000) + '\n' + '>'.repeat(100_000) + '\n' + 'x@y '.repeat(50_000) + '\n');
    assert.ok(odd.events.every((e) => e.kind === 'message'), 'messages only (the 350 KB of text in pieces)');
    assert.deepEqual(odd.skips, []);
    const out = run('$ echo ' + 'a'.repeat(10_000_000) + '\n');
    assert.equal(ofKind(out.events, 'tool_call').length, 1, 'a 10 MB command line is still one command');
  });

  test('a flood of continuation lines: one command, and work grows linearly', () => {
    const input = (n: number) => '$ echo "unterminated\n' + '> lorem ipsum dolor\n'.repeat(n);
    const small = countWork(() => run(input(50_000)));
    const large = countWork(() => run(input(200_000)));
    assert.ok(small > 50_000, `the probe sees the parser's work (${small})`);
    assert.ok(large <= 5 * small, `work grew ${(large / small).toFixed(1)}× for 4× the input (quadratic would be ~16×)`);
    assert.equal(ofKind(run(input(200_000)).events, 'tool_call').length, 1);
  });

  test('detection: JSON logs are not plain text', () => {
    assert.equal(plainText.detect(sampleOf('{"a":1}\n{"b":2}\n')), null);
    assert.deepEqual(plainText.detect(sampleOf('hello\n')), { format: 'plain-text', score: 0.1 });
    assert.deepEqual(plainText.detect({ lines: [], values: [] }), { format: 'plain-text', score: 0.1 });
    assert.throws(() => plainText.create('gemini-jsonl'));
  });
});

test('prose longer than one message is kept as several, so a credential far down a pasted transcript is read', async () => {
  const { analyzeText } = await import('../analyze.ts');
  const filler = Array.from({ length: 3000 }, (_, i) => `line ${i} of notes about the retrieval pipeline and its chunking settings`).join('\n');
  const key = ['eYe0DjQ7pLm2Xk9v', 'T4bN8cJ5hFp6sD1gH0aK7yU2'].join('');
  const report = await analyzeText(`${filler}\nCOHERE_API_KEY=${key}\nmore notes\n`);
  assert.ok(filler.length > 64 * 1024, 'the text is longer than one message');
  assert.deepEqual(report.findings.filter((f) => f.rule.startsWith('secrets/')).map((f) => f.severity), ['warning']);
  assert.ok(!JSON.stringify(report).includes(key), 'and masked');
  const notALog = report.findings.find((f) => f.rule === 'coverage/not-a-session-log');
  assert.match(notALog?.detail ?? '', /only scanned for credentials/);
  const notes = await analyzeText(`${filler}\nStandup: I pushed the fix to main and committed the docs.\n`);
  assert.deepEqual(notes.findings.filter((f) => f.rule === 'integrity/action-claimed'), [], 'notes with no command in them are no agent claiming');
});
