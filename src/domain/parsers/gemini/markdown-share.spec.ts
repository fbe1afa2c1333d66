// Gemini CLI's `/chat share file.md` export: read back into the history it was rendered from, so
// it yields the same events as that history, and is judged like it.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { gemini } from '../gemini.ts';
import { drive } from './drive.testing.ts';
import { analyzeText } from '../../analyze.ts';
import type { NormEvent } from '../../model/events.ts';

interface Part { text?: string; functionCall?: object; functionResponse?: object }
interface Content { role: 'user' | 'model'; parts: Part[] }

/** How Gemini CLI renders a history (serializeHistoryToMarkdown in its chat command), restated for the test. */
function share(history: Content[], icon = '🧑\u200d💻', emojiFirst = false): string {
  return history.map((item) => {
    const text = item.parts.map((part) => {
      if (part.text) return part.text;
      if (part.functionCall) return `**Tool Command**:\n\`\`\`json\n${JSON.stringify(part.functionCall, null, 2)}\n\`\`\``;
      if (part.functionResponse) return `**Tool Response**:\n\`\`\`json\n${JSON.stringify(part.functionResponse, null, 2)}\n\`\`\``;
      return '';
    }).join('');
    const emoji = item.role === 'user' ? icon : '✨';
    const heading = emojiFirst ? `${emoji} ## ${item.role.toUpperCase()}` : `## ${item.role.toUpperCase()} ${emoji}`;
    return `${heading}\n\n${text}`;
  }).join('\n\n---\n\n');
}

const HISTORY: Content[] = [
  { role: 'user', parts: [{ text: 'This is the Gemini CLI. We are setting up the context for our chat.\nI\'m currently working in the directory: /home/dev/shop\nHere is the folder structure:\n\n---\n\n/home/dev/shop/\n├───README.md' }] },
  { role: 'user', parts: [{ text: 'Clean up the build folder and show me the .env, then push.\n\n## Notes\n\nkeep it short' }] },
  { role: 'model', parts: [{ text: 'I will look first.' }, { functionCall: { id: 'c1', name: 'run_shell_command', args: { command: 'rm -rf build && cat .env', description: 'clean' } } }, { functionCall: { id: 'c2', name: 'read_file', args: { file_path: 'README.md' } } }] },
  { role: 'user', parts: [{ functionResponse: { id: 'c1', name: 'run_shell_command', response: { output: 'Output: PORT=8080\nProcess Group PGID: 4242' } } }, { functionResponse: { id: 'c2', name: 'read_file', response: { output: '# Shop\n\n---\n\n```js\nx()\n```' } } }] },
  { role: 'model', parts: [{ text: 'Done. Pushing now.' }, { functionCall: { id: 'c3', name: 'run_shell_command', args: { command: 'git push --force origin main' } } }] },
  { role: 'user', parts: [{ functionResponse: { id: 'c3', name: 'run_shell_command', response: { error: '[Operation Cancelled] Reason: User denied execution.' } } }] },
  { role: 'model', parts: [{ text: 'You declined the push; nothing was pushed.' }] },
];

/** What an event says, without where it was (line numbers differ between the two forms). */
function gist(events: NormEvent[]): unknown[] {
  return events.map(({ line: _line, index: _index, at: _at, ...rest }) => rest);
}

