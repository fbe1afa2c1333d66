import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IngestFacts } from './types.ts';
import { analyzeText } from '../analyze.ts';
import { session } from '../synthetic.testing.ts';
import { cmd, only, prompt, ran, result, runRules, ruleIds, severityOf } from './harness.testing.ts';
import { ACTIONS_NOT_IN_LOG, notASessionLog, ruleFailed } from './coverage.ts';

const events = [prompt('hello')];

async function coverage(ingest: Partial<IngestFacts>, evts = events) {
  const drafts = await runRules(evts, { ingest });
  return drafts.filter((d) => d.rule.startsWith('coverage/'));
}

test('a clean ingest has no coverage findings', async () => {
  assert.deepEqual(await coverage({}), []);
});

test('skipped lines are a warning with samples', async () => {
  const d = await coverage({ skippedLines: 3, totalLines: 100, skippedSamples: [{ line: 7, reason: 'invalid JSON' }] });
  assert.deepEqual(ruleIds(d), ['coverage/skipped-lines']);
  assert.equal(severityOf(d[0]), 'warning');
  assert.match(d[0].detail, /3 lines of 100.*line 7: invalid JSON/);
});

test('a truncated log is a warning', async () => {
  assert.deepEqual(only(await coverage({ truncatedTail: true }), 'coverage/truncated').map(severityOf), ['warning']);
});

test('a cut-off last line is reported once, as truncation; other skipped lines beside it still are skipped lines', async () => {
  const tail = { line: 1954, reason: 'truncated last line (invalid JSON)' };
  const alone = await coverage({ truncatedTail: true, skippedLines: 1, totalLines: 1954, skippedSamples: [tail] });
  assert.deepEqual(ruleIds(alone), ['coverage/truncated']);
  const more = await coverage({ truncatedTail: true, skippedLines: 2, totalLines: 1954, skippedSamples: [{ line: 40, reason: 'invalid JSON' }, tail] });
  assert.deepEqual(ruleIds(more).sort(), ['coverage/skipped-lines', 'coverage/truncated']);
});

test('binary input is a warning and replaces the skipped-lines finding', async () => {
  const d = await coverage({ binary: true, skippedLines: 40, totalLines: 41 }, []);
  assert.deepEqual(ruleIds(d), ['coverage/binary-input']);
  assert.equal(severityOf(d[0]), 'warning');
});

test('a log with lines but no agent events is not a session log (warning, weighted)', async () => {
  const d = await coverage({ totalLines: 12 }, [{ kind: 'session_meta', cwd: '/home/dev/project' }, { kind: 'usage', input: 1, output: 1, cacheRead: 0, cacheWrite: 0 }]);
  assert.deepEqual(ruleIds(d), ['coverage/not-a-session-log']);
  assert.equal(severityOf(d[0]), 'warning');
  assert.equal(notASessionLog.weight, 3);
  assert.match(d[0].detail, /None of the 12 lines is an agent record/);
});

test('an empty file is not a session log; a file with a prompt is one', async () => {
  assert.deepEqual(ruleIds(await coverage({ totalLines: 0 }, [])), ['coverage/not-a-session-log']);
  assert.deepEqual(ruleIds(await coverage({ totalLines: 1 })), []);
});

test('plain text is a transcript only with a recognised command', async () => {
  const prose = await runRules([{ kind: 'message', text: 'hello world' }], { format: 'plain-text', agent: null, ingest: { totalLines: 3, lowConfidence: true } });
  assert.deepEqual(ruleIds(prose.filter((x) => x.rule.startsWith('coverage/'))), ['coverage/not-a-session-log'], 'no low-confidence note on top');
  const shell = await runRules(ran('ls', { output: 'a.ts' }), { format: 'plain-text', agent: null, ingest: { totalLines: 2, lowConfidence: true } });
  // Commands but no prompt: what the agent was asked is unknown, so it is never Clear.
  assert.deepEqual(ruleIds(shell.filter((x) => x.rule.startsWith('coverage/'))), ['coverage/little-understood', 'coverage/low-confidence']);
});

