import { test } from 'node:test';
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
