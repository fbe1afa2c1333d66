import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ToolResultEvent } from '../model/events.ts';
import { refusal } from './outcome.ts';

function result(output: string, isError = true): ToolResultEvent {
  return { kind: 'tool_result', index: 1, line: 2, at: null, callId: 'c1', output, exitCode: null, isError, denied: false };
}

const CD = "cd to '/home/dev/x' was blocked. For security, Claude Code may only change directories to child directories of the original working directory";

test('harness refusals: each form is read from a failed result, on the line that says it', () => {
  const cases: [string, string][] = [
    [`ERROR: ${CD}.`, `ERROR: ${CD}.`],
    [`noise\nsome command was blocked. For security, Claude Code may only run it here\nmore`, 'some command was blocked. For security, Claude Code may only run it here'],
    ['File has not been read yet. Read it first before writing to it.', 'File has not been read yet. Read it first before writing to it.'],
    ['x\nString to replace not found in file.\n', 'String to replace not found in file.'],
    ['Rejected by the sandbox policy', 'Rejected by the sandbox policy'],
    ['PreToolUse:Bash hook error: nope', 'PreToolUse:Bash hook error: nope'],
    ['denied by a hook because', 'denied by a hook because'],
    // Gemini CLI's shell tool refusing a command before it runs
    ['Command substitution using $(), `` ` ``, <(), or >() is not allowed for security reasons', 'Command substitution using $(), `` ` ``, <(), or >() is not allowed for security reasons'],
    ["Command 'rm' is blocked by configuration", "Command 'rm' is blocked by configuration"],
    ['Command(s) not in the allowed commands list. Disallowed commands: "curl"', 'Command(s) not in the allowed commands list. Disallowed commands: "curl"'],
    ['Command rejected because it could not be parsed safely', 'Command rejected because it could not be parsed safely'],
  ];
  for (const [output, line] of cases) {
    const r = refusal(result(output), 'write');
    assert.equal(r?.line, line, output);
    assert.equal(r?.refused, true);
  }
});

test('harness refusals: the leftmost form wins, whichever branch it is', () => {
  // The cd branch's words present, another form earlier in the output: the earlier one is the line.
  assert.equal(refusal(result(`String to replace not found in file\n${CD}`), 'write')?.line, 'String to replace not found in file');
  assert.equal(refusal(result(`${CD}\nString to replace not found in file`), 'write')?.line, CD);
});

test('harness refusals: not read from a long output of a call that succeeded, nor from unrelated text', () => {
  assert.equal(refusal(result(`${'ok\n'.repeat(1_000)}File has not been read yet`, false), 'run'), null);
  assert.equal(refusal(result('File has not been read yet', false), 'run')?.refused, true);
  assert.equal(refusal(result('the build was blocked by nothing at all'), 'run'), null);
  assert.equal(refusal(result('docs: command substitution is not allowed in this config format', false), 'run'), null, 'words about substitution are no refusal');
  // a command's own output cannot pass for the harness: not at the start of an error without an exit code
  const printed = (output: string, exitCode: number | null) => ({ ...result(output), exitCode, isError: exitCode !== 0 });
  assert.equal(refusal(printed("warning: plugin foo is not in the allowed commands list\nCommand 'telemetry' is blocked by configuration", 0), 'run'), null);
  assert.equal(refusal(printed("setup\nCommand 'telemetry' is blocked by configuration", null), 'run'), null, 'not at the start');
  assert.equal(refusal(printed('Rejected by the sandbox policy', 0), 'run'), null, 'exit code 0: the command ran and printed the words');
});

test('Claude Code\'s terminal "Interrupted · What should Claude do instead?" as the whole result: nothing shows the call ran; with output before it, it ran', async () => {
  const { runRules, ran, only, severityOf } = await import('./harness.testing.ts');
  const cp = 'cp bin/byvalver /usr/local/bin/byvalver 2>&1 || echo "Cannot copy"';
  const W = 'scope/write-outside-worktree';
  const stopped = only(await runRules([...ran(cp, { exitCode: null, isError: false, interrupted: true, output: 'Interrupted · What should Claude do instead?' })]), W);
  assert.deepEqual(stopped.map(severityOf), ['info']);
  assert.match(stopped[0]!.detail, /before it printed anything/);
  const printed = only(await runRules([...ran(cp, { exitCode: null, isError: false, interrupted: true, output: "cp: copying 'bin/byvalver'…\nInterrupted · What should Claude do instead?" })]), W);
  assert.deepEqual(printed.map(severityOf), ['warning'], 'it printed before the stop: it was running');
  const done = only(await runRules([...ran(cp, { exitCode: 0, output: '' })]), W);
  assert.deepEqual(done.map(severityOf), ['warning']);
  // a command that prints the words itself ran (independent review of 0.103.0)
  const printer = only(await runRules([...ran(`${cp}; echo 'Interrupted · What should Claude do instead?'`, { exitCode: null, isError: false, interrupted: true, output: 'Interrupted · What should Claude do instead?' })]), W);
  assert.deepEqual(printer.map(severityOf), ['warning']);
  // a critical stopped this way is an attempt someone made: a warning, not info
  const rm = only(await runRules([...ran('rm -rf /home/dev/Documents', { exitCode: null, isError: false, interrupted: true, output: 'Interrupted · What should Claude do instead?' })]), 'destructive/rm-outside-worktree');
  assert.deepEqual(rm.map(severityOf), ['warning']);
});
