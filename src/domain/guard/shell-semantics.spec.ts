// The mechanisms by which a destructive command hides from a reading of its shape (issue 27),
// each with cases of Vouch's own beyond the upstream suites: what it must stop and what it must
// let run. Every command is judged by `judge` as `vouch guard claude-code` sees it (cwd
// /home/dev/project, home /home/dev, no history); a stop is a deny or an ask.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { judge } from './judge.ts';
import { parsePendingCall, type GuardDecision } from './payload.ts';
import { emptySession } from './session.ts';
import { mergePolicies } from './policy.ts';

async function decide(command: string, cwd = '/home/dev/project', home = '/home/dev'): Promise<GuardDecision> {
  const pending = { ...parsePendingCall('claude-code', { session_id: 's', cwd, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command } }), home };
  return (await judge(pending, emptySession(), mergePolicies())).decision;
}

async function check(stop: string[], allow: string[]): Promise<void> {
  for (const c of stop) assert.notEqual(await decide(c), 'allow', `should stop: ${JSON.stringify(c)}`);
  for (const c of allow) assert.equal(await decide(c), 'allow', `should let run: ${JSON.stringify(c)}`);
}

describe('guard: shell semantics', () => {
  it('code run by interpreters: library deletes, shell calls, and shell text handed to -e', () =>
    check(
      [
        `python3 -c "import os; os.remove('/etc/shadow')"`,
        'python3 <<EOF\nimport shutil\nshutil.rmtree("/var/lib/mysql")\nEOF',
        'perl <<EOF\nunlink glob("/usr/bin/*");\nEOF',
        `perl -e 'unlink(glob("/etc/*"))'`,
        'ruby <<EOF\nrequire "fileutils"\nFileUtils.rm_rf("/srv")\nEOF',
        `node -e "require('fs').rmSync('/home/dev/other', {recursive: true})"`,
        'node -e "rm -rf ~/"',
        `ruby -e "git reset --hard"`,
      ],
      [
        `python3 -c "import os; os.remove('/etc/hosts.bak')"`,
        `python3 -c "print('rm -rf /')"`,
        `node -e "console.log('rm -rf /')"`,
        'perl <<EOF\nunlink glob("build/*.o");\nEOF',
        'node -e "rmSync()"',
      ],
    ));

  it('commands built at run time: xargs/parallel shells, substitutions, redirect targets', () =>
    check(
      [
        `echo 'rm -rf /srv' | xargs bash -c`,
        `echo 'git reset --hard' | xargs -I{} sh -c {}`,
        `parallel sh -c ::: 'rm -rf /opt/data'`,
        `echo 'rm -rf ~' | parallel bash -c {}`,
        'echo $(rm -rf 2>/dev/null /etc)',
        `rm -rf >'log' /usr`,
        'git checkout 2>/dev/null -- src/app.ts',
        '$( cd ..; rm -rf other-project )',
        'ssh build-host git clean -fdx',
        // a script xargs assembles from its input is asked about, whatever the input shows:
        // xargs splits it into words by its own rules (this runs `ls` with `-la` as $0)
        `echo 'ls -la' | xargs bash -c`,
        'cat scripts.txt | xargs -I{} sh -c {}',
      ],
      [
        `parallel sh -c ::: 'echo hi'`,
        'echo $(ls 2>/dev/null /etc)',
        'git status 2>/dev/null --short',
        'ssh build-host uptime',
        'ssh build-host',
      ],
    ));

  it('find: -delete and -exec rm, also through env, sudo, command, busybox', () =>
    check(
      ['find / -delete', 'find . -exec env rm -rf {} ;', 'find ~ -exec sudo rm -rf {} +', 'find /etc -execdir command rm {} ;', 'find . -exec busybox rm -rf {} +'],
      ['find . -name "*.log" -print', 'find . -exec env grep -l x {} +', 'find /tmp/x -exec sudo rm -rf {} +'],
    ));

  it('wrappers and words: command -V, env -P, assignment-like prefixes, Unicode dashes, shouting', () =>
    check(
      [
        'command -V git reset --hard', 'command -pv -- git clean -fdx', 'env -P /usr/bin git reset --hard', 'A-B=2 git reset --hard', '=1 git push --force origin main',
        'git reset ‐‐hard', 'git push —force origin main', 'GIT CHECKOUT -- src/a.ts', 'git RESET --HARD', 'git branch -D feature',
      ],
      ['command -v git', 'command -V rm', 'env -P /usr/bin git status', 'A-B=2 git status', 'git log ‐‐oneline', 'GIT STATUS', 'git commit -m WIP'],
    ));

  it('variables: set on the line, $TMPDIR, an empty variable before a slash, home wherever it lies', async () => {
    await check(
      ['TMPDIR=/Users rm -rf $TMPDIR/x', 'HOME=/tmp/h rm -rf $HOME', 'TMPDIR= rm -rf $TMPDIR/etc', 'rm -rf $TMPDIR/../etc', 'D=/etc; rm -rf $D', 'export D=/var/lib; rm -rf "$D"', 'rm -rf ${TMPDIR}/../../srv'],
      ['rm -rf $TMPDIR/build', 'rm -rf "${TMPDIR}/cache"', 'D=/tmp/scratch; rm -rf $D', 'TMPDIR=/tmp/mine rm -rf $TMPDIR/x'],
    );
    // a home under /tmp is still the home; a session run from the home directory has no tree in it
    assert.notEqual(await decide('rm -rf ~', '/tmp/ci/home/project', '/tmp/ci/home'), 'allow');
    assert.notEqual(await decide('rm -rf $HOME', '/tmp/ci/home/project', '/tmp/ci/home'), 'allow');
    assert.notEqual(await decide('rm -rf Documents', '/home/dev', '/home/dev'), 'allow');
    assert.equal(await decide('rm -rf build', '/home/dev/project', '/home/dev'), 'allow');
  });

  it('services: CI workflows and caches, search-index deletes, lease flags run together, rclone dry runs', () =>
    check(
      [
        'gh workflow disable ci.yml', 'gh cache delete --all', 'gh run delete 123',
        `curl -X POST 'http://localhost:9200/logs/_delete_by_query' -d '{"query":{"match_all":{}}}'`,
        'git push --force-with-lease-if-includes origin main', 'rclone sync /src remote:backups',
      ],
      ['gh workflow list', 'gh cache list', 'gh run view 123', `curl 'http://localhost:9200/logs/_search'`, 'rclone sync /src remote:backups --dry-run', 'rclone delete remote:x -n'],
    ));

  it('names read from a file when the command runs: xargs -a, --arg-file, < file, cat file |, parallel ::::', () =>
    check(
      [
        'xargs -a paths.txt rm -rf', 'xargs --arg-file=/tmp/paths rm -r', 'echo / | xargs --arg-file=/tmp/paths rm -rf', 'xargs rm -rf < doomed.txt',
        'cat doomed.txt | xargs rm -rf', 'cat a.txt b.txt | xargs -I{} rm -rf {}', 'cat list | xargs sudo rm -rf', 'parallel rm -rf :::: list.txt',
        'xargs -a paths.txt rm -rf /home/dev/other', 'sort -u doomed.txt | grep -v keep | xargs rm -rf',
      ],
      [
        'xargs -a paths.txt rm -f', 'cat list | xargs rm', 'cat list | xargs -I{} rm -rf /tmp/{}', 'xargs -a paths.txt cat', 'cat list | xargs grep -l x',
        'find . -name "*.pyc" | xargs rm -rf', 'echo build dist | xargs rm -rf', 'parallel rm -rf ::: build dist',
      ],
    ));

  it('a prune that asks for confirmation runs only when forced or answered', () =>
    check(
      [
        'docker system prune -f', 'docker system prune --all --force', 'yes | docker system prune', 'docker system prune <<< y', 'echo y | docker volume prune',
        'yes | bash -c "docker system prune"', 'podman volume prune -f', 'docker image prune -af',
      ],
      ['docker system prune', 'docker system prune -a', 'docker volume prune', 'docker image prune -a', 'podman system prune --filter until=24h'],
    ));

  it('the project\'s source directory at the top of the tree is asked about; other folders, deeper src and filtered finds are not', async () => {
    for (const c of ['rm -rf src', 'rm -rf ./src/', 'rm -rf src/*', 'rm -rf /home/dev/project/src', 'find src -delete', 'rm -r source', 'sudo rm -rf sources']) {
      assert.equal(await decide(c), 'ask', c);
    }
    await check([], ['rm -rf src/old', 'rm -rf packages/a/src', 'cd packages/a && rm -rf src', 'rm -rf docs', 'rm -rf node_modules', 'rm -rf ./build', 'find src -name "*.js" -delete', 'rm -rf srcs', 'rm src/index.ts']);
    assert.equal(await decide('rm -rf src', '/tmp/scratch', '/home/dev'), 'allow'); // a checkout in temp space is throwaway
  });

  it('git checkout options that take a value are not paths', () =>
    check(
      ['git checkout main src/a.ts', 'git checkout --track origin/main -- src/a.ts'],
      ['git checkout --recurse-submodules checkout main', 'git checkout --track direct main', 'git checkout --track inherit main', 'git checkout --unified 3 main', 'git checkout --inter-hunk-context 3 main', 'git checkout -U3 main'],
    ));
});
