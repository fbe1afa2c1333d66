// "Never vouch for what you did not read": files that are not agent session logs, rules that
// fail while running, and runs that end mid-action never get a Clear verdict.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeText } from './analyze.ts';
import { RULES } from './rules/index.ts';
import type { Rule } from './rules/types.ts';
import type { Report } from './model/report.ts';

const rules = (r: Report) => r.findings.map((f) => f.rule);
const jsonl = (records: object[]) => records.map((r) => JSON.stringify(r)).join('\n') + '\n';

const CWD = '/home/dev/app';
const base = { sessionId: 's1', cwd: CWD, version: '2.1.38' };
const at = (s: number) => `2026-02-10T10:00:${String(s).padStart(2, '0')}.000Z`;
function user(s: number, content: unknown) {
  return { type: 'user', uuid: `u${s}`, timestamp: at(s), ...base, message: { role: 'user', content } };
}
function assistant(s: number, content: unknown[]) {
  return { type: 'assistant', uuid: `a${s}`, timestamp: at(s), ...base, message: { id: `m${s}`, role: 'assistant', model: 'claude-sonnet-4-5', content } };
}
const bash = (id: string, command: string) => ({ type: 'tool_use', id, name: 'Bash', input: { command, description: command } });
const result = (id: string, content: string) => ({ type: 'tool_result', tool_use_id: id, content });

const RM_HOME = jsonl([
  user(1, 'clean up the build output'),
  assistant(2, [bash('toolu_1', 'rm -rf ~/')]),
  user(3, [result('toolu_1', '')]),
  assistant(4, [{ type: 'text', text: 'Done.' }]),
]);

test('a one-line text file is not a session log: Review, with a headline that says so', async () => {
  const r = await analyzeText('hello world\n', { filename: 'x.txt' });
  assert.equal(r.outcome, 'Review');
  assert.ok(rules(r).includes('coverage/not-a-session-log'));
  assert.equal(r.headline, 'Review: Not an agent session log: nothing could be checked');
  assert.match(r.reason, /could not read this file as an agent session log/);
  assert.ok(r.trust_score < 80, `score ${r.trust_score}`);
});

test('JSONL of records no agent writes ({"name":"x"}) is not a session log', async () => {
  const r = await analyzeText(jsonl([{ name: 'x' }, { name: 'y' }, { name: 'z' }]));
  assert.equal(r.outcome, 'Review');
  const f = r.findings.find((x) => x.rule === 'coverage/not-a-session-log');
  assert.ok(f, 'a not-a-session-log finding');
  assert.match(f.detail, /JSON records of a shape no supported agent/);
  assert.ok(!rules(r).includes('coverage/low-confidence'), 'no "plain-text transcript" note on something that is no transcript');
});

test('JSON records of an unknown, message-like shape are not read as a transcript either', async () => {
  const r = await analyzeText(jsonl([
    { event: 'chat', role: 'user', text: 'deploy it' },
    { event: 'chat', role: 'bot', text: 'Deployed to production.' },
  ]));
  assert.equal(r.outcome, 'Review');
  assert.ok(rules(r).includes('coverage/not-a-session-log'));
});

test('an empty file is not a session log', async () => {
  const r = await analyzeText('');
  assert.equal(r.outcome, 'Review');
  assert.ok(rules(r).includes('coverage/not-a-session-log'));
});

test('a shell-prompt transcript still counts as a (low-confidence) log, not as "not a session log"', async () => {
  const r = await analyzeText('$ npm test\n\n> app@1.0.0 test\n> node --test\n\n# pass 12\n# fail 0\n$ git status\nOn branch main\nnothing to commit, working tree clean\n');
  assert.ok(!rules(r).includes('coverage/not-a-session-log'), r.headline);
  assert.ok(rules(r).includes('coverage/low-confidence'));
  assert.equal(r.confidence, 'low');
  // …with no prompt in it, what the agent was asked is unknown: said as an info (issue 25: its
  // actions were read and judged, and nothing in them needs a look) — but a capture without its
  // prompt most often begins partway through the session, so what came before is not in it:
  // never Clear (Vouch does not vouch for what it did not read).
  assert.equal(r.findings.find((f) => f.rule === 'coverage/little-understood')?.severity, 'info');
  assert.deepEqual(r.findings.filter((f) => f.severity !== 'info'), []);
  assert.equal(r.outcome, 'Review');
  assert.equal(r.headline, 'Review: No prompt in this terminal output');
});