test('JSON records nobody recognised are named as such', async () => {
  const d = await runRules([{ kind: 'message', text: '{"name":"x"}' }], { format: 'plain-text', agent: null, ingest: { totalLines: 1, unrecognisedJson: true } });
  assert.match(only(d, 'coverage/not-a-session-log')[0].detail, /JSON records of a shape no supported agent/);
});

test('mostly skipped lines get a title that says most of the log was not read', async () => {
  const most = await coverage({ skippedLines: 8, totalLines: 10, skippedSamples: [{ line: 2, reason: 'invalid JSON' }] });
  assert.match(only(most, 'coverage/skipped-lines')[0].title ?? '', /Most of the log could not be read/);
  const some = await coverage({ skippedLines: 2, totalLines: 10, skippedSamples: [{ line: 2, reason: 'invalid JSON' }] });
  assert.equal(only(some, 'coverage/skipped-lines')[0].title, undefined);
});

test('a log ending on an unanswered call is a warning; a missing closing record is info', async () => {
  const cut = await coverage({ incomplete: { kind: 'unanswered-call', reason: 'ends on npm test', eventIndex: 0 } });
  assert.deepEqual(only(cut, 'coverage/incomplete').map(severityOf), ['warning']);
  assert.equal(only(cut, 'coverage/incomplete')[0].evidence.length, 1);
  const noResult = await coverage({ incomplete: { kind: 'no-closing-record', reason: 'no result record' } });
  assert.deepEqual(only(noResult, 'coverage/incomplete').map(severityOf), ['info']);
  assert.deepEqual(only(await coverage({ incomplete: null }), 'coverage/incomplete'), []);
});

test('several runs in one file are an info pointing at the second run', async () => {
  const d = await coverage({}, [prompt('first'), { kind: 'system', subtype: 'run_start', text: 'new run' }, prompt('second')]);
  const f = only(d, 'coverage/several-runs');
  assert.equal(f.length, 1);
  assert.equal(severityOf(f[0]), 'info');
  assert.equal(f[0].evidence[0].index, 1);
  assert.deepEqual(only(await coverage({}), 'coverage/several-runs'), []);
});

test('oversize lines, invalid UTF-8, missing subagents, plain text and hint conflicts are info', async () => {
  const d = await coverage({ oversizeLines: 1, invalidUtf8Lines: 2, missingSubagents: [{ id: 'agent-a1b2', line: 40 }], lowConfidence: true, hintConflict: true, agentHint: 'codex' });
  assert.deepEqual(ruleIds(d), ['coverage/hint-conflict', 'coverage/invalid-utf8', 'coverage/low-confidence', 'coverage/missing-subagents', 'coverage/oversize-lines']);
  assert.ok(d.every((x) => severityOf(x) === 'info'));
  assert.match(only(d, 'coverage/missing-subagents')[0].detail, /agent-a1b2 \(line 40\)/);
});

test('coverage/rule-failed is a weighted warning the analyser reports (see analyze.verdict.spec.ts); rules never report it themselves', async () => {
  assert.deepEqual([ruleFailed.id, ruleFailed.severity, ruleFailed.weight], ['coverage/rule-failed', 'warning', 2]);
  assert.deepEqual(only(await coverage({ skippedLines: 1, totalLines: 10, truncatedTail: true }), 'coverage/rule-failed'), []);
});

