// Wrapper commands (sudo, env, timeout, xargs …) are seen through to the command they run, with
// their own options skipped by each wrapper's syntax; and shells' -c scripts are found.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { commandSource, programName, readsStdin, shellCommandString, unwrap } from './unwrap.ts';
import { loadShellParser, parseShell } from './parse.ts';

test('sudo -u bob env A=1 timeout 5 rm -rf x is an rm, with every wrapper, its arguments and the assignment', () => {
  const u = unwrap(['sudo', '-u', 'bob', 'env', 'A=1', 'timeout', '5', 'rm', '-rf', 'x']);
  assert.deepEqual(u.argv, ['rm', '-rf', 'x']);
  assert.deepEqual(u.wrappers, ['sudo', 'env', 'timeout']);
  assert.deepEqual(u.wrapperArgs, [['-u', 'bob'], ['A=1'], ['5']]);
  assert.deepEqual(u.assignments, ['A=1']);
});

test('option values are skipped, attached or separate, short or long', () => {
  assert.deepEqual(unwrap(['sudo', '-ubob', 'rm', 'x']).argv, ['rm', 'x']);
  assert.deepEqual(unwrap(['sudo', '--user', 'bob', 'rm', 'x']).argv, ['rm', 'x']);
  assert.deepEqual(unwrap(['sudo', '--user=bob', '-E', 'rm', 'x']).argv, ['rm', 'x']);
  assert.deepEqual(unwrap(['timeout', '-k', '5', '10s', 'make']).argv, ['make']);
  assert.deepEqual(unwrap(['xargs', '-n', '1', '-I', '{}', 'rm', '{}']).argv, ['rm', '{}']);
  assert.deepEqual(unwrap(['nice', '-10', 'tar', 'c']).argv, ['tar', 'c']);
  assert.deepEqual(unwrap(['/usr/bin/sudo', '--', 'rm', 'x']).argv, ['rm', 'x']);
});

test('env -S splits its string into the command', () => {
  assert.deepEqual(unwrap(['env', '-S', 'rm -rf /tmp/x']).argv, ['rm', '-rf', '/tmp/x']);
});

test('a wrapper that runs nothing is the command itself', () => {
  for (const argv of [['sudo', '-l'], ['sudo', '-v'], ['command', '-v', 'rm'], ['env'], ['env', 'A=1'], ['timeout', '5'], ['sudo']]) {
    const u = unwrap(argv);
    assert.deepEqual(u.argv, argv, argv.join(' '));
    assert.deepEqual(u.wrappers, []);
  }
});

test('ordinary commands are left alone; the wrapper chain is bounded', () => {
  assert.deepEqual(unwrap(['git', 'push', '--force']).argv, ['git', 'push', '--force']);
  assert.deepEqual(unwrap([]).argv, []);
  const deep = unwrap([...Array.from({ length: 100 }, () => 'nohup'), 'ls']);
  assert.equal(deep.wrappers.length, 32, 'at most 32 wrappers are peeled (hostile input)');
});

test('programName takes the last path segment, but not of a trailing slash', () => {
  assert.equal(programName('/usr/bin/rm'), 'rm');
  assert.equal(programName('rm'), 'rm');
  assert.equal(programName('dir/'), 'dir/');
});

test('shellCommandString finds -c scripts (also in clusters and after -o value), and nothing else', () => {
  assert.equal(shellCommandString('bash', ['-c', 'rm -rf ~']), 'rm -rf ~');
  assert.equal(shellCommandString('bash', ['-lc', 'make test']), 'make test');
  assert.equal(shellCommandString('sh', ['-o', 'pipefail', '-ec', 'x']), 'x');
  assert.equal(shellCommandString('su', ['bob', '-c', 'id']), 'id');
  assert.equal(shellCommandString('su', ['--command=id']), 'id');
  assert.equal(shellCommandString('bash', ['script.sh']), null, 'a script file is not a command string');
  assert.equal(shellCommandString('bash', ['-l']), null);
  assert.equal(shellCommandString('python', ['-c', 'print(1)']), null, 'not a shell');
});

