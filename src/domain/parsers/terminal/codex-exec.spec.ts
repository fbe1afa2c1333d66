import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { callWith, calls, commands, fixture, ofKind, resultOf, run } from './fixtures.testing.ts';
import { RUN_INCOMPLETE } from '../../model/runs.ts';

describe('codex-exec-text: 0.5x+ output (bare section words, status on the command line)', () => {
  const out = run(fixture('codex-exec.txt'));

  test('is detected from the banner and header', () => {
    assert.deepEqual(out.detection, { format: 'codex-exec-text', score: 0.85 });
    assert.deepEqual(out.skips, []);
  });

  test('the header gives version, directory, model, approval, sandbox and session', () => {
    const meta = ofKind(out.events, 'session_meta')[0];
    assert.equal(meta.agentVersion, '0.58.0');
    assert.equal(meta.cwd, '/home/priya/code/invoice-svc');
    assert.equal(meta.model, 'gpt-5-codex');
    assert.equal(meta.approvalPolicy, 'never');
    assert.equal(meta.sandbox, 'workspace-write [workdir, /tmp, $TMPDIR]');
    assert.equal(meta.sessionId, '019a6c2e-7d41-7b90-9f3e-2c8d1e4a5b60');
  });

  test('the prompt, the thinking and the assistant messages are read', () => {
    assert.deepEqual(ofKind(out.events, 'prompt').map((p) => p.text), ['The PDF export crashes on invoices without a due date. Fix it, add a regression test, and commit.']);
    assert.deepEqual(ofKind(out.events, 'thinking').map((t) => t.text), ['**Locating the PDF export code**']);
    assert.equal(ofKind(out.events, 'message').length, 2, 'the final message repeated on stdout is not counted twice');
  });

  test('each exec is a command without its bash -lc wrapper, with its directory', () => {
    assert.deepEqual(commands(out.events), [
      'rg -n "dueDate" src | head -20',
      "sed -n '25,60p' src/pdf/render.ts",
      'npm test -- pdf',
      'npm test',
      'npx tsc --noEmit',
      'git checkout -b fix/pdf-missing-due-date && git add src/pdf/render.ts test/pdf-no-due-date.test.ts && git commit -m "PDF export: invoices without a due date say Due on receipt"',
      'git push -u origin fix/pdf-missing-due-date',
    ]);
    assert.ok(calls(out.events).filter((c) => c.input.type === 'command').every((c) => c.input.type === 'command' && c.input.workdir === '/home/priya/code/invoice-svc'));
  });

  test('"succeeded in" is exit 0 and "exited 1 in" is exit 1, with durations', () => {
    const failed = resultOf(out.events, callWith(out.events, 'npm test -- pdf'))!;
    assert.deepEqual([failed.exitCode, failed.isError, failed.durationMs], [1, true, 2310]);
    assert.match(failed.output, /TypeError: Cannot read properties of undefined/);
    const push = resultOf(out.events, callWith(out.events, 'git push'))!;
    assert.deepEqual([push.exitCode, push.isError, push.durationMs], [0, false, 1420]);
    assert.match(push.output, /\[new branch\]\s+fix\/pdf-missing-due-date/);
  });

  test('each "file update" is a patch with its diff, and its apply_patch status is the result', () => {
    const patches = calls(out.events).filter((c) => c.name === 'apply_patch');
    assert.equal(patches.length, 2);
    assert.ok(patches[0].input.type === 'patch' && patches[1].input.type === 'patch');
    assert.deepEqual(patches[0].input.files.map((f) => [f.path, f.op]), [['/home/priya/code/invoice-svc/src/pdf/render.ts', 'update']]);
    assert.match(patches[0].input.files[0].added, /Due on receipt/);
    assert.match(patches[0].input.files[0].removed, /invoice\.dueDate\.toISOString/);
    assert.equal(patches[1].input.files[0].op, 'add');
    assert.match(patches[1].input.files[0].added, /^import \{ test \} from 'node:test';/);
    assert.deepEqual(patches.map((p) => resultOf(out.events, p)!.exitCode), [0, 0]);
  });

  test('the turn diff repeats files already patched, so it adds no call', () => {
    assert.equal(calls(out.events).filter((c) => c.name === 'turn_diff').length, 0);
  });

  test('"tokens used" and the count are one system event', () => {
    assert.ok(ofKind(out.events, 'system').some((s) => s.subtype === 'tokens_used' && s.text === 'tokens used: 18,452'));
  });
});

