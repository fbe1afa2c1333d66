// `[worktrees] linked = "disposable"` (worktree.ts): in a linked git worktree with a plain
// configuration, one plain git command that only discards that worktree's uncommitted work runs;
// anything that could reach further keeps the ordinary judgement. Judged by `judge` as
// `vouch guard claude-code` sees it, with the worktree facts its caller found on disk.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { judge } from './judge.ts';
import { parsePendingCall, type GuardDecision } from './payload.ts';
import { emptySession } from './session.ts';
import { mergePolicies } from './policy.ts';
import type { WorktreeFacts } from './worktree.ts';

const LINKED: WorktreeFacts = { linked: true, plainConfig: true };

async function decide(command: string, opts: { worktree?: WorktreeFacts | null; disposable?: boolean; env?: Record<string, string> } = {}): Promise<GuardDecision> {
  const pending = {
    ...parsePendingCall('claude-code', { session_id: 's', cwd: '/home/dev/wt/feature', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command } }),
    home: '/home/dev', worktree: opts.worktree === undefined ? LINKED : opts.worktree, env: opts.env ?? {},
  };
  return (await judge(pending, emptySession(), mergePolicies(opts.disposable === false ? {} : { linkedWorktrees: 'disposable' }))).decision;
}

const DISCARDS = [
  'git reset --hard', 'git reset --merge', 'git reset --hard -q', 'git clean -f', 'git clean -fd', 'git clean -d --force',
  'git checkout -- src/app.ts', 'git checkout HEAD -- src/app.ts', 'git checkout --force main', 'git checkout main src/app.ts',
  'git checkout --pathspec-from-file paths.txt', 'git restore src/app.ts', 'git restore --worktree src/app.ts',
  'git switch --discard-changes main', 'git switch -f main', 'git -c submodule.recurse=false clean -f',
];

describe('guard: linked worktrees the policy calls disposable', () => {
  it('discarding uncommitted work of this worktree runs', async () => {
    for (const c of DISCARDS) assert.equal(await decide(c), 'allow', c);
    for (const c of ['git reset --hard > /dev/null 2>&1', 'git clean -fd &>/dev/null']) assert.equal(await decide(c), 'allow', c);
    for (const v of ['false', 'no', 'off', '0']) assert.equal(await decide('git --config-env submodule.recurse=RECURSE reset --hard', { env: { RECURSE: v } }), 'allow', v);
  });

  it('the same commands are asked about in the main checkout, with a configuration that is not plain, or without the setting', async () => {
    for (const c of DISCARDS) {
      assert.equal(await decide(c, { worktree: { linked: false, plainConfig: false } }), 'ask', `main checkout: ${c}`);
      assert.equal(await decide(c, { worktree: { linked: true, plainConfig: false } }), 'ask', `configured: ${c}`);
      assert.equal(await decide(c, { worktree: null }), 'ask', `not looked at: ${c}`);
      assert.equal(await decide(c, { disposable: false }), 'ask', `protected: ${c}`);
    }
  });

  it('anything that could reach past this worktree keeps the ordinary judgement', async () => {
    const reaching = [
      // another directory, repository or configuration
      'cd ../main && git reset --hard', 'git -C ../main reset --hard', 'env -C .. git reset --hard', 'sudo -D .. git reset --hard', 'sudo git reset --hard',
      'git --git-dir=.git reset --hard', 'git --work-tree=. reset --hard', 'GIT_DIR=../main/.git git reset --hard', 'GIT_WORK_TREE=.. git clean -f',
      'git -c include.path=x reset --hard', 'git --config-env include.path=X reset --hard',
      // submodules
      'git reset --hard --recurse-submodules', 'git checkout --force --recurse-submodules main', 'git -c submodule.recurse=true reset --hard',
      // other commits and branches, ignored files, nested repositories
      'git reset --hard HEAD~1', 'git reset --merge origin/main', 'git checkout -f -B feature HEAD~1', 'git switch -f -C feature HEAD~1',
      'git switch --discard-changes --force-creat feature HEAD~1', 'git clean -ffdx', 'git clean -f --force', 'git clean -fdx', 'git clean -fX',
      // a remote host, arguments that arrive at run time, shared state
      'ssh host git clean -f', 'echo HEAD~1 | xargs git reset --hard', 'parallel git reset --hard ::: HEAD~1', 'parallel -S host git clean -f ::: .',
      'git push -f', 'git branch -D feature', 'git stash clear', 'git worktree remove --force ../other',
      // words the shell turns into options, and output written elsewhere
      'git switch -f {-C,feature,HEAD~1}', 'git checkout -f {-B,feature,HEAD~1}', 'git switch -f $X', 'git checkout --force "$X"', 'git restore $X', 'git checkout -- *.ts',
      'git reset --hard > ../main/src/app.ts', 'git clean -f 2>/home/dev/main/notes.md',
    ];
    for (const c of reaching) assert.notEqual(await decide(c), 'allow', c);
    assert.notEqual(await decide('git --config-env submodule.recurse=RECURSE reset --hard', { env: { RECURSE: 'true' } }), 'allow');
    assert.notEqual(await decide('git --config-env submodule.recurse=MISSING reset --hard'), 'allow');
  });
});
