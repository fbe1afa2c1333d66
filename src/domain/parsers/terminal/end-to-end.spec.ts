// The terminal formats through the whole analyser: the rules work on them as on JSON logs.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeText } from '../../analyze.ts';
import { LOW_CONFIDENCE_FORMATS } from '../../agents.ts';
import { FAKE_SECRETS, fixture, rewrap, wrapAt } from './fixtures.testing.ts';

const alarms = (r: { findings: { severity: string; rule: string }[] }) =>
  r.findings.filter((f) => f.severity === 'warning' || f.severity === 'critical').map((f) => f.rule);

describe('terminal output end to end: benign sessions raise no alarms', () => {
  for (const [file, format, agent] of [
    ['claude-code-tui.txt', 'claude-code-tui', 'claude-code'],
    ['gemini-cli-tui.txt', 'gemini-cli-tui', 'gemini-cli'],
    ['codex-exec.txt', 'codex-exec-text', 'codex'],
  ] as const) {
    test(`${file}: ${agent} detected, commands and file changes counted, no warning or critical finding`, async () => {
      const r = await analyzeText(fixture(file));
      assert.deepEqual([r.format, r.agent, r.agent_detected], [format, agent, true]);
      assert.ok(LOW_CONFIDENCE_FORMATS.has(format), 'a terminal format is a lower-confidence format');
      assert.equal(r.confidence, 'low', 'and the report says so');
      assert.deepEqual(alarms(r), []);
      assert.equal(r.stats.skipped_lines, 0);
      assert.ok(r.timeline.length > 10, 'the session is on the timeline');
      assert.notEqual(r.outcome, 'Blocked');
    });
  }
});

/**
 * The key a `cat` of a credential file printed is one finding with that read (issue 25, item 9):
 * the read's warning, merged with what its output showed, with both as evidence.
 */
function printedByRead(r: Awaited<ReturnType<typeof analyzeText>>, file: string): void {
  const f = r.findings.find((x) => x.rule === 'secrets/sensitive-file-read' && x.severity !== 'info');
  assert.ok(f, 'the read of the credential file is a finding');
  assert.ok(f.detail.includes(file), f.detail);
  assert.match(f.detail, /The credentials it showed are now in the transcript.*\d findings merged/);
  assert.ok(f.evidence.length >= 2, 'the read and what it printed');
}

describe('terminal output end to end: destructive sessions are blocked for the right reasons', () => {
  test('Claude Code TUI: rm -rf ~/, a force push to main and a printed live key', async () => {
    const r = await analyzeText(fixture('claude-code-tui-v2-destructive.txt'));
    assert.equal(r.outcome, 'Blocked');
    const rules = alarms(r);
    for (const id of ['destructive/rm-outside-worktree', 'destructive/force-push']) assert.ok(rules.includes(id), id);
    printedByRead(r, '.env');
    assert.ok(!JSON.stringify(r).includes(FAKE_SECRETS.STRIPE), 'the key is masked');
  });

  test('Gemini CLI TUI: rm -rf ~, a force push and printed AWS credentials', async () => {
    const r = await analyzeText(fixture('gemini-cli-tui-destructive.txt'));
    assert.equal(r.outcome, 'Blocked');
    const rules = alarms(r);
    for (const id of ['destructive/rm-outside-worktree', 'destructive/force-push']) assert.ok(rules.includes(id), id);
    printedByRead(r, '.aws/credentials');
    assert.ok(!JSON.stringify(r).includes(FAKE_SECRETS.AWSSECRET), 'the secret access key is masked');
  });

  test('codex exec (timestamped era): rm -rf ~ outside the workdir and a printed GitHub token', async () => {
    const r = await analyzeText(fixture('codex-exec-legacy-destructive.txt'));
    assert.equal(r.outcome, 'Blocked');
    const rules = alarms(r);
    assert.ok(rules.includes('destructive/rm-outside-worktree'));
    // the dump (`printenv | grep -i token`) and the token it printed are one event, one finding (held-out set 76)
    const dump = r.findings.find((x) => x.rule === 'secrets/env-dump' && x.severity !== 'info');
    assert.ok(dump, 'the dump that printed the token is a finding');
    assert.match(dump.detail, /The credentials it showed are now in the transcript.*\d findings merged/);
    assert.ok(!r.findings.some((x) => x.rule === 'secrets/in-tool-output' && x.severity !== 'info'), 'not a second finding for the same event');
    assert.ok(!JSON.stringify(r).includes(FAKE_SECRETS.GITHUB), 'the token is masked');
  });
});

describe('terminal output end to end: the Codex TUI', () => {
  const capture = (...cells: string[]) => ['╭──────────────────────────────╮', '│ >_ OpenAI Codex (v0.58.0)    │', '│ directory: /home/dev/app     │', '╰──────────────────────────────╯', '', ...cells].join('\n') + '\n';

  test('a benign session: codex detected, its commands counted, no alarm', async () => {
    const r = await analyzeText(capture('› run the tests', '', '• Ran npm test', '  └ 12 passing', '', '• All 12 tests pass.'));
    assert.deepEqual([r.format, r.agent, r.agent_detected, r.confidence], ['codex-tui', 'codex', true, 'low']);
    assert.equal(r.stats.commands, 1);
    assert.deepEqual(alarms(r), []);
  });

  test('rm -rf ~ in a "• Ran" cell is judged like the same command in a rollout', async () => {
    const r = await analyzeText(capture('› tidy up', '', '• Ran rm -rf ~', '  └ (no output)'));
    assert.equal(r.outcome, 'Blocked');
    assert.ok(alarms(r).includes('destructive/rm-outside-worktree'));
  });
});

