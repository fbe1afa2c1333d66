// Codex records read for what they are: warnings sent on the `error` channel are notices, two
// `codex exec --json` runs (or two rollouts) appended in one file stay two runs, and a run without
// its closing `turn.completed` says it is incomplete.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeText } from '../../analyze.ts';
import { isNotice } from './emit.ts';
import { env, jsonl, ofKind, run } from './drive.testing.ts';

function execRun(thread: string, opts: { completed?: boolean } = {}): object[] {
  const out: object[] = [
    { type: 'thread.started', thread_id: thread },
    { type: 'error', message: 'Skill descriptions were shortened to fit the context budget (12 skills, 8,000 characters).' },
    { type: 'turn.started' },
    { type: 'item.completed', item: { id: 'item_0', type: 'reasoning', text: '**Running the test suite**' } },
    { type: 'item.started', item: { id: 'item_1', type: 'command_execution', command: "/bin/bash -lc 'npm test'", aggregated_output: '', exit_code: null, status: 'in_progress' } },
    { type: 'item.completed', item: { id: 'item_1', type: 'command_execution', command: "/bin/bash -lc 'npm test'", aggregated_output: '# pass 31\n# fail 0\n', exit_code: 0, status: 'completed' } },
    { type: 'item.completed', item: { id: 'item_2', type: 'agent_message', text: 'All 31 tests pass.' } },
  ];
  if (opts.completed !== false) out.push({ type: 'turn.completed', usage: { input_tokens: 9120, cached_input_tokens: 8960, output_tokens: 210 } });
  return out;
}

test('a shortened-skills notice on the error channel is a system notice, not an API error', () => {
  const r = run(jsonl(...execRun('0199b0c4-1f2e-7a11-9d3c-5e8f70a1b2c3')));
  assert.deepEqual(ofKind(r.events, 'error'), []);
  const notices = ofKind(r.events, 'system').filter((s) => s.subtype === 'notice');
  assert.equal(notices.length, 1);
  assert.match(notices[0].text, /Skill descriptions were shortened/);
});

test('real errors on the error channel stay errors (negative case)', () => {
  const r = run(jsonl(
    { type: 'thread.started', thread_id: 't' },
    { type: 'error', message: 'stream disconnected before completion: Transport error: timeout' },
    { type: 'error', message: 'unexpected status 401 Unauthorized: Missing bearer authentication' },
    { type: 'item.completed', item: { id: 'e', type: 'error', message: 'command timed out after 120s' } },
  ), 'codex-exec-json');
  assert.equal(ofKind(r.events, 'error').length, 3);
});

test('notice vs error wording', () => {
  assert.equal(isNotice('Model metadata for `gpt-9` not found; defaulting to fallback metadata'), true);
  assert.equal(isNotice('`--full-auto` is deprecated; use `--sandbox workspace-write`'), true);
  assert.equal(isNotice('fatal: context window exceeded; defaulting to compaction'), false);
  assert.equal(isNotice('Reconnecting... 2/5'), false);
});

test('two codex exec runs in one file: a run_start entry, two runs, both complete', async () => {
  const r = await analyzeText(jsonl(...execRun('0199b0c4-1f2e-7a11-9d3c-5e8f70a1b2c3'), ...execRun('0199b0c4-2a3b-7c44-8e5f-6a7b8c9d0e1f')));
  assert.equal(r.format, 'codex-exec-json');
  assert.equal(r.stats.runs, 2);
  const mark = r.timeline.find((e) => e.kind === 'system' && /new `codex exec` run/.test(e.summary));
  assert.ok(mark, 'a system entry marks the second run');
  assert.match(mark.summary, /0199b0c4-2a3b/);
  assert.ok(r.findings.some((f) => f.rule === 'coverage/several-runs'));
  assert.equal(r.incomplete, null);
  assert.ok(!r.findings.some((f) => f.rule === 'reliability/api-errors'), 'notices are no API errors');
});

test('a codex exec run without turn.completed is incomplete; with it, complete', async () => {
  const cut = await analyzeText(jsonl(...execRun('0199b0c4-1f2e-7a11-9d3c-5e8f70a1b2c3', { completed: false })));
  assert.equal(cut.incomplete?.reason, 'no-closing-record');
  assert.match(cut.incomplete?.detail ?? '', /turn\.completed/);
  assert.equal(cut.findings.find((f) => f.rule === 'coverage/incomplete')?.severity, 'info');
  const whole = await analyzeText(jsonl(...execRun('0199b0c4-1f2e-7a11-9d3c-5e8f70a1b2c3')));
  assert.equal(whole.incomplete, null);
  assert.equal(whole.stats.runs, 1);
});

function rollout(id: string, day: string): unknown[] {
  const t = (h: string) => `2026-01-${day}T${h}.000Z`;
  return [
    env('session_meta', { id, timestamp: t('09:00:00'), cwd: '/home/dev/api', originator: 'codex_exec', cli_version: '0.60.1', source: 'exec' }, t('09:00:00')),
    env('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'bump the version' }] }, t('09:00:01')),
    env('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Bumped to 1.4.0.' }] }, t('09:00:41')),
  ];
}

test('a second rollout session appended to the file is a new run; subagent threads are not', async () => {
  const two = await analyzeText(jsonl(...rollout('0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b', '05'), ...rollout('0199a9b8-c7d6-7e5f-8a9b-0c1d2e3f4a5b', '06')));
  assert.equal(two.stats.runs, 2);
  assert.equal(two.duration_ms, 82_000, 'two 41-second sessions, not a day');
  const child = await analyzeText(jsonl(
    ...rollout('0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b', '05'),
    env('session_meta', { id: '0199a9b8-c7d6-7e5f-8a9b-0c1d2e3f4a5b', parent_thread_id: '0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b', cwd: '/home/dev/api', source: { subagent: 'review' } }, '2026-01-05T09:00:50.000Z'),
  ));
  assert.equal(child.stats.runs, 1);
});
