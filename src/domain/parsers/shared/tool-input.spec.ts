import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mcpToolInput } from './tool-input.ts';
import { jsonl, env, run, ofKind } from '../codex/drive.testing.ts';
import { drive } from '../gemini/drive.testing.ts';
import { gemini } from '../gemini.ts';
import { analyzeText } from '../../analyze.ts';
import { AGENTS, session } from '../../synthetic.testing.ts';

test("the reference filesystem MCP server's file tools are file operations; its other tools, other servers and bad arguments stay MCP calls", () => {
  assert.deepEqual(mcpToolInput('filesystem', 'write_file', { path: '/r/a.md', content: '# A' }), { type: 'file_write', path: '/r/a.md', content: '# A' });
  assert.deepEqual(mcpToolInput('server-filesystem', 'edit_file', { path: '/r/a.ts', edits: [{ oldText: 'a', newText: 'b' }] }), { type: 'file_edit', path: '/r/a.ts', edits: [{ oldText: 'a', newText: 'b' }] });
  assert.deepEqual(mcpToolInput('fs', 'read_text_file', { path: '/r/a.ts' }), { type: 'file_read', path: '/r/a.ts' });
  assert.deepEqual(mcpToolInput('filesystem', 'read_multiple_files', { paths: ['/r/a.ts', 7, '', '/r/b.ts'] }), { type: 'file_read', path: '/r/a.ts\n/r/b.ts' }, 'one path a line, non-strings dropped');
  // what is not a file operation of that server, or not well formed, stays what it was
  const stays = (server: string, tool: string, args: unknown) => assert.deepEqual(mcpToolInput(server, tool, args), { type: 'mcp', server, tool, args }, `${server} ${tool}`);
  stays('filesystem', 'move_file', { source: '/r/a', destination: '/r/b' });
  stays('filesystem', 'list_directory', { path: '/r' });
  stays('filesystem', 'read_multiple_files', { paths: [] });
  stays('filesystem', 'edit_file', { path: '/r/a.ts', edits: [{ oldText: 'a', newText: 'b' }], dryRun: true });
  stays('filesystem', 'edit_file', { path: '/r/a.ts', edits: [{ old: 'a' }] });
  stays('filesystem', 'write_file', { path: '/r/a.md' });
  stays('filesystem', 'write_file', ['/r/a.md', '# A']);
  stays('filesystem', 'write_file', null);
  stays('notes', 'write_file', { path: '/r/a.md', content: '# A' });
  stays('filesystems-backup', 'read_file', { path: '/r/a.md' });
});

test("Desktop Commander's file and shell tools are file operations and commands; its listings, searches, URL reads and bad arguments stay MCP calls (held-out set 70)", () => {
  assert.deepEqual(mcpToolInput('desktop-commander', 'write_file', { path: '/home/dev/.claude/settings.json', content: '{}' }), { type: 'file_write', path: '/home/dev/.claude/settings.json', content: '{}' });
  assert.deepEqual(mcpToolInput('desktop-commander', 'write_file', { path: '/r/log.md', content: 'more\n', mode: 'append' }), { type: 'file_edit', path: '/r/log.md', edits: [{ oldText: '', newText: 'more\n' }] });
  assert.deepEqual(mcpToolInput('desktop-commander', 'edit_block', { file_path: '/r/a.ts', old_string: 'a', new_string: 'b' }), { type: 'file_edit', path: '/r/a.ts', edits: [{ oldText: 'a', newText: 'b' }] });
  assert.deepEqual(mcpToolInput('DesktopCommander', 'read_file', { path: '/r/a.ts', offset: 10, length: 20 }), { type: 'file_read', path: '/r/a.ts' });
  assert.deepEqual(mcpToolInput('desktop_commander', 'start_process', { command: 'npm test', timeout_ms: 5000 }), { type: 'command', command: 'npm test' });
  assert.deepEqual(mcpToolInput('desktop-commander', 'execute_command', { command: 'ls' }), { type: 'command', command: 'ls' });
  assert.deepEqual(mcpToolInput('desktop-commander', 'interact_with_process', { pid: 4242, input: 'rm -rf /home/dev/Documents' }), { type: 'command', command: 'rm -rf /home/dev/Documents' });
  const stays = (tool: string, args: unknown) => assert.deepEqual(mcpToolInput('desktop-commander', tool, args), { type: 'mcp', server: 'desktop-commander', tool, args }, tool);
  stays('list_directory', { path: '/r' });
  stays('start_search', { path: '/r', pattern: 'x' });
  stays('read_file', { path: 'https://example.com/a', isUrl: true });
  stays('start_process', { command: '' });
  stays('edit_block', { old_string: 'a', new_string: 'b' });
  stays('write_file', { path: '/r/a.md' });
});

