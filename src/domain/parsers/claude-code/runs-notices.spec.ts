// Claude Code records that are not what they look like: background-task notices delivered as
// user turns (and queue-operation records) are system notices, not prompts; two `claude -p`
// stream-json runs appended in one file stay two runs; a run cut off before its `result` (or on
// an unanswered tool call) says it is incomplete. End to end through the analyser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeText } from '../../analyze.ts';
import { taskNotificationText } from './user-text.ts';

const jsonl = (records: object[]) => records.map((r) => JSON.stringify(r)).join('\n') + '\n';
const SID = '7f0c1a52-3b9e-4d61-9a47-0e2c5d8b1f33';
const at = (m: number, s = 0) => `2026-02-10T10:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}.000Z`;
const common = { sessionId: SID, cwd: '/home/dev/shop', version: '2.1.38', gitBranch: 'main', isSidechain: false, userType: 'external' };
let n = 0;
const uuid = () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;
const user = (t: string, content: unknown, extra: object = {}) => ({ type: 'user', uuid: uuid(), parentUuid: null, timestamp: t, ...common, message: { role: 'user', content }, ...extra });
const assistant = (t: string, content: unknown[]) => ({ type: 'assistant', uuid: uuid(), parentUuid: null, timestamp: t, ...common, message: { id: `msg_${n}`, role: 'assistant', model: 'claude-opus-4-6', content, usage: { input_tokens: 10, output_tokens: 20 } } });
const bash = (id: string, command: string, extra: object = {}) => ({ type: 'tool_use', id, name: 'Bash', input: { command, description: command, ...extra } });

const NOTICE = '<task-notification>\n<task-id>b7d2e41</task-id>\n<status>completed</status>\n<summary>Background command "npm run dev" completed (exit code 0)</summary>\n</task-notification>\nRead the output file to retrieve the result: /tmp/claude/tasks/b7d2e41.output';

function backgroundSession(): string {
  return jsonl([
    user(at(0), 'start the dev server in the background and check the home page renders'),
    assistant(at(0, 5), [bash('toolu_01', 'npm run dev', { run_in_background: true })]),
    user(at(0, 6), [{ type: 'tool_result', tool_use_id: 'toolu_01', content: 'Command running in background with ID: b7d2e41' }]),
    assistant(at(0, 9), [{ type: 'text', text: 'The dev server is starting.' }]),
    { type: 'queue-operation', operation: 'enqueue', timestamp: at(1), sessionId: SID, content: NOTICE },
    { type: 'queue-operation', operation: 'remove', timestamp: at(1, 1), sessionId: SID },
    user(at(1, 1), NOTICE),
    { type: 'queue-operation', operation: 'enqueue', timestamp: at(2), sessionId: SID, content: NOTICE.replace('b7d2e41', 'c9e0f12') },
    assistant(at(2, 3), [{ type: 'text', text: 'The server is up; the home page renders.' }]),
  ]);
}

test('task notifications (queued and delivered) are system notices, not prompts', async () => {
  const r = await analyzeText(backgroundSession());
  assert.equal(r.stats.prompts, 1, 'only the typed request is a prompt');
  const notices = r.timeline.filter((e) => e.summary.startsWith('Background command'));
  assert.equal(notices.length, 2, 'each notice once, even when queued and delivered');
  assert.ok(notices.every((e) => e.kind === 'system' && e.actor === 'system'));
  assert.ok(!r.timeline.some((e) => e.kind === 'prompt' && e.summary.includes('task-notification')));
});

test('a message the person typed while the agent was busy is still a prompt (negative case)', async () => {
  const r = await analyzeText(jsonl([
    user(at(0), 'run the tests'),
    assistant(at(0, 2), [bash('toolu_01', 'npm test')]),
    { type: 'queue-operation', operation: 'enqueue', timestamp: at(0, 3), sessionId: SID, content: 'also check the linter' },
    user(at(0, 9), [{ type: 'tool_result', tool_use_id: 'toolu_01', content: '12 passing' }]),
    user(at(0, 9), 'also check the linter'),
    assistant(at(1), [{ type: 'text', text: 'Tests pass; linting next.' }]),
  ]));
  assert.equal(r.stats.prompts, 2);
});

test('the notice text is the block\'s summary', () => {
  assert.equal(taskNotificationText(NOTICE), 'Background command "npm run dev" completed (exit code 0)');
  assert.equal(taskNotificationText('<task-notification><task-id>x</task-id><status>failed</status></task-notification>'), 'x failed');
});

