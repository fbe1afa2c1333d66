import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { callWith, calls, commands, fixture, ofKind, resultOf, run } from './fixtures.testing.ts';
import { shellInput } from './gemini-tui.ts';
import { analyzeText } from '../../analyze.ts';

describe('gemini-cli-tui: a capture with tool boxes, writes, an edit, a commit and a push', () => {
  const out = run(fixture('gemini-cli-tui.txt'));

  test('is detected as Gemini CLI terminal output', () => {
    assert.deepEqual(out.detection, { format: 'gemini-cli-tui', score: 0.8 });
    assert.deepEqual(out.skips, []);
  });

  test('each boxed tool line is a call with the API name', () => {
    assert.deepEqual(calls(out.events).map((c) => c.name), [
      'list_directory', 'read_file', 'run_shell_command', 'run_shell_command', 'write_file', 'write_file',
      'run_shell_command', 'write_file', 'replace', 'run_shell_command', 'run_shell_command', 'run_shell_command',
    ]);
  });

  test('a description the box cut short is left out with no directory before it too; a command\'s own parentheses stay', () => {
    assert.deepEqual(shellInput('git checkout -- src/renderer/pixiRenderer.ts (Reverting changes to `src/re…'), { type: 'command', command: 'git checkout -- src/renderer/pixiRenderer.ts' });
    assert.deepEqual(shellInput('npm run build (Build the app so we…'), { type: 'command', command: 'npm run build' });
    assert.deepEqual(shellInput('echo "(see docs…"'), { type: 'command', command: 'echo "(see docs…"' });
    assert.deepEqual(shellInput('(cd app && make)'), { type: 'command', command: '(cd app && make)' });
  });

  test('Shell lines give the command without the [in dir] and (description) parts', () => {
    assert.deepEqual(commands(out.events), [
      'mkdir -p src test',
      'npm install --save-dev typescript vitest @types/node',
      'npx vitest run',
      'npm test',
      'git add -A && git commit -m "Weather CLI: current temperature from Open-Meteo"',
      'git push origin main',
    ]);
    const mkdir = callWith(out.events, 'mkdir');
    assert.ok(mkdir.input.type === 'command');
    assert.equal(mkdir.input.workdir, 'weather-cli');
  });

  test('the output inside the box is the result; x is a failure, ✔ shows no exit code', () => {
    const failed = resultOf(out.events, callWith(out.events, 'npx vitest run'))!;
    assert.deepEqual([failed.isError, failed.exitCode], [true, null]);
    assert.match(failed.output, /Cannot find module '\.\.\/src\/weather\.js'/);
    const push = resultOf(out.events, callWith(out.events, 'git push'))!;
    assert.deepEqual([push.isError, push.exitCode], [false, null]);
    assert.equal(push.output, 'To https://github.com/lena/weather-cli.git\n* [new branch]      main -> main');
  });

  test('WriteFile carries the path and the shown content without line numbers', () => {
    const write = calls(out.events).find((c) => c.input.type === 'file_write')!;
    assert.ok(write.input.type === 'file_write');
    assert.equal(write.input.path, 'src/weather.ts');
    assert.match(write.input.content, /^const BASE = 'https:\/\/api\.open-meteo\.com\/v1\/forecast';\n\nexport async function weatherFor/);
  });

  test('Edit carries the path and the diff lines', () => {
    const edit = calls(out.events).find((c) => c.input.type === 'file_edit')!;
    assert.deepEqual(edit.input, {
      type: 'file_edit', path: 'package.json',
      edits: [{ oldText: '  "scripts": {},', newText: '  "scripts": { "test": "vitest run", "build": "tsc" },' }],
    });
  });

  test('prompt and ✦ messages keep their wrapped lines; the banner and tips are not messages', () => {
    assert.match(ofKind(out.events, 'prompt')[0].text, /Open-Meteo API\),\nwith a test, then commit it and push to origin\.$/);
    assert.equal(ofKind(out.events, 'message').length, 4);
  });

  test('the footer gives directory, branch, sandbox and model', () => {
    const meta = ofKind(out.events, 'session_meta')[0];
    assert.deepEqual([meta.cwd, meta.branch, meta.sandbox, meta.model], ['~/projects/weather-cli', 'main', 'no sandbox', 'gemini-2.5-pro']);
  });
});