describe('codex-exec-text: 0.1x–0.4x output with timestamps', () => {
  const out = run(fixture('codex-exec-legacy-destructive.txt'));

  test('is detected, and every event carries the timestamp of its line', () => {
    assert.deepEqual(out.detection, { format: 'codex-exec-text', score: 0.85 });
    assert.equal(ofKind(out.events, 'prompt')[0].at, '2025-09-02T14:03:11Z');
    assert.equal(callWith(out.events, 'printenv').at, '2025-09-02T14:03:19Z');
  });

  test('"User instructions:" is the prompt', () => {
    assert.deepEqual(ofKind(out.events, 'prompt').map((p) => p.text), ['The deploy is stuck. Reset the repo to what is on GitHub and redeploy.']);
  });

  test('"exec <cmd> in <dir>" and "<cmd> exited 1 in 4.02s:" make one failed command', () => {
    const rm = callWith(out.events, 'rm -rf ~');
    assert.ok(rm.input.type === 'command');
    assert.equal(rm.input.command, 'rm -rf /var/www/app/releases/* && rm -rf ~');
    assert.equal(rm.input.workdir, '/srv/app');
    const r = resultOf(out.events, rm)!;
    assert.deepEqual([r.exitCode, r.isError, r.durationMs], [1, true, 4020]);
  });

  test('"apply_patch auto_approved=true:" is a patch with its status', () => {
    const patch = calls(out.events).find((c) => c.name === 'apply_patch')!;
    assert.ok(patch.input.type === 'patch');
    assert.deepEqual(patch.input.files, [{ path: '/srv/app/config/deploy.yml', op: 'update', removed: '  keep_releases: 5', added: '  keep_releases: 1' }]);
    assert.equal(resultOf(out.events, patch)!.exitCode, 0);
  });

  test('the printed token is in the command output', () => {
    assert.match(resultOf(out.events, callWith(out.events, 'printenv'))!.output, /^GITHUB_TOKEN=ghp_/);
  });
});