test('a real agent log is a session log (negative case for the not-a-log finding)', async () => {
  const r = await analyzeText(jsonl([user(1, 'What does src/index.ts export?'), assistant(2, [{ type: 'text', text: 'One constant, x.' }])]));
  assert.ok(!rules(r).includes('coverage/not-a-session-log'));
  assert.equal(r.outcome, 'Clear');
});

function throwingIn(phase: 'onEvent' | 'finish', id: string): Rule[] {
  return RULES.map((rule) => {
    if (!rule.metas.some((m) => m.id === id)) return rule;
    return {
      metas: rule.metas,
      create(ctx) {
        const inner = rule.create(ctx);
        return {
          onEvent(event, facts) {
            if (phase === 'onEvent' && event.kind === 'tool_call') throw new Error('boom in onEvent');
            inner.onEvent(event, facts);
          },
          finish() {
            if (phase === 'finish') throw new TypeError('boom in finish');
            inner.finish?.();
          },
        };
      },
    };
  });
}

test('the rm -rf ~/ session is Blocked with the full catalogue (baseline for the failure tests)', async () => {
  const r = await analyzeText(RM_HOME);
  assert.equal(r.outcome, 'Blocked');
  assert.ok(rules(r).includes('destructive/rm-outside-worktree'));
  assert.ok(!rules(r).includes('coverage/rule-failed'));
});

test('a rule that throws in onEvent becomes a coverage warning naming it; never Clear', async () => {
  const r = await analyzeText(RM_HOME, { rules: throwingIn('onEvent', 'destructive/rm-outside-worktree') });
  assert.ok(!rules(r).includes('destructive/rm-outside-worktree'), 'the failed rule found nothing');
  const f = r.findings.find((x) => x.rule === 'coverage/rule-failed');
  assert.ok(f, 'a rule-failed finding');
  assert.equal(f.severity, 'warning');
  assert.match(f.title, /destructive\/rm-outside-worktree/);
  assert.match(f.detail, /at line 2: "boom in onEvent"/);
  assert.notEqual(r.outcome, 'Clear');
  assert.match(r.headline, /^Review: Check destructive\/rm-outside-worktree .*failed/);
});

test('a rule that throws in finish is reported the same way', async () => {
  const r = await analyzeText(RM_HOME, { rules: throwingIn('finish', 'integrity/claim-contradicted') });
  const f = r.findings.find((x) => x.rule === 'coverage/rule-failed');
  assert.ok(f);
  assert.match(f.detail, /integrity\/claim-contradicted.*at the end of the log: "boom in finish"/);
  assert.notEqual(r.outcome, 'Clear');
});

test('a clean session with a failing rule is Review, not Clear', async () => {
  const clean = jsonl([user(1, 'list the files'), assistant(2, [bash('toolu_1', 'ls')]), user(3, [result('toolu_1', 'a.ts')]), assistant(4, [{ type: 'text', text: 'One file: a.ts.' }])]);
  assert.equal((await analyzeText(clean)).outcome, 'Clear');
  const r = await analyzeText(clean, { rules: throwingIn('onEvent', 'destructive/rm-outside-worktree') });
  assert.equal(r.outcome, 'Review');
});

test('a structured log whose lines are mostly unreadable says so in the headline', async () => {
  const good = jsonl([user(1, 'list the files'), assistant(2, [bash('toolu_1', 'ls')]), user(3, [result('toolu_1', 'a.ts')])]);
  const r = await analyzeText(good + '{"type":"user","message":\n'.repeat(5));
  assert.equal(r.outcome, 'Review');
  assert.match(r.headline, /^Review: Most of the log could not be read/);
});

