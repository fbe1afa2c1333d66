import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseToml, removeTopLevelKey, setTopLevelKey } from './toml-edit.ts';
import { chainedNotify, hasVouchNotify, withoutVouchNotify, withVouchNotify } from './codex-notify.ts';
import { codexEventLabel, codexHookHash, codexHookKey, codexTrust } from './codex-trust.ts';

const CONFIG = `# my codex config
model = "gpt-5-codex"   # the default
approval_policy = "on-request"

[projects."/src/app"]
trust_level = "trusted"

[mcp_servers.github]
command = "npx"
args = ["-y", "@modelcontextprotocol/server-github"]
`;
const VOUCH = { program: 'vouch', args: [] };

test('a key is added before the first table and removed again to the exact bytes', () => {
  const next = setTopLevelKey(CONFIG, 'notify', '["a", "b"]');
  assert.ok(next.includes('approval_policy = "on-request"\n\nnotify = ["a", "b"]\n[projects."/src/app"]'));
  assert.deepEqual(parseToml(next, 'c').notify, ['a', 'b']);
  assert.equal(removeTopLevelKey(next, 'notify'), CONFIG);
});

test('an existing multi-line value with comments is replaced in place; keys inside tables are not top-level', () => {
  const text = 'notify = [\n  "python3", # the interpreter\n  "/home/me/notify.py",\n] # chained\n\n[tui]\nnotify = true\n';
  const next = setTopLevelKey(text, 'notify', '["x"]');
  assert.equal(next, 'notify = ["x"] # chained\n\n[tui]\nnotify = true\n');
  assert.equal(removeTopLevelKey('[tui]\nnotify = true\n', 'notify'), '[tui]\nnotify = true\n');
});

test('CRLF, BOM and a file without tables', () => {
  assert.equal(setTopLevelKey('\uFEFFmodel = "o3"\r\n', 'notify', '["x"]'), '\uFEFFmodel = "o3"\r\nnotify = ["x"]\r\n');
  assert.equal(setTopLevelKey('model = "o3"', 'notify', '["x"]'), 'model = "o3"\nnotify = ["x"]\n');
  assert.equal(setTopLevelKey(null, 'notify', '["x"]'), 'notify = ["x"]\n');
});

test('notify: an existing program is chained, not replaced, and given back on removal', () => {
  const text = 'notify = ["python3", "/home/me/notify.py"]\nmodel = "o3"\n';
  const ours = withVouchNotify(text, VOUCH, 'config.toml');
  const argv = parseToml(ours, 'c').notify as string[];
  assert.deepEqual(argv.slice(0, 4), ['vouch', 'hooks', 'run', 'codex']);
  assert.deepEqual(chainedNotify(argv), ['python3', '/home/me/notify.py']);
  assert.ok(hasVouchNotify(ours, 'c'));
  assert.equal(withVouchNotify(ours, VOUCH, 'c'), ours, 'idempotent: no chain to ourselves');
  assert.equal(withoutVouchNotify(ours, 'c'), text);
  assert.equal(withoutVouchNotify(withVouchNotify(CONFIG, VOUCH, 'c'), 'c'), CONFIG);
});

test("codex trust: the state key and hash Codex computes, and each state read from config.toml", () => {
  assert.equal(codexEventLabel('SessionEnd'), 'session_end');
  assert.equal(codexEventLabel('Stop'), 'stop');
  assert.equal(codexEventLabel('PreToolUse'), 'pre_tool_use');
  const key = codexHookKey('/home/me/.codex/hooks.json', 'SessionEnd', 1, 0);
  assert.equal(key, '/home/me/.codex/hooks.json:session_end:1:0');
  // The canonical identity: sorted keys, compact JSON, sha256 (computed independently here).
  const hash = codexHookHash('Stop', { command: 'vouch hooks run codex', timeout: 10 });
  const expected = 'sha256:' + require_sha('{"event_name":"stop","hooks":[{"async":false,"command":"vouch hooks run codex","timeout":10,"type":"command"}]}');
  assert.equal(hash, expected);
  assert.equal(codexHookHash('SessionEnd', { command: 'x', timeout: 10 }), codexHookHash('SessionEnd', { command: 'x', timeout: 3 }), 'SessionEnd timeouts clamp to 3 s');
  const toml = (h: string, extra = '') => `[hooks.state."${key}"]\ntrusted_hash = "${h}"\n${extra}`;
  assert.equal(codexTrust(null, key, hash).trust, 'untrusted');
  assert.equal(codexTrust(CONFIG, key, hash).trust, 'untrusted');
  assert.equal(codexTrust(toml(hash), key, hash).trust, 'trusted');
  assert.equal(codexTrust(toml('sha256:00'), key, hash).trust, 'modified');
  assert.equal(codexTrust(toml(hash, 'enabled = false\n'), key, hash).trust, 'disabled');
});

import { createHash } from 'node:crypto';
function require_sha(s: string): string {
  return createHash('sha256').update(s).digest('hex');
}
