import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { parseToolOutput } from './tool-output.ts';

describe('Codex tool outputs', () => {
  test('JSON string with metadata (shell ≤0.5x, apply_patch): exit code and duration', () => {
    const r = parseToolOutput('{"output":"Success. Updated the following files:\\nM go.mod\\n","metadata":{"exit_code":0,"duration_seconds":0.25}}');
    assert.deepEqual(r, { output: 'Success. Updated the following files:\nM go.mod\n', exitCode: 0, durationMs: 250, isError: false, denied: false, interrupted: false });
    const failed = parseToolOutput('{"output": "rg: regex error", "metadata": {"exit_code": 2, "duration_seconds": 0.0}}');
    assert.equal(failed.exitCode, 2);
    assert.equal(failed.isError, true);
  });

  test('text form "Exit code: N\\nWall time: …\\nOutput:" (shell_command 0.60+)', () => {
    const r = parseToolOutput('Exit code: 1\nWall time: 0.1 seconds\nOutput:\nboom\n');
    assert.deepEqual(r, { output: 'boom\n', exitCode: 1, durationMs: 100, isError: true, denied: false, interrupted: false });
    const withTotal = parseToolOutput('Exit code: 0\nWall time: 2 seconds\nTotal output lines: 3\nOutput:\na\nb\nc');
    assert.equal(withTotal.exitCode, 0);
    assert.equal(withTotal.output, 'a\nb\nc');
    assert.equal(withTotal.isError, false);
  });

  test('unified exec headers: exited with a code, or still running', () => {
    const done = parseToolOutput('Chunk ID: 7f\nWall time: 1.5 seconds\nProcess exited with code 127\nOriginal token count: 12\nOutput:\nsh: nope: not found');
    assert.equal(done.exitCode, 127);
    assert.equal(done.durationMs, 1500);
    assert.equal(done.isError, true);
    const running = parseToolOutput('Wall time: 10.0 seconds\nProcess running with session ID 3\nOutput:\nserving on :3000');
    assert.equal(running.exitCode, null);
    assert.equal(running.isError, false);
    assert.equal(running.runningAs, '3', 'the process id a later write_stdin polls');
    assert.equal(done.runningAs, undefined);
  });

  test('a header-looking first line without the header block is plain text', () => {
    const r = parseToolOutput('Exit code: 0 is what I expected\nbut not this');
    assert.equal(r.exitCode, null);
    assert.equal(r.output, 'Exit code: 0 is what I expected\nbut not this');
  });

  test('legacy MCP content as a JSON string of parts, and 2026 part arrays / objects', () => {
    assert.equal(parseToolOutput('[{"text":"{\\"ok\\":1}","type":"text"}]').output, '{"ok":1}');
    assert.equal(parseToolOutput([{ type: 'input_text', text: 'a' }, { type: 'input_image', image_url: 'x' }, { type: 'input_text', text: 'b' }]).output, 'a\nb');
    assert.equal(parseToolOutput({ type: 'input_text', text: 'a.txt\n' }).output, 'a.txt\n');
    const payload = parseToolOutput({ content: 'nope', success: false });
    assert.equal(payload.isError, true);
    assert.equal(payload.output, 'nope');
  });

  test('errors without an exit code come from how the text starts', () => {
    for (const t of [
      'apply_patch verification failed: Failed to find expected lines in /x',
      'patch rejected: empty patch',
      'error: Failed to find expected lines ["x"] in /a.tsx',
      'tool call error: tool call failed for `memory/add_observations`',
      '[{"text":"Error: Tag \\"logging\\" not found.","type":"text"}]',
    ]) assert.equal(parseToolOutput(t).isError, true, t);
    for (const t of ['Plan updated', 'Success. Updated the following files:\nA x', 'No errors found', '']) {
      assert.equal(parseToolOutput(t).isError, false, t);
    }
  });

  test('sandbox failures carry their exit code in the text', () => {
    const r = parseToolOutput('failed in sandbox LinuxSeccomp with execution error: sandbox denied exec error, exit code: 2, stdout: , stderr: sed: x');
    assert.equal(r.exitCode, 2);
    assert.equal(r.isError, true);
    assert.equal(r.denied, false, 'a failing command in the sandbox is not a refusal');
  });

  test('refusals by the person or the guardian are denials; aborted calls are interruptions', () => {
    for (const t of ['exec command rejected by user', 'patch rejected by user', 'This action was rejected due to unacceptable risk.\nReason: exfil', 'exec_command failed for `/bin/zsh -lc \'docker build -f Dockerfile .\'`: CreateProcess { message: "Rejected(\\"rejected by user\\")" }']) {
      const r = parseToolOutput(t);
      assert.equal(r.denied, true, t);
      assert.equal(r.isError, true, t);
    }
    assert.equal(parseToolOutput('exec_command failed for `ls`: CreateProcess { message: "No such file or directory (os error 2)" }').denied, false, 'a process that could not start was not refused');
    const aborted = parseToolOutput('aborted');
    assert.equal(aborted.interrupted, true);
    assert.equal(aborted.isError, true);
  });

  test('hostile values never throw', () => {
    for (const v of [null, undefined, 42, true, {}, [], [null, 3, { text: 7 }], '{', '[', '{"output":5}', '{"metadata":"x"}', 'x'.repeat(1_000_000)]) {
      const r = parseToolOutput(v);
      assert.equal(typeof r.output, 'string');
    }
    assert.equal(parseToolOutput('{"output":"o","metadata":{"exit_code":"1","duration_seconds":-3}}').exitCode, null, 'wrong types ignored');
  });
});