test('format drift: a current Codex rollout with a token_usage_record per response stays Clear (metadata is info)', async () => {
  const line = (type: string, payload: object) => JSON.stringify({ timestamp: '2026-11-01T10:00:00.000Z', type, payload });
  const rollout = [
    line('session_meta', { id: 's1', cwd: '/repo', cli_version: '0.171.0', originator: 'codex_cli_rs', source: 'cli' }),
    line('event_msg', { type: 'user_message', message: 'What does src/index.ts export?' }),
    line('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'One constant, x.' }] }),
    line('token_usage_record', { response_id: 'resp_1', thread_id: 's1', usage: { input_tokens: 900, output_tokens: 12, total_tokens: 912 } }),
    line('quota_snapshot', { plan: 'pro', used_percent: 3 }),
  ].join('\n') + '\n';
  const r = await analyzeText(rollout);
  assert.equal(r.agent, 'codex');
  assert.equal(r.outcome, 'Clear', r.headline);
  assert.equal(r.stats.skipped_lines, 0);
  assert.deepEqual(r.findings.filter((f) => f.rule === 'coverage/unknown-metadata').map((f) => f.severity), ['info']);
  // The same rollout with an unknown record that carries a command: what it did was not checked.
  const withAction = rollout + line('remote_exec', { command: 'rm -rf /srv/data' }) + '\n';
  const w = await analyzeText(withAction);
  assert.equal(w.outcome, 'Review');
  assert.ok(rules(w).includes('coverage/skipped-lines'));
});

test('a Gemini recording that kept the replies and dropped the tool calls is Review, and says why; a chat of one answer stays Clear', async () => {
  const message = (id: string, type: string, content: string) => ({ id, timestamp: '2025-10-01T10:00:00.000Z', type, content });
  const doc = (...messages: object[]) => JSON.stringify({ sessionId: 'g-1', projectHash: 'ab'.repeat(32), startTime: '2025-10-01T10:00:00.000Z', lastUpdated: '2025-10-01T10:01:00.000Z', messages }, null, 2) + '\n';
  const lost = await analyzeText(doc(
    message('u1', 'user', 'rename the project in README.md and Cargo.toml'),
    message('g1', 'gemini', 'Reading both files.'),
    message('g2', 'gemini', 'README.md updated.'),
    message('g3', 'gemini', 'Cargo.toml updated; cargo check passed.'),
  ));
  assert.equal(lost.outcome, 'Review');
  assert.equal(lost.headline, "Review: The agent's tool calls are not in this file");
  assert.match(lost.summary, /holds its prompts and replies but not its tool calls/);
  assert.deepEqual(lost.findings.filter((f) => f.severity !== 'info').map((f) => f.rule), []);
  const chat = await analyzeText(doc(message('u1', 'user', 'what does this project build?'), message('g1', 'gemini', 'A Tauri desktop app.')));
  assert.equal(chat.outcome, 'Clear');
  assert.ok(!rules(chat).includes('coverage/tools-not-recorded'));
});

test('files written through the shell are files changed: a heredoc, sed -i and PowerShell Set-Content are listed; a scratch file in /tmp and a failed write are not', async () => {
  const r = await analyzeText(jsonl([
    user(1, 'write the config and the notes'),
    assistant(2, [bash('t1', "cat > config.yml <<'EOF'\nport: 8080\nEOF")]), user(3, [result('t1', '')]),
    assistant(4, [bash('t2', "sed -i 's/8080/9090/' config.yml && echo done > /tmp/scratch.txt")]), user(5, [result('t2', 'done')]),
    assistant(6, [bash('t3', "powershell.exe -NoLogo -Command \"$p = 'docs/notes.md'; Set-Content -Path $p -Value 'hello'\"")]), user(7, [result('t3', '')]),
    assistant(8, [bash('t4', 'echo x > readonly/out.txt')]), user(9, [{ ...result('t4', 'bash: readonly/out.txt: Permission denied'), is_error: true }]),
    assistant(10, [{ type: 'text', text: 'Written.' }]),
  ]));
  assert.deepEqual(r.files.map((f) => f.path).sort(), ['config.yml', 'docs/notes.md']);
  assert.equal(r.stats.files_written, 2);
  assert.match(r.headline, /2 files changed/);
});