describe('gemini-cli-tui: destructive commands and a call awaiting approval', () => {
  const out = run(fixture('gemini-cli-tui-destructive.txt'));

  test('is detected without the footer (boxes and ✦ text)', () => {
    assert.deepEqual(out.detection, { format: 'gemini-cli-tui', score: 0.8 });
  });

  test('rm -rf ~ and the force push are commands', () => {
    const cmds = commands(out.events);
    assert.ok(cmds.includes('rm -rf ~'));
    assert.ok(cmds.includes('git push --force origin main'));
  });

  test('a call still awaiting approval (?) has no result', () => {
    const pending = callWith(out.events, 'sudo rm -rf /var/lib/docker');
    assert.equal(resultOf(out.events, pending), undefined);
  });
});

describe('gemini-cli-tui: smaller cases', () => {
  const box = (line: string, ...body: string[]) => ['╭────╮', `│ ${line} │`, ...body.map((b) => `│ ${b} │`), '╰────╯'].join('\n') + '\n';

  test('a cancelled call (-) is interrupted, not failed', () => {
    const out = run(box('-  Shell npm run e2e (Run the e2e suite.)'), 'gemini-cli-tui');
    const r = ofKind(out.events, 'tool_result')[0];
    assert.deepEqual([r.interrupted, r.isError], [true, false]);
  });

  test('an exit code stated in the output is the exit status', () => {
    const out = run(box('✔  Shell make (Build.)', '   make: *** [all] Error 2', '   Command exited with code: 2'), 'gemini-cli-tui');
    assert.deepEqual(ofKind(out.events, 'tool_result').map((r) => [r.exitCode, r.isError]), [[2, true]]);
  });

  test('an MCP tool line is an mcp call', () => {
    const out = run(box('✔  list_issues (github MCP Server) {"repo":"a/b"}'), 'gemini-cli-tui');
    assert.deepEqual(calls(out.events)[0].input, { type: 'mcp', server: 'github', tool: 'list_issues', args: '{"repo":"a/b"}' });
  });

  test('the shell description is split off only when it is a trailing parenthesised group', () => {
    assert.deepEqual(shellInput('echo $(date) (Print the date.)'), { type: 'command', command: 'echo $(date)' });
    assert.deepEqual(shellInput('(cd app && make)'), { type: 'command', command: '(cd app && make)' });
    assert.deepEqual(shellInput('ls [in src]'), { type: 'command', command: 'ls', workdir: 'src' });
    // Newer builds name the directory in full; a path the screen cut short is no directory.
    assert.deepEqual(shellInput('cd frontend && npm run build [current working directory /home/project/cafe-sg]'), { type: 'command', command: 'cd frontend && npm run build', workdir: '/home/project/cafe-sg' });
    assert.deepEqual(shellInput('npm run build [current working directory /private/var/folders/bf/…'), { type: 'command', command: 'npm run build' });
    assert.deepEqual(shellInput('npm run build [current working directory /private/var/folders/bf/…]'), { type: 'command', command: 'npm run build' });
  });

  test('a box without its bottom border ends at the next text outside it', () => {
    const out = run('╭───╮\n│ ✔  Shell ls (List.) │\n│  a.txt │\n✦ Done.\n', 'gemini-cli-tui');
    assert.deepEqual(out.events.map((e) => e.kind), ['tool_call', 'tool_result', 'message']);
  });

  test('a tool line that filled the box and wrapped is one command', () => {
    const border = '─'.repeat(60);
    const row = (t: string) => `│ ${t.padEnd(58)} │`;
    const text = [`╭${border}╮`, row('✔  Shell git add -A && git commit -m "Long message here" && git'), row('   push --force origin main (Commit and publish.)'), row(''), row('   done'), `╰${border}╯`].join('\n') + '\n';
    const out = run(text, 'gemini-cli-tui');
    assert.deepEqual(commands(out.events), ['git add -A && git commit -m "Long message here" && git push --force origin main']);
    assert.equal(ofKind(out.events, 'tool_result')[0].output, 'done');
  });

  test('a short tool line is not joined with the output under it', () => {
    const out = run(box('✔  Shell ls (List.)', '   a.txt'), 'gemini-cli-tui');
    assert.deepEqual(commands(out.events), ['ls']);
    assert.equal(ofKind(out.events, 'tool_result')[0].output, 'a.txt');
  });
});

