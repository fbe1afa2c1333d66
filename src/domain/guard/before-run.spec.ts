// What the guard asks about before a call runs when no rule has a finding on it (before-run.ts):
// a shell script xargs/parallel reads from input, a recursive delete the hook gave no directory
// for, and the policy's [strict] settings. Each judged by `judge` as `vouch guard claude-code`
// sees it; the analyser never reports these (they are questions, not events).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { judge } from './judge.ts';
import { parsePendingCall, type GuardDecision } from './payload.ts';
import { emptySession } from './session.ts';
import { mergePolicies, type PolicyLayer } from './policy.ts';
import { cmd, runRules, severityOf } from '../rules/harness.testing.ts';

async function judged(command: string, cwd: string | null = '/home/dev/project', layer: PolicyLayer = {}): Promise<{ decision: GuardDecision; reason: string }> {
  const pending = { ...parsePendingCall('claude-code', { session_id: 's', cwd, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command } }), home: '/home/dev' };
  const j = await judge(pending, emptySession(), mergePolicies(layer));
  return { decision: j.decision, reason: j.reason };
}

async function analyserQuiet(command: string, cwd: string | null): Promise<boolean> {
  const drafts = await runRules([cmd(command)], { cwd });
  return !drafts.some((d) => d.rule.startsWith('destructive/') && severityOf(d) !== 'info');
}

describe('guard: asked before it runs', () => {
  it('a shell script taken from xargs or parallel input is asked about, whatever the input shows', async () => {
    for (const c of ['echo ok | xargs bash -c', 'cat jobs.txt | xargs -I{} sh -c {}', 'printf "make\\n" | parallel bash -c {}', 'git diff --name-only | xargs -n1 zsh -c',
      'cat cmds.txt | xargs -I% sh -c %', 'cat cmds.txt | xargs -I CMD bash -c CMD', "cat cmds.txt | xargs -I{} sh -c 'set -e; {}'", 'cat cmds.txt | xargs -I{} bash -c -- {}', 'cat cmds.txt | parallel', 'cat cmds.txt | parallel sh -c {=uq=}', 'cat cmds.txt | xargs sh']) {
      const j = await judged(c);
      assert.equal(j.decision, 'ask', c);
      assert.match(j.reason, /Shell script taken from input/, c);
    }
    // a script of its own, or inputs written after parallel's `:::`, are read by the rules
    for (const c of ["find . -name '*.md' | xargs -I{} sh -c 'wc -l {}'", "parallel sh -c ::: 'echo hi'", 'ls | xargs -n1 echo', 'echo ok | bash -c "cat"']) {
      assert.equal((await judged(c)).decision, 'allow', c);
    }
    assert.ok(await analyserQuiet('echo ok | xargs bash -c', '/home/dev/project'), 'the analyser reports what ran, not this question');
  });

  it('a recursive delete of a relative path is asked about when the hook names no directory', async () => {
    for (const c of ['rm -rf build', 'rm -rf 7 > /dev/null', 'find . -name "*.pyc" -delete', 'rm -rf `pwd`/out', 'find src -exec rm -rf {} +', 'cd .. && rm -rf project', 'cd build && rm -rf out']) {
      const j = await judged(c, null);
      assert.equal(j.decision, 'ask', c);
      assert.match(j.reason, /did not say which directory/, c);
    }
    // with a directory, or a path that places itself, the rules judge it as ever
    assert.equal((await judged('rm -rf build')).decision, 'allow');
    for (const c of ['rm -rf /tmp/vouch-build', 'rm -rf $TMPDIR/cache', 'rm notes.txt', 'ls -la']) assert.equal((await judged(c, null)).decision, 'allow', c);
    assert.ok(await analyserQuiet('rm -rf build', null), 'a finished log without a cwd reports only what it can place');
  });

  it('[strict] deletes asks before every recursive delete, the tree\'s own build output too; single files still go', async () => {
    const strict = { strictFlags: { deletes: true } };
    for (const c of ['rm -rf build', 'rm -r node_modules dist', 'find . -name "*.pyc" -delete', 'cd app && rm -rf .next']) {
      const j = await judged(c, '/home/dev/project', strict);
      assert.equal(j.decision, 'ask', c);
      assert.match(j.reason, /\[strict\] deletes/, c);
    }
    for (const c of ['rm notes.txt', 'rm -f a.log b.log', 'python -c "print(1)"']) assert.equal((await judged(c, '/home/dev/project', strict)).decision, 'allow', c);
    assert.equal((await judged('rm -rf build')).decision, 'allow', 'off by default');
  });

  it('[strict] interpreters asks before every inline program, heredocs included; scripts from files still run', async () => {
    const strict = { strictFlags: { interpreters: true } };
    for (const c of ['python -c "print(1)"', "node -e 'console.log(1)'", 'perl -e "print 1"', 'ruby -e "puts 1"', 'python3 <<EOF\nprint(1)\nEOF']) {
      const j = await judged(c, '/home/dev/project', strict);
      assert.equal(j.decision, 'ask', c);
      assert.match(j.reason, /\[strict\] interpreters/, c);
    }
    for (const c of ['echo "print(1)" | python', 'echo "console.log(1)" | node -']) assert.equal((await judged(c, '/home/dev/project', strict)).decision, 'ask', `piped in: ${c}`);
    for (const c of ['python script.py', 'node server.js', "awk '{print $1}' f.txt", 'python -m pytest', 'cat data.json | python parse.py']) assert.equal((await judged(c, '/home/dev/project', strict)).decision, 'allow', c);
    assert.equal((await judged('python -c "print(1)"')).decision, 'allow', 'off by default');
  });

  it('allowed paths clear a finding, not a strict question', async () => {
    const layer = { strictFlags: { interpreters: true }, allowPaths: ['/srv/scratch'] };
    assert.equal((await judged(`rm -rf /srv/scratch/x && python -c "exec(open('job.py').read())"`, '/home/dev/project', layer)).decision, 'ask');
    assert.equal((await judged('rm -rf /srv/scratch/x', '/home/dev/project', layer)).decision, 'allow');
  });

  it('a command on the allow-list is not asked about', async () => {
    assert.equal((await judged('cat jobs.txt | xargs -I{} sh -c {}', '/home/dev/project', { allowCommands: ['cat jobs.txt | xargs -I{} sh -c {}'] })).decision, 'allow');
  });
});