describe('gemini-markdown: `/chat share` Markdown is read as the history it was made from', () => {
  test('detected as Gemini CLI, unmistakably, with either form of the user icon', () => {
    assert.deepEqual(drive(gemini, share(HISTORY)).detection, { format: 'gemini-markdown', score: 0.95 });
    assert.deepEqual(drive(gemini, share(HISTORY, '🧑💻')).detection, { format: 'gemini-markdown', score: 0.95 });
    assert.deepEqual(drive(gemini, share(HISTORY, '🧑\u200d💻', true)).detection, { format: 'gemini-markdown', score: 0.95 }, 'the emoji first, as builds of late 2025 wrote it');
    assert.deepEqual(drive(gemini, share(HISTORY).replace(/^## USER/, '# USER')).detection, { format: 'gemini-markdown', score: 0.95 }, 'the first heading made the document\'s title');
    assert.deepEqual(gist(drive(gemini, share(HISTORY).replace(/^## USER/, '# USER')).events), gist(drive(gemini, share(HISTORY)).events));
    assert.equal(drive(gemini, '## USER notes\n\nsome text\n').detection, null, 'a heading that is not the CLI\'s');
    assert.equal(drive(gemini, '✨ ## USER notes\n\nsome text\n').detection, null, 'nor with the emoji first');
    assert.equal(drive(gemini, '# Title\n\n## USER 🧑‍💻\n\nhi\n').detection, null, 'a document that does not open with a turn');
  });

  test('a YAML front matter block above the first turn (a note vault\'s, a static site\'s) is not part of the export', () => {
    for (const head of ['---\ntags: [ai-log, archived]\n---\n\n', '---\ntitle: "Chat"\ndate: 2026-05-07\n...\n', '\n---\n---\n\n']) {
      const out = drive(gemini, head + share(HISTORY));
      assert.deepEqual(out.detection, { format: 'gemini-markdown', score: 0.95 }, JSON.stringify(head));
      assert.deepEqual(gist(out.events), gist(drive(gemini, share(HISTORY)).events), JSON.stringify(head));
      assert.deepEqual(out.skips, [], 'the file\'s metadata is no unread part of the session');
    }
    // a block that never closes before the first turn was text after all: its lines are skipped
    const unclosed = drive(gemini, '---\ntags: [x]\n' + share(HISTORY), 'gemini-markdown');
    assert.deepEqual(unclosed.skips.map((k) => k.line), [1, 2]);
    assert.deepEqual(gist(unclosed.events), gist(drive(gemini, share(HISTORY)).events));
    // the export must still open the document once the block is set aside
    assert.equal(drive(gemini, '---\ntags: [x]\n---\n\n# Title\n\n## USER 🧑\u200d💻\n\nhi\n').detection, null, 'front matter, then a document of its own');
    assert.equal(drive(gemini, '---\n\n## USER 🧑\u200d💻\n\nhi\n').detection, null, 'a rule line that closes nothing is no front matter');
  });

  test('the same events as the JSON history, turn for turn (text with "---" and headings of its own included)', () => {
    const fromMarkdown = drive(gemini, share(HISTORY));
    const fromJson = drive(gemini, JSON.stringify(HISTORY, null, 2) + '\n', 'gemini-history');
    assert.deepEqual(fromMarkdown.skips, []);
    assert.deepEqual(gist(fromMarkdown.events), gist(fromJson.events));
    assert.ok(fromMarkdown.events.some((e) => e.kind === 'tool_call' && e.callId === 'c3'));
    const emojiFirst = drive(gemini, share(HISTORY, '🧑\u200d💻', true));
    assert.deepEqual(emojiFirst.skips, []);
    assert.deepEqual(gist(emojiFirst.events), gist(fromJson.events), 'the emoji-first headings read the same');
  });

  test('calls without ids are answered by responses that carry one (exports of late 2025): the oldest open call of that tool', () => {
    const history: Content[] = [
      { role: 'user', parts: [{ text: 'Build it' }] },
      { role: 'model', parts: [{ functionCall: { name: 'run_shell_command', args: { command: 'npm run build' } } as never }] },
      { role: 'user', parts: [{ functionResponse: { id: 'run_shell_command-1763858346007-3c82', name: 'run_shell_command', response: { output: 'Command: npm run build\nOutput: built\nError: (none)\nExit Code: 0' } } }] },
    ];
    const out = drive(gemini, share(history, '🧑\u200d💻', true));
    const call = out.events.find((e) => e.kind === 'tool_call');
    const result = out.events.find((e) => e.kind === 'tool_result');
    assert.ok(call && result && call.kind === 'tool_call' && result.kind === 'tool_result');
    assert.equal(result.callId, call.callId);
    assert.equal(result.exitCode, 0);
  });

  test('events point at the line of their turn', () => {
    const md = share(HISTORY);
    const out = drive(gemini, md);
    const lines = md.split('\n');
    const call = out.events.find((e) => e.kind === 'tool_call' && e.callId === 'c1')!;
    assert.match(lines[call.line - 1]!, /^## MODEL ✨$/);
  });

  test('a block whose JSON does not parse, or that never closes, is skipped with a reason and the rest is read', () => {
    const broken = share(HISTORY).replace('"name": "read_file",\n  "args"', '"name": read_file,\n  "args"');
    const out = drive(gemini, broken);
    assert.equal(out.skips.length, 1);
    assert.match(out.skips[0]!.reason, /does not parse/);
    assert.ok(out.events.some((e) => e.kind === 'tool_call' && e.callId === 'c3'), 'later turns are read');
    const cut = share(HISTORY).split('\n').slice(0, 30).join('\n');
    assert.match(drive(gemini, cut).skips.at(-1)!.reason, /never closes/);
  });

  test('judged like the history: the denied force push is an attempt, the delete of build output and the .env read are seen', async () => {
    const r = await analyzeText(share(HISTORY));
    assert.equal(r.format, 'gemini-markdown');
    assert.equal(r.agent, 'gemini-cli');
    const push = r.findings.find((f) => f.rule === 'destructive/force-push');
    assert.ok(push, 'the push is on record');
    assert.equal(push.severity, "warning", "a critical act the user refused: at most a warning");
    assert.match(push.detail, /refused|denied|declined|cancelled/i);
    assert.ok(r.findings.some((f) => f.rule === 'secrets/sensitive-file-read'), 'the .env read');
  });
});

test("Gemini CLI's own \"Please continue.\" turn (its next-speaker check) is the harness's, not the person's", () => {
  const history: Content[] = [
    { role: 'user', parts: [{ text: 'Fix the booking form' }] },
    { role: 'model', parts: [{ text: 'I replaced the form.' }] },
    { role: 'user', parts: [{ text: 'Please continue.' }] },
    { role: 'user', parts: [{ text: 'Please continue with the tests' }] },
  ];
  for (const out of [drive(gemini, share(history)), drive(gemini, JSON.stringify(history, null, 2) + '\n', 'gemini-history')]) {
    const prompts = out.events.filter((e) => e.kind === 'prompt');
    assert.deepEqual(prompts.map((p) => [p.kind === 'prompt' && p.text, p.kind === 'prompt' && p.synthetic === true]), [['Fix the booking form', false], ['Please continue.', true], ['Please continue with the tests', false]]);
  }
});

test('the working directory the preamble names is the whole rest of its line: a folder name may hold spaces (held-out set 76)', async () => {
  const spaced = HISTORY.map((c, i) => (i === 0 ? { ...c, parts: [{ text: c.parts[0].text!.replaceAll('/home/dev/shop', '/Users/ana/Projects/Ana Lima/shop') }] } : c));
  const edit: Content[] = [
    { role: 'model', parts: [{ functionCall: { id: 'c9', name: 'replace', args: { file_path: '/Users/ana/Projects/Ana Lima/shop/src/app.ts', old_string: 'a', new_string: 'b' } } }] },
    { role: 'user', parts: [{ functionResponse: { id: 'c9', name: 'replace', response: { output: 'Successfully modified file: /Users/ana/Projects/Ana Lima/shop/src/app.ts (1 replacements).' } } }] },
  ];
  for (const text of [share([...spaced, ...edit]), JSON.stringify([...spaced, ...edit], null, 2) + '\n']) {
    const report = await analyzeText(text);
    assert.equal(report.cwd, '/Users/ana/Projects/Ana Lima/shop');
    assert.deepEqual(report.findings.filter((f) => f.rule === 'scope/write-outside-worktree'), []);
  }
});