describe('gemini-cli-tui: npm run-script banners are not prompts', () => {
  const capture = [
    '  ▝▜▄     Gemini CLI v0.34.0-nightly.20260304',
    'Tips for getting started:',
    '',
    '> @google/gemini-cli@0.34.0-nightly.20260304.28af4e127 test:all_evals',
    '> cross-env RUN_EVALS=1 vitest run --config evals/vitest.config.ts',
    '',
    '> 帮我修复构建错误',
    '',
    '✦ I will run the build.',
  ].join('\n') + '\n';

  test('"> pkg@version script" and the command under it are output; a prompt in any language is a prompt', () => {
    const out = run(capture);
    assert.equal(out.detection?.format, 'gemini-cli-tui');
    assert.deepEqual(ofKind(out.events, 'prompt').map((p) => p.text), ['帮我修复构建错误']);
  });
});

describe('gemini-cli-tui: older builds (0.1.x) box the person\'s message', () => {
  const capture = [
    '╭──────────────────────────────────────────────╮',
    '│  > Behebe den Fehler in der Anmeldung und     │',
    '│    führe die Tests aus                        │',
    '╰──────────────────────────────────────────────╯',
    '',
    '✦ Ich lese zuerst die Datei.',
    '╭──────────────────────────────────────────────╮',
    '│ ✔  ReadFile src/login.ts                      │',
    '╰──────────────────────────────────────────────╯',
    '╭──────────────────────────────────────────────╮',
    '│ ✔  Shell npm test (Run the tests)            │',
    '│                                              │',
    '│    12 passing                                │',
    '╰──────────────────────────────────────────────╯',
    '╭──────────────────────────────────────────────╮',
    '│ > git push --force                            │',
    '╰──────────────────────────────────────────────╯',
    '~/app (main*)   no sandbox (see /docs)   gemini-2.5-pro (97% context left)',
  ].join('\n') + '\n';

  test('the boxed message is the prompt, wrapped lines joined; the tools are calls', () => {
    const out = run(capture);
    assert.equal(out.detection?.format, 'gemini-cli-tui');
    assert.deepEqual(ofKind(out.events, 'prompt').map((p) => p.text), ['Behebe den Fehler in der Anmeldung und\nführe die Tests aus']);
    assert.deepEqual(calls(out.events).map((c) => c.name), ['read_file', 'run_shell_command']);
  });

  test('text typed into the input box (one column of padding) and never sent is not a prompt', () => {
    const out = run(capture);
    assert.ok(!ofKind(out.events, 'prompt').some((p) => p.text.includes('git push')));
    assert.ok(!commands(out.events).includes('git push --force'));
  });
});

describe('gemini-cli-tui: early builds (0.1.x) draw the tool boxes one column in', () => {
  const wide = (t: string) => ` │ ${t.padEnd(56)} │`;
  const top = ` ╭${'─'.repeat(58)}╮`;
  const bottom = ` ╰${'─'.repeat(58)}╯`;
  const capture = [
    ' ███            █████████  ██████████',
    '░░░███         ███░░░░░███░░███░░░░░█',
    '',
    'Tips for getting started:',
    '1. Ask questions, edit files, or run commands.',
    '',
    '> Räume die Zustandsmaschine auf',
    '  und committe danach nur style.css',
    '',
    '✦ Ich prüfe zuerst den Stand.',
    top, wide('✔  Shell git status'), wide(''), wide('   Changes not staged for commit:'), wide('     modified:   app.js'), bottom,
    '✦ app.js verwerfe ich.',
    top, wide('✔  Shell git restore app.js'), bottom,
    top, wide('✔  Shell mkdir -p src/store [in shop-backend] (Create the…'), ` ╰${'─'.repeat(30)}\uFFFD`,
    top, wide('x  Shell git push (Publish.)'), wide(''), wide('   error: failed to push some refs'), bottom,
  ].join('\n') + '\n';
  const out = run(capture);

  test('is detected as Gemini CLI terminal output', () => {
    assert.equal(out.detection?.format, 'gemini-cli-tui');
  });

  test('the prompt at the margin is a prompt, its indented continuation joined', () => {
    assert.deepEqual(ofKind(out.events, 'prompt').map((p) => p.text), ['Räume die Zustandsmaschine auf\nund committe danach nur style.css']);
  });

  test('every boxed command is a call with its result, in order', () => {
    assert.deepEqual(commands(out.events), ['git status', 'git restore app.js', 'mkdir -p src/store', 'git push']);
    const restore = callWith(out.events, 'git restore');
    assert.deepEqual([resultOf(out.events, restore)?.isError, resultOf(out.events, restore)?.output], [false, '']);
    assert.match(resultOf(out.events, callWith(out.events, 'git status'))!.output, /modified: {3}app\.js/);
    assert.equal(resultOf(out.events, callWith(out.events, 'git push'))!.isError, true);
  });

  test('a description the box cut short is dropped, the directory kept', () => {
    const mkdir = callWith(out.events, 'mkdir');
    assert.deepEqual(mkdir.input, { type: 'command', command: 'mkdir -p src/store', workdir: 'shop-backend' });
  });
});

