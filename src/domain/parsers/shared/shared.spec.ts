import { test } from 'node:test';
import { looksLikeAction, reportUnknownRecord } from './unknown-records.ts';
import assert from 'node:assert/strict';
import { markedMcpInput, replacement, searchOf, splitMcpName, subagentOf, webFetchOf } from './tool-input.ts';
import { arr, int, isObj, num, obj, safeJson, str, text, tryJson } from './values.ts';

test('readers answer undefined (or an empty list) for a value of the wrong type, never throw', () => {
  assert.deepEqual([isObj({}), isObj([]), isObj(null), obj([]), obj({ a: 1 })], [true, false, false, undefined, { a: 1 }]);
  assert.deepEqual([str(''), str(1), text(''), text('x')], ['', undefined, undefined, 'x']);
  assert.deepEqual([num(1.5), num(Number.NaN), num('1'), int(2), int(2.5)], [1.5, undefined, undefined, 2, undefined]);
  assert.deepEqual([arr([1]), arr('x')], [[1], []]);
  assert.deepEqual([tryJson(' {"a":1}'), tryJson('{bad'), tryJson('"x"')], [{ a: 1 }, undefined, undefined]);
  const cyclic: { self?: unknown } = {};
  cyclic.self = cyclic;
  assert.deepEqual([safeJson({ a: 1 }), safeJson(cyclic), safeJson(undefined)], ['{"a":1}', '', '']);
});

test('ToolInput builders leave absent optional fields out', () => {
  assert.deepEqual(searchOf('x', undefined), { type: 'search', pattern: 'x' });
  assert.ok(!('path' in searchOf('x', undefined)));
  assert.deepEqual(searchOf('', 'src'), { type: 'search', pattern: '', path: 'src' });
  assert.ok(!('prompt' in webFetchOf('https://a.example', undefined)));
  assert.deepEqual(webFetchOf('https://a.example', 'p'), { type: 'web_fetch', url: 'https://a.example', prompt: 'p' });
  assert.ok(!('agentType' in subagentOf('d', 'p', undefined)));
  assert.deepEqual(subagentOf('d', 'p', 'explore'), { type: 'subagent', description: 'd', prompt: 'p', agentType: 'explore' });
  assert.deepEqual(replacement({ old_string: 'a', new_string: 3 }), { oldText: 'a', newText: '' });
});

test('MCP names: split at the first __; the marked form needs both a server and a tool', () => {
  assert.deepEqual(splitMcpName('my_srv-1__do__it'), { server: 'my_srv-1', tool: 'do__it' });
  assert.deepEqual(splitMcpName('srv'), { server: 'srv', tool: '' });
  assert.deepEqual(splitMcpName('__x'), { server: '__x', tool: '' });
  assert.deepEqual(markedMcpInput('mcp__gh__list', 1), { type: 'mcp', server: 'gh', tool: 'list', args: 1 });
  assert.deepEqual(markedMcpInput('gh__list', 1), { type: 'mcp', server: 'gh', tool: 'list', args: 1 });
  assert.equal(markedMcpInput('gh__', 1), null);
  assert.equal(markedMcpInput('read_file', 1), null);
});

test('unknown records: metadata unless something in them looks like an action (the one rule of every parser)', () => {
  // Codex 0.171's per-response usage, a new title record, a heartbeat: ids, counters, names.
  assert.equal(looksLikeAction({ type: 'token_usage_record', payload: { response_id: 'r1', thread_id: 't', usage: { input_tokens: 10, output_tokens: 2 } } }), false);
  assert.equal(looksLikeAction({ type: 'ai-title', aiTitle: 'Fix the build', sessionId: 's' }), false);
  assert.equal(looksLikeAction({}), false);
  // A tool call, a command, a message, a patch or an output, at any depth.
  assert.equal(looksLikeAction({ type: 'martian_call', call_id: 'c', arguments: '{}' }), true);
  assert.equal(looksLikeAction({ type: 'x', payload: { item: { command: 'rm -rf /' } } }), true);
  assert.equal(looksLikeAction({ type: 'x', data: [{ message: { content: 'hi' } }] }), true);
  assert.equal(looksLikeAction({ type: 'x', payload: { changes: { 'a.ts': {} } } }), true);
  assert.equal(looksLikeAction({ type: 'x', payload: { aggregated_output: 'done' } }), true);
});

test('unknown records: a record too wide or deep to inspect is not waved through as metadata', () => {
  const wide = Object.fromEntries(Array.from({ length: 600 }, (_, i) => [`k${i}`, i]));
  assert.equal(looksLikeAction(wide), true);
  let deep: unknown = { command: 'rm -rf /' };
  for (let i = 0; i < 10; i++) deep = { inner: deep };
  // Beyond the inspected depth nothing is found: the keys seen so far are plain metadata.
  assert.equal(looksLikeAction(deep), false);
});

test('reportUnknownRecord: metadata goes to unknownMetadata (info), actions to skip (warning)', () => {
  const seen: string[] = [];
  const sink = { emit: () => {}, skip: (line: number, reason: string) => seen.push(`skip ${line} ${reason}`), unknownMetadata: (line: number, type: string) => seen.push(`meta ${line} ${type}`) };
  reportUnknownRecord(sink, 3, 'codex', 'token_usage_record', { type: 'token_usage_record', payload: { usage: { total_tokens: 3 } } });
  reportUnknownRecord(sink, 4, 'codex', 'martian_call', { type: 'martian_call', command: 'ls' });
  reportUnknownRecord(sink, 5, 'codex', undefined, { input: 'x' });
  assert.deepEqual(seen, ['meta 3 token_usage_record', 'skip 4 unknown codex record type "martian_call"', 'skip 5 unrecognised codex record']);
});
