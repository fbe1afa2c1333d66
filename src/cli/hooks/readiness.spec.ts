import { test } from 'node:test';
import assert from 'node:assert/strict';
import { claudeHooksDisabled, codexBlocker, geminiBlocker, geminiFolderTrusted } from './readiness.ts';

test('claude: disableAllHooks true in any settings file stops every hook; false or absent does not', () => {
  assert.equal(claudeHooksDisabled([{ file: 'a', settings: {} }, { file: 'b', settings: null }, { file: 'c', settings: { disableAllHooks: false } }]), null);
  const b = claudeHooksDisabled([{ file: '/home/me/.claude/settings.json', settings: { model: 'opus' } }, { file: '/src/app/.claude/settings.json', settings: { disableAllHooks: true } }]);
  assert.match(b!.why, /"disableAllHooks": true in \/src\/app\/\.claude\/settings\.json/);
});

test('gemini: the most specific trust rule wins; TRUST_PARENT trusts the parent; no rule is not trusted', () => {
  const rules = { '/src': 'TRUST_FOLDER', '/src/vendor': 'DO_NOT_TRUST', '/work/app/.marker': 'TRUST_PARENT' };
  assert.equal(geminiFolderTrusted('/src/app', rules), true);
  assert.equal(geminiFolderTrusted('/src/vendor/lib', rules), false);
  assert.equal(geminiFolderTrusted('/work/app', rules), true);
  assert.equal(geminiFolderTrusted('/srcx', rules), null, 'a prefix that is not a parent folder does not count');
  assert.equal(geminiFolderTrusted('/elsewhere', rules), null);
  assert.match(geminiBlocker('/elsewhere', true, rules, 'f')!.why, /not a trusted folder/);
  assert.match(geminiBlocker('/src/vendor', true, rules, 'f')!.why, /DO_NOT_TRUST/);
  assert.equal(geminiBlocker('/elsewhere', false, rules, 'f'), null, 'folder trust turned off: hooks run everywhere');
  assert.equal(geminiBlocker('/src/app', true, rules, 'f'), null);
});

test('codex: only a trusted hook runs; untrusted, changed and disabled each say why and what to do', () => {
  assert.equal(codexBlocker('trusted'), null);
  assert.match(codexBlocker('untrusted')!.why, /not trusted yet/);
  assert.match(codexBlocker('modified')!.why, /no longer trusted/);
  assert.match(codexBlocker('disabled')!.why, /turned off/);
  assert.match(codexBlocker('untrusted')!.todo, /Trust all and continue.*\/hooks.*--dangerously-bypass-hook-trust/);
});
