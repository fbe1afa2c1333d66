// Deletes judged without a working directory or a home in the log (Gemini CLI records neither
// unless a relative edit reveals the cwd; a hook may send none): `.` and `*` are still the whole
// working directory, `~` and `$HOME` still the home, /home/<user> and /Users/<user> still homes,
// and a folder one or two levels below home is a warning; what cannot be placed (a relative path
// in an unknown directory, a deep path that may be the project's own) is not reported.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cmd, runRules, severityOf } from './harness.testing.ts';

async function judged(command: string): Promise<string> {
  const d = (await runRules([cmd(command)], { cwd: null })).find((x) => x.rule.startsWith('destructive/rm-'));
  return d ? `${d.rule}:${severityOf(d)}` : 'none';
}

describe('recursive deletes with no cwd and no home in the log', () => {
  it('the home directory by its words, and homes by their place', async () => {
    for (const c of ['rm -rf ~', 'rm -rf ~/', 'rm -rf $HOME', 'rm -rf "${HOME}"', 'find ~ -delete', 'rm -rf ~someone', 'rm -rf /Users/ana', 'rm -rf /home/dev/']) {
      assert.equal(await judged(c), 'destructive/rm-outside-worktree:critical', c);
    }
  });

  it('a folder one or two levels below home is a warning; caches there and deeper paths are not reported', async () => {
    for (const c of ['rm -rf ~/projects', 'rm -rf ~/Documents/taxes', 'rm -rf /Users/ana/work', 'rm -rf ~someone/escape']) {
      assert.equal(await judged(c), 'destructive/rm-outside-worktree:warning', c);
    }
    for (const c of ['rm -rf ~/.cache', 'rm -rf ~/.npm/_cacache', 'rm -rf ~/node_modules', 'rm -rf ~/dev/app/src/old', 'rm -rf /Users/ana/dev/app/build']) {
      assert.equal(await judged(c), 'none', c);
    }
  });

  it('`.` and `*` are the whole working directory, whichever it is; a relative name is not placed', async () => {
    for (const c of ['rm -rf .', 'rm -rf ./*', 'find . -delete', 'find . -exec rm -rf {} \\;']) {
      assert.equal(await judged(c), 'destructive/rm-worktree-root:warning', c);
    }
    for (const c of ['rm -rf build', 'rm -rf 7 > /dev/null', 'find . -name "*.pyc" -delete', 'cd sub && rm -rf .']) {
      assert.equal(await judged(c), 'none', c);
    }
  });

  it('with the cwd known, nothing changes: the tree is the tree', async () => {
    const inTree = await runRules([cmd('rm -rf ~/project/build')], { cwd: '/home/dev/project' });
    assert.ok(!inTree.some((d) => d.rule.startsWith('destructive/rm-') && severityOf(d) !== 'info'));
    const other = await runRules([cmd('rm -rf ~/other-project')], { cwd: '/home/dev/project' });
    assert.equal(other.find((d) => d.rule === 'destructive/rm-outside-worktree') && severityOf(other.find((d) => d.rule === 'destructive/rm-outside-worktree')!), 'critical');
  });
});
