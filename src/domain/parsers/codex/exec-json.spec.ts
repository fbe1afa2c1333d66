import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { countKinds, jsonl, ofKind, run } from './drive.testing.ts';

// A `codex exec --json` transcript (shapes of codex-rs/exec/src/exec_events.rs).
const EXEC = jsonl(
  { type: 'thread.started', thread_id: '0199a213-81c0-7800-8aa1-bbab2a035a53' },
  { type: 'turn.started' },
  { type: 'item.completed', item: { id: 'item_0', type: 'reasoning', text: '**Looking for the tests**' } },
  { type: 'item.started', item: { id: 'item_1', type: 'command_execution', command: 'bash -lc ls', aggregated_output: '', exit_code: null, status: 'in_progress' } },
  { type: 'item.completed', item: { id: 'item_1', type: 'command_execution', command: 'bash -lc ls', aggregated_output: 'AGENTS.md\nsrc\n', exit_code: 0, status: 'completed' } },
  { type: 'item.completed', item: { id: 'item_2', type: 'command_execution', command: "/bin/bash -lc 'npm test'", aggregated_output: 'FAIL', exit_code: 1, status: 'failed' } },
  { type: 'item.completed', item: { id: 'item_3', type: 'command_execution', command: 'rm -rf /', aggregated_output: '', exit_code: null, status: 'declined' } },
  { type: 'item.completed', item: { id: 'item_4', type: 'file_change', changes: [{ path: 'src/a.ts', kind: 'update' }, { path: 'src/b.ts', kind: 'add' }, { path: 'old.ts', kind: 'delete' }], status: 'completed' } },
  { type: 'item.started', item: { id: 'item_5', type: 'mcp_tool_call', server: 'docs', tool: 'search', arguments: { q: 'x' }, result: null, error: null, status: 'in_progress' } },
  { type: 'item.completed', item: { id: 'item_5', type: 'mcp_tool_call', server: 'docs', tool: 'search', arguments: { q: 'x' }, result: { content: [{ type: 'text', text: 'found' }], structured_content: null }, error: null, status: 'completed' } },
  { type: 'item.completed', item: { id: 'item_6', type: 'mcp_tool_call', server: 'docs', tool: 'get', arguments: {}, result: null, error: { message: 'timeout' }, status: 'failed' } },
  { type: 'item.started', item: { id: 'item_7', type: 'web_search', query: 'codex exec json', action: { type: 'search', query: 'codex exec json' } } },
  { type: 'item.completed', item: { id: 'item_7', type: 'web_search', query: 'codex exec json', action: { type: 'search', query: 'codex exec json' } } },
  { type: 'item.started', item: { id: 'item_8', type: 'todo_list', items: [{ text: 'a', completed: false }] } },
  { type: 'item.updated', item: { id: 'item_8', type: 'todo_list', items: [{ text: 'a', completed: true }] } },
  { type: 'item.completed', item: { id: 'item_9', type: 'agent_message', text: 'Done. Tests pass.' } },
  { type: 'item.completed', item: { id: 'item_10', type: 'error', message: 'command timed out' } },
  { type: 'turn.completed', usage: { input_tokens: 24763, cached_input_tokens: 24448, output_tokens: 122 } },
  { type: 'turn.failed', error: { message: 'stream disconnected before completion' } },
  { type: 'error', message: 'fatal: reconnect failed' },
  { type: 'item.plan.delta', item_id: 'p', delta: 'x' },
);