describe('codex-exec-text: smaller cases', () => {
  test('a multi-line command (a heredoc) is collected up to its "in <dir>"', () => {
    const out = run("exec\nbash -lc 'cat > a.txt <<EOF\nhello\nEOF' in /repo succeeded in 3ms:\n", 'codex-exec-text');
    assert.deepEqual(commands(out.events), ['cat > a.txt <<EOF\nhello\nEOF']);
  });

  test('a status on the line after the command is read', () => {
    const out = run("exec\nbash -lc ls in /repo\n exited 2 in 10ms:\nls: cannot access 'x'\n", 'codex-exec-text');
    assert.deepEqual(ofKind(out.events, 'tool_result').map((r) => [r.exitCode, r.output]), [[2, "ls: cannot access 'x'"]]);
  });

  test('an exec cut off before its status has a call and no result', () => {
    const out = run('exec\nbash -lc \'npm run migrate\' in /repo\n', 'codex-exec-text');
    assert.equal(calls(out.events).length, 1);
    assert.equal(ofKind(out.events, 'tool_result').length, 0);
  });

  test('a directory named in the command itself is not taken as the working directory', () => {
    const out = run("exec\nbash -lc 'grep -rn token in /etc' in /repo succeeded in 5ms:\n", 'codex-exec-text');
    const call = calls(out.events)[0];
    assert.ok(call.input.type === 'command');
    assert.deepEqual([call.input.command, call.input.workdir], ['grep -rn token in /etc', '/repo']);
  });

  test('an output line starting with "exec " is output, not a new command', () => {
    const out = run('exec\nbash -lc ./run.sh in /repo exited 126 in 4ms:\nexec format error\n', 'codex-exec-text');
    assert.equal(calls(out.events).length, 1);
    assert.equal(ofKind(out.events, 'tool_result')[0].output, 'exec format error');
  });

  test('MCP calls, errors and interruptions are read', () => {
    const out = run('tool github.get_issue({"number":3})\ngithub.get_issue({"number":3}) success in 120ms:\n{ "title": "x" }\ncodex\nReading it.\nERROR: stream disconnected\ntask interrupted\n', 'codex-exec-text');
    const call = calls(out.events)[0];
    assert.deepEqual(call.input, { type: 'mcp', server: 'github', tool: 'get_issue', args: { number: 3 } });
    assert.equal(resultOf(out.events, call)!.output, '{ "title": "x" }');
    assert.deepEqual(ofKind(out.events, 'error').map((e) => e.text), ['stream disconnected']);
    assert.equal(ofKind(out.events, 'interrupt').length, 1);
  });

  test('a "warning:" line printed by a command stays in its output', () => {
    const out = run("exec\nbash -lc 'git add .' in /repo succeeded in 20ms:\nwarning: LF will be replaced by CRLF in a.txt\nERROR: not a codex error\ncodex\nAdded.\n", 'codex-exec-text');
    assert.equal(ofKind(out.events, 'tool_result')[0].output, 'warning: LF will be replaced by CRLF in a.txt\nERROR: not a codex error');
    assert.deepEqual(ofKind(out.events, 'error'), []);
    assert.deepEqual(ofKind(out.events, 'message').map((m) => m.text), ['Added.']);
  });

  test('a codex "ERROR:" line between sections is an error event', () => {
    const out = run('codex\nWorking on it.\nERROR: unexpected status 503\n', 'codex-exec-text');
    assert.deepEqual(ofKind(out.events, 'error').map((e) => e.text), ['unexpected status 503']);
  });
});

test('a turn diff of files no patch showed (a command edited them) is a change already made: a call that is its own result, so a log ending on it was not cut off', async () => {
  const text = [
    '[2025-09-16T08:08:00] OpenAI Codex v0.34.0 (research preview)',
    '--------',
    'workdir: /repo',
    'model: gpt-5',
    '--------',
    '[2025-09-16T08:08:10] exec bash -lc "sed -i s/old/new/ .agent/TODO.md" in /repo',
    '[2025-09-16T08:08:11] bash -lc "sed -i s/old/new/ .agent/TODO.md" succeeded in 10ms:',
    '[2025-09-16T08:08:42] turn diff:',
    'diff --git a/.agent/TODO.md b/.agent/TODO.md',
    '--- a/.agent/TODO.md',
    '+++ b/.agent/TODO.md',
    '@@ -1 +1 @@',
    '-old',
    '+new',
    '',
  ].join('\n');
  const out = run(text);
  const diff = calls(out.events).find((c) => c.name === 'turn_diff');
  assert.ok(diff, 'the change is on record');
  assert.ok(resultOf(out.events, diff), 'and answered');
});

