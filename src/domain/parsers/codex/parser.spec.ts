import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { countKinds, env, jsonl, ofKind, run } from './drive.testing.ts';

const ri = (payload: unknown) => env('response_item', payload);
const ev = (payload: unknown) => env('event_msg', payload);
const userItem = (text: string) => ri({ type: 'message', role: 'user', content: [{ type: 'input_text', text }] });
const userEvent = (message: string) => ev({ type: 'user_message', message, images: [] });
const fn = (name: string, args: unknown, callId = 'c1') => ri({ type: 'function_call', name, arguments: typeof args === 'string' ? args : JSON.stringify(args), call_id: callId });
const out = (output: unknown, callId = 'c1') => ri({ type: 'function_call_output', call_id: callId, output });
const META = env('session_meta', { id: 's1', cwd: '/repo', cli_version: '0.60.1', originator: 'codex_cli_rs', source: 'cli' });

describe('codex: copies of one thing are emitted once', () => {
  test('prompt: response_item + user_message in either order; a repeated prompt is two prompts', () => {
    const r = run(jsonl(META, userItem('fix it'), userEvent('fix it'), userEvent('undo'), userItem('undo'), userItem('undo'), userEvent('undo')));
    assert.deepEqual(ofKind(r.events, 'prompt').map((p) => [p.text, p.line]), [['fix it', 2], ['undo', 4], ['undo', 6]]);
  });

  test('assistant text, reasoning, compaction and interrupts mirror their event copies', () => {
    const r = run(jsonl(
      META,
      ev({ type: 'agent_reasoning', text: '**Plan**' }),
      ri({ type: 'reasoning', summary: [{ type: 'summary_text', text: '**Plan**' }, { type: 'summary_text', text: '**More**' }], encrypted_content: 'gAAA' }),
      ev({ type: 'agent_reasoning', text: '**More**' }),
      ri({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Done.' }] }),
      ev({ type: 'agent_message', message: 'Done.' }),
      env('compacted', { message: 'summary of earlier work', replacement_history: [] }),
      ev({ type: 'context_compacted' }),
      ev({ type: 'turn_aborted', reason: 'interrupted' }),
      userItem('<turn_aborted>\n<reason>interrupted</reason>\n</turn_aborted>'),
    ));
    assert.deepEqual(countKinds(r.events), { session_meta: 1, thinking: 2, message: 1, compaction: 1, interrupt: 1 });
    assert.equal(ofKind(r.events, 'compaction')[0].summary, 'summary of earlier work');
  });

  test('token_count: repeats add nothing, info null is ignored, usage is the growth of the total', () => {
    const tc = (total: number[], last: number[]) => ev({
      type: 'token_count',
      info: {
        total_token_usage: { input_tokens: total[0], cached_input_tokens: total[1], output_tokens: total[2], total_tokens: total[0] + total[2] },
        last_token_usage: { input_tokens: last[0], cached_input_tokens: last[1], output_tokens: last[2], total_tokens: last[0] + last[2] },
      },
    });
    const r = run(jsonl(META, ev({ type: 'token_count', info: null }), tc([100, 60, 10], [100, 60, 10]), tc([100, 60, 10], [100, 60, 10]), tc([250, 160, 30], [150, 100, 20]), tc([40, 0, 5], [40, 0, 5])));
    assert.deepEqual(ofKind(r.events, 'usage').map((u) => [u.input, u.cacheRead, u.output]), [[40, 60, 10], [50, 100, 20], [40, 0, 5]], 'a shrinking total falls back to the last call');
  });

  test('session_meta only when something changes; policy changes are visible', () => {
    const tcx = (approval: string, sandbox: unknown, model = 'gpt-5') => env('turn_context', { cwd: '/repo', approval_policy: approval, sandbox_policy: sandbox, model });
    const r = run(jsonl(META, tcx('on-request', { type: 'workspace-write' }), tcx('on-request', { type: 'workspace-write' }), tcx('never', { mode: 'danger-full-access' }), tcx('never', { type: 'danger-full-access' }, 'gpt-5.1')));
    const metas = ofKind(r.events, 'session_meta');
    assert.deepEqual(metas.map((m) => [m.line, m.approvalPolicy, m.sandbox, m.model]), [
      [1, undefined, undefined, undefined], [2, 'on-request', 'workspace-write', 'gpt-5'], [4, 'never', 'danger-full-access', undefined], [5, undefined, undefined, 'gpt-5.1'],
    ]);
    assert.deepEqual(metas[0].flags, ['originator:codex_cli_rs', 'source:cli']);
  });
});

describe('codex: format drift (0.171 token_usage_record)', () => {
  const tc = (total: number) => ev({ type: 'token_count', info: { total_token_usage: { input_tokens: total, cached_input_tokens: 0, output_tokens: 10, reasoning_output_tokens: 0, total_tokens: total + 10 }, last_token_usage: { input_tokens: total, cached_input_tokens: 0, output_tokens: 10, reasoning_output_tokens: 0, total_tokens: total + 10 } } });
  const usageRecord = env('token_usage_record', { response_id: 'resp_1', thread_id: 's1', turn_id: 't1', usage: { input_tokens: 100, cached_input_tokens: 0, output_tokens: 10, total_tokens: 110 } });

  test('a token_usage_record is read as known bookkeeping: no skip, no unknown metadata, usage counted once', () => {
    const r = run(jsonl(META, userEvent('hi'), usageRecord, tc(100)));
    assert.deepEqual(r.skips, []);
    assert.deepEqual(r.metadata, []);
    assert.deepEqual(ofKind(r.events, 'usage').map((u) => [u.input, u.output]), [[100, 10]]);
  });

  test('a record type newer than Vouch: metadata when it holds no action, a skipped line when it holds a call', () => {
    const r = run(jsonl(
      META,
      env('rate_limit_snapshot', { primary: { used_percent: 12 }, plan: 'pro' }),
      env('remote_tool_call', { call_id: 'c9', arguments: '{"cmd":"curl x | sh"}' }),
    ));
    assert.deepEqual(r.metadata, [{ line: 2, type: 'rate_limit_snapshot' }]);
    assert.deepEqual(r.skips.map((s) => [s.line, s.reason]), [[3, 'unknown codex record type "remote_tool_call"']]);
  });
});

describe('codex: tool calls', () => {
  test('shell_command escalation, exec_command require_escalated, write_stdin', () => {
    const r = run(jsonl(
      META,
      fn('shell_command', { command: 'curl -L https://x | sh', workdir: '.', with_escalated_permissions: true, justification: 'need network' }, 'a'),
      fn('exec_command', { cmd: 'npm publish', sandbox_permissions: 'require_escalated', justification: 'release' }, 'b'),
      fn('write_stdin', { session_id: 3, chars: 'rm -rf build\n' }, 'c'),
      fn('write_stdin', { session_id: 3, chars: '' }, 'd'),
    ));
    assert.deepEqual(ofKind(r.events, 'tool_call').map((c) => c.input), [
      { type: 'command', command: 'curl -L https://x | sh', escalated: true, justification: 'need network', workdir: '.' },
      { type: 'command', command: 'npm publish', escalated: true, justification: 'release' },
      { type: 'command', command: 'rm -rf build' },
      { type: 'other', args: { session_id: 3, chars: '' } },
    ]);
  });

  test('apply_patch as custom tool, as function {input}, and through shell argv', () => {
    const patch = '*** Begin Patch\n*** Add File: a.txt\n+hi\n*** End Patch';
    const r = run(jsonl(
      META,
      ri({ type: 'custom_tool_call', name: 'apply_patch', input: patch, call_id: 'p1', status: 'completed' }),
      ri({ type: 'custom_tool_call_output', call_id: 'p1', output: '{"output":"Success. Updated the following files:\\nA a.txt\\n","metadata":{"exit_code":0,"duration_seconds":0.0}}' }),
      fn('apply_patch', { input: patch }, 'p2'),
      fn('shell', { command: ['apply_patch', patch] }, 'p3'),
      ri({ type: 'local_shell_call', call_id: 'p4', status: 'completed', action: { type: 'exec', command: ['bash', '-lc', 'git status'], working_directory: '/repo' } }),
    ));
    const calls = ofKind(r.events, 'tool_call');
    for (const c of calls.slice(0, 3)) assert.deepEqual(c.input, { type: 'patch', files: [{ path: 'a.txt', op: 'add', removed: '', added: 'hi' }] }, c.callId);
    assert.deepEqual(calls[3].input, { type: 'command', command: 'git status', workdir: '/repo' });
    assert.deepEqual(ofKind(r.events, 'tool_result').map((x) => [x.callId, x.name, x.exitCode, x.isError]), [['p1', 'apply_patch', 0, false]]);
  });

  test('MCP, view_image, update_plan, web search, spawn_agent, namespaced tools', () => {
    const r = run(jsonl(
      META,
      fn('memory__create_entities', { entities: [] }, 'm1'),
      fn('mcp__github__create_issue', { title: 't' }, 'm2'),
      fn('view_image', { path: '/tmp/shot.png' }, 'v1'),
      fn('update_plan', { plan: [{ step: 'x', status: 'pending' }] }, 'u1'),
      ri({ type: 'function_call', name: 'send_email', namespace: 'gmail', arguments: '{"to":"a@b"}', call_id: 'n1' }),
      ri({ type: 'web_search_call', id: 'ws1', status: 'completed', action: { type: 'search', query: 'node 20 release' } }),
      ev({ type: 'web_search_end', call_id: 'w-x', query: 'node 20 release', action: { type: 'search', query: 'node 20 release' } }),
      ri({ type: 'web_search_call', id: 'ws2', status: 'completed', action: { type: 'open_page', url: 'https://example.com/x' } }),
      fn('spawn_agent', { message: 'review the diff', agent_type: 'reviewer' }, 's1'),
    ));
    assert.deepEqual(ofKind(r.events, 'tool_call').map((c) => c.input), [
      { type: 'mcp', server: 'memory', tool: 'create_entities', args: { entities: [] } },
      { type: 'mcp', server: 'github', tool: 'create_issue', args: { title: 't' } },
      { type: 'file_read', path: '/tmp/shot.png' },
      { type: 'other', args: { plan: [{ step: 'x', status: 'pending' }] } },
      { type: 'mcp', server: 'gmail', tool: 'send_email', args: { to: 'a@b' } },
      { type: 'web_search', query: 'node 20 release' },
      { type: 'web_fetch', url: 'https://example.com/x' },
      { type: 'subagent', description: 'review the diff', prompt: 'review the diff', agentType: 'reviewer' },
    ]);
  });

  test('exec_command_end fills the exit code a text output lacks, without a second result', () => {
    const r = run(jsonl(
      META,
      fn('shell', { command: ['bash', '-lc', 'make'] }),
      ev({ type: 'exec_command_end', call_id: 'c1', command: ['bash', '-lc', 'make'], exit_code: 2, duration: { secs: 1, nanos: 500_000_000 }, aggregated_output: 'make: *** [all] Error 2', status: 'failed' }),
      out([{ type: 'input_text', text: 'make: *** [all] Error 2' }]),
    ));
    const results = ofKind(r.events, 'tool_result');
    assert.equal(results.length, 1);
    assert.deepEqual([results[0].line, results[0].exitCode, results[0].isError, results[0].durationMs, results[0].name], [4, 2, true, 1500, 'shell']);
  });

  test('an end event whose output never comes still yields the result, before the abort', () => {
    const r = run(jsonl(META, fn('shell_command', { command: 'sleep 100' }), ev({ type: 'exec_command_end', call_id: 'c1', command: ['sleep', '100'], exit_code: 130, aggregated_output: '' }), ev({ type: 'turn_aborted', reason: 'interrupted' })));
    assert.deepEqual(r.events.slice(1).map((e) => [e.kind, e.line]), [['tool_call', 2], ['tool_result', 3], ['interrupt', 4]]);
    assert.equal(ofKind(r.events, 'tool_result')[0].exitCode, 130);
    const cut = run(jsonl(META, fn('shell_command', { command: 'make' }), ev({ type: 'exec_command_end', call_id: 'c1', exit_code: 0, aggregated_output: 'ok' })));
    assert.deepEqual(ofKind(cut.events, 'tool_result').map((x) => [x.line, x.output]), [[3, 'ok']], 'log cut: flushed at the end');
  });

  test('commands seen only in exec events: agent vs the person\'s own !cmd; declined = denied', () => {
    const r = run(jsonl(
      META,
      ev({ type: 'exec_command_end', call_id: 'u1', command: ['bash', '-lc', 'ls'], cwd: '/repo', exit_code: 0, aggregated_output: 'a', source: 'user_shell' }),
      ev({ type: 'exec_command_begin', call_id: 'x1', command: ['rm', '-rf', '/tmp/x'], cwd: '/repo' }),
      ev({ type: 'exec_command_end', call_id: 'x1', command: ['rm', '-rf', '/tmp/x'], exit_code: -1, aggregated_output: 'exec command rejected by user', status: 'declined' }),
    ));
    assert.deepEqual(ofKind(r.events, 'tool_call').map((c) => [c.name, c.input]), [
      ['user_shell', { type: 'command', command: 'ls', workdir: '/repo' }],
      ['exec_command', { type: 'command', command: 'rm -rf /tmp/x', workdir: '/repo' }],
    ]);
    assert.deepEqual(ofKind(r.events, 'tool_result').map((x) => [x.callId, x.denied, x.isError]), [['u1', false, false], ['x1', true, true]]);
  });

  test('patch_apply_end and mcp_tool_call_end complete their calls; unknown ones become calls', () => {
    const r = run(jsonl(
      META,
      ri({ type: 'custom_tool_call', name: 'apply_patch', input: '*** Begin Patch\n*** Delete File: x\n*** End Patch', call_id: 'p1' }),
      ev({ type: 'patch_apply_end', call_id: 'p1', success: false, stdout: '', stderr: 'x: not found', changes: {} }),
      ri({ type: 'custom_tool_call_output', call_id: 'p1', output: 'x: not found' }),
      ev({ type: 'patch_apply_end', call_id: 'p2', success: true, stdout: 'ok', stderr: '', changes: { '/repo/n.ts': { type: 'add', content: 'new\n' }, '/repo/o.ts': { update: { unified_diff: '@@ -1 +1 @@\n-a\n+b\n', move_path: '/repo/p.ts' } }, '/repo/d.ts': { type: 'delete', content: 'old' } } }),
      ev({ type: 'mcp_tool_call_end', call_id: 'm1', invocation: { server: 'fs', tool: 'write', arguments: { path: '/etc/hosts' } }, duration: { secs: 0, nanos: 2_000_000 }, result: { Err: 'denied by server' } }),
    ));
    const res = ofKind(r.events, 'tool_result');
    assert.deepEqual(res.map((x) => [x.callId, x.line, x.isError]), [['p1', 4, true], ['p2', 5, false], ['m1', 6, true]]);
    const p2 = ofKind(r.events, 'tool_call').find((c) => c.callId === 'p2')!;
    assert.deepEqual(p2.input, { type: 'patch', files: [
      { path: '/repo/n.ts', op: 'add', removed: '', added: 'new\n' },
      { path: '/repo/o.ts', op: 'update', removed: 'a', added: 'b', moveTo: '/repo/p.ts' },
      { path: '/repo/d.ts', op: 'delete', removed: 'old', added: '' },
    ] });
  });
});

describe('codex: user text and context', () => {
  test('environment_context → metadata; AGENTS.md / user_instructions → synthetic; developer → system', () => {
    const r = run(jsonl(
      { id: 'legacy-1', timestamp: '2025-09-10T18:58:38.331Z', instructions: 'be nice', git: { branch: 'dev', repository_url: 'git@x:y.git' } },
      { record_type: 'state' },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: '<user_instructions>\nAlways run tests\n</user_instructions>' }] },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: '<environment_context>\n  <cwd>/home/u/p</cwd>\n  <approval_policy>never</approval_policy>\n  <sandbox_mode>danger-full-access</sandbox_mode>\n</environment_context>' }] },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: '# AGENTS.md instructions for /home/u/p\n\nNo force pushes.' }] },
      { type: 'message', role: 'developer', content: [{ type: 'input_text', text: '<permissions instructions>…' }] },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'ship it' }] },
      { record_type: 'state', extra: 1 },
    ));
    assert.equal(r.detection?.format, 'codex-legacy');
    assert.deepEqual(r.skips, []);
    assert.deepEqual(ofKind(r.events, 'prompt').map((p) => [p.line, p.synthetic ?? false]), [[3, true], [5, true], [7, false]]);
    assert.deepEqual(ofKind(r.events, 'session_meta').map((m) => [m.line, m.at, m.sessionId, m.branch, m.cwd, m.approvalPolicy, m.sandbox]), [
      [1, '2025-09-10T18:58:38.331Z', 'legacy-1', 'dev', undefined, undefined, undefined],
      [4, null, undefined, undefined, '/home/u/p', 'never', 'danger-full-access'],
    ]);
    assert.deepEqual(ofKind(r.events, 'system').map((s) => s.subtype), ['developer']);
  });

  test('approval requests, guardian verdicts, errors and sub-agent spawns are kept', () => {
    const r = run(jsonl(
      META,
      ev({ type: 'exec_approval_request', call_id: 'c9', command: ['git', 'push', '--force'], reason: 'needs network' }),
      ev({ type: 'guardian_assessment', status: 'denied', risk_level: 'high', action: { type: 'command', command: 'curl x | sh' }, rationale: 'remote code' }),
      ev({ type: 'error', message: 'Rate limit reached' }),
      ev({ type: 'task_complete', error: { message: 'turn failed' } }),
      ev({ type: 'collab_agent_spawn_end', call_id: 'k', new_thread_id: 'thr-2', new_agent_nickname: 'Ada', prompt: 'audit deps' }),
      ev({ type: 'collab_close_end', call_id: 'k2', receiver_thread_id: 'thr-2' }),
      env('session_meta', { id: 'sub', source: { subagent: { thread_spawn: { parent_thread_id: 'thr-1', depth: 1 } } } }),
    ));
    assert.deepEqual(ofKind(r.events, 'system').map((s) => [s.subtype, s.text]), [
      ['approval_request', 'git push --force — needs network'],
      ['guardian_assessment', 'denied · high · command · curl x | sh · remote code'],
    ]);
    assert.deepEqual(ofKind(r.events, 'error').map((e) => e.text), ['Rate limit reached', 'turn failed']);
    assert.deepEqual(countKinds(r.events).subagent_start, 1);
    assert.deepEqual(r.missing, ['thr-2']);
    assert.deepEqual(ofKind(r.events, 'session_meta').at(-1)!.flags, ['source:subagent', 'parent_thread:thr-1']);
  });
});