describe('codex exec --json', () => {
  const r = run(EXEC);

  test('detected, every line understood, no timestamps', () => {
    assert.equal(r.detection?.format, 'codex-exec-json');
    assert.deepEqual(r.skips, []);
    assert.ok(r.events.every((e) => e.at === null));
    assert.equal(ofKind(r.events, 'session_meta')[0].sessionId, '0199a213-81c0-7800-8aa1-bbab2a035a53');
  });

  test('each command_execution is one tool_call + tool_result pair', () => {
    const calls = ofKind(r.events, 'tool_call').filter((c) => c.input.type === 'command');
    assert.deepEqual(calls.map((c) => [c.callId, c.input.type === 'command' && c.input.command]), [['item_1', 'ls'], ['item_2', 'npm test'], ['item_3', 'rm -rf /']]);
    const results = ofKind(r.events, 'tool_result');
    const byId = (id: string) => results.find((x) => x.callId === id)!;
    assert.equal(results.filter((x) => x.callId === 'item_1').length, 1);
    assert.deepEqual([byId('item_1').exitCode, byId('item_1').isError, byId('item_1').output], [0, false, 'AGENTS.md\nsrc\n']);
    assert.deepEqual([byId('item_2').exitCode, byId('item_2').isError], [1, true]);
    assert.deepEqual([byId('item_3').denied, byId('item_3').isError], [true, true], 'declined');
    assert.equal(byId('item_1').line, 5, 'the result sits on the completed line');
  });

  test('file_change → patch with per-file ops; MCP and web search', () => {
    const calls = ofKind(r.events, 'tool_call');
    const patch = calls.find((c) => c.callId === 'item_4')!;
    assert.deepEqual(patch.input.type === 'patch' && patch.input.files.map((f) => [f.path, f.op]), [['src/a.ts', 'update'], ['src/b.ts', 'add'], ['old.ts', 'delete']]);
    const mcp = calls.find((c) => c.callId === 'item_5')!;
    assert.deepEqual(mcp.input, { type: 'mcp', server: 'docs', tool: 'search', args: { q: 'x' } });
    const results = ofKind(r.events, 'tool_result');
    assert.equal(results.find((x) => x.callId === 'item_5')!.output, 'found');
    assert.equal(results.find((x) => x.callId === 'item_6')!.isError, true);
    assert.equal(calls.filter((c) => c.input.type === 'web_search').length, 1, 'started + completed = one search');
  });

  test('messages, reasoning, usage, errors', () => {
    const counts = countKinds(r.events);
    assert.equal(counts.message, 1);
    assert.equal(counts.thinking, 1);
    assert.equal(counts.error, 3, 'error item, turn.failed, error');
    assert.deepEqual(ofKind(r.events, 'usage').map((u) => [u.input, u.cacheRead, u.output]), [[315, 24448, 122]]);
    assert.deepEqual(ofKind(r.events, 'error').map((e) => e.text), ['command timed out', 'stream disconnected before completion', 'fatal: reconnect failed']);
  });

  test('unknown item or event types: skipped when they may hold an action, metadata when not; never fatal', () => {
    const odd = run(jsonl(
      { type: 'thread.started', thread_id: 't' },
      { type: 'item.completed', item: { id: 'x', type: 'hologram', command: 'rm -rf build' } },
      { type: 'thread.exploded' },
      { type: 'item.completed', item: { id: 'y', type: 'hologram' } },
    ), 'codex-exec-json');
    assert.deepEqual(odd.skips.map((s) => s.line), [2]);
    assert.deepEqual(odd.metadata.map((m) => m.line), [3, 4]);
  });
});

describe('codex exec --json before 0.44 ({id, msg})', () => {
  test('event messages are read like rollout event_msg payloads', () => {
    const r = run(jsonl(
      { id: '0', msg: { type: 'task_started' } },
      { id: '0', msg: { type: 'exec_command_begin', call_id: 'c1', command: ['bash', '-lc', 'cat .env'], cwd: '/r' } },
      { id: '0', msg: { type: 'exec_command_end', call_id: 'c1', stdout: 'KEY=1', stderr: '', exit_code: 0, duration: { secs: 0, nanos: 1000000 } } },
      { id: '0', msg: { type: 'agent_message', message: 'Read it.' } },
      { id: '0', msg: { type: 'task_complete', last_agent_message: 'Read it.' } },
    ));
    assert.equal(r.detection?.format, 'codex-exec-json');
    assert.deepEqual(r.skips, []);
    assert.deepEqual(countKinds(r.events), { tool_call: 1, tool_result: 1, message: 1 });
    const res = ofKind(r.events, 'tool_result')[0];
    assert.deepEqual([res.output, res.exitCode, res.durationMs], ['KEY=1', 0, 1]);
  });
});
