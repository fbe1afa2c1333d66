import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HOOK_AGENTS, isVouchHandler, powershellQuote, shellQuote, type HookEnv, type Launch } from './agents.ts';
import { hasVouchHook, parseSettings, SettingsError, withoutVouchHook, withVouchHook } from './settings-merge.ts';

const ENV: HookEnv = { home: '/home/me', projectDir: '/src/app', platform: 'linux' };
const VOUCH: Launch = { program: 'vouch', args: [] };
const handler = HOOK_AGENTS['claude-code'].kinds.upload.handler(VOUCH, 'claude-code', 'SessionEnd', ENV);
const ours = (h: Record<string, unknown>) => isVouchHandler(h, 'claude-code');
const add = (text: string | null) => withVouchHook(text, 'SessionEnd', handler, ours, 'settings.json');
const remove = (text: string | null, before?: string | null) => withoutVouchHook(text, 'SessionEnd', ours, 'settings.json', before);

/** Install then remove: the exact bytes come back, and the installed text still parses with our hook in it. */
function roundTrip(original: string): string {
  const installed = add(original);
  assert.notEqual(installed, original);
  assert.ok(hasVouchHook(parseSettings(installed, 'f'), 'SessionEnd', ours, 'f'), `hook present in:\n${installed}`);
  assert.equal(add(installed), installed, 'a second install changes nothing');
  assert.equal(remove(installed, original), original, 'removal gives back the original bytes');
  return installed;
}

test('a 4-space file: our entry is indented with 4 spaces, the rest untouched, removal exact', () => {
  const original = '{\n    "model": "opus",\n    "permissions": {\n        "allow": ["Bash(npm test:*)"]\n    }\n}\n';
  const installed = roundTrip(original);
  assert.ok(installed.startsWith('{\n    "model": "opus",\n    "permissions": {\n        "allow": ["Bash(npm test:*)"]\n    },\n    "hooks": {\n        "SessionEnd": [\n            {\n'), installed);
});

