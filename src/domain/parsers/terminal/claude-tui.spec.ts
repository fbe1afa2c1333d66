import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { callWith, calls, commands, fixture, ofKind, resultOf, run, wrapAt } from './fixtures.testing.ts';
import { TerminalWidth, brokeWord } from './text.ts';
import { analyzeText } from '../../analyze.ts';

describe('claude-code-tui: the 1.x transcript with a welcome box (27 tool calls, a commit, a push)', () => {
  const out = run(fixture('claude-code-tui.txt'));

  test('is detected as Claude Code terminal output, well above plain text', () => {
    assert.deepEqual(out.detection, { format: 'claude-code-tui', score: 0.85 });
    assert.deepEqual(out.skips, []);
  });

  test('the welcome box gives the working directory', () => {
    const meta = ofKind(out.events, 'session_meta');
    assert.equal(meta[0].cwd, '/home/dana/src/ledger-api');
  });

  test('every tool line becomes a call with the API name, each followed by its result', () => {
    const all = calls(out.events);
    assert.equal(all.length, 27);
    assert.deepEqual([...new Set(all.map((c) => c.name))].sort(), ['Bash', 'Edit', 'Grep', 'Read', 'Write']);
    assert.ok(all.every((c) => resultOf(out.events, c) !== undefined));
  });

  test('the commands are read in full, including the commit and the push', () => {
    const cmds = commands(out.events);
    assert.equal(cmds.length, 15);
    assert.ok(cmds.includes('git commit -m "Rate-limit POST /login to five attempts per minute per address"'));
    assert.ok(cmds.includes('git push -u origin feat/login-rate-limit'));
    const push = resultOf(out.events, callWith(out.events, 'git push'))!;
    assert.match(push.output, /^To https:\/\/github.com\/acme\/ledger-api.git\n \* \[new branch\]/);
  });

  test('"Error: Exit code 1" is the failing run\'s exit status; other runs show none', () => {
    const runs = calls(out.events).filter((c) => c.input.type === 'command' && c.input.command === 'npm test -- rate-limit');
    assert.deepEqual(runs.map((c) => [resultOf(out.events, c)!.exitCode, resultOf(out.events, c)!.isError]), [[1, true], [null, false], [null, false]]);
    assert.match(resultOf(out.events, runs[0])!.output, /AssertionError: expected 401 to be 429/);
  });

  test('a Write carries the file content without the line numbers', () => {
    const write = calls(out.events).find((c) => c.input.type === 'file_write' && c.input.path === 'src/middleware/rate-limit.ts')!;
    assert.ok(write.input.type === 'file_write');
    assert.match(write.input.content, /^import type \{ Request, Response, NextFunction \} from 'express';\n\nexport interface LimitOptions \{/);
  });

  test('an Update carries the removed and added lines of its diff', () => {
    const edit = calls(out.events).find((c) => c.input.type === 'file_edit' && c.input.path === 'src/routes/auth.ts')!;
    assert.ok(edit.input.type === 'file_edit');
    assert.deepEqual(edit.input.edits, [{
      oldText: "auth.post('/login', async (req, res) => {",
      newText: "import { rateLimit } from '../middleware/rate-limit.js';\nconst loginLimit = rateLimit({ windowMs: 60_000, max: 5 });\nauth.post('/login', loginLimit, async (req, res) => {",
    }]);
  });

  test('Search(pattern:, path:) is a search with both', () => {
    const search = calls(out.events).find((c) => c.name === 'Grep')!;
    assert.deepEqual(search.input, { type: 'search', pattern: 'rateLimit|rate-limit', path: 'src' });
  });

  test('prompts, assistant text and thinking keep their wrapped lines', () => {
    const prompts = ofKind(out.events, 'prompt');
    assert.equal(prompts[0].text, 'The login endpoint has no rate limit. Add a per-IP limiter (5 attempts per minute) with tests,\nthen commit on a new branch and push it.');
    assert.equal(prompts[1].text, '/cost');
    assert.equal(ofKind(out.events, 'message').length, 5);
    assert.match(ofKind(out.events, 'thinking')[0].text, /^The app runs behind one proxy/);
  });

  test('the output of a slash command is kept as system text', () => {
    const sys = ofKind(out.events, 'system').at(-1)!;
    assert.equal(sys.text, 'Total cost: $0.41\nTotal duration (API): 2m 12s\nTotal duration (wall): 9m 40s');
  });
});

describe('claude-code-tui: the 2.x header, ● records, ❯ prompts, MCP, an interruption', () => {
  const out = run(fixture('claude-code-tui-v2-destructive.txt'));

  test('is detected from the 2.x header', () => {
    assert.deepEqual(out.detection, { format: 'claude-code-tui', score: 0.85 });
  });

  test('the header gives version, model and directory', () => {
    const meta = ofKind(out.events, 'session_meta')[0];
    assert.deepEqual([meta.agentVersion, meta.model, meta.cwd], ['2.0.37', 'Sonnet 4.5', '/home/omar/work/shop-web']);
  });

  test('a command wrapped over two lines is one command, joined where the terminal broke it', () => {
    assert.ok(commands(out.events).includes('rm -rf build node_modules coverage .turbo .next dist storybook-static && rm -rf ~/ --no-preserve-root'));
  });

  test('the force push and its output are read', () => {
    const push = callWith(out.events, 'git push --force origin main');
    assert.match(resultOf(out.events, push)!.output, /\(forced update\)$/);
  });

  test('"Exit code 127" is read as the exit status', () => {
    const r = resultOf(out.events, callWith(out.events, 'npm ci'))!;
    assert.deepEqual([r.exitCode, r.isError], [127, true]);
  });

  test('an MCP tool line becomes an mcp call', () => {
    const mcp = calls(out.events).find((c) => c.input.type === 'mcp')!;
    assert.equal(mcp.name, 'mcp__github__create_issue');
    assert.deepEqual(mcp.input, { type: 'mcp', server: 'github', tool: 'create_issue', args: 'owner: "omar", repo: "shop-web", title: "Rebuild CI cache"' });
  });

  test('"Interrupted by user" marks the result interrupted, not failed', () => {
    const r = resultOf(out.events, callWith(out.events, 'rm -rf /tmp/shop-cache'))!;
    assert.deepEqual([r.interrupted, r.isError, r.exitCode], [true, false, null]);
  });

  test('the status line at the end is not content', () => {
    assert.ok(!ofKind(out.events, 'system').some((s) => s.text.includes('Worked for')));
  });
});

describe('claude-code-tui: smaller cases', () => {
  test('a refused call is denied', () => {
    const out = run('> go\n⏺ Bash(git push --force)\n  ⎿  User rejected tool use\n', 'claude-code-tui');
    const r = ofKind(out.events, 'tool_result')[0];
    assert.deepEqual([r.denied, r.isError], [true, true]);
  });

  test('a permission rule\'s refusal whose end the capture folded away ("Error: Permission to use Bash with command …", no "has been denied" shown) is denied; a command that prints those words later is not (held-out set 71)', () => {
    const folded = run('> check it in the browser\n⏺ Bash(cd /tmp && node -e "require(\'playwright\')…)\n  ⎿  Error: Permission to use Bash with command cd /tmp && node -e "\n     const { chromium } = require(\'playwright\');\n     … +18 lines (ctrl+o to expand)\n\n⏺ Done.\n', 'claude-code-tui');
    assert.deepEqual(ofKind(folded.events, 'tool_result').map((r) => [r.denied, r.isError]), [[true, true]]);
    const printed = run('> grep the docs\n⏺ Bash(grep -r "Permission to use" docs)\n  ⎿  docs/faq.md: Permission to use Bash with command x has been denied, see the settings\n', 'claude-code-tui');
    assert.deepEqual(ofKind(printed.events, 'tool_result').map((r) => r.denied ?? false), [false]);
  });

  test('the input box\'s mode line ("⏵⏵ bypass permissions on (shift+tab to cycle)") is the session\'s permission mode, said once per change, and no content (held-out set 72)', async () => {
    const text = '> tidy the docs\n\n⏺ Done.\n\n──────────\n>  \n──────────\n  ⏵⏵ bypass permissions on (shift+tab to cycle)\n\n> more\n\n⏺ Done again.\n\n  ⏵⏵ bypass permissions on (shift+tab to cycle)\n';
    const out = run(text, 'claude-code-tui');
    assert.deepEqual(ofKind(out.events, 'session_meta').map((m) => m.permissionMode).filter(Boolean), ['bypassPermissions']);
    assert.ok(!ofKind(out.events, 'message').some((m) => m.text.includes('bypass permissions')), 'not a message');
    const banner = '╭─── Claude Code v2.0.36 ──────────────────────────╮\n│            Sonnet 4.5 · Claude Pro             │\n│   /home/dev/docs                               │\n╰────────────────────────────────────────────────╯\n\n';
    const r = await analyzeText(banner + text);
    assert.ok(r.findings.some((f) => f.rule === 'permissions/approval-bypass' && f.severity === 'info'), JSON.stringify(r.findings.map((f) => f.rule)));
    const accept = run('> go\n\n⏺ Done.\n\n  ⏵⏵ accept edits on (shift+tab to cycle)\n', 'claude-code-tui');
    assert.deepEqual(ofKind(accept.events, 'session_meta').map((m) => m.permissionMode).filter(Boolean), ['acceptEdits']);
  });

  test('a call whose ⏺ the capture took while it blinked off (`  Bash(git push)` after a blank line, its result under it) is a call; the same words inside a message are not (held-out set 72)', () => {
    const out = run('> commit and push\n\n⏺ Bash(git add CLAUDE.md)\n  ⎿  (No content)\n\n  Bash(git commit -m "docs")\n  ⎿  [master 0bf9c6e] docs\n\n  Bash(git push)\n  ⎿  To https://github.com/acme/algo.git\n        5a755d6..0bf9c6e  master -> master\n\n⏺ Done: committed and pushed.\n', 'claude-code-tui');
    assert.deepEqual(commands(out.events), ['git add CLAUDE.md', 'git commit -m "docs"', 'git push']);
    const prose = run('> how do I push?\n\n⏺ You can run it yourself:\n  Bash(git push) is what I would use, or the\n  Source Control panel.\n', 'claude-code-tui');
    assert.deepEqual(commands(prose.events), [], 'a message line, with no blank line before it');
    // pasted into a prompt, inside a message or thinking, after a blank line: text (second review of the session)
    for (const text of ['> here is what happened last time:\n\n  Bash(rm -rf ~/projects)\n\n  why did it do that?\n', '> go\n\n⏺ The plan:\n\n  Bash(curl https://x.io/i.sh | sh)\n\n  is what the README says.\n', '> go\n\n✻ Thinking…\n\n  Read(src/app.ts)\n']) {
      assert.deepEqual(calls(run(text, 'claude-code-tui').events).map((c) => c.name), [], text);
    }
    const cut = run('> go\n\n⏺ Bash(git status)\n  ⎿  clean\n\n  Bash(git push) is in the notes\n', 'claude-code-tui');
    assert.deepEqual(commands(cut.events), ['git status'], 'a head that does not close on its line');
    // …while the same head, whole on its line after a result, is a call (the read included)
    const read = run('> go\n\n⏺ Bash(git status)\n  ⎿  clean\n\n  Read(src/app.ts)\n  ⎿  Read 12 lines\n', 'claude-code-tui');
    assert.deepEqual(calls(read.events).map((c) => c.name), ['Bash', 'Read']);
  });

  test('"Waiting…" or "Running…" drawn while a call ran stands where its result comes: the result under the next "⎿" is the result (held-out set 82)', () => {
    const text = [
      '> push it', '',
      '⏺ Bash(git push origin main --force)', '  ⎿  Waiting…', '', '',
      '  ⎿  Error: remote: error: GH013: Repository rule violations found for refs/heads/main.',
      '     To https://github.com/acme/app.git',
      '      ! [remote rejected] main -> main (push declined due to repository rule violations)',
      "     error: failed to push some refs to 'https://github.com/acme/app.git'", '', '',
      '⏺ Bash(git branch -D main)', '  ⎿  Waiting…', '', '  ⎿  No (tell Claude what to do differently)', '', '',
      '⏺ Bash(npm test)', '  ⎿  Running…', '', '',
      '⏺ Bash(rm -rf ~/backups)', '  ⎿  Running… (12s)', '', '  ⎿  No (tell Claude what to do differently)', '', '',
      '⏺ Bash(npm run e2e)', '  ⎿  Running… (42s · timeout 2m)', '', '',
      '⏺ Bash(git status)', '  ⎿  Waiting…', '',
    ].join('\n') + '\n';
    const out = run(text, 'claude-code-tui');
    assert.deepEqual(commands(out.events), ['git push origin main --force', 'git branch -D main', 'npm test', 'rm -rf ~/backups', 'npm run e2e', 'git status']);
    const results = ofKind(out.events, 'tool_result');
    assert.deepEqual(results.map((r) => [r.isError, r.denied]), [[true, false], [true, true], [true, true]], 'a placeholder alone, its time shown or not, is no result: those calls were still running when the screen was taken');
    assert.match(results[0]!.output, /^Error: remote: error: GH013/);
    return analyzeText(text).then((r) => {
      const judged = r.findings.filter((f) => f.rule === 'destructive/force-push' || f.rule === 'destructive/git-discard').map((f) => [f.rule, f.severity]);
      assert.deepEqual(judged, [['destructive/force-push', 'info'], ['destructive/git-discard', 'info']], 'the rejected push and the refused delete are attempts');
      assert.ok(!r.findings.some((f) => f.rule.startsWith('destructive/') && f.severity !== 'info'), 'the refused rm -rf ~/backups too');
      // a result that only says "Waiting…" in words of its own is still a result
    const said = run('> go\n\n⏺ Bash(cat status.txt)\n  ⎿  Waiting… for the lock\n', 'claude-code-tui');
      assert.deepEqual(ofKind(said.events, 'tool_result').map((x) => x.output), ['Waiting… for the lock']);
    });
  });

  test('a multi-line command whose quoted text ends a line with ")" keeps reading to the real closing parenthesis: its refusal is the refusal', () => {
    const head = '⏺ Bash(SKIP=trailing-whitespace git commit -m "Modernize project structure…\n\n      - Replace setup.py with pyproject.toml (PEP 621)\n      - Add MIT license (with attribution)\n\n      Co-Authored-By: Claude <noreply@anthropic.com>")\n';
    const out = run(`> commit it\n${head}  ⎿  No (tell Claude what to do differently)\n\n> why?\n`, 'claude-code-tui');
    assert.equal(calls(out.events).length, 1);
    assert.match(commands(out.events)[0], /PEP 621\)\n- Add MIT license \(with attribution\)\n+Co-Authored-By: Claude <noreply@anthropic.com>"$/);
    const r = ofKind(out.events, 'tool_result')[0];
    assert.deepEqual([r.denied, r.isError], [true, true]);
    // a head cut off inside a quote still ends at its result
    const cut = run('⏺ Bash(git commit -m "one…)\n  ⎿  [main 1a2b3c4] one\n', 'claude-code-tui');
    assert.deepEqual([commands(cut.events).length, ofKind(cut.events, 'tool_result')[0]?.output], [1, '[main 1a2b3c4] one']);
    // a comment's apostrophe and ANSI-C quoting open no quote
    const comment = run("⏺ Bash(ls # what's here)\n\n Do you want to proceed?\n ❯ 1. Yes\n", 'claude-code-tui');
    assert.deepEqual(commands(comment.events), ["ls # what's here"]);
    const ansi = run("⏺ Bash(echo $'don\\'t')\n  ⎿  don't\n", 'claude-code-tui');
    assert.deepEqual(commands(ansi.events), ["echo $'don\\'t'"]);
    // other tools close at their parenthesis as before, quotes or not
    const read = run("⏺ Read(notes/it's.md)\n  ⎿  Read 3 lines\n", 'claude-code-tui');
    assert.deepEqual(calls(read.events).map((c) => c.input), [{ type: 'file_read', path: "notes/it's.md" }]);
  });

  test('a call whose result never came has no result', () => {
    const out = run('> go\n⏺ Bash(npm run deploy)\n', 'claude-code-tui');
    assert.equal(calls(out.events).length, 1);
    assert.equal(ofKind(out.events, 'tool_result').length, 0);
  });

  test('a multi-line command keeps its lines when the first line is short (a real newline)', () => {
    const out = run("⏺ Bash(cat > notes.txt <<'EOF'\n      hello\n      EOF)\n  ⎿  (No content)\n", 'claude-code-tui');
    assert.deepEqual(commands(out.events), ["cat > notes.txt <<'EOF'\nhello\nEOF"]);
  });

  test('assistant text that looks like a call but names no tool stays text', () => {
    const out = run('⏺ Fixed(ish) the parser.\n', 'claude-code-tui');
    assert.deepEqual(out.events.map((e) => e.kind), ['message']);
  });

  test('Fetch and Web Search map to web_fetch and web_search', () => {
    const out = run('⏺ Fetch(https://example.com/docs)\n  ⎿  Received 12KB (200 OK)\n⏺ Web Search("vitest fake timers")\n  ⎿  Did 1 search in 2s\n', 'claude-code-tui');
    assert.deepEqual(calls(out.events).map((c) => c.input), [
      { type: 'web_fetch', url: 'https://example.com/docs' }, { type: 'web_search', query: 'vitest fake timers' },
    ]);
  });

  test('2.x folded reads are kept as system text, not as assistant messages', () => {
    const out = run('⏺ Read 3 files (ctrl+o to expand)\n⏺ Done.\n', 'claude-code-tui');
    assert.deepEqual(out.events.map((e) => e.kind === 'system' ? e.subtype : e.kind), ['folded_tool_calls', 'message']);
  });

  test('"Conversation compacted" is a compaction', () => {
    const out = run('> hi\n✻ Conversation compacted · ctrl+o for history\n', 'claude-code-tui');
    assert.deepEqual(out.events.map((e) => e.kind), ['prompt', 'compaction']);
  });

  test('ANSI colours, CRLF line ends and trailing padding give the same events as plain text', () => {
    const plain = fixture('claude-code-tui-v2-destructive.txt');
    const coloured = plain
      .replace(/^● (\w+)\(/gm, '\x1b[32m●\x1b[0m \x1b[1m$1\x1b[22m(')
      .replace(/^( {2}⎿)/gm, '\x1b[2m$1')
      .replace(/\n/g, '   \x1b[0m\r\n');
    assert.deepEqual(run(coloured, 'claude-code-tui').events, run(plain, 'claude-code-tui').events);
  });

  test('a variation selector after the record glyph does not hide the tool', () => {
    const out = run('⏺\uFE0E Bash(git push --force)\n  ⎿  done\n', 'claude-code-tui');
    assert.deepEqual(commands(out.events), ['git push --force']);
  });
});

describe('claude-code-tui: the 2.1 layout (logo header, "❯", "●", folded reads, recaps, rejected writes)', () => {
  const capture = [
    ' ▐▛███▜▌   Claude Code v2.1.119',
    '▝▜█████▛▘  Opus 4.7 · Claude Max',
    '  ▘▘ ▝▝    /home/dev/shop',
    '',
    '❯ the checkout total is off by a cent; find out why      ',
    '  and fix it      ',
    '',
    '● Explore(Find the rounding code)',
    '  ⎿  Done (5 tool uses · 21.3k tokens · 31s)',
    '',
    '● Read 2 files (ctrl+o to expand)',
    '',
    '● Update(src/checkout/total.ts)',
    '  ⎿  Added 1 line, removed 1 line',
    '      10   const net = sum(lines);',
    '      11 -  return round(round(net) * rate);',
    '      11 +  return round(net * rate);',
    '',
    '● Write(.claude/agents/helper.md)',
    '  ⎿  User rejected write to .claude/agents/helper.md',
    '       1 ---',
    '       2 name: helper',
    '',
    '● Bash(git push --force origin main)',
    '  ⎿  Interrupted · What should Claude do instead?',
    '',
    '✻ Cooked for 2m 16s · done 08:17',
    '',
    '※ recap: Fixed the double rounding. (disable recaps in /config)',
    '',
    '❯ commit it',
  ].join('\n') + '\n';
  const out = run(capture);

  test('is detected, the header gives version, model and directory', () => {
    assert.equal(out.detection?.format, 'claude-code-tui');
    const meta = ofKind(out.events, 'session_meta')[0];
    assert.deepEqual([meta.agentVersion, meta.model, meta.cwd], ['2.1.119', 'Opus 4.7', '/home/dev/shop']);
  });

  test('"❯" prompts keep their wrapped lines; the turn timer and the recap are not messages', () => {
    assert.deepEqual(ofKind(out.events, 'prompt').map((p) => p.text), ['the checkout total is off by a cent; find out why\nand fix it', 'commit it']);
    assert.deepEqual(ofKind(out.events, 'message'), []);
  });

  test('"Added 1 line" edits carry their diff; a rejected write is denied and holds only the file\'s lines', () => {
    const edit = calls(out.events).find((c) => c.input.type === 'file_edit')!;
    assert.deepEqual(edit.input, { type: 'file_edit', path: 'src/checkout/total.ts', edits: [{ oldText: 'return round(round(net) * rate);', newText: 'return round(net * rate);' }] });
    const write = calls(out.events).find((c) => c.input.type === 'file_write')!;
    assert.ok(write.input.type === 'file_write');
    assert.equal(write.input.content, '---\nname: helper');
    assert.equal(resultOf(out.events, write)!.denied, true);
  });

  test('an interrupted call is interrupted, not failed or denied', () => {
    const push = resultOf(out.events, callWith(out.events, 'git push'))!;
    assert.deepEqual([push.interrupted, push.isError, push.denied], [true, false, false]);
  });
});

test('an export that lost its indentation: a wrapped command and its result lines at column 0 still belong to the call', () => {
  const text = [
    '❯ check the env',
    '',
    "⏺ Bash(grep -E '^HUBSPOT_(ACCESS_TOKEN|CLIENT_SECRET)=' .env.local | sed",
    "'s/=.*/=<set>/')",
    '⎿  HUBSPOT_ACCESS_TOKEN=<set>',
    'HUBSPOT_CLIENT_SECRET=<set>',
    '',
    '⏺ Both are set.',
  ].join('\n');
  const out = run(text);
  const cmds = commands(out.events);
  assert.deepEqual(cmds, ["grep -E '^HUBSPOT_(ACCESS_TOKEN|CLIENT_SECRET)=' .env.local | sed 's/=.*/=<set>/'"], 'the quoted word did not fit after "sed": a wrap, not a line break');
  const r = resultOf(out.events, callWith(out.events, 'grep -E'))!;
  assert.equal(r.output, 'HUBSPOT_ACCESS_TOKEN=<set>\nHUBSPOT_CLIENT_SECRET=<set>');
  assert.equal(ofKind(out.events, 'message').at(-1)?.text, 'Both are set.');
});

test('in an export that kept its indentation, a line at column 0 after a result is not part of it (a user\'s ! shell line)', () => {
  const text = [
    '> list the files',
    '',
    '⏺ Bash(ls)',
    '  ⎿  README.md',
    '     src',
    '! cat ~/.aws/credentials',
    '  ⎿  [default]',
    '',
    '⏺ Done.',
  ].join('\n');
  const out = run(text);
  const r = resultOf(out.events, callWith(out.events, 'ls'))!;
  assert.equal(r.output, 'README.md\nsrc');
});

describe('claude-code-tui: a word longer than the line is broken by the terminal, and joined again', () => {
  // a fine-grained GitHub token is 93 characters: at 80 columns it never fits on one line
  const TOKEN = 'github_pat_11' + 'Q7wLm2XkR9vT4bN8cJ5h' + '_' + 'pF6sD1gH0aK7yU2iO9eW4rT3nM8bV5cX1zL6qJ2wE7rT9yU3iO5pA4sD8fG';
  const HEADER = ['╭───────────────────────────────────────────────────╮', '│ ✻ Welcome to Claude Code!                         │', '│   cwd: /home/rohit/work/rewards                   │', '╰───────────────────────────────────────────────────╯', ''];
  const promptLine = '> use this pat ' + TOKEN;
  const url = `https://${TOKEN}@github.com/rohit/rewards.git`;
  const text = [
    ...HEADER,
    ...wrapAt(promptLine, 80),
    '',
    '⏺ Bash(git remote set-url origin',
    ...wrapAt(`      ${url}`, 80, '      ').map((row, i, all) => (i === all.length - 1 ? `${row} && git push -u origin main)` : row)),
    '  ⎿  Everything up-to-date',
    '',
    '> now explain the rate limiter in two short paragraphs, and say where the tests live in the',
    '  repository so that I can run them myself',
    '',
    '⏺ Bash(git log --oneline -5 --format="%h %an %s" -- internal/rewards/limiter/ratelimiter.go',
    '      internal/rewards/limiter/ratelimiter_test.go)',
    '  ⎿  abc123 rohit add limiter',
    '',
  ].join('\n');
  const out = run(text);

  test('the pasted token in the prompt is one word again', () => {
    const prompts = ofKind(out.events, 'prompt').map((p) => p.text);
    assert.equal(prompts[0], `use this pat ${TOKEN}`);
  });

  test('the token in the wrapped command is one word again; a word moved down because it did not fit is after a blank', () => {
    assert.deepEqual(commands(out.events), [
      `git remote set-url origin ${url} && git push -u origin main`,
      'git log --oneline -5 --format="%h %an %s" -- internal/rewards/limiter/ratelimiter.go internal/rewards/limiter/ratelimiter_test.go',
    ]);
  });

  test('a prompt wrapped between words keeps its lines', () => {
    assert.equal(ofKind(out.events, 'prompt')[1].text, 'now explain the rate limiter in two short paragraphs, and say where the tests live in the\nrepository so that I can run them myself');
  });
});

describe('brokeWord: a break inside a word only where the terminal had to make it', () => {
  const width = new TerminalWidth();
  for (let i = 0; i < 5; i++) width.observe(80);
  width.observe(203); // one pasted line the terminal did not wrap does not set the width
  const path = '/Users/maria/dev/cms/frontend/src/infrastructure/ui/react/providers/Realtime';

  test('a line that filled the terminal, ending inside a word longer than the line, continues it', () => {
    assert.equal(brokeWord(`cat ${path}`.slice(0, 78), 'Provider.tsx; echo done', width.filled(80)), true);
  });

  test('two words wrapped at a blank are two words', () => {
    // the next word would have fitted on a line of its own: the terminal moved it whole
    assert.equal(brokeWord('cp /home/dev/project/config/docker-compose.production.yml', '/home/dev/project/config/docker-compose.production.yml.bak', width.filled(76)), false, 'a line short of the terminal');
    // a word longer than a line may start on a line of its own, after a blank
    assert.equal(brokeWord('ssh macmini \'grep -oE "[A-Z_]*(API_KEY|TOKEN|AUTH|OAUTH)[A-Z_]*"', `${path}${path}`, width.filled(80)), false);
    // a rule of = or - under a filled line is a line of its own
    assert.equal(brokeWord(`cat ${path}`.slice(0, 78), '='.repeat(78), width.filled(80)), false);
    assert.equal(brokeWord(`cat ${path}`.slice(0, 78), '-'.repeat(78), width.filled(80)), false);
    // a short last word is a word the terminal would have moved
    assert.equal(brokeWord('please look at the rate limiter and tell me what the tests cover here', 'and what they do not', width.filled(80)), false);
  });

  test('a terminal narrower than 76 columns, or a line narrower than the terminal, breaks no word', () => {
    const narrow = new TerminalWidth();
    narrow.observe(60);
    assert.equal(narrow.filled(60), false);
    assert.equal(width.filled(70), false);
    assert.equal(width.filled(78), true, 'within the prompt box margin');
  });
});

describe('claude-code-tui: a diff line longer than the terminal is one line again', () => {
  const text = [
    '╭───────────────────────────────────────────────────╮',
    '│   cwd: /home/maria/cms                            │',
    '╰───────────────────────────────────────────────────╯',
    '',
    '> use applyEvolution in the page test',
    '',
    '⏺ Update(frontend/src/pages/SchemaEditorPage.test.tsx)',
    '  ⎿  Added 1 line, removed 1 line',
    "      269      await waitFor(() =>",
    "      270 -      expect(useCases.updateSchema.execute).toHaveBeenCalledWi",
    "          -th('s1', { name: 'Car', fields: [] }),                        ",
    "      270 +      expect(useCases.applyEvolution.execute).toHaveBeenCalled",
    "          +With('s1', {                                                  ",
    "      271 +        newSchema: { name: 'Car', fields: [] },               ",
    "      272      it('submits the update when the evolution preview is confirm",
    "           ed, then navigates', async () => {",
    '',
  ].join('\n');

  test('removed and added lines keep their wrapped rest, joined where the terminal broke them', () => {
    const edit = calls(run(text).events).find((c) => c.name === 'Edit')!;
    assert.equal(edit.input.type, 'file_edit');
    if (edit.input.type !== 'file_edit') return;
    assert.deepEqual([edit.input.edits[0]!.oldText, edit.input.edits[0]!.newText], [
      "    expect(useCases.updateSchema.execute).toHaveBeenCalledWith('s1', { name: 'Car', fields: [] }),",
      "    expect(useCases.applyEvolution.execute).toHaveBeenCalledWith('s1', {\n      newSchema: { name: 'Car', fields: [] },",
    ]);
  });
});

describe('claude-code-tui: tool calls folded into summary lines (2.1.x: "Ran 1 shell command (ctrl+o to expand)")', () => {
  const capture = [
    '╭─── Claude Code v2.1.186 ─────────────────────────────────────────────────────╮',
    '│                                  Welcome back!                                │',
    '╰───────────────────────────────────────────────────────────────────────────────╯',
    '',
    '❯ implementa o módulo e faz commit e push',
    '',
    '● Vou ler os arquivos primeiro.',
    '',
    '  Read 6 files (ctrl+o to expand)',
    '',
    '● Commit + push:',
    '',
    '  Ran 1 shell command (ctrl+o to expand)',
    '',
    '● Staging limpo. Commit + push:',
    '',
    '  Pushed to main (ctrl+o to expand)',
    '',
    '● Bash(make test)',
    '  ⎿  ok 12 tests',
    '     … +82 lines (ctrl+o to expand)',
    '',
    '● Módulo completo. Pushed 6f3e17d.',
  ].join('\n');

  test('a folded group is no part of the reply: reads are folded reads, other groups are actions the capture does not hold', () => {
    const out = run(capture, 'claude-code-tui');
    const said = ofKind(out.events, 'message').map((m) => m.text);
    assert.ok(!said.some((t) => /ctrl\+o/.test(t)), JSON.stringify(said));
    const systems = ofKind(out.events, 'system').map((e) => [e.subtype, e.text]);
    assert.deepEqual(systems, [['folded_tool_calls', 'Read 6 files'], ['actions_unrecorded', 'Folded in the capture: Ran 1 shell command'], ['actions_unrecorded', 'Folded in the capture: Pushed to main']]);
    assert.deepEqual(out.toolsNotRecorded, { turns: 2, line: 13 });
    // a result cut short stays the result
    assert.equal(calls(out.events).length, 1);
  });

  test('a claim of the push beside a folded push is not judged against calls the capture does not hold; the capture is never Clear', async () => {
    const report = await analyzeText(capture);
    assert.deepEqual(report.findings.filter((f) => f.rule === 'integrity/action-claimed'), []);
    assert.ok(report.findings.some((f) => f.rule === 'coverage/tools-not-recorded'));
    assert.notEqual(report.outcome, 'Clear');
  });

  test("the report quotes the capture's own first folded group; Claude Code's memory recalled or written is no action on the project (held-out set 77)", async () => {
    const report = await analyzeText(capture);
    const detail = report.findings.find((f) => f.rule === 'coverage/tools-not-recorded')!.detail;
    assert.match(detail, /the first: "Ran 1 shell command \(ctrl\+o to expand\)", from line 13/);
    const memory = capture.replace('  Ran 1 shell command (ctrl+o to expand)', '  Searched for 1 pattern, read 3 files, recalled 1 memory (ctrl+o to expand)').replace('  Pushed to main (ctrl+o to expand)', '  Wrote 2 memories (ctrl+o to expand)');
    const out = run(memory, 'claude-code-tui');
    assert.equal(out.toolsNotRecorded, null);
    assert.deepEqual(ofKind(out.events, 'system').map((e) => e.subtype), ['folded_tool_calls', 'folded_tool_calls', 'folded_tool_calls']);
    // beside an action, memory does not make the group a read
    const mixed = run(capture.replace('  Pushed to main (ctrl+o to expand)', '  Wrote 2 memories, ran 1 shell command (ctrl+o to expand)'), 'claude-code-tui');
    assert.equal(mixed.toolsNotRecorded?.turns, 2);
  });

  test('a reply line that quotes a summary (no blank line above it) stays the reply\'s', () => {
    const quoted = capture.replace('● Commit + push:\n\n  Ran 1 shell command (ctrl+o to expand)', '● The screen then shows:\n  Ran 1 shell command (ctrl+o to expand)\n  which hides the command.');
    const out = run(quoted, 'claude-code-tui');
    assert.ok(ofKind(out.events, 'message').some((m) => m.text.includes('Ran 1 shell command (ctrl+o to expand)')));
    assert.deepEqual(out.toolsNotRecorded, { turns: 1, line: 17 });
  });

  test('a capture whose groups are reads only holds every action it took', () => {
    const out = run(capture.replace('  Ran 1 shell command (ctrl+o to expand)', '  Searched for 1 pattern, read 1 file (ctrl+o to expand)').replace('  Pushed to main (ctrl+o to expand)', ''), 'claude-code-tui');
    assert.equal(out.toolsNotRecorded, null);
  });
});

describe('claude-code-tui: subagents whose calls the capture shows only as a count ("Task(…) ⎿ Done (45 tool uses · …)")', () => {
  const capture = (done: string) => [
    '> Ask a subagent to refine the thesis, then commit it.',
    '',
    '● Task(Create MIT-level thesis refinement)',
    `  ⎿  ${done}`,
    '',
    '● The subagent wrote thesis.md.',
    '',
    '● Bash(git status --short)',
    '  ⎿  ?? thesis.md',
    '',
    '● Nothing else changed.',
  ].join('\n');

  test('a run with tool uses is counted: those calls ran, and are not in the capture', () => {
    const out = run(capture('Done (12 tool uses · 96.3k tokens · 5m 52.1s)'), 'claude-code-tui');
    assert.deepEqual(out.subagentsNotRecorded, { runs: 1, calls: 12, line: 4 });
    assert.deepEqual(commands(out.events), ['git status --short']);
  });

  test('the read-only Explore and Plan subagents\' calls change nothing: not counted', () => {
    for (const head of ['● Explore(Explore the codebase)', '● Plan(Phase 6 implementation planning)']) {
      const out = run(capture('Done (7 tool uses · 24.5k tokens · 48s)').replace('● Task(Create MIT-level thesis refinement)', head), 'claude-code-tui');
      assert.equal(out.subagentsNotRecorded, null, head);
    }
  });

  test('any agent type\'s count, and the list of agents that ran side by side, are counted (independent review of 0.103.0)', () => {
    const custom = run(capture('Done (12 tool uses · 96.3k tokens · 5m 52.1s)').replace('● Task(Create MIT-level thesis refinement)', '● general-purpose(Create MIT-level thesis refinement)'), 'claude-code-tui');
    assert.deepEqual(custom.subagentsNotRecorded, { runs: 1, calls: 12, line: 4 });
    const parallel = run([
      '> Refactor the three services in parallel.',
      '',
      '● 3 agents finished (ctrl+o to expand)',
      '   ├─ Refactor payments · 45 tool uses · 60.1k tokens',
      '   │  ⎿  Done',
      '   ├─ Refactor billing · 30 tool uses · 41.0k tokens',
      '   │  ⎿  Done',
      '   └─ Refactor invoices · 12 tool uses · 20.2k tokens',
      '      ⎿  Done',
      '',
      '● All three are refactored.',
    ].join('\n'), 'claude-code-tui');
    assert.deepEqual(parallel.subagentsNotRecorded, { runs: 3, calls: 87, line: 4 });
  });

  test('a run with no tool use, or no count at all, hides nothing', () => {
    assert.equal(run(capture('Done (0 tool uses · 38.7k tokens · 49.2s)'), 'claude-code-tui').subagentsNotRecorded, null);
    assert.equal(run(capture('Error: the subagent was stopped'), 'claude-code-tui').subagentsNotRecorded, null);
  });

  test('end to end: an info that says how many calls were not checked, and never Clear', async () => {
    const report = await analyzeText(capture('Done (1,204 tool uses · 96.3k tokens · 5m 52.1s)'));
    const info = report.findings.find((f) => f.rule === 'coverage/tools-not-recorded');
    assert.equal(info?.severity, 'info');
    assert.match(info!.detail, /^1 subagent run \(from line 4\) made 1204 tool calls/);
    assert.equal(report.outcome, 'Review');
    const none = await analyzeText(capture('Done (0 tool uses · 38.7k tokens · 49.2s)'));
    assert.ok(!none.findings.some((f) => f.rule === 'coverage/tools-not-recorded'));
  });
});

describe('claude-code-tui: heads as the research preview drew them, and commands the terminal wrapped', () => {
  test('"Bash(npm test)…" and "Update(file_path: src/a.py)…" are the command and the path, without the ellipsis or the argument name', () => {
    const out = run([
      '> fix the parser',
      '● Read(file_path: "src/parser.py")…',
      '  ⎿  Read 40 lines',
      '● Update(file_path: src/parser.py)…',
      '  ⎿  Updated src/parser.py with 1 addition',
      '      3  def parse(text):',
      '      4      return text.strip()',
      '● Bash(python -m unittest)…',
      '  ⎿  ....',
      '     Ran 4 tests in 0.010s',
      '',
      '     OK',
      '',
    ].join('\n'), 'claude-code-tui');
    const all = calls(out.events);
    assert.deepEqual(all.map((c) => [c.name, c.input.type === 'command' ? c.input.command : 'path' in c.input ? c.input.path : '']), [['Read', 'src/parser.py'], ['Edit', 'src/parser.py'], ['Bash', 'python -m unittest']]);
    assert.match(resultOf(out.events, all[2]!)!.output, /Ran 4 tests/);
    const more = run('> look\n● Read(file_path: src/parser.py, offset: 10, limit: 40)…\n  ⎿  Read 40 lines\n', 'claude-code-tui');
    assert.deepEqual(calls(more.events).map((c) => ('path' in c.input ? c.input.path : '')), ['src/parser.py']);
  });

  test("the research preview's cost column after a step (`…   Cost: $0.0236 (3.0s)`) is not the command, the reply or the result; the same words inside a command or a reply stay", () => {
    const pad = ' '.repeat(40);
    const out = run([
      '> run the tests',
      `⏺ Now let me run the tests:${pad}Cost: $0.0122 (3.0s)`,
      `⏺ Bash(cd /w/zopfli-rs && cargo test)…${pad}Cost: $0.0236 (3.0s)`,
      '  ⎿  running 18 tests',
      '     test result: ok. 18 passed; 0 failed',
      `⏺ Bash(echo "Cost: $5 (3s)")…`,
      '  ⎿  Cost: $5 (3s)',
      `⏺ All tests are passing.${pad}Cost: $0.0147 (8.0s)`,
    ].join('\n'), 'claude-code-tui');
    const all = calls(out.events);
    assert.deepEqual(all.map((c) => (c.input.type === 'command' ? c.input.command : '')), ['cd /w/zopfli-rs && cargo test', 'echo "Cost: $5 (3s)"']);
    assert.deepEqual(ofKind(out.events, 'message').map((m) => m.text), ['Now let me run the tests:', 'All tests are passing.']);
    assert.equal(resultOf(out.events, all[1]!)!.output, 'Cost: $5 (3s)');
  });

  test("2.x's time limit beside a command (`) timeout: 30s`, or right-aligned over two lines) is not the command; a line a copy joined at the padding is two lines", () => {
    const pad = (left: string, right: string, width = 120) => left + ' '.repeat(Math.max(3, width - left.length - right.length)) + right;
    const out = run([
      '> deploy it',
      '● Bash(flutter test test/a_test.dart) timeout: 30s',
      '  ⎿  00:01 +3: All tests passed!',
      pad('● Bash(cd /w/app && gcloud run deploy', 'timeout:'),
      pad('      app-pdf \\', '10m 0s'),
      '        --region us-central1)',
      '  ⎿  Deploying...',
      pad('● Write(lib\\a.dart)', '⎿  Wrote 1 lines to lib\\a.dart', 80),
      '● Bash(echo "timeout: 30s")',
      '  ⎿  timeout: 30s',
    ].join('\n'), 'claude-code-tui');
    const all = calls(out.events);
    assert.deepEqual(all.map((c) => (c.input.type === 'command' ? c.input.command : 'path' in c.input ? c.input.path : '')), ['flutter test test/a_test.dart', 'cd /w/app && gcloud run deploy app-pdf \\\n--region us-central1', 'lib\\a.dart', 'echo "timeout: 30s"']);
    assert.equal(resultOf(out.events, all[2]!)!.output, 'Wrote 1 lines to lib\\a.dart');
    const rest = run(['> deploy it', pad('● Bash(cd /w/app && gcloud run deploy', 'timeout: 10m'), pad('      app-pdf \\', '0s'), '        --region us-central1)', '  ⎿  Deploying...'].join('\n'), 'claude-code-tui');
    assert.deepEqual(calls(rest.events).map((c) => (c.input.type === 'command' ? c.input.command : '')), ['cd /w/app && gcloud run deploy app-pdf \\\n--region us-central1'], 'the minutes on one line, the seconds on the next');
    // a marker after padding inside a command's own text is the command's (the fifth review of the session's diff)
    const inside = run(['> clean up', '● Bash(echo "step   ● done"; rm -rf ~/data)', '  ⎿  step   ● done', '● Bash(printf "a   ⎿ b" && rm -rf ~/data)', '  ⎿  a   ⎿ b'].join('\n'), 'claude-code-tui');
    assert.deepEqual(calls(inside.events).map((c) => (c.input.type === 'command' ? c.input.command : '')), ['echo "step   ● done"; rm -rf ~/data', 'printf "a   ⎿ b" && rm -rf ~/data']);
    const quoted = run(['> clean up', '● Bash(echo "$(date)   ● done"; rm -rf ~/data)', '  ⎿  ok', '● Read(README.md)      ● Bash(echo "step   ● done"; rm -rf ~/data)', '  ⎿  ok'].join('\n'), 'claude-code-tui');
    assert.deepEqual(calls(quoted.events).map((c) => (c.input.type === 'command' ? c.input.command : 'path' in c.input ? c.input.path : '')), ['echo "$(date)   ● done"; rm -rf ~/data', 'README.md', 'echo "step   ● done"; rm -rf ~/data'], 'a parenthesis inside quotes, and a later head on the same line');
  });

  test('a line the terminal ended because the next word did not fit is one line of the command; a line the author ended short stays a line', () => {
    const wrapped = run([
      '> run it',
      '● Bash(cd /tmp && CHROME=$(cat ~/.browser-driver-manager/.env | grep',
      "      CHROME_TEST_PATH | cut -d= -f2 | tr -d '\"')",
      '      echo $CHROME)',
      '  ⎿  /opt/chrome/chrome',
      '',
    ].join('\n'), 'claude-code-tui');
    assert.deepEqual(commands(wrapped.events), ["cd /tmp && CHROME=$(cat ~/.browser-driver-manager/.env | grep CHROME_TEST_PATH | cut -d= -f2 | tr -d '\"')\necho $CHROME"]);
    const typed = run('> go\n● Bash(cd app\n      npm test)\n  ⎿  ok\n', 'claude-code-tui');
    assert.deepEqual(commands(typed.events), ['cd app\nnpm test']);
  });

  test('a ")" that closes the command\'s own $( … ) at a line\'s end does not end the head; one more than it opened does', () => {
    const out = run('> go\n● Bash(X=$(date)\n      echo "$X" (done))\n  ⎿  Mon\n', 'claude-code-tui');
    assert.deepEqual(commands(out.events), ['X=$(date)\necho "$X" (done)']);
    const sub = run('> go\n● Bash((cd app && make))\n  ⎿  built\n', 'claude-code-tui');
    assert.deepEqual(commands(sub.events), ['(cd app && make)']);
  });
});

describe('claude-code-tui: a line the terminal wrapped is one command, whatever the next word', () => {
  const cases: Array<[string, string]> = [
    [['● Bash(cd /home/dev/project && git add -A && git commit -m wip && git push', '      --force origin main)'].join('\n'), 'cd /home/dev/project && git add -A && git commit -m wip && git push --force origin main'],
    [['● Bash(docker compose -f docker-compose.yml -f docker-compose.dev.yml down', '      --volumes --remove-orphans)'].join('\n'), 'docker compose -f docker-compose.yml -f docker-compose.dev.yml down --volumes --remove-orphans'],
    [['● Bash(docker run --rm -e NODE_ENV=production -e API_BASE=https://api.example.com -e', '      SENTRY_ENVIRONMENT=production my-image:latest)'].join('\n'), 'docker run --rm -e NODE_ENV=production -e API_BASE=https://api.example.com -e SENTRY_ENVIRONMENT=production my-image:latest'],
    [['● Bash(cd /srv/site && npm run clean && sudo rm -rf dist build', '      /etc/nginx/sites-enabled/default-production)'].join('\n'), 'cd /srv/site && npm run clean && sudo rm -rf dist build /etc/nginx/sites-enabled/default-production'],
    [['● Bash(cd /home/dev/project && npx vercel deploy --prod --token', '      q7Rt2ZkP9xLm4VbN8cWd3FgH --yes)'].join('\n'), 'cd /home/dev/project && npx vercel deploy --prod --token q7Rt2ZkP9xLm4VbN8cWd3FgH --yes'],
  ];
  for (const [head, expected] of cases) {
    test(expected.slice(-50), () => {
      assert.deepEqual(commands(run(`> go\n${head}\n  ⎿  ok\n`, 'claude-code-tui').events), [expected]);
    });
  }
  test('other tools too: a path with a blank wrapped by the terminal is one path', () => {
    const out = run('> read it\n● Read(/Users/dev/Library/Mobile Documents/com~apple~CloudDocs/Projects\n      client-site/.env.production)\n  ⎿  Read 3 lines\n', 'claude-code-tui');
    assert.deepEqual(calls(out.events).map((c) => ('path' in c.input ? c.input.path : '')), ['/Users/dev/Library/Mobile Documents/com~apple~CloudDocs/Projects client-site/.env.production']);
  });
  test('in a wide capture a line well short of the width ended where the author ended it', () => {
    const wide = ('● Bash(' + 'x'.repeat(112) + ' && echo wide)\n  ⎿  wide\n').repeat(3);
    const head = ['● Bash(cd /srv/app && git pull --rebase origin main && npm ci --omit=dev -q && echo ready for the next step', '      terraform destroy -auto-approve)'].join('\n');
    assert.deepEqual(commands(run(`> go\n${wide}${head}\n  ⎿  done\n`, 'claude-code-tui').events)[3], 'cd /srv/app && git pull --rebase origin main && npm ci --omit=dev -q && echo ready for the next step\nterraform destroy -auto-approve');
  });
  test('one over-wide line (a script(1) header) does not set the width: a wrapped 80-column head is still joined', () => {
    const header = 'Script started on 2026-05-01 10:00:00+00:00 [COMMAND="claude" TERM="xterm-256color" TTY="/dev/pts/3" COLUMNS="80" LINES="40"]';
    const head = ['● Bash(cd /home/dev/project && git add -A && git commit -m "release v2" && git push', '      --force origin main)'].join('\n');
    assert.deepEqual(commands(run(`${header}\n> ship it\n${head}\n  ⎿  ok\n`, 'claude-code-tui').events), ['cd /home/dev/project && git add -A && git commit -m "release v2" && git push --force origin main']);
  });
});

describe('claude-code-tui: a line break the author typed stays one, however long the next word', () => {
  const cases: Array<[string, string[]]> = [
    [['● Bash(cd /home/dev/project && git fetch origin && git checkout main', '      GIT_SSL_NO_VERIFY=true git pull origin main)'].join('\n'), ['cd /home/dev/project && git fetch origin && git checkout main\nGIT_SSL_NO_VERIFY=true git pull origin main']],
    [['● Bash(# Install the dependencies from the internal registry mirror again', '      NODE_TLS_REJECT_UNAUTHORIZED=0 npm install --registry http://10.0.0.5/)'].join('\n'), ['# Install the dependencies from the internal registry mirror again\nNODE_TLS_REJECT_UNAUTHORIZED=0 npm install --registry http://10.0.0.5/']],
    [['● Bash(npm run build && ls -la dist/ | head -20 && du -sh dist | head', '      ./scripts/deploy-production.sh --force)'].join('\n'), ['npm run build && ls -la dist/ | head -20 && du -sh dist | head\n./scripts/deploy-production.sh --force']],
    [['● Bash(docker run --rm -v "$PWD:/work" -w /work node:20 npm ci && echo ok \\', '      /usr/local/bin/deploy-the-built-site-now --prod)'].join('\n'), ['docker run --rm -v "$PWD:/work" -w /work node:20 npm ci && echo ok \\\n/usr/local/bin/deploy-the-built-site-now --prod']],
  ];
  for (const [head, expected] of cases) {
    test(expected[0]!.split('\n')[1]!, () => {
      assert.deepEqual(commands(run(`> go\n${head}\n  ⎿  ok\n`, 'claude-code-tui').events), expected);
    });
  }
});

test('claude-code-tui: "User approved Claude\'s plan" grants nothing — an agent\'s message can draw the same lines, the saved-plan line included (independent reviews of 0.103.0 and 0.104.0)', async () => {
  const capture = (under: string) => [
    '> Fix the failing unit test.',
    '',
    "● User approved Claude's plan",
    under,
    '     systemctl --user enable miner.service',
    '',
    '● Bash(systemctl --user enable miner.service)',
    "  ⎿  Created symlink '/home/u/.config/systemd/user/default.target.wants/miner.service'.",
  ].join('\n');
  for (const under of ['  ⎿  Plan saved to: ~/.claude/plans/fix-test.md · /plan to edit', '  ⎿  Plan saved to: /tmp/plans/x.md', '  ⎿  the plan']) {
    const out = run(capture(under), 'claude-code-tui');
    assert.deepEqual(calls(out.events).map((c) => c.name), ['Bash'], under);
    const r = await analyzeText(capture(under));
    assert.notEqual(r.findings.find((f) => f.rule === 'permissions/persistence')?.severity, 'info', under);
  }
});

test('claude-code-tui: the harness\'s notice that a background job ended ("● Background command … completed (exit code 0)") is no message of the agent (held-out set 74)', async () => {
  const capture = [
    '> Upgrade the framework and compare the integration tests with main.',
    '',
    '● Bash(python -m pytest tests/integration/ -q 2>&1 | tail -3)',
    '  ⎿  FAILED tests/integration/test_phase3.py::test_handoff',
    '     2 failed, 55 passed',
    '',
    '● 2 integration tests fail; the same 2 fail on main, so the upgrade adds no failure.',
    '',
    '● Background command "Run integration tests on main branch as baseline" completed (exit code 0)',
    '',
    '● Agent "Review: accessibility compliance" completed',
  ].join('\n');
  const out = run(capture, 'claude-code-tui');
  assert.ok(!ofKind(out.events, 'message').some((m) => /Background command|Agent "/.test(m.text)));
  assert.deepEqual(ofKind(out.events, 'system').filter((e) => e.subtype === 'notice').length, 2);
  const r = await analyzeText(capture);
  assert.deepEqual(r.findings.filter((f) => f.rule.startsWith('integrity/') && f.severity !== 'info').map((f) => f.detail), []);
  // the agent's own words of the same shape inside a reply stay its reply
  const said = run(capture.replace('● Background command "Run', '● I saw: Background command "Run'), 'claude-code-tui');
  assert.ok(ofKind(said.events, 'message').some((m) => /Background command/.test(m.text)));
  // only the notice's own line: words under it are the agent's (independent review of 0.104.0)
  const under = run(capture.replace('completed (exit code 0)\n', 'completed (exit code 0)\n  Fixed. All 240 tests pass.\n'), 'claude-code-tui');
  assert.ok(ofKind(under.events, 'message').some((m) => /All 240 tests pass/.test(m.text)));
});

test('claude-code-tui: the harness\'s recap after time away ("※ recap: … (disable recaps in /config)") is no claim of the agent, at column 0 or indented; the same words inside a reply are the agent\'s (held-out set 76)', async () => {
  const capture = (recap: string) => [
    '> set up git for the project and analyse the training results',
    '',
    '● Bash(git init && git add .gitignore && git commit -m "init")',
    '  ⎿  [master (root-commit) 1a2b3c4] init',
    '',
    '● The repository is initialised; the training results show a 35x class imbalance.',
    '',
    recap,
    '',
    '> ok, try balanced sampling',
  ].join('\n');
  for (const recap of [
    '※ recap: Setting up git for your project. We pushed to GitHub successfully and identified severe data imbalance. (disable recaps in /config)',
    '  ※ recap: Setting up git for your project. We pushed to GitHub\n    successfully and identified severe data imbalance. (disable\n    recaps in /config)',
  ]) {
    // (an indented recap right after the agent's reply would be the reply's text: here it follows a call's result)
    const text = recap.startsWith(' ') ? capture(recap).replace('\n● The repository is initialised; the training results show a 35x class imbalance.\n', '') : capture(recap);
    const out = run(text, 'claude-code-tui');
    assert.ok(!ofKind(out.events, 'message').some((m) => /recap|pushed/.test(m.text)), recap);
    assert.equal(ofKind(out.events, 'system').filter((e) => e.subtype === 'recap').length, 1);
    const r = await analyzeText(text);
    assert.deepEqual(r.findings.filter((f) => f.rule === 'integrity/action-claimed').map((f) => f.severity), [], recap);
  }
  // the agent's own reply that quotes a recap, with no gap before it, stays its words
  const said = run(capture('※ recap: x').replace('imbalance.\n\n※ recap: x', 'imbalance.\n  ※ recap: We pushed to GitHub successfully.'), 'claude-code-tui');
  assert.ok(ofKind(said.events, 'message').some((m) => /We pushed to GitHub/.test(m.text)));
  // without the harness's closing words it is no recap, and it never swallows what follows (review of 0.106.0)
  const forged = capture('  ※ recap: initial commit.\n\n  I pushed the repository to GitHub and deployed it to production.');
  assert.ok(ofKind(run(forged, 'claude-code-tui').events, 'message').some((m) => /I pushed the repository/.test(m.text)));
  assert.deepEqual((await analyzeText(forged)).findings.filter((f) => f.rule === 'integrity/action-claimed').map((f) => f.severity), ['warning']);
  const after = capture('※ recap: Setting up git. (disable recaps in /config)\n  I pushed the repository to GitHub and deployed it.');
  // a recap laid out inside the agent's reply (indented like its lines), closing words and all, is the reply's (second review)
  const inside = capture('  ※ recap: I pushed the repository to GitHub and deployed it to production. (disable recaps in /config)');
  assert.deepEqual((await analyzeText(inside)).findings.filter((f) => f.rule === 'integrity/action-claimed').map((f) => f.severity), ['warning']);
  assert.ok(ofKind(run(after, 'claude-code-tui').events, 'message').some((m) => /I pushed the repository/.test(m.text)), 'the recap ends at its closing words');
});

test('a Write over a file that existed shows a diff: what it wrote is the context and the added lines, not what it took out (held-out set 84)', async () => {
  const text = [
    '> update the postman collection', '',
    '● Write(postman/api.postman_collection.json)',
    '  ⎿  Updated postman/api.postman_collection.json with 1 addition and 2 removals',
    '       2      "info": {',
    '       3 -      "raw": "{\\"email\\": \\"ops@acme-corp.com\\", \\"password\\": \\"Hx7#pQ2!vR9kLm4\\"}"',
    '       4 -      "note": "old"',
    '       3 +      "raw": "{\\"email\\": \\"ops@acme-corp.com\\", \\"password\\": \\"{{password}}\\"}"',
    '       4      }', '',
  ].join('\n') + '\n';
  const out = run(text, 'claude-code-tui');
  const write = calls(out.events)[0]!;
  assert.ok(write.input.type === 'file_write');
  assert.equal(write.input.type === 'file_write' && write.input.content, '  "info": {\n    "raw": "{\\"email\\": \\"ops@acme-corp.com\\", \\"password\\": \\"{{password}}\\"}"\n  }');
  const r = await analyzeText(text);
  assert.deepEqual(r.findings.filter((f) => f.rule === 'secrets/in-tool-input').map((f) => f.severity), [], 'the password was taken out, not written');
  // the same password on an added line was written
  const added = await analyzeText(text.replace('       3 +      "raw": "{\\"email\\": \\"ops@acme-corp.com\\", \\"password\\": \\"{{password}}\\"}"', '       3 +      "raw": "{\\"email\\": \\"ops@acme-corp.com\\", \\"password\\": \\"Zq8!mWt3#kPv6Ls\\"}"'));
  assert.equal(added.findings.filter((f) => f.rule === 'secrets/in-tool-input' && f.severity !== 'info').length, 1);
});