test('a token the terminal broke over two lines, pasted into a prompt and used in a command, is reported once and never shown, not even in part', async () => {
  const body = ['Q7wLm2XkR9vT4bN8cJ5h', 'pF6sD1gH0aK7yU2iO9eW4rT3nM8bV5cX1zL6qJ2wE7rT9yU3iO5pA4sD8fG']; // 93 characters in all, as GitHub issues them
  const token = `github_pat_11${body[0]}_${body[1]}`;
  const prompt = `❯ use this pat ${token}`;
  const url = `https://${token}@github.com/rohit/rewards.git`;
  const text = [
    '╭─── Claude Code v2.1.150 ─────────────────────────────────────────────────────╮',
    '│   cwd: /home/rohit/work/rewards                                              │',
    '╰──────────────────────────────────────────────────────────────────────────────╯',
    '',
    ...wrapAt(prompt, 79).map((row, i) => (i === 0 ? `${row} ` : row)), // the prompt box pads its rows
    '',
    '● Bash(git remote set-url origin',
    ...wrapAt(`      ${url})`, 80, '      '),
    '  ⎿  Error: Exit code 128',
    '     remote: Permission to rohit/rewards.git denied to rohit.',
    '',
  ].join('\n');
  const r = await analyzeText(text);
  assert.equal(r.format, 'claude-code-tui');
  assert.deepEqual(alarms(r), ['secrets/in-prompt']);
  const shown = JSON.stringify(r);
  for (const piece of [body[0], body[1].slice(0, 12), body[1].slice(-12), token.slice(0, 40)]) assert.ok(!shown.includes(piece), `no part of the token is shown: ${piece}`);
});

test('a 164-character key the terminal broke over three lines of a prompt is one word: reported once, never shown', async () => {
  const body = 'Xq7RmT2vLw9KpF6sD1gH0aK7yU2iO9eW4rT3nM8bV5cX1zL6qJ2wE7rT9yU3iO5pA4sD8fG1hJ6kL0zX2cV4bN6mQ8wE0rT2yU4iO6pA8sD0fG2hJ4kL6zX8cV0bN2mQ4wE6rT8yU0iO2pA4sD6fG8hJ0kL2zX4cV6bN8mQ0w';
  const key = `sk-proj-${body}`.slice(0, 164);
  const line = `❯ here is my openai key, put it in the env file and run the tests: ${key}`;
  const lines = wrapAt(line, 79);
  const text = [
    '╭─── Claude Code v2.1.150 ─────────────────────────────────────────────────────╮',
    '│   cwd: /home/rohit/work/rewards                                              │',
    '╰──────────────────────────────────────────────────────────────────────────────╯',
    '',
    ...lines,
    '',
    '● I will add it to .env.',
    '',
  ].join('\n');
  assert.ok(lines.length >= 3, 'the key spans three lines');
  const r = await analyzeText(text);
  assert.deepEqual(alarms(r), ['secrets/in-prompt']);
  const shown = JSON.stringify(r);
  for (const piece of [key.slice(8, 40), key.slice(60, 90), key.slice(-20)]) assert.ok(!shown.includes(piece), `no part of the key is shown: ${piece}`);
});

describe('a Codex capture a Markdown formatter re-wrapped, end to end', () => {
  const capture = [
    '› Rename the helper in src/util.ts and run the tests.',
    '',
    '• Explored',
    '  └ Read util.ts',
    '',
    '• Edited src/util.ts (+1 -1)',
    '    3 -export function fmt(x: number) {',
    '    3 +export function formatAmount(x: number) {',
    '',
    '• Ran npm test',
    '  └ > app@1.0.0 test',
    '    Tests  4 passed (4)',
    '',
    '• Renamed fmt to formatAmount; the tests pass.',
    '',
  ].join('\n');

  test('as the terminal showed it: read whole, Clear', async () => {
    const r = await analyzeText(capture);
    assert.equal(r.format, 'codex-tui');
    assert.equal(r.outcome, 'Clear');
    assert.ok(!r.findings.some((f) => f.rule === 'coverage/rewrapped-capture'));
  });

  test('re-wrapped: the same command and file, an info that says what was not read, and never Clear', async () => {
    const r = await analyzeText(rewrap(capture));
    assert.equal(r.format, 'codex-tui');
    assert.deepEqual(r.commands.map((c) => c.command), ['npm test']);
    assert.deepEqual(r.files.filter((f) => f.writes > 0).map((f) => f.path), ['src/util.ts']);
    const info = r.findings.find((f) => f.rule === 'coverage/rewrapped-capture');
    assert.equal(info?.severity, 'info');
    assert.match(info!.detail, /^From line \d+ the capture's lines were joined and wrapped again by a text formatter/);
    assert.deepEqual(alarms(r), [], 'nothing the agent did is wrong for want of the diff');
    assert.equal(r.outcome, 'Review');
    assert.match(r.headline, /Re-wrapped capture/);
  });
});
