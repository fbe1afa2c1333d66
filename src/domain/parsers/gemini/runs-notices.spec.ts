// Gemini CLI context that arrives under role "user" (the <session_context> preamble, Plan Mode
// notices) is system context, not prompts; headless stream-json runs appended in one file stay
// apart, and a run without its final `result` event says it is incomplete.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeText } from '../../analyze.ts';
import { splitUserText } from './user-text.ts';

const jsonl = (records: object[]) => records.map((r) => JSON.stringify(r)).join('\n') + '\n';
const HEAD = { sessionId: '5c2e9f1a-7b3d-4e8a-9f10-2b4c6d8e0a1f', projectHash: '9d1f4c7a2e5b8d0f3a6c9e2b5d8f1a4c7e0b3d6f9a2c5e8b1d4f7a0c3e6b9d2f', startTime: '2026-04-02T08:00:00.000Z', lastUpdated: '2026-04-02T08:05:00.000Z', kind: 'main' };
const PREAMBLE = '<session_context>\nThis is the Gemini CLI. We are setting up the context for our chat.\nToday\'s date is Thursday, April 2, 2026.\nMy operating system is: linux\nI\'m currently working in the directory: /home/dev/shop\nHere is the folder structure of the current working directories:\n\nShowing up to 200 items (files + folders).\n\n/home/dev/shop/\n├───package.json\n└───src/\n</session_context>';

function recording(): string {
  return jsonl([
    HEAD,
    { id: 'u-0', timestamp: '2026-04-02T08:00:01.000Z', type: 'user', content: [{ text: PREAMBLE }] },
    { id: 'u-1', timestamp: '2026-04-02T08:00:05.000Z', type: 'user', content: [{ text: 'Plan how to add a discount code field to checkout.' }] },
    { id: 'g-1', timestamp: '2026-04-02T08:00:20.000Z', type: 'gemini', content: 'Plan: add the field, validate it server-side, test it.', model: 'gemini-3-pro-preview', tokens: { input: 9000, output: 120, cached: 0, thoughts: 0, tool: 0, total: 9120 } },
    { id: 'u-2', timestamp: '2026-04-02T08:01:00.000Z', type: 'user', content: [{ text: 'User has manually exited Plan Mode. Switching to Default mode (edits will require confirmation).' }] },
    { id: 'u-3', timestamp: '2026-04-02T08:01:05.000Z', type: 'user', content: [{ text: 'Go ahead and implement it.' }] },
    { id: 'g-2', timestamp: '2026-04-02T08:02:00.000Z', type: 'gemini', content: 'Implemented.', model: 'gemini-3-pro-preview', tokens: { input: 9500, output: 80, cached: 9000, thoughts: 0, tool: 0, total: 9580 } },
  ]);
}

test('the session_context preamble and Plan Mode notices are system context, not prompts', async () => {
  const r = await analyzeText(recording());
  assert.equal(r.agent, 'gemini-cli');
  assert.equal(r.stats.prompts, 2, 'the two requests the person typed');
  const prompts = r.timeline.filter((e) => e.kind === 'prompt').map((e) => e.summary);
  assert.deepEqual(prompts, ['Plan how to add a discount code field to checkout.', 'Go ahead and implement it.']);
  const system = r.timeline.filter((e) => e.kind === 'system').map((e) => e.summary);
  assert.ok(system.includes('Session context: working directory /home/dev/shop, linux'), system.join(' | '));
  assert.ok(system.some((s) => s.startsWith('User has manually exited Plan Mode')));
});

test('splitUserText keeps what was typed after the context (and leaves plain prompts alone)', () => {
  assert.deepEqual(splitUserText(`${PREAMBLE}\nfix the failing test`).typed, 'fix the failing test');
  assert.deepEqual(splitUserText('User has manually exited Plan Mode.\n\nnow write the code').typed, 'now write the code');
  const plain = splitUserText('Explain the session_context handling in our code, and what Plan Mode is');
  assert.deepEqual(plain, { notices: [], typed: 'Explain the session_context handling in our code, and what Plan Mode is' });
});

function streamRun(session: string, hour: string, opts: { result?: boolean } = {}): object[] {
  const t = (s: string) => `2026-04-03T${hour}:00:${s}.000Z`;
  const out: object[] = [
    { type: 'init', timestamp: t('00'), session_id: session, model: 'gemini-2.5-pro' },
    { type: 'message', timestamp: t('01'), role: 'user', content: 'run the linter' },
    { type: 'tool_use', timestamp: t('02'), tool_name: 'run_shell_command', tool_id: `${session}-1`, parameters: { command: 'npm run lint' } },
    { type: 'tool_result', timestamp: t('09'), tool_id: `${session}-1`, status: 'success', output: '0 problems' },
    { type: 'message', timestamp: t('10'), role: 'assistant', content: 'Lint is clean.', delta: true },
  ];
  if (opts.result !== false) out.push({ type: 'result', timestamp: t('10'), status: 'success', stats: { total_tokens: 300, input_tokens: 250, output_tokens: 50, duration_ms: 10000, tool_calls: 1 } });
  return out;
}

test('two gemini stream-json runs in one file are two runs, timed without the gap', async () => {
  const r = await analyzeText(jsonl([...streamRun('run-a', '06'), ...streamRun('run-b', '22')]));
  assert.equal(r.format, 'gemini-stream-json');
  assert.equal(r.stats.runs, 2);
  assert.equal(r.duration_ms, 20_000);
  assert.ok(r.timeline.some((e) => e.kind === 'system' && /new headless Gemini CLI run.*run-b/.test(e.summary)));
  assert.equal(r.incomplete, null);
});

test('a gemini stream-json run without its result event is incomplete; with it, complete', async () => {
  const cut = await analyzeText(jsonl(streamRun('run-a', '06', { result: false })));
  assert.equal(cut.incomplete?.reason, 'no-closing-record');
  assert.equal(cut.stats.runs, 1);
  const whole = await analyzeText(jsonl(streamRun('run-a', '06')));
  assert.equal(whole.incomplete, null);
});