// ---- stream-json (`claude -p … --output-format stream-json --verbose`) ----

function streamRun(session: string, start: number, opts: { result?: boolean; lastCallAnswered?: boolean } = {}): object[] {
  const t = (s: number) => `2026-03-01T${String(start).padStart(2, '0')}:00:${String(s).padStart(2, '0')}.000Z`;
  const base = { session_id: session, parent_tool_use_id: null };
  const out: object[] = [
    { type: 'system', subtype: 'init', cwd: '/home/ci/app', session_id: session, tools: ['Bash', 'Read'], model: 'claude-sonnet-4-5', permissionMode: 'default', claude_code_version: '2.1.38', uuid: `${session}-0` },
    { type: 'assistant', ...base, uuid: `${session}-1`, timestamp: t(1), message: { id: `${session}-m1`, role: 'assistant', model: 'claude-sonnet-4-5', content: [bash(`${session}-t1`, 'npm test')], usage: { input_tokens: 5, output_tokens: 5 } } },
  ];
  if (opts.lastCallAnswered !== false) {
    out.push({ type: 'user', ...base, uuid: `${session}-2`, timestamp: t(20), message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `${session}-t1`, content: '12 passing' }] } });
    out.push({ type: 'assistant', ...base, uuid: `${session}-3`, timestamp: t(30), message: { id: `${session}-m2`, role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'All 12 tests pass.' }], usage: { input_tokens: 5, output_tokens: 5 } } });
  }
  if (opts.result !== false) out.push({ type: 'result', subtype: 'success', is_error: false, duration_ms: 30000, num_turns: 2, result: 'All 12 tests pass.', session_id: session, total_cost_usd: 0.01 });
  return out;
}

test('two stream-json runs in one file: a run_start entry, a several-runs note, durations without the gap', async () => {
  const r = await analyzeText(jsonl([...streamRun('run-a', 2), ...streamRun('run-b', 18)]));
  assert.equal(r.format, 'claude-code-stream-json');
  const marks = r.timeline.filter((e) => e.kind === 'system' && /new headless run/i.test(e.summary));
  assert.equal(marks.length, 1);
  assert.match(marks[0].summary, /run-b/);
  assert.equal(r.stats.runs, 2);
  assert.equal(r.duration_ms, 58_000, 'two 29-second runs, not 16 hours');
  assert.ok(r.findings.some((f) => f.rule === 'coverage/several-runs' && f.severity === 'info'));
  assert.equal(r.incomplete, null);
  assert.equal(r.outcome, 'Clear');
});

test('one complete stream-json run is one run and complete (negative case)', async () => {
  const r = await analyzeText(jsonl(streamRun('run-a', 2)));
  assert.equal(r.stats.runs, 1);
  assert.equal(r.incomplete, null);
  assert.ok(!r.findings.some((f) => f.rule === 'coverage/several-runs' || f.rule === 'coverage/incomplete'));
});

test('a stream-json run without its result record is incomplete (info)', async () => {
  const r = await analyzeText(jsonl(streamRun('run-a', 2, { result: false })));
  assert.equal(r.incomplete?.reason, 'no-closing-record');
  assert.match(r.incomplete?.detail ?? '', /without its final `result` record/);
  const f = r.findings.find((x) => x.rule === 'coverage/incomplete');
  assert.equal(f?.severity, 'info');
});

test('the first of two runs without its result is reported too', async () => {
  const r = await analyzeText(jsonl([...streamRun('run-a', 2, { result: false }), ...streamRun('run-b', 18)]));
  assert.equal(r.incomplete?.reason, 'no-closing-record');
});

test('a run cut off on an unanswered tool call is incomplete and never Clear', async () => {
  const r = await analyzeText(jsonl(streamRun('run-a', 2, { result: false, lastCallAnswered: false })));
  assert.equal(r.incomplete?.reason, 'unanswered-call');
  assert.match(r.incomplete?.detail ?? '', /npm test/);
  const f = r.findings.find((x) => x.rule === 'coverage/incomplete');
  assert.equal(f?.severity, 'warning');
  assert.equal(r.outcome, 'Review');
});

test('an interactive transcript that ends after the last reply is complete (negative case)', async () => {
  const r = await analyzeText(backgroundSession());
  assert.equal(r.incomplete, null);
});