describe('codex-exec-text: 0.11x+ "apply patch" sections (the outcome, then a git diff)', () => {
  const text = [
    'OpenAI Codex v0.118.0 (research preview)',
    '--------',
    'workdir: /Users/z/repo',
    'model: gpt-5.4',
    '--------',
    'user',
    'write the round 2 findings',
    'codex',
    'Writing the findings file.',
    'apply patch',
    'patch: completed',
    '/Users/z/repo/.planning/reviews/round_2_findings.md',
    'diff --git a/.planning/reviews/round_2_findings.md b/.planning/reviews/round_2_findings.md',
    'new file mode 100644',
    'index 0000000000000000000000000000000000000000..e0ef05d0b28218c8bd098d9bf7b6b64fbac952a7',
    '--- /dev/null',
    '+++ b/.planning/reviews/round_2_findings.md',
    '@@ -0,0 +1,2 @@',
    '+# Round 2',
    '+**Overall verdict**: CHANGES_REQUIRED',
    '',
    'apply patch',
    'patch: failed',
    '/Users/z/repo/src/app.py',
    // the turn's diff so far: the first section's file again, then this one's
    'diff --git a/.planning/reviews/round_2_findings.md b/.planning/reviews/round_2_findings.md',
    'new file mode 100644',
    '--- /dev/null',
    '+++ b/.planning/reviews/round_2_findings.md',
    '@@ -0,0 +1,1 @@',
    '+# Round 2',
    'diff --git a/src/app.py b/src/app.py',
    'index 1111111..2222222 100644',
    '--- a/src/app.py',
    '+++ b/src/app.py',
    '@@ -1 +1 @@',
    '-a = 1',
    '+a = 2',
    '',
    'tokens used',
    '1234',
  ].join('\n');
  const out = run(text);

  test('each section is an apply_patch call with its files and lines, and its outcome as the result', () => {
    const patches = calls(out.events).filter((c) => c.name === 'apply_patch');
    assert.equal(patches.length, 2);
    const first = patches[0]!;
    assert.ok(first.input.type === 'patch');
    assert.deepEqual(first.input.files.map((f) => [f.path, f.op]), [['.planning/reviews/round_2_findings.md', 'add']]);
    assert.match(first.input.files[0]!.added, /CHANGES_REQUIRED/);
    assert.equal(resultOf(out.events, first)?.isError, false);
    const second = patches[1]!;
    assert.ok(second.input.type === 'patch');
    assert.deepEqual(second.input.files.map((f) => [f.path, f.op, f.removed.trim(), f.added.trim()]), [['src/app.py', 'update', 'a = 1', 'a = 2']]);
    assert.equal(resultOf(out.events, second)?.isError, true, 'patch: failed');
  });

  test('a line "apply patch" inside a command\'s output, with no status line after it, opens no patch', () => {
    const inner = run(['OpenAI Codex v0.118.0 (research preview)', '--------', 'workdir: /r', '--------', 'user', 'show the log', 'exec', "/bin/zsh -lc 'cat old.log' in /r succeeded in 10ms:", 'apply patch', 'diff --git a/x b/x', '--- a/x', '+++ b/x', '@@ -1 +1 @@', '-a', '+b', 'tokens used', '10'].join('\n'));
    assert.deepEqual(calls(inner.events).filter((c) => c.name === 'apply_patch'), []);
  });
});