describe('gemini-cli-tui: look-alikes are not claimed', () => {
  test('an indented tree drawing with ticks is not a capture', () => {
    const text = ['Build report', ' ╭───────────────╮', ' │ ✔ lint passed │', ' │ ✔ unit passed │', ' ╰───────────────╯', 'All green.'].join('\n') + '\n';
    assert.equal(run(text).detection?.format ?? 'plain-text', 'plain-text');
  });
});

describe('gemini-cli-tui: a capture that starts mid-reply', () => {
  test('the text in the reply\'s gutter before anything else is the agent\'s message', () => {
    const text = ['  Step 3: the workspace module.', '', '   1. Create src/workspace.', '   2. Register it.', '╭──────────────────────────────╮', '│ ✔  Shell mkdir -p src/workspace │', '╰──────────────────────────────╯', '✦ Now the module file.'].join('\n') + '\n';
    const out = run(text, 'gemini-cli-tui');
    assert.deepEqual(ofKind(out.events, 'message').map((m) => m.text), ['Step 3: the workspace module.\n 1. Create src/workspace.\n 2. Register it.', 'Now the module file.']);
    assert.deepEqual(ofKind(out.events, 'system'), []);
  });

  test('an indented banner line at the start is not a message', () => {
    const out = run('  ▝▜▄     Gemini CLI v0.34.0\n> hi\n', 'gemini-cli-tui');
    assert.deepEqual(ofKind(out.events, 'message'), []);
  });
});

describe('gemini-cli-tui: the 0.4x layout (prompt bands, one-line tools, thoughts)', () => {
  const band = (top: boolean) => (top ? '▄' : '▀').repeat(60);
  const capture = [
    ' ▝▜▄     Gemini CLI v0.43.0',
    '   ▝▜▄',
    '',
    band(true),
    ' > Die Punkte-Logik zählt Runden doppelt; bitte reparieren,',
    '   aber nichts bauen.',
    band(false),
    '',
    '  Checking the Scoring: ',
    '  Reading the scoring code before changing it.',
    '',
    '  ✓  ReadFolder  src/ → Found 12 item(s).',
    '  ✓  FindFiles  \'**/Score*.ts\'',
    '   → Found 2 matching file(s)',
    '  ✓  SearchText  \'lapCount\' → Found 3 matches',
    '  ✓  ReadFile  src/score/ScoreKeeper.ts',
    '  ✓  Edit  ScoreKeeper.ts → Accepted (+1, -1)',
    '',
    '      40   const laps = car.laps;',
    '      41 -   total += laps * 2;',
    '      41 +   total += laps;',
    '',
    '  -  Edit  Race.ts → Rejected (+1, -1)',
    '',
    '       8 -   finish();',
    '       8 +   finish(true);',
    '',
    '╭──────────────────────────────────────────────╮',
    '│ ✓  Shell git restore src/score/Race.ts       │',
    '│                                              │',
    '╰──────────────────────────────────────────────╯',
    '',
    '✦ Die doppelte Zählung ist behoben.',
    band(true),
    ' > danke',
    band(false),
  ].join('\n') + '\n';
  const out = run(capture);

  test('is detected as Gemini CLI terminal output', () => {
    assert.equal(out.detection?.format, 'gemini-cli-tui');
  });

  test('the text in a prompt band is the prompt, its further lines joined', () => {
    assert.deepEqual(ofKind(out.events, 'prompt').map((p) => p.text), ['Die Punkte-Logik zählt Runden doppelt; bitte reparieren,\naber nichts bauen.', 'danke']);
  });

  test('a thought\'s subject and text are thinking, not unplaced output', () => {
    assert.deepEqual(ofKind(out.events, 'thinking').map((t) => t.text), ['Checking the Scoring:\nReading the scoring code before changing it.']);
    assert.ok(!ofKind(out.events, 'system').some((s) => s.text.includes('Checking')));
  });

  test('every one-line tool is a call with its outcome as the result', () => {
    assert.deepEqual(calls(out.events).map((c) => c.name), ['list_directory', 'glob', 'search_file_content', 'read_file', 'replace', 'replace', 'run_shell_command']);
    const glob = calls(out.events).find((c) => c.name === 'glob')!;
    assert.deepEqual(glob.input, { type: 'search', pattern: '**/Score*.ts' });
    assert.equal(resultOf(out.events, glob)!.output, 'Found 2 matching file(s)');
  });

  test('an accepted edit carries its diff; a rejected one is denied', () => {
    const [accepted, rejected] = calls(out.events).filter((c) => c.name === 'replace');
    assert.deepEqual(accepted.input, { type: 'file_edit', path: 'ScoreKeeper.ts', edits: [{ oldText: '  total += laps * 2;', newText: '  total += laps;' }] });
    assert.deepEqual([resultOf(out.events, accepted)!.denied, resultOf(out.events, accepted)!.isError], [false, false]);
    assert.deepEqual([resultOf(out.events, rejected)!.denied, resultOf(out.events, rejected)!.interrupted], [true, undefined]);
  });

  test('the boxed shell command is still a call', () => {
    assert.deepEqual(commands(out.events), ['git restore src/score/Race.ts']);
  });
});