test('an interactive transcript that ends on a Bash call with no result is incomplete', async () => {
  const r = await analyzeText(jsonl([user(at(0), 'deploy to staging'), assistant(at(0, 4), [bash('toolu_09', './scripts/deploy.sh staging')])]));
  assert.equal(r.incomplete?.reason, 'unanswered-call');
  assert.match(r.incomplete?.detail ?? '', /deploy\.sh staging.*line 2/);
  assert.notEqual(r.outcome, 'Clear');
});

test('a transcript that ends on the export of this very log is complete: the export is info, not "cut off"', async () => {
  const exports = [
    `cp ~/.claude/projects/-home-dev-shop/${SID}.jsonl docs/session-log.jsonl`,
    'mkdir -p logs && cp "$(ls -t ~/.claude/projects/-home-dev-shop/*.jsonl | head -1)" logs/',
    `claude export ${SID} > transcript.md`,
  ];
  for (const command of exports) {
    const r = await analyzeText(jsonl([user(at(0), 'save this session into the repo'), assistant(at(0, 4), [bash('toolu_10', command)])]));
    assert.equal(r.incomplete, null, command);
    const f = r.findings.find((x) => x.rule === 'coverage/incomplete');
    assert.equal(f?.severity, 'info', command);
    assert.equal(f?.title, 'The log ends with its own export');
    assert.match(f?.detail ?? '', /exports it/);
    // (Copying the transcript into the tree is judged by its own rule, exfiltration/session-log-published.)
  }
});

test('a last call that merely lists the session folder, or deletes from it, is still cut off (negative case)', async () => {
  for (const command of ['ls ~/.claude/projects/-home-dev-shop/', 'rm -rf ~/.codex/sessions/2026', './scripts/deploy.sh staging']) {
    const r = await analyzeText(jsonl([user(at(0), 'tidy up'), assistant(at(0, 4), [bash('toolu_11', command)])]));
    assert.equal(r.incomplete?.reason, 'unanswered-call', command);
  }
});

test('a message queued without its text and taken in mid-turn (enqueue, then remove) is a message the log does not hold: an out-of-tree edit after it says so (info); one queued and dequeued comes back as a prompt, and the edit stays a warning (held-out set 66)', async () => {
  const session = (then: 'remove' | 'dequeue') => jsonl([
    user(at(0), 'run the daily report'),
    assistant(at(0, 1), [{ type: 'tool_use', id: 'toolu_00', name: 'Edit', input: { file_path: '/home/dev/shop/report.md', old_string: 'a', new_string: 'b' } }]),
    user(at(0, 1), [{ type: 'tool_result', tool_use_id: 'toolu_00', content: 'The file has been updated.' }]),
    assistant(at(0, 2), [bash('toolu_01', 'npm run report')]),
    { type: 'queue-operation', operation: 'enqueue', timestamp: at(0, 3), sessionId: SID },
    user(at(0, 9), [{ type: 'tool_result', tool_use_id: 'toolu_01', content: 'report written' }]),
    { type: 'queue-operation', operation: then, timestamp: at(1), sessionId: SID },
    ...(then === 'dequeue' ? [user(at(1, 1), 'thanks')] : []),
    assistant(at(1, 2), [{ type: 'tool_use', id: 'toolu_02', name: 'Edit', input: { file_path: '/home/dev/dashboard/vite.config.ts', old_string: 'a', new_string: 'b' } }]),
    user(at(1, 3), [{ type: 'tool_result', tool_use_id: 'toolu_02', content: 'The file has been updated.' }]),
    assistant(at(1, 4), [{ type: 'text', text: 'Done.' }]),
  ]);
  const removed = await analyzeText(session('remove'));
  const w = removed.findings.filter((f) => f.rule === 'scope/write-outside-worktree');
  assert.deepEqual(w.map((f) => f.severity), ['info']);
  assert.match(w[0]!.detail, /not in the log/);
  assert.ok(removed.timeline.some((e) => e.kind === 'system' && /not in the log/.test(e.summary)));
  const dequeued = await analyzeText(session('dequeue'));
  assert.deepEqual(dequeued.findings.filter((f) => f.rule === 'scope/write-outside-worktree').map((f) => f.severity), ['warning']);
});