test('a heuristic read with no prompt whose actions were read is an info (what was asked is unknown); with a prompt it is nothing', async () => {
  const noPrompt = await coverage({ lowConfidence: true, totalLines: 3 }, [{ kind: 'message', text: 'Done.' }, ...ran('ls', { output: 'a.ts' })]);
  const little = only(noPrompt, 'coverage/little-understood');
  assert.deepEqual(little.map(severityOf), ['info']);
  assert.match(little[0].detail, /no prompt was recognised.*Its actions were read and judged/);
  const withPrompt = await coverage({ lowConfidence: true, totalLines: 3 }, [prompt('list the files'), ...ran('ls', { output: 'a.ts' })]);
  assert.deepEqual(only(withPrompt, 'coverage/little-understood'), []);
});

test('a heuristic read that places a small share of the lines is a warning; a structured log never is', async () => {
  // A prompt on line 1 and a reply on line 2, then 98 lines of text the parser could not place.
  const evts = [{ ...prompt('fix it'), line: 1 }, { kind: 'message' as const, text: 'ok', line: 2 }, { kind: 'system' as const, subtype: 'output', text: 'redraws…', line: 3 }];
  const d = only(await coverage({ lowConfidence: true, totalLines: 100 }, evts), 'coverage/little-understood');
  assert.equal(d.length, 1);
  assert.match(d[0].detail, /only 2 % of the 100 lines/);
  assert.deepEqual(only(await coverage({ lowConfidence: false, totalLines: 100 }, evts), 'coverage/little-understood'), []);
});

test('records of unknown types with no action in them are one info finding naming the types; none without them', async () => {
  const d = await coverage({ unknownMetadata: [{ type: 'token_usage_record', line: 4, count: 40 }, { type: 'ai-title', line: 2, count: 1 }] });
  assert.deepEqual(ruleIds(d), ['coverage/unknown-metadata']);
  assert.equal(severityOf(d[0]), 'info');
  assert.match(d[0].detail, /41 records of a type Vouch does not know.*"token_usage_record" \(line 4, ×40\), "ai-title" \(line 2\)/);
  assert.deepEqual(await coverage({ unknownMetadata: [] }), []);
});

test('replies whose tool calls the file does not hold are an info that says so; none when the parser saw nothing missing', async () => {
  const events = [prompt('rename the project'), { kind: 'message' as const, role: 'assistant' as const, text: 'Edited.' }];
  const d = await runRules(events, { format: 'gemini-json', agent: 'gemini-cli', ingest: { totalLines: 40, toolsNotRecorded: { turns: 5, line: 12 } } });
  const info = only(d, 'coverage/tools-not-recorded');
  assert.deepEqual(info.map(severityOf), ['info']);
  assert.match(info[0].detail, /records no tool call, but the model answered 5 more times .*from line 12/);
  assert.deepEqual(d.filter((x) => severityOf(x) !== 'info').map((x) => x.rule), [], 'no warning for what the file does not hold');
  assert.deepEqual(only(await runRules(events, { format: 'gemini-json', agent: 'gemini-cli', ingest: { totalLines: 40 } }), 'coverage/tools-not-recorded'), []);
});

test('a prompts-only format says what it cannot show as an info (never a warning); other formats never get it', async () => {
  const prompts = [prompt('add a dark mode toggle'), prompt('now the tests')];
  const d = await runRules(prompts, { format: 'gemini-logs', agent: 'gemini-cli', ingest: { totalLines: 16 } });
  const info = only(d, 'coverage/prompts-only');
  assert.deepEqual(info.map(severityOf), ['info']);
  assert.match(info[0].detail, /^2 prompts read\. .*not in it/);
  assert.deepEqual(d.filter((x) => severityOf(x) !== 'info').map((x) => x.rule), [], 'no warning for what the file was never meant to hold');
  const other = await runRules(prompts, { format: 'gemini-jsonl', agent: 'gemini-cli', ingest: { totalLines: 16 } });
  assert.deepEqual(only(other, 'coverage/prompts-only'), []);
});