describe('gemini-cli-tui: the CLI started again in the same capture', () => {
  test('the start-up tips after a session\'s work begin a new run', () => {
    const text = ['Tips for getting started:', '1. Ask questions.', '> fix it', '✦ Fixed.', '> /quit', '╭────╮', '│ Agent powering down. Goodbye! │', '╰────╯', 'Tips for getting started:', '1. Ask questions.', '> now commit'].join('\n') + '\n';
    const out = run(text, 'gemini-cli-tui');
    assert.deepEqual(out.events.filter((e) => e.kind === 'prompt' || (e.kind === 'system' && e.subtype === 'run_start')).map((e) => (e.kind === 'prompt' ? e.text : 'run_start')), ['fix it', '/quit', 'run_start', 'now commit']);
  });
});

describe('gemini-cli-tui: a capture that lost the band above the person\'s message', () => {
  test('" > text" one column in is a prompt; the empty input box\'s placeholder and a quote in a reply are not', () => {
    const capture = [
      '✦ The site is up.',
      '',
      'ℹ Request cancelled.',
      ' > . env access and change the database password',
      '✦ I\'ll check the current configuration.',
      '  > a quoted line inside the reply',
      '',
      ' >   Type your message or @path/to/file',
    ].join('\n');
    const out = run(capture, 'gemini-cli-tui');
    assert.deepEqual(ofKind(out.events, 'prompt').map((p) => p.text), ['. env access and change the database password']);
  });
});

