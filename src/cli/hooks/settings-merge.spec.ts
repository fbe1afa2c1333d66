import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HOOK_AGENTS, hookCommand, isVouchHookCommand, shellQuote } from './agents.ts';
import { hasVouchHook, parseSettings, SettingsError, withoutVouchHook, withVouchHook } from './settings-merge.ts';

const CMD = hookCommand('/usr/bin/node', '/opt/vouch/bin/vouch.mjs', 'claude-code');
const handler = HOOK_AGENTS['claude-code'].handler(CMD);

const existing = {
  model: 'opus',
  permissions: { allow: ['Bash(npm test:*)'], deny: ['Read(./.env)'] },
  hooks: {
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '~/bin/guard.sh' }] }],
    SessionEnd: [{ hooks: [{ type: 'command', command: '~/bin/archive-transcript.sh' }] }],
  },
};

test('adding the hook keeps every other setting and hook, and adds ours once', () => {
  const next = withVouchHook(existing, 'SessionEnd', 'claude-code', handler, 'settings.json');
  assert.deepEqual(next.permissions, existing.permissions);
  assert.equal(next.model, 'opus');
  const hooks = next.hooks as typeof existing.hooks;
  assert.deepEqual(hooks.PreToolUse, existing.hooks.PreToolUse);
  assert.equal(hooks.SessionEnd.length, 2);
  assert.deepEqual(hooks.SessionEnd[0], existing.hooks.SessionEnd[0]);
  assert.ok(hasVouchHook(next, 'SessionEnd', 'claude-code', 'f'));
  const again = withVouchHook(next, 'SessionEnd', 'claude-code', handler, 'settings.json');
  assert.deepEqual(again, next, 'a second install changes nothing');
});

test('an install from another path replaces the old command instead of adding a second hook', () => {
  const first = withVouchHook(existing, 'SessionEnd', 'claude-code', handler, 'f');
  const moved = HOOK_AGENTS['claude-code'].handler(hookCommand('/usr/local/bin/node', '/home/me/vouch/bin/vouch.mjs', 'claude-code'));
  const next = withVouchHook(first, 'SessionEnd', 'claude-code', moved, 'f');
  const commands = (next.hooks as typeof existing.hooks).SessionEnd.flatMap((g) => g.hooks.map((h) => h.command));
  assert.deepEqual(commands, ['~/bin/archive-transcript.sh', moved.command]);
});

test('removing the hook restores the settings exactly as they were', () => {
  const installed = withVouchHook(existing, 'SessionEnd', 'claude-code', handler, 'f');
  assert.deepEqual(withoutVouchHook(installed, 'SessionEnd', 'claude-code', 'f'), existing);
  const fromEmpty = withVouchHook({}, 'SessionEnd', 'claude-code', handler, 'f');
  assert.deepEqual(withoutVouchHook(fromEmpty, 'SessionEnd', 'claude-code', 'f'), {});
});

test("removing one agent's hook leaves another agent's Vouch hook alone", () => {
  const both = withVouchHook(withVouchHook({}, 'SessionEnd', 'claude-code', handler, 'f'), 'SessionEnd', 'gemini-cli', HOOK_AGENTS['gemini-cli'].handler(hookCommand('node', 'vouch.mjs', 'gemini-cli')), 'f');
  const left = withoutVouchHook(both, 'SessionEnd', 'claude-code', 'f');
  assert.ok(hasVouchHook(left, 'SessionEnd', 'gemini-cli', 'f'));
  assert.ok(!hasVouchHook(left, 'SessionEnd', 'claude-code', 'f'));
});

test('malformed, commented and wrongly shaped files are refused with a reason', () => {
  assert.throws(() => parseSettings('{"hooks": {', 'a.json'), (e) => e instanceof SettingsError && /a\.json is not valid JSON/.test(e.message) && /nothing was changed/.test(e.message));
  assert.throws(() => parseSettings('{\n  // my theme\n  "theme": "dark"\n}', 'b.json'), /contain comments/);
  assert.throws(() => parseSettings('[1,2]', 'c.json'), /JSON object at the top level/);
  assert.throws(() => withVouchHook({ hooks: [] }, 'SessionEnd', 'claude-code', handler, 'd.json'), /"hooks" must be an object/);
  assert.throws(() => withVouchHook({ hooks: { SessionEnd: 'x' } }, 'SessionEnd', 'claude-code', handler, 'e.json'), /must be a list of hook groups/);
  assert.deepEqual(parseSettings(null, 'missing.json'), {});
  assert.deepEqual(parseSettings('  \n', 'empty.json'), {});
});

test('our command is recognised by its tail, other commands are not', () => {
  assert.ok(isVouchHookCommand(CMD, 'claude-code'));
  assert.ok(!isVouchHookCommand(CMD, 'codex'));
  assert.ok(!isVouchHookCommand('~/bin/archive-transcript.sh', 'claude-code'));
  assert.ok(!isVouchHookCommand('echo hooks run claude-code', 'claude-code'), 'must name vouch');
  assert.equal(shellQuote("/home/o'neil/vouch"), `'/home/o'\\''neil/vouch'`);
  assert.equal(shellQuote('/usr/bin/node'), '/usr/bin/node');
});