describe('codex: image attachments', () => {
  test('image wrapper parts do not stop the prompt copies from matching', () => {
    const r = run(jsonl(
      META,
      ri({ type: 'message', role: 'user', content: [{ type: 'input_text', text: '<image name=[Image #1]>' }, { type: 'input_image', image_url: 'data:…' }, { type: 'input_text', text: '</image>' }, { type: 'input_text', text: 'what is this?' }] }),
      ev({ type: 'user_message', message: 'what is this?', images: ['data:…'] }),
    ));
    assert.deepEqual(ofKind(r.events, 'prompt').map((p) => p.text), ['what is this?']);
  });
});

test('codex 0.171 token_usage_record lines are understood and add no tokens (event_msg token_count carries them)', () => {
  const meta = { timestamp: '2026-11-28T05:47:02.014Z', type: 'session_meta', payload: { id: '01a220b1-53d9-7de0-9b7c-1b086aa2cba5', timestamp: '2026-11-28T05:47:01.985Z', cwd: '/src/app', cli_version: '0.171.0' } };
  const record = { timestamp: '2026-11-28T05:47:02.108Z', ordinal: 10, type: 'token_usage_record', payload: { thread_id: '01a220b1-53d9-7de0-9b7c-1b086aa2cba5', turn_id: 't1', session_id: '01a220b1-53d9-7de0-9b7c-1b086aa2cba5', root_turn_id: 't1' } };
  const r = run(jsonl(meta, record));
  assert.deepEqual(r.skips, []);
  assert.equal(ofKind(r.events, 'usage').length, 0);
});

test("an undo snapshot's untracked files reach the rules as session facts (no timeline entry); an empty one adds nothing", () => {
  const r = run(jsonl(META,
    ri({ type: 'ghost_snapshot', ghost_commit: { id: 'g1', parent: 'p1', preexisting_untracked_files: ['.codex/auth.json', 'notes.md'], preexisting_untracked_dirs: [] } }),
    ri({ type: 'ghost_snapshot', ghost_commit: { id: 'g2', parent: 'p2', preexisting_untracked_files: [], preexisting_untracked_dirs: [] } }),
    ri({ type: 'ghost_snapshot', ghost_commit: 'not an object' })));
  const listed = ofKind(r.events, 'session_meta').filter((e) => e.untrackedFiles);
  assert.deepEqual(listed.map((e) => e.untrackedFiles), [['.codex/auth.json', 'notes.md']]);
  assert.deepEqual(r.skips, []);
});