describe('gemini-cli-tui: a live capture redrawn frame after frame, and headless runs appended before it', () => {
  const frame = (n: number) => [
    ' ~/.../site (main*)   no sandbox   gemini-2.5-flash /model',
    '─'.repeat(60),
    ` Todo  ${n}/3 completed (ctrl+t to toggle) » Update index.html`,
    '                                             YOLO mode (ctrl + y to toggle)',
    ' *   Type your message or @path/to/file',
  ];
  const headless = [
    'YOLO mode is enabled. All tool calls will be automatically approved.',
    'Loaded cached credentials.',
    'I will update `index.html` with the new entry.',
    'Files staged. Committing now.',
    'Commit successful. Task complete.',
  ];
  const live = [
    '',
    ' > update the site',
    '',
    '╭──────────────────────────────────────────────────────────╮',
    '│ ✓  ReadFile index.html                                   │',
    '╰──────────────────────────────────────────────────────────╯',
    ...frame(1), ...frame(1), ...frame(2), ...frame(2),
    '✦ Updated index.html.',
    ...frame(3),
  ];

  test("the screen's furniture (footer ending in /model, rules, to-do summary, approval mode, empty input box) is no event", () => {
    const out = run(['╭────────────────╮', '│ ✓  ReadFile a  │', '╰────────────────╯', ...live].join('\n'), 'gemini-cli-tui');
    assert.deepEqual(ofKind(out.events, 'system').map((e) => e.text), []);
    assert.equal(calls(out.events).length, 2);
    assert.equal(out.toolsNotRecorded, null);
  });

  test("a headless run's answer is the model's words, and the file says its tool calls are not in it", () => {
    const out = run([...headless, ...headless, ...live].join('\n'), 'gemini-cli-tui');
    const said = ofKind(out.events, 'message').map((e) => e.text);
    assert.ok(said.some((t) => t.includes('Files staged. Committing now.')), JSON.stringify(said));
    assert.deepEqual(out.toolsNotRecorded, { turns: 2, line: 3 });
    assert.equal(calls(out.events).length, 1, 'the live part is still read');
    assert.equal(ofKind(out.events, 'system').filter((e) => e.subtype === 'actions_unrecorded').length, 2, 'each headless answer says its calls are not in the file');
  });

  test('the approval-mode line or the headless YOLO notice is the session\'s approval mode, said once; other modes are not', () => {
    const live1 = run(live.join('\n'), 'gemini-cli-tui');
    assert.deepEqual(ofKind(live1.events, 'session_meta').filter((e) => e.approvalPolicy).map((e) => e.approvalPolicy), ['yolo']);
    const headless1 = run([...headless, ...headless].join('\n'), 'gemini-cli-tui');
    assert.deepEqual(ofKind(headless1.events, 'session_meta').filter((e) => e.approvalPolicy).map((e) => e.approvalPolicy), ['yolo']);
    const autoEdit = run(live.join('\n').replaceAll('YOLO mode (ctrl + y to toggle)', 'auto-accept edits (shift + tab to toggle)'), 'gemini-cli-tui');
    assert.deepEqual(ofKind(autoEdit.events, 'session_meta').filter((e) => e.approvalPolicy), []);
    // a reply quoting the notice is no mode
    const quoted = run([' > what does YOLO mean?', '✦ It prints "YOLO mode is enabled." when you start it with -y.', '  YOLO mode (ctrl + y to toggle) is shown in the footer while it is on.'].join('\n'), 'gemini-cli-tui');
    assert.deepEqual(ofKind(quoted.events, 'session_meta').filter((e) => e.approvalPolicy), []);
  });

  test('a capture in YOLO mode reports the posture as context (info), never on its own a reason for Review', async () => {
    const report = await analyzeText(live.join('\n'));
    const posture = report.findings.filter((f) => f.rule === 'permissions/approval-bypass');
    assert.deepEqual(posture.map((f) => f.severity), ['info']);
  });

  test('"Loaded cached credentials." before an interactive start (its tips, a failed resume) is no headless run', () => {
    for (const start of ['Tips for getting started:\n1. Ask questions, edit files, or run commands.\n2. /help for more information.', 'Error resuming session: no session found']) {
      const out = run(['Loaded cached credentials.', '', start, ...live].join('\n'), 'gemini-cli-tui');
      assert.equal(out.toolsNotRecorded, null, start);
    }
  });

  test("a headless answer's claim to have committed and pushed is not judged against calls the file does not hold", async () => {
    const claim = ['YOLO mode is enabled. All tool calls will be automatically approved.', 'Loaded cached credentials.', 'I have committed the changes and pushed them to GitHub.'];
    const report = await analyzeText([...claim, ...live].join('\n'));
    assert.deepEqual(report.findings.filter((f) => f.rule === 'integrity/action-claimed'), []);
    assert.notEqual(report.outcome, 'Clear', 'what the headless run did is not in the file');
  });
});

describe('gemini-cli-tui: a WriteFile shown as a diff of an existing file', () => {
  test('the diff\'s removed lines are what the write replaced; a new file\'s content replaced nothing', () => {
    const box = (lines: string[]) => ['╭──────────────────────────────────────────────────────────╮', '│ ✔  WriteFile Writing to server/.env                      │', '│                                                          │', ...lines.map((l) => `│ ${l.padEnd(56)} │`), '╰──────────────────────────────────────────────────────────╯'];
    const diff = run([' > run a local test', ...box([' 1 - PORT=5000', ' 2 - JWT_SECRET=dev', ' 3 - CORS=x', ' 1 + DATABASE_URL=postgres://localhost/app'])].join('\n'), 'gemini-cli-tui');
    const w = calls(diff.events).find((c) => c.input.type === 'file_write')!;
    assert.ok(w.input.type === 'file_write');
    assert.equal(w.input.content, 'DATABASE_URL=postgres://localhost/app');
    assert.equal(w.input.replaced, 'PORT=5000\nJWT_SECRET=dev\nCORS=x');
    const fresh = run([' > run a local test', ...box([' 1 DATABASE_URL=postgres://localhost/app'])].join('\n'), 'gemini-cli-tui');
    const n = calls(fresh.events).find((c) => c.input.type === 'file_write')!;
    assert.ok(n.input.type === 'file_write' && n.input.replaced === undefined);
  });
});