test('the unrecorded-message gap holds only while it is one: the text delivered as a queued_command attachment, a queue drained into a user record, or the user speaking again each leave an out-of-tree edit a warning', async () => {
  const edit = (id: string, extra: object = {}) => [
    assistant(at(2, 0), [{ type: 'tool_use', id, name: 'Edit', input: { file_path: '/home/dev/dashboard/vite.config.ts', old_string: 'a', new_string: 'b' } }]),
    user(at(2, 1), [{ type: 'tool_result', tool_use_id: id, content: 'The file has been updated.' }], extra),
  ].map((r) => ({ ...r, ...extra }));
  const start = [
    user(at(0), 'run the daily report'),
    assistant(at(0, 1), [{ type: 'tool_use', id: 'toolu_00', name: 'Edit', input: { file_path: '/home/dev/shop/report.md', old_string: 'a', new_string: 'b' } }]),
    user(at(0, 1), [{ type: 'tool_result', tool_use_id: 'toolu_00', content: 'The file has been updated.' }]),
    { type: 'queue-operation', operation: 'enqueue', timestamp: at(0, 3), sessionId: SID },
    { type: 'queue-operation', operation: 'remove', timestamp: at(1), sessionId: SID },
  ];
  const outside = async (records: object[]) => (await analyzeText(jsonl(records))).findings.filter((f) => f.rule === 'scope/write-outside-worktree').map((f) => f.severity);
  assert.deepEqual(await outside([...start, ...edit('t1')]), ['info'], 'the gap itself');
  assert.deepEqual(await outside([...start, { type: 'attachment', uuid: uuid(), parentUuid: null, timestamp: at(1, 1), ...common, attachment: { type: 'queued_command', prompt: 'thanks, looks good' } }, ...edit('t2')]), ['warning'], 'the text came as an attachment');
  assert.deepEqual(await outside([...start, assistant(at(1, 1), [{ type: 'text', text: 'On it.' }]), user(at(1, 5), 'only touch this repo from now on'), ...edit('t3')]), ['warning'], 'the user spoke again');
  const drained = [start[0], start[1], start[2], start[3], user(at(0, 5), 'also fix the css'), { type: 'queue-operation', operation: 'enqueue', timestamp: at(0, 6), sessionId: SID, content: NOTICE }, { type: 'queue-operation', operation: 'remove', timestamp: at(1), sessionId: SID }];
  assert.deepEqual(await outside([...drained, ...edit('t4')]), ['warning'], 'a drained queue counts nothing left');
  // a harness notice or an interruption before the agent goes on brings no words of the user's
  assert.deepEqual(await outside([...start, user(at(1, 1), NOTICE), ...edit('t5')]), ['info'], 'a task notice');
  assert.deepEqual(await outside([...start, user(at(1, 1), [{ type: 'text', text: '[Request interrupted by user]' }]), ...edit('t6')]), ['info'], 'an interruption');
});

test("the reference filesystem MCP server's write_file, edit_file and read_file are file writes, edits and reads every rule judges; another server's tool of that name, or a dry run, is not (held-out set 66)", async () => {
  const session = (server: string, tool: string, input: object) => jsonl([
    user(at(0), 'work on the api'),
    assistant(at(0, 1), [{ type: 'tool_use', id: 'toolu_01', name: `mcp__${server}__${tool}`, input }]),
    user(at(0, 2), [{ type: 'tool_result', tool_use_id: 'toolu_01', content: [{ type: 'text', text: 'Successfully wrote' }] }]),
  ]);
  const changed = async (server: string, tool: string, input: object) => (await analyzeText(session(server, tool, input))).stats.files_written;
  assert.equal(await changed('filesystem', 'write_file', { path: '/home/dev/shop/docs/api.md', content: '# API' }), 1);
  assert.equal(await changed('filesystem', 'edit_file', { path: '/home/dev/shop/src/a.ts', edits: [{ oldText: 'a', newText: 'b' }] }), 1);
  assert.equal(await changed('filesystem', 'edit_file', { path: '/home/dev/shop/src/a.ts', edits: [{ oldText: 'a', newText: 'b' }], dryRun: true }), 0);
  assert.equal(await changed('notes', 'write_file', { path: '/home/dev/shop/docs/api.md', content: '# API' }), 0);
  for (const server of ['server-filesystem', 'filesystem-server']) assert.equal(await changed(server, 'write_file', { path: '/home/dev/shop/docs/api.md', content: '# API' }), 1, server);
  const read = await analyzeText(session('filesystem', 'read_file', { path: '/home/dev/.aws/credentials' }));
  assert.ok(read.findings.some((f) => f.rule === 'secrets/sensitive-file-read'), 'a read of a credential file through the server');
});