test('a session log read whole that holds nothing (a Codex turn interrupted before it began) is an empty session, info and Clear; a broken or foreign file is still not a session log', async () => {
  const { analyzeText } = await import('../analyze.ts');
  const meta = { timestamp: '2026-07-25T09:29:46.633Z', type: 'session_meta', payload: { id: '019f989b-f858', timestamp: '2026-07-25T09:29:46.365Z', cwd: '/home/dev/project', originator: 'codex-tui', cli_version: '0.144.5' } };
  const started = { timestamp: '2026-07-25T09:29:46.700Z', type: 'event_msg', payload: { type: 'task_started', turn_id: 't1' } };
  const aborted = { timestamp: '2026-07-25T09:29:55.000Z', type: 'event_msg', payload: { type: 'turn_aborted', turn_id: 't1', reason: 'interrupted' } };
  const empty = await analyzeText([meta, started, aborted].map((r) => JSON.stringify(r)).join('\n') + '\n');
  const found = empty.findings.filter((f) => f.rule === 'coverage/not-a-session-log');
  assert.deepEqual(found.map((f) => [f.severity, f.title]), [['info', 'A session with nothing in it']]);
  assert.match(found[0].detail, /interrupted before anything happened/);
  assert.equal(empty.outcome, 'Clear');
  const broken = await analyzeText([meta, started].map((r) => JSON.stringify(r)).join('\n') + '\n{"type":"event_msg","payl\n{"x":1}\n');
  assert.deepEqual(broken.findings.filter((f) => f.rule === 'coverage/not-a-session-log').map((f) => f.severity), ['warning'], 'a line left unread');
  const foreign = await analyzeText('{"level":"info","msg":"started"}\n{"level":"info","msg":"done"}\n');
  assert.deepEqual(foreign.findings.filter((f) => f.rule === 'coverage/not-a-session-log').map((f) => f.severity), ['warning']);
});

// ---- coverage/actions-removed ---------------------------------------------------------------------
const REMOVED = 'coverage/actions-removed';
const redacted = (): [ReturnType<typeof cmd>, ReturnType<typeof result>] => {
  const c = { ...cmd('x'), name: 'exec_command', input: { type: 'other' as const, args: { redacted: true, message: 'Function call arguments removed' } } };
  return [c, result(c.callId, { output: 'Function output removed', exitCode: 0 })];
};

test('a log whose calls\' arguments and outputs were replaced by redaction markers says so (info that keeps it from Clear); a few markers among many calls do not', async () => {
  const d = only(await runRules([prompt('build the viewer'), ...redacted(), ...redacted(), ...redacted(), ...redacted(), ...ran('npm test', { output: 'ok' })]), REMOVED);
  assert.deepEqual(d.map(severityOf), ['info']);
  assert.match(d[0]!.detail, /the arguments of 4 and the output of 4 of the 5 tool calls/);
  const bracketed = only(await runRules([prompt('go'), ...ran('ls', { output: '[REDACTED]' }), ...ran('cat a', { output: '[REDACTED]' }), ...ran('cat b', { output: '[REDACTED_LONG_TOKEN]' })]), REMOVED);
  assert.deepEqual(bracketed.map(severityOf), ['info']);
  const few = Array.from({ length: 20 }, (_, i) => ran(`echo ${i}`, { output: String(i) })).flat();
  assert.deepEqual(only(await runRules([prompt('go'), ...redacted(), ...few]), REMOVED), [], 'one marker among 21 calls');
  assert.deepEqual(only(await runRules([prompt('go'), ...ran('grep -r token src', { output: 'src/a.ts: token = "[REDACTED]"' }), ...ran('ls', { output: 'a' }), ...ran('ls', { output: 'b' })]), REMOVED), [], 'a marker inside real output');
});

