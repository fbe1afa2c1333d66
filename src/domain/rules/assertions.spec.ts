// Weakened assertions end to end: the same weakening written the way each agent writes edits
// (Claude Edit and MultiEdit, Codex apply_patch, Gemini replace and write_file), appended to the
// conformance fixture of that format and analysed from bytes, as a user's upload would be.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { analyzeStream } from '../analyze.ts';
import { weakenedAssertions } from './assertions.ts';

const WEAK = 'integrity/tests-weakened';
const fixture = (name: string) => readFileSync(fileURLToPath(new URL(`../../../../shared/conformance/fixtures/${name}`, import.meta.url)), 'utf8');

async function weakenings(log: string): Promise<{ severity: string; detail: string }[]> {
  const report = await analyzeStream([Buffer.from(log)]);
  return report.findings.filter((f) => f.rule === WEAK).map((f) => ({ severity: f.severity, detail: f.detail }));
}

const claudeLine = (id: string, input: object, name: string) => JSON.stringify({
  isSidechain: false, userType: 'external', cwd: '/home/dev/acme-api', sessionId: '3f1c2a9e-6b7d-4e21-9a0c-5d8e7f6a1b2c', version: '2.0.14', parentUuid: 'a4', type: 'assistant',
  message: { id: `msg_${id}`, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5-20250929', content: [{ type: 'tool_use', id: `toolu_${id}`, name, input }], stop_reason: null, stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } },
  uuid: `w-${id}`, timestamp: '2025-10-02T09:05:00.000Z',
});

test('Claude Edit and MultiEdit: toBe → toBeDefined is reported from the transcript', async () => {
  const edit = claudeLine('w1', { file_path: '/home/dev/acme-api/src/date.test.ts', old_string: "  expect(formatDate(d)).toBe('2025-01-05');", new_string: '  expect(formatDate(d)).toBeDefined();' }, 'Edit');
  const hits = await weakenings(`${fixture('claude-code.jsonl').trimEnd()}\n${edit}\n`);
  assert.equal(hits.length, 1);
  assert.match(hits[0].detail, /weakened in .*date\.test\.ts/);
  const multi = claudeLine('w2', { file_path: '/home/dev/acme-api/tests/test_date.py', edits: [{ old_string: 'def test_pad():', new_string: 'def test_pad_month():' }, { old_string: '    self.assertEqual(fmt(d), "2025-01-05")', new_string: '    self.assertIsNotNone(fmt(d))' }] }, 'MultiEdit');
  assert.equal((await weakenings(`${fixture('claude-code.jsonl').trimEnd()}\n${multi}\n`)).length, 1);
});

test('Codex apply_patch: assert x == y → assert x is reported from the rollout', async () => {
  const patch = '*** Begin Patch\n*** Update File: tests/test_auth.py\n@@\n def test_login_rate_limit():\n-    assert resp.status_code == 429\n+    assert resp.status_code\n*** End Patch\n';
  const line = JSON.stringify({ timestamp: '2025-11-03T14:05:00.000Z', type: 'response_item', payload: { type: 'custom_tool_call', status: 'completed', call_id: 'call_w1', name: 'apply_patch', input: patch } });
  const hits = await weakenings(`${fixture('codex.jsonl').trimEnd()}\n${line}\n`);
  assert.equal(hits.length, 1);
  assert.match(hits[0].detail, /assert resp\.status_code == 429/);
});

test('Gemini replace, and write_file over a test file it read, are reported from the session', async () => {
  const call = (id: string, name: string, args: object, output: string) => JSON.stringify({
    id: `m-w-${id}`, timestamp: '2026-05-12T08:31:00.000Z', type: 'gemini', content: '', thoughts: [], model: 'gemini-2.5-pro',
    toolCalls: [{ id, name, args, result: [{ functionResponse: { id, name, response: { output } } }], status: 'success', timestamp: '2026-05-12T08:31:00.000Z' }],
  });
  const base = fixture('gemini-cli.jsonl').trimEnd().split('\n').filter((l) => !l.startsWith('{"$set"')).join('\n');
  const replace = call('replace_w', 'replace', { file_path: '/home/dev/docs-site/src/nav.test.ts', old_string: 'expect(links).toHaveLength(4);', new_string: 'expect(links).toBeTruthy();' }, 'Successfully modified file');
  assert.equal((await weakenings(`${base}\n${replace}\n`)).length, 1);
  const before = "import { nav } from './nav';\ntest('nav', () => {\n  expect(nav().length).toBe(4);\n});\n";
  const read = call('read_w', 'read_file', { file_path: '/home/dev/docs-site/src/nav.test.ts' }, before);
  const write = call('write_w', 'write_file', { file_path: '/home/dev/docs-site/src/nav.test.ts', content: before.replace('toBe(4)', 'toBeDefined()') }, 'Successfully overwrote file');
  assert.equal((await weakenings(`${base}\n${read}\n${write}\n`)).length, 1);
});

test('weakenedAssertions: strong lost for weak, dropped, or nothing', () => {
  assert.equal(weakenedAssertions('expect(a).toEqual(b);', 'expect(a).toBeDefined();')?.after, 'expect(a).toBeDefined();');
  assert.equal(weakenedAssertions('expect(a).toEqual(b);', 'expect(a);')?.after, null);
  assert.equal(weakenedAssertions('expect(a).toEqual(b);', 'expect(a).toStrictEqual(b);'), null);
  assert.equal(weakenedAssertions('', 'expect(a).toBeDefined();'), null);
});
