// The guard policy: parsing, precise errors for invalid files, the merge of the user's and the
// project's files, and what each finding becomes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { actionFor, commandAllowed, mergePolicies, parsePolicy, pathAllowed, PolicyError } from './policy.ts';

test('defaults: critical findings a single call decides are denied, listed warnings asked, the rest allowed', () => {
  const p = mergePolicies();
  assert.equal(actionFor(p, 'destructive/rm-outside-worktree', 'critical'), 'deny');
  assert.equal(actionFor(p, 'destructive/rm-outside-worktree', 'warning'), 'ask');
  assert.equal(actionFor(p, 'destructive/git-discard', 'warning'), 'ask');
  assert.equal(actionFor(p, 'permissions/broad-approval-rule', 'warning'), 'deny');
  assert.equal(actionFor(p, 'supply-chain/publish', 'critical'), 'ask');
  assert.equal(actionFor(p, 'permissions/sudo', 'warning'), 'allow');
  assert.equal(actionFor(p, 'destructive/rm-outside-worktree', 'info'), 'allow');
});

test('the project file wins key by key over the user file; allow-lists add up; mode comes from the last that sets it', () => {
  const user = parsePolicy('mode = "dry-run"\n[rules]\n"destructive/git-discard" = "deny"\n"permissions/sudo" = "ask"\n[allow]\ncommands = ["make clean"]\n', '~/.vouch/guard.toml');
  const project = parsePolicy('mode = "enforce"\n[rules]\n"destructive/git-discard" = "allow"\n[categories]\nsupply-chain = "off"\n[allow]\ncommands = ["rm -rf ./dist"]\npaths = ["/srv/scratch"]\n', '.vouch/guard.toml');
  const p = mergePolicies(user, project);
  assert.equal(p.mode, 'enforce');
  assert.equal(actionFor(p, 'destructive/git-discard', 'warning'), 'allow');
  assert.equal(actionFor(p, 'permissions/sudo', 'warning'), 'ask');
  assert.equal(actionFor(p, 'supply-chain/publish', 'critical'), 'off');
  assert.deepEqual(p.allowCommands, ['make clean', 'rm -rf ./dist']);
  assert.deepEqual(p.sources, ['~/.vouch/guard.toml', '.vouch/guard.toml']);
});

test('invalid policies are refused with the file and the problem named', () => {
  const cases: [string, RegExp][] = [
    ['mode = ', /not valid TOML/],
    ['mode = "strict"', /mode must be/],
    ['[rules]\n"destructive/git-discard" = "block"', /must be one of deny, ask, allow, off/],
    ['[rules]\n"git-discard" = "deny"', /not a rule id/],
    ['colour = "red"', /unknown setting "colour"/],
    ['[allow]\ncommands = "rm -rf ./dist"', /allow.commands must be a list/],
    ['[allow]\nhosts = ["x"]', /unknown setting "allow.hosts"/],
  ];
  for (const [text, message] of cases) {
    assert.throws(() => parsePolicy(text, '/p/.vouch/guard.toml'), (e: unknown) => e instanceof PolicyError && message.test(e.message) && e.message.startsWith('/p/.vouch/guard.toml'), text);
  }
});

test('allow-lists: whole commands (blanks collapsed) or a prefix with a trailing *, and paths under a listed directory', () => {
  const p = mergePolicies(parsePolicy('[allow]\ncommands = ["rm -rf ./dist", "make clean*"]\npaths = ["/srv/scratch", "~/tmp-builds"]\n', 't'));
  assert.ok(commandAllowed(p, 'rm  -rf   ./dist'));
  assert.ok(!commandAllowed(p, 'rm -rf ./dist ~'));
  assert.ok(commandAllowed(p, 'make clean-all'));
  assert.ok(pathAllowed(p, '/srv/scratch/a/b', '/home/dev'));
  assert.ok(!pathAllowed(p, '/srv/scratch-other', '/home/dev'));
  assert.ok(pathAllowed(p, '/home/dev/tmp-builds/x', '/home/dev'));
});

test('[strict] and [worktrees]: off and protected by default; a later file turns a flag on or off one by one; bad values are refused', () => {
  assert.deepEqual(mergePolicies().strict, { deletes: false, interpreters: false });
  assert.equal(mergePolicies().linkedWorktrees, 'protected');
  const user = parsePolicy('[strict]\ndeletes = true\n[worktrees]\nlinked = "disposable"\n', '~/.vouch/guard.toml');
  const project = parsePolicy('[strict]\ninterpreters = true\n', '.vouch/guard.toml');
  const p = mergePolicies(user, project);
  assert.deepEqual(p.strict, { deletes: true, interpreters: true });
  assert.equal(p.linkedWorktrees, 'disposable');
  assert.equal(mergePolicies(user, parsePolicy('[worktrees]\nlinked = "protected"\n[strict]\ndeletes = false\n', 'p')).linkedWorktrees, 'protected');
  assert.deepEqual(mergePolicies(user, parsePolicy('[strict]\ndeletes = false\n', 'p')).strict, { deletes: false, interpreters: false });
  // a project's file (which the agent can write) only tightens: flags on, never off; never disposable
  const userOn = { ...parsePolicy('[strict]\ndeletes = true\n', '~/.vouch/guard.toml'), origin: 'user' as const };
  const projectOff = { ...parsePolicy('[strict]\ndeletes = false\ninterpreters = true\n[worktrees]\nlinked = "disposable"\n', '.vouch/guard.toml'), origin: 'project' as const };
  const tightened = mergePolicies(userOn, projectOff);
  assert.deepEqual(tightened.strict, { deletes: true, interpreters: true });
  assert.equal(tightened.linkedWorktrees, 'protected');
  const userDisposable = { ...parsePolicy('[worktrees]\nlinked = "disposable"\n', '~/.vouch/guard.toml'), origin: 'user' as const };
  assert.equal(mergePolicies(userDisposable, { ...parsePolicy('[worktrees]\nlinked = "protected"\n', 'p'), origin: 'project' as const }).linkedWorktrees, 'protected', 'a project may protect');
  for (const [text, message] of [
    ['[strict]\ndeletes = "yes"\n', /strict\.deletes must be true or false/],
    ['[strict]\neverything = true\n', /unknown setting "strict\.everything"/],
    ['strict = true\n', /\[strict\] must be a table/],
    ['[worktrees]\nlinked = "yes"\n', /worktrees\.linked must be "protected" or "disposable"/],
    ['[worktrees]\nmain = "disposable"\n', /unknown setting "worktrees\.main"/],
  ] as const) {
    assert.throws(() => parsePolicy(text, '/p/.vouch/guard.toml'), (e: unknown) => e instanceof PolicyError && message.test(e.message), text);
  }
});