test('a log that keeps most calls without their results (an export that dropped them) says so; a last call cut off alone does not', async () => {
  const calls = Array.from({ length: 6 }, (_, i) => cmd(`npm run step${i}`));
  const d = only(await runRules([prompt('go'), ...calls]), REMOVED);
  assert.deepEqual(d.map(severityOf), ['info']);
  assert.match(d[0]!.detail, /6 of the 6 tool calls in this file have no result/);
  const answeredButLast = [...Array.from({ length: 6 }, (_, i) => ran(`npm run step${i}`, { output: 'ok' })).flat(), cmd('npm run deploy')];
  assert.deepEqual(only(await runRules([prompt('go'), ...answeredButLast]), REMOVED), []);
  const searches = Array.from({ length: 8 }, (_, i) => ({ ...cmd('x'), name: 'web_search', input: { type: 'web_search' as const, query: `markets ${i}` } }));
  assert.deepEqual(only(await runRules([prompt('go'), ...searches, ...ran('ls', { output: 'a' })]), REMOVED), [], "Codex's web searches carry their answer inline");
});

test('a long heuristic read with no prompt and next to no events is not understood, however much of it the events seem to cover (a warning)', async () => {
  // six commands in 80,000 lines: each "result" runs on to the next, covering the file
  const evts = [2, 10_000, 20_000, 40_000, 60_000, 70_000].flatMap((line, i) => {
    const [c, r] = ran(`echo ${i}`, { output: 'x' });
    return [{ ...c, line }, { ...r, line: line + 1 }];
  });
  const d = only(await coverage({ lowConfidence: true, totalLines: 80_000 }, evts), 'coverage/little-understood');
  assert.deepEqual(d.map(severityOf), ['warning']);
  assert.match(d[0].detail, /only 12 events were read in its 80000 lines/);
  // a short capture with a few commands, or one with a prompt, is read as before
  assert.deepEqual(only(await coverage({ lowConfidence: true, totalLines: 1_500 }, evts.map((e) => ({ ...e, line: Math.min(e.line ?? 1, 1_400) }))), 'coverage/little-understood').map(severityOf), ['info']);
});

test('another agent\'s session (OpenCode, Aider, Cline) is named as such: not read, never Clear; a session of a read agent or prose is not', async () => {
  const { analyzeText } = await import('../analyze.ts');
  const { foreignAgentOf } = await import('../ingest/detect.ts');
  const opencode = JSON.stringify({ info: { id: 'ses_3204ad9bdffeVbHlFKapQwYuiY', slug: 'quick-tiger', projectID: 'e636a08f', directory: '/Users/me/nimbus', title: 'review changes' }, messages: [] }, null, 2);
  const report = await analyzeText(opencode);
  const f = report.findings.find((x) => x.rule === 'coverage/not-a-session-log');
  assert.equal(f?.severity, 'warning');
  assert.match(f?.title ?? '', /A session of OpenCode, which Vouch does not read/);
  assert.notEqual(report.outcome, 'Clear');
  assert.equal(foreignAgentOf(['{"v":1,"agent":"opencode","cli_version":"0.5.1","type":"user"}']), 'OpenCode');
  assert.equal(foreignAgentOf(['# aider chat started at 2025-03-01 10:00:00', '', '> /add src/app.py']), 'Aider');
  const aider = await analyzeText('# aider chat started at 2025-03-01 10:00:00\n\n#### fix the failing test\n\n> Running pytest -q\n$ pytest -q\n1 passed\n\nsrc/app.py\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n');
  assert.notEqual(aider.outcome, 'Clear', 'an Aider history is never vouched for, whatever the heuristics read in it');
  assert.match(aider.findings.find((x) => x.rule === 'coverage/not-a-session-log')?.title ?? '', /A session of Aider/);
  assert.equal(foreignAgentOf(['[{"ts":1,"type":"say","say":"api_req_started","text":"{}"}]']), 'Cline');
  // the oh-my-opencode plugin's transcript hook (held-out set 67): flat records, one per tool call
  const hook = ['{"type":"user","timestamp":"2026-03-24T22:10:34.604Z","content":"fix the emacs warning"}', '{"type":"tool_use","timestamp":"2026-03-24T22:10:54.614Z","tool_name":"read","tool_input":{"filePath":"/home/me/.doom.d/init.el"}}', '{"type":"tool_result","timestamp":"2026-03-24T22:10:55.001Z","tool_name":"read","tool_output":"(doom! …)"}'];
  assert.equal(foreignAgentOf(hook), 'OpenCode (the oh-my-opencode transcript hook)');
  assert.match((await analyzeText(hook.join('\n') + '\n')).findings.find((x) => x.rule === 'coverage/not-a-session-log')?.title ?? '', /A session of OpenCode \(the oh-my-opencode transcript hook\), which Vouch does not read/);
  assert.equal(foreignAgentOf(['{"type":"tool_use","id":"toolu_01","name":"Bash","input":{"command":"ls"}}']), null, "a Claude Code content block is no hook record");
  assert.equal(foreignAgentOf(['We compared opencode and aider for the team.', 'The "agent" field is "claude".']), null);
});