test('CRLF line endings stay CRLF, including in the inserted lines', () => {
  const original = '{\r\n  "theme": "dark",\r\n  "hooks": {\r\n    "PreToolUse": []\r\n  }\r\n}\r\n';
  const installed = roundTrip(original);
  assert.equal(installed.replace(/\r\n/g, '').includes('\n'), false, 'no bare LF');
  assert.match(installed, /"PreToolUse": \[\],\r\n {4}"SessionEnd": \[\r\n/);
});

test('a UTF-8 BOM is kept (and no longer refused)', () => {
  const original = '\uFEFF{\n  "ui": { "theme": "GitHub" }\n}\n';
  const installed = roundTrip(original);
  assert.ok(installed.startsWith('\uFEFF{\n  "ui": { "theme": "GitHub" },\n  "hooks"'));
});

test('big numbers, 1.0 and an empty "hooks": {} survive byte for byte', () => {
  const original = '{\n  "budget": 12345678901234567890,\n  "ratio": 1.0,\n  "hooks": {}\n}\n';
  const installed = roundTrip(original);
  assert.match(installed, /"budget": 12345678901234567890,\n {2}"ratio": 1\.0,\n {2}"hooks": \{\n {4}"SessionEnd": \[/);
  assert.equal(remove(installed, original), original, '"hooks": {} is the user\'s: it stays');
});

test('a one-line file stays on one line', () => {
  const original = '{"model":"opus","hooks":{"SessionEnd":[{"hooks":[{"type":"command","command":"~/bin/archive.sh"}]}]}}';
  const installed = roundTrip(original);
  assert.ok(!installed.includes('\n'));
  assert.ok(installed.startsWith('{"model":"opus","hooks":{"SessionEnd":[{"hooks":[{"type":"command","command":"~/bin/archive.sh"}]},{"hooks":[{"type":"command","command":"vouch hooks run claude-code"'));
});

test('comments (line, block, after the last entry) and trailing commas in JSONC are kept', () => {
  const original = '{\n  // my theme\n  "ui": { "theme": "GitHub" }, /* inline */\n  "general": {\n    "vimMode": true, // keep vim\n  },\n  "last": 1 // trailing note\n}\n';
  const installed = roundTrip(original);
  assert.match(installed, /"last": 1, \/\/ trailing note\n {2}"hooks": \{/);
  const withTrailingComma = '{\n  "a": 1,\n}\n';
  roundTrip(withTrailingComma);
});

test('a tab-indented file gets tabs', () => {
  const installed = roundTrip('{\n\t"a": 1\n}\n');
  assert.match(installed, /\n\t"hooks": \{\n\t\t"SessionEnd": \[\n\t\t\t\{/);
});

test('without knowing the original, removal takes our group and the containers it left empty', () => {
  const original = '{\n  "a": 1\n}\n';
  const installed = add(original);
  assert.equal(remove(installed), original);
});

test('removal after the user edited the file elsewhere keeps their edit and removes only our entry', () => {
  const original = '{\n  "hooks": {\n    "SessionEnd": [\n      { "hooks": [ { "type": "command", "command": "~/bin/a.sh" } ] }\n    ]\n  }\n}\n';
  const installed = add(original);
  const edited = installed.replace('~/bin/a.sh', '~/bin/b.sh');
  const removed = remove(edited, original)!;
  assert.equal(removed, original.replace('~/bin/a.sh', '~/bin/b.sh'));
});

test('an install from another launcher replaces our handler in place instead of adding a second', () => {
  const first = add('{}');
  const moved = HOOK_AGENTS['claude-code'].kinds.upload.handler({ program: '/usr/local/bin/node', args: ['/opt/vouch/bin/vouch.mjs'] }, 'claude-code', 'SessionEnd', ENV);
  const next = withVouchHook(first, 'SessionEnd', moved, ours, 'f');
  const groups = (parseSettings(next, 'f').hooks as { SessionEnd: Array<{ hooks: Array<{ command: string }> }> }).SessionEnd;
  assert.deepEqual(groups.flatMap((g) => g.hooks.map((h) => h.command)), ['/usr/local/bin/node /opt/vouch/bin/vouch.mjs hooks run claude-code']);
});

test("removing one agent's hook leaves another agent's Vouch hook alone", () => {
  const gemini = HOOK_AGENTS['gemini-cli'].kinds.upload.handler(VOUCH, 'gemini-cli', 'SessionEnd', ENV);
  const both = withVouchHook(add('{}'), 'SessionEnd', gemini, (h) => isVouchHandler(h, 'gemini-cli'), 'f');
  const left = parseSettings(remove(both), 'f');
  assert.ok(hasVouchHook(left, 'SessionEnd', (h) => isVouchHandler(h, 'gemini-cli'), 'f'));
  assert.ok(!hasVouchHook(left, 'SessionEnd', ours, 'f'));
});

test('malformed and wrongly shaped files are refused with a reason', () => {
  assert.throws(() => add('{"hooks": {'), (e) => e instanceof SettingsError && /settings\.json is not valid JSON/.test(e.message) && /nothing was changed/.test(e.message));
  assert.throws(() => add('[1,2]'), /JSON object at the top level/);
  assert.throws(() => add('{"hooks": []}'), /"hooks" must be an object/);
  assert.throws(() => add('{"hooks": {"SessionEnd": "x"}}'), /must be a list of hook groups/);
  assert.deepEqual(parseSettings(null, 'missing.json'), {});
  assert.deepEqual(parseSettings('  \n', 'empty.json'), {});
  assert.equal(add(null), '{\n  "hooks": {\n    "SessionEnd": [\n      {\n        "hooks": [\n          {\n            "type": "command",\n            "command": "vouch hooks run claude-code",\n            "timeout": 10\n          }\n        ]\n      }\n    ]\n  }\n}\n');
});

test('our handler is recognised by its tail and the word vouch, in shell and exec form', () => {
  assert.ok(isVouchHandler({ command: 'npx --no-install vouch hooks run claude-code' }, 'claude-code'));
  assert.ok(isVouchHandler({ command: 'vouch', args: ['hooks', 'run', 'claude-code'] }, 'claude-code'));
  assert.ok(!isVouchHandler({ command: 'vouch hooks run claude-code' }, 'codex'));
  assert.ok(!isVouchHandler({ command: '~/bin/archive-transcript.sh' }, 'claude-code'));
  assert.ok(!isVouchHandler({ command: 'echo hooks run claude-code' }, 'claude-code'), 'must name vouch');
});

test('commands: POSIX quoting; on Windows PowerShell quoting with the call operator (Gemini), cmd quoting (Codex), Claude exec form', () => {
  assert.equal(shellQuote("/home/o'neil/vouch"), `'/home/o'\\''neil/vouch'`);
  assert.equal(shellQuote('/usr/bin/node'), '/usr/bin/node');
  assert.equal(powershellQuote("C:\\Users\\o'neil\\vouch.mjs"), "'C:\\Users\\o''neil\\vouch.mjs'");
  const win: HookEnv = { ...ENV, platform: 'win32' };
  const abs: Launch = { program: 'C:\\Program Files\\nodejs\\node.exe', args: ['C:\\vouch\\bin\\vouch.mjs'] };
  assert.equal(HOOK_AGENTS['gemini-cli'].kinds.upload.handler(abs, 'gemini-cli', 'SessionEnd', win).command, "& 'C:\\Program Files\\nodejs\\node.exe' C:\\vouch\\bin\\vouch.mjs hooks run gemini-cli");
  assert.deepEqual(HOOK_AGENTS['claude-code'].kinds.upload.handler(abs, 'claude-code', 'SessionEnd', win), { type: 'command', command: abs.program, args: [abs.args[0], 'hooks', 'run', 'claude-code'], timeout: 10 });
  assert.equal(HOOK_AGENTS.codex.kinds.upload.handler({ program: 'npx', args: ['--no-install', 'vouch'] }, 'codex', 'SessionEnd', ENV).command, 'npx --no-install vouch hooks run codex');
  assert.equal(HOOK_AGENTS.codex.kinds.upload.handler(abs, 'codex', 'SessionEnd', win).command, '"C:\\Program Files\\nodejs\\node.exe" C:\\vouch\\bin\\vouch.mjs hooks run codex', 'Codex runs cmd.exe /C on Windows');
});

test('codex: SessionEnd (3 s) from 0.171, Stop before it or when the version is unknown-old', () => {
  const k = HOOK_AGENTS.codex.kinds.upload;
  assert.equal(k.event({ ...ENV, agentVersion: 'codex-cli 0.171.0' }), 'SessionEnd');
  assert.equal(k.event({ ...ENV, agentVersion: 'codex-cli 0.170.2' }), 'Stop');
  assert.equal(k.event({ ...ENV, agentVersion: null }), 'SessionEnd');
  assert.equal(k.handler(VOUCH, 'codex', 'SessionEnd', ENV).timeout, 3);
});