test('readsStdin: a shell without a script operand reads stdin', () => {
  assert.equal(readsStdin('bash', []), true);
  assert.equal(readsStdin('sh', ['-e', '-x']), true);
  assert.equal(readsStdin('bash', ['install.sh']), false);
  assert.equal(readsStdin('cat', []), false);
});

test("PowerShell here-strings are strings: their text runs nothing and redirects nothing; an expandable one's $( ) still runs", async () => {
  await loadShellParser();
  const literal = `@'\nimport x from 'y';\ndocument.body.innerHTML = '<div id="root"></div>';\n'@ | Set-Content web/tests/a.test.js`;
  const read = parseShell(commandSource({ command: literal }, true)).commands;
  assert.deepEqual(read.map((c) => c.name), ['echo', 'Set-Content']);
  assert.deepEqual(read.flatMap((c) => c.redirects), [], 'no redirect to /div');
  const expandable = parseShell(commandSource({ command: `@"\nhello $(Remove-Item -Recurse C:\\data)\n"@ | Out-File x.txt`, shell: 'powershell' })).commands;
  assert.deepEqual(expandable.map((c) => c.name), ['echo', 'Remove-Item', 'Out-File']);
  // bash has no such construct, and its quoting is not PowerShell's: outside Windows and the PowerShell tool the text is left as it is
  const crafted = "printf '%s' x@'\n'; rm -rf ~; echo '\n'@";
  assert.equal(commandSource({ command: crafted }), crafted);
  assert.ok(parseShell(commandSource({ command: crafted })).commands.some((c) => c.name === 'rm'));
  assert.equal(commandSource({ command: literal }), literal);
  // an opener inside a word is no here-string even on Windows
  assert.ok(parseShell(commandSource({ command: crafted }, true)).commands.some((c) => c.name === 'rm'));
});

test('a Windows program is named without its directory or .exe: C:\\Python\\python.exe, .venv\\Scripts\\pytest.EXE', () => {
  assert.equal(programName('.venv\\Scripts\\python.exe'), 'python');
  assert.equal(programName('C:\\Tools\\pytest.EXE'), 'pytest');
  assert.equal(programName('/mnt/c/Windows/System32/cmd.exe'), 'cmd');
  assert.equal(programName('.exe'), '.exe', 'a name that is only the suffix stays');
  assert.equal(programName('setup.exec'), 'setup.exec');
});

test('cmd.exe /c runs what follows: several words as the argv, one word as a command line whose backslashes are path separators', async () => {
  await loadShellParser();
  const argv = parseShell('/mnt/c/Windows/System32/cmd.exe /c ".venv\\Scripts\\python.exe" test_parser.py').commands;
  assert.deepEqual(argv.map((c) => [c.name, c.args]), [['cmd', ['/c', '.venv\\Scripts\\python.exe', 'test_parser.py']], ['python', ['test_parser.py']]]);
  const line = parseShell('cmd /s /c "rmdir /s /q build && npm test"').commands;
  assert.deepEqual(line.slice(1).map((c) => [c.name, c.args, c.nested]), [['rmdir', ['/s', '/q', 'build'], 'shell-c'], ['npm', ['test'], 'shell-c']]);
  const paths = parseShell('cmd.exe /c "del C:\\Users\\me\\notes.txt"').commands;
  assert.deepEqual(paths[1]?.args, ['C:/Users/me/notes.txt']);
  const apostrophe = parseShell('cmd /c "echo it\'s done & rd /s /q C:\\Users\\me\\old"').commands;
  assert.deepEqual(apostrophe.slice(1).map((c) => c.name), ['echo', 'rd'], 'an apostrophe is a letter to cmd');
  assert.deepEqual(parseShell('cmd //c "npm test"').commands.map((c) => c.name), ['cmd', 'npm'], "Git Bash's //c");
  const quoted = parseShell('cmd.exe /c "git commit -m \\"it\'s done\\""').commands;
  assert.deepEqual(quoted.at(-1)?.args, ['commit', '-m', "it's done"], 'an apostrophe inside double quotes stays as it is');
  for (const none of ['cmd /?', 'cmd', 'cmd /c', 'cmd.exe /q']) assert.equal(parseShell(none).commands.length, 1, none);
});