const CREDENTIALS = '/home/dev/.aws/credentials';

test('Codex: the filesystem server called through `codex exec --json` and a rollout is a file operation every rule judges', async () => {
  const exec = jsonl(
    { type: 'thread.started', thread_id: '0199a213-81c0-7800-8aa1-bbab2a035a53' },
    { type: 'item.completed', item: { id: 'item_1', type: 'mcp_tool_call', server: 'filesystem', tool: 'read_text_file', arguments: { path: CREDENTIALS }, result: { content: [{ type: 'text', text: '[default]' }] }, error: null, status: 'completed' } },
  );
  assert.deepEqual(ofKind(run(exec).events, 'tool_call').map((c) => c.input), [{ type: 'file_read', path: CREDENTIALS }]);
  assert.ok((await analyzeText(exec)).findings.some((f) => f.rule === 'secrets/sensitive-file-read'), 'exec --json: the read of a credential file is judged');
  const rollout = jsonl(
    env('session_meta', { id: '0199a213-81c0-7800-8aa1-bbab2a035a54', cwd: '/home/dev/shop', originator: 'codex_cli_rs', cli_version: '0.50.0' }),
    env('event_msg', { type: 'user_message', message: 'document the api' }),
    env('event_msg', { type: 'mcp_tool_call_end', call_id: 'm1', invocation: { server: 'filesystem', tool: 'write_file', arguments: { path: '/home/dev/shop/docs/api.md', content: '# API' } }, duration: { secs: 0, nanos: 1_000_000 }, result: { Ok: { content: [{ type: 'text', text: 'Successfully wrote' }] } } }),
  );
  assert.deepEqual(ofKind(run(rollout).events, 'tool_call').map((c) => c.input), [{ type: 'file_write', path: '/home/dev/shop/docs/api.md', content: '# API' }]);
  assert.equal((await analyzeText(rollout)).stats.files_written, 1, 'rollout: the write is a file written');
});

test('Gemini CLI: the filesystem server under its marked names is a file operation; an unmarked name stays a built-in or other', async () => {
  const META = { sessionId: 's-1', projectHash: 'ab'.repeat(32), startTime: '2026-05-01T10:00:00.000Z', lastUpdated: '2026-05-01T10:00:00.000Z', kind: 'main' };
  const call = (id: string, name: string, args: unknown) => ({ id, name, args, status: 'success', result: [] });
  const log = JSON.stringify(META) + '\n' + JSON.stringify({ id: 'g1', timestamp: '2026-05-01T10:00:02.000Z', type: 'gemini', content: '', model: 'gemini-2.5-pro', toolCalls: [
    call('a', 'mcp_filesystem_read_text_file', { path: CREDENTIALS }),
    call('b', 'filesystem__write_file', { path: '/repo/a.md', content: 'x' }),
    call('c', 'mcp__filesystem__move_file', { source: '/repo/a.md', destination: '/repo/b.md' }),
  ] }) + '\n';
  assert.deepEqual(ofKind(drive(gemini, log).events, 'tool_call').map((c) => c.input), [
    { type: 'file_read', path: CREDENTIALS },
    { type: 'file_write', path: '/repo/a.md', content: 'x' },
    { type: 'mcp', server: 'filesystem', tool: 'move_file', args: { source: '/repo/a.md', destination: '/repo/b.md' } },
  ]);
  assert.ok((await analyzeText(log)).findings.some((f) => f.rule === 'secrets/sensitive-file-read'), 'the read of a credential file is judged');
});

for (const agent of AGENTS) {
  test(`${agent}: Desktop Commander's write of the user's agent settings is judged as the agent's own write; its shell tool's commands as commands (held-out set 70)`, async () => {
    const hooks = JSON.stringify({ hooks: { PreToolUse: [{ matcher: '', hooks: [{ type: 'command', command: 'curl -s localhost:5111/hook' }] }] } }, null, 2);
    const r = await analyzeText(session(agent, [
      { prompt: 'why does the voice server not get my messages?' },
      { mcp: 'desktop-commander', tool: 'write_file', args: { path: '/home/dev/.claude/settings.json', content: hooks }, output: 'Successfully wrote to /home/dev/.claude/settings.json' },
      { mcp: 'desktop-commander', tool: 'start_process', args: { command: 'rm -rf /home/dev/Documents/notes', timeout_ms: 5000 }, output: 'Process started with PID 4242' },
    ]));
    assert.ok(r.findings.some((f) => f.rule === 'permissions/agent-settings-write' && f.severity === 'warning'), JSON.stringify(r.findings.map((f) => [f.rule, f.severity])));
    assert.ok(r.findings.some((f) => f.rule === 'destructive/rm-outside-worktree' && f.severity !== 'info'), 'the shell tool ran the delete');
  });
}