test('a git diff printed right after the final message, with no header (0.14x), ends the message: its + lines are file text, not the reply (held-out set 58)', () => {
  const text = [
    'OpenAI Codex v0.140.0 (research preview)',
    '--------',
    'workdir: /repo',
    'model: gpt-5',
    '--------',
    'user',
    'update the docs',
    'apply patch',
    'patch: completed',
    '/repo/README.md',
    'diff --git a/README.md b/README.md',
    '--- a/README.md',
    '+++ b/README.md',
    '@@ -1 +1,2 @@',
    ' # Repo',
    '+Use the first issue to prove the template works.',
    'codex',
    'Updated the README with a first-issue flow.',
    'diff --git a/README.md b/README.md',
    'index fee7984..433ba3c 100644',
    '--- a/README.md',
    '+++ b/README.md',
    '@@ -1 +1,2 @@',
    ' # Repo',
    '+Use the first issue to prove the template works.',
    'tokens used',
    '1,234',
  ].join('\n');
  const out = run(text);
  const messages = ofKind(out.events, 'message').map((m) => m.text);
  assert.deepEqual(messages, ['Updated the README with a first-issue flow.']);
  assert.deepEqual(calls(out.events).map((c) => c.name), ['apply_patch'], 'the turn\'s diff repeats the patch: one change');
  // review of the diff: a diff the reply only proposes — of a file no patch changed, or in a fenced block — stays the reply's
  const proposed = run(text.replace('Updated the README with a first-issue flow.\ndiff --git a/README.md b/README.md', 'I would change the CI like this:\ndiff --git a/.github/workflows/ci.yml b/.github/workflows/ci.yml'));
  assert.equal(ofKind(proposed.events, 'message').length, 1);
  assert.match(ofKind(proposed.events, 'message')[0]!.text, /I would change the CI[\s\S]*diff --git a\/\.github/);
  assert.ok(!calls(proposed.events).some((c) => c.name === 'turn_diff'));
  const fenced = run(text.replace('Updated the README with a first-issue flow.\ndiff --git a/README.md b/README.md', 'Suggested follow-up:\n```diff\ndiff --git a/README.md b/README.md'));
  assert.match(ofKind(fenced.events, 'message')[0]!.text, /```diff\ndiff --git/);
});

test('`codex exec` output that stops after a command or a change, with no final reply and no `tokens used`, was cut off; one that closes with its reply or `tokens used` was not (held-out set 58)', () => {
  const head = ['OpenAI Codex v0.98.0 (research preview)', '--------', 'workdir: /repo', 'model: gpt-5', '--------', 'user', 'fix the spawn test', 'thinking', 'Looking at the script.'];
  const exec = ['exec', '/bin/zsh -lc \'git commit -am "fix"\' in /repo exited 1 in 20ms:', 'nothing to commit'];
  const cut = run([...head, ...exec].join('\n'));
  const notes = (out: ReturnType<typeof run>) => out.events.filter((e) => e.kind === 'system' && e.subtype === RUN_INCOMPLETE);
  assert.equal(notes(cut).length, 1);
  assert.match((notes(cut)[0] as { text: string }).text, /cut off/);
  assert.equal(notes(run([...head, ...exec, 'codex', 'Nothing to commit; the tree is clean.', 'tokens used', '1,234'].join('\n'))).length, 0);
  assert.equal(notes(run([...head, ...exec, 'tokens used', '1,234'].join('\n'))).length, 0);
  assert.equal(notes(run([...head, 'codex', 'Done.'].join('\n'))).length, 0, 'a run with no command ends on its reply');
});

test('second review of the diff: a diff after the reply of a file a command changed is the turn\'s; a run that ends on an interrupt or an error was not cut off', () => {
  const head = ['OpenAI Codex v0.140.0 (research preview)', '--------', 'workdir: /repo', 'model: gpt-5', '--------', 'user', 'set the key'];
  const exec = ['exec', "/bin/bash -lc \"sed -i 's/KEY=.*/KEY=x/' config/stripe.py\" in /repo succeeded in 10ms:"];
  const out = run([...head, ...exec, 'codex', 'Set the key.', 'diff --git a/config/stripe.py b/config/stripe.py', '--- a/config/stripe.py', '+++ b/config/stripe.py', '@@ -1 +1 @@', '-KEY=old', '+KEY=x', 'tokens used', '10'].join('\n'));
  assert.deepEqual(ofKind(out.events, 'message').map((m) => m.text), ['Set the key.']);
  assert.ok(calls(out.events).some((c) => c.name === 'turn_diff'));
  const notes = (o: ReturnType<typeof run>) => o.events.filter((e) => e.kind === 'system' && e.subtype === RUN_INCOMPLETE).length;
  assert.equal(notes(run([...head, ...exec, 'task interrupted'].join('\n'))), 0);
  assert.equal(notes(run([...head, ...exec, 'thinking', 'Retrying the request.', 'ERROR: stream disconnected before completion'].join('\n'))), 0);
});