test('a file of hook payloads says what the hooks did not receive and is never Clear; no run is called cut off for a call without a result; a transcript gets no such note (held-out set 58)', async () => {
  const base = { session_id: 'c032', transcript_path: '/home/dev/.claude/projects/-home-dev-app/c032.jsonl', cwd: '/home/dev/app', permission_mode: 'default' };
  const pre = [1, 2, 3].map((i) => ({ ...base, hook_event_name: 'PreToolUse', tool_name: 'Read', tool_input: { file_path: `/home/dev/app/src/f${i}.ts` } }));
  const post = [1, 2, 3].map((i) => ({ ...base, hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_use_id: `t${i}`, tool_input: { command: `npm test -- ${i}` }, tool_response: { stdout: 'ok', stderr: '', interrupted: false, isImage: false } }));
  for (const [payloads, says] of [[pre, /0 prompts, 3 tool calls and 0 results.*no prompt of the user's.*no call's result/], [post, /0 prompts, 3 tool calls and 3 results.*only the calls that reached the hooks/]] as const) {
    const report = await analyzeText(JSON.stringify(payloads, null, 2));
    assert.equal(report.format, 'claude-code-hooks');
    const note = report.findings.filter((f) => f.rule === 'coverage/hook-records-only');
    assert.equal(note.length, 1);
    assert.equal(note[0]!.severity, 'info');
    assert.match(note[0]!.detail, says);
    assert.equal(report.outcome, 'Review');
    assert.ok(!report.findings.some((f) => f.rule === 'coverage/incomplete' || f.rule === 'coverage/actions-removed'), 'no cut-off run, no export that dropped its outputs');
  }
  const transcript = await analyzeText(session('claude-code', [{ prompt: 'run the tests' }, { bash: 'npm test', output: 'ok' }, { say: 'All tests pass.' }]));
  assert.ok(!transcript.findings.some((f) => f.rule === 'coverage/hook-records-only'));
});

test('coverage/rewrapped-capture: a capture a text formatter re-wrapped says what was not read (info, never Clear); one read as shown says nothing', async () => {
  const d = await runRules([prompt('rename the helper')], { format: 'codex-tui', agent: 'codex', ingest: { lowConfidence: true, totalLines: 40, rewrapped: { line: 12 } } });
  const info = only(d, 'coverage/rewrapped-capture');
  assert.deepEqual(info.map(severityOf), ['info']);
  assert.match(info[0]!.detail, /^From line 12 the capture's lines were joined and wrapped again by a text formatter/);
  assert.ok(ACTIONS_NOT_IN_LOG.includes('coverage/rewrapped-capture'), 'the outcome is at best Review');
  assert.deepEqual(only(await runRules([prompt('rename the helper')], { format: 'codex-tui', agent: 'codex', ingest: { lowConfidence: true, totalLines: 40 } }), 'coverage/rewrapped-capture'), []);
});
