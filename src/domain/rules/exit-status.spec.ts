import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadShellParser, parseShell } from '../shell/parse.ts';
import { answerExit } from './exit-status.ts';
import { result } from './harness.testing.ts';

await loadShellParser();

const judge = (command: string, exitCode: number, output = '') => answerExit(command, parseShell(command), result('c1', { exitCode, isError: true, output }));

test('exit 1 that answers a question is not a failure: no match, a false test, differences', () => {
  assert.equal(judge('rg --files | rg speckit', 1), 'no match');
  assert.equal(judge("powershell.exe -NoProfile -Command 'rg --files | rg speckit'", 1), 'no match');
  assert.equal(judge('cd src && grep -q TODO app.ts', 1), 'no match');
  assert.equal(judge('git grep -n legacyFlag', 1), 'no match');
  assert.equal(judge('grep -c secret config.yml', 1, '0'), 'no match');
  assert.equal(judge('[ -f dist/index.js ]', 1), 'a test that was false');
  assert.equal(judge('test -d node_modules', 1), 'a test that was false');
  assert.equal(judge('which terraform', 1), 'a test that was false');
  assert.equal(judge('diff -u a.json b.json', 1, '--- a.json\n+++ b.json\n-x\n+y'), 'differences found');
  assert.equal(judge('git diff --exit-code', 1, 'diff --git a/x b/x'), 'differences found');
  // The harness's own framing is not an error printed by the command.
  assert.equal(judge('grep -rn legacyFlag src', 1, 'Error: Exit code 1'), 'no match');
  assert.equal(judge('rg speckit', 1, 'failed in sandbox: '), 'no match');
  assert.equal(judge('grep -q x f', 1, 'Command: grep -q x f\nDirectory: (root)\nStdout: (empty)\nStderr: (empty)\nError: (none)\nExit Code: 1\nSignal: (none)'), 'no match');
});

test('real failures stay failures: errors, exit 2, an earlier command that may have failed', () => {
  assert.equal(judge('grep -r foo missing/', 2, 'grep: missing/: No such file or directory'), null);
  assert.equal(judge('rg foo', 1, 'rg: error parsing regex'), null);
  assert.equal(judge('grep -q x f', 1, 'Error: Exit code 1\ngrep: f: No such file or directory'), null);
  assert.equal(judge('grep -q x f', 1, 'Command: grep -q x f\nStdout: (empty)\nStderr: grep: f: Permission denied\nError: (none)\nExit Code: 1'), null);
  assert.equal(judge('cd nowhere && grep -q x f', 1, 'bash: cd: nowhere: No such file or directory'), null);
  assert.equal(judge('cd nowhere && diff a b', 1, 'bash: cd: nowhere: No such file or directory'), null);
  assert.equal(judge('npm test && grep -q ok out.log', 1), null);
  assert.equal(judge('npm test', 1), null);
  assert.equal(judge('git diff', 1), null);
  assert.equal(judge('rg foo', 0), null);
  assert.equal(answerExit('rg foo', parseShell('rg foo'), result('c1', { exitCode: null, isError: true })), null);
});
