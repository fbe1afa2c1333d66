import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { NormEvent, ToolCallEvent } from '../../model/events.ts';
import { codex } from '../codex.ts';
import { sample } from './drive.testing.ts';
import { analyzeText } from '../../analyze.ts';

const T = '2026-02-15T03:30:04.033833Z';
const LOOP = 'session_loop{thread_id=019c5f58-7a63-75a2-86ec-c242a343f00c}';
const LOG = [
  `${T}  INFO codex_core::auth: Reloading auth`,
  `${T}  INFO codex_core::models_manager::manager: models cache: evaluating cache eligibility client_version="0.101.0"`,
  `${T}  INFO codex_core::stream_events_utils: ToolCall: shell_command {"command":"git status","workdir":"/Users/dev/shop"}`,
  `${T}  INFO ${LOOP}: codex_core::stream_events_utils: ToolCall: exec_command {"cmd":"rg -n \\"TODO\\" src"} thread_id=019c5f58-7a63-75a2-86ec-c242a343f00c`,
  `${T}  INFO ${LOOP}: codex_core::stream_events_utils: ToolCall: apply_patch *** Begin Patch`,
  '*** Update File: src/app.ts',
  '@@',
  '-const a = 1;',
  '+const a = 2;',
  '*** End Patch thread_id=019c5f58-7a63-75a2-86ec-c242a343f00c',
  `${T}  INFO ${LOOP}: codex_core::stream_events_utils: ToolCall: write_stdin {"session_id":3,"chars":"y\\n"} thread_id=019c5f58`,
  `${T} ERROR ${LOOP}: codex_core::models_manager::manager: failed to renew cache TTL: cache not found`,
  `${T}  INFO codex_core::codex: interrupt received: abort current task, if any`,
].join('\n');

function parse(text: string): NormEvent[] {
  const events: NormEvent[] = [];
  const parser = codex.create('codex-tui-log');
  const sink = { emit: (e: NormEvent) => events.push(e), skip: () => {} };
  text.split('\n').forEach((l, i) => parser.text?.(l, i + 1, sink));
  parser.end(sink);
  return events;
}
const calls = (events: NormEvent[]) => events.filter((e): e is ToolCallEvent => e.kind === 'tool_call');

test('Codex\'s tracing log (codex-tui.log) is detected from its trace lines; a rollout, another program\'s log or prose is not (held-out set 58)', () => {
  assert.deepEqual(codex.detect(sample(LOG)), { format: 'codex-tui-log', score: 0.95 });
  assert.notEqual(codex.detect(sample('2026-02-15T03:30:04Z INFO myapp::server: listening on :8080\n2026-02-15T03:30:05Z INFO myapp::db: connected'))?.format, 'codex-tui-log');
  assert.equal(codex.detect(sample('Codex ran some commands.\nToolCall: shell_command {"command":"ls"}')), null);
});

test('each ToolCall line is the call the model made, read like a rollout\'s: a command with its workdir, an exec_command with the span fields after it, a patch over the lines up to its end, stdin; the rest is bookkeeping', () => {
  const events = parse(LOG);
  const c = calls(events);
  assert.deepEqual(c.map((e) => [e.name, e.input.type]), [['shell_command', 'command'], ['exec_command', 'command'], ['apply_patch', 'patch'], ['write_stdin', 'command']]);
  assert.deepEqual(c[0]!.input, { type: 'command', command: 'git status', workdir: '/Users/dev/shop' });
  assert.equal(c[1]!.input.type === 'command' && c[1]!.input.command, 'rg -n "TODO" src');
  assert.deepEqual(c[2]!.input.type === 'patch' && c[2]!.input.files.map((f) => [f.path, f.op, f.added, f.removed]), [['src/app.ts', 'update', 'const a = 2;', 'const a = 1;']]);
  assert.equal(c[2]!.line, 5, 'the patch points at its ToolCall line');
  assert.equal(events.filter((e) => e.kind === 'tool_result').length, 0, 'no result is in the file');
  assert.equal(events.filter((e) => e.kind === 'session_meta').length, 0, 'the file holds many sessions: no one directory is set');
  // a patch whose end never came is still the call
  assert.equal(calls(parse(LOG.split('\n').slice(0, 8).join('\n'))).filter((e) => e.input.type === 'patch').length, 1);
});

test('a tracing log says its calls have no result and is never Clear; no run is called cut off, and nothing is judged "never passed" for want of results', async () => {
  const ticked = `${T}  INFO codex_core::stream_events_utils: ToolCall: apply_patch *** Begin Patch\n*** Update File: TODO.md\n@@\n-- [ ] Validate the build\n+- [x] Validate the build\n*** End Patch`;
  const more = Array.from({ length: 5 }, (_, i) => `${T}  INFO codex_core::stream_events_utils: ToolCall: shell_command {"command":"npm test -- ${i}","workdir":"/Users/dev/shop"}`).join('\n');
  const report = await analyzeText(`${more}\n${ticked}\n`);
  assert.equal(report.format, 'codex-tui-log');
  assert.equal(report.agent, 'codex');
  assert.equal(report.outcome, 'Review');
  const rules = report.findings.map((f) => [f.rule, f.severity]);
  assert.ok(rules.some(([r, s]) => r === 'coverage/actions-removed' && s === 'info'), JSON.stringify(rules));
  assert.ok(!rules.some(([r]) => r === 'coverage/incomplete' || r === 'integrity/acceptance-edited' || r === 'coverage/not-a-session-log'), JSON.stringify(rules));
});

test('review of the diff: a patch whose end was never written stops at the next trace line (the calls after it are read); one call is enough to say the file has no results; another program with session spans is not Codex; a long line of span fields parses in linear time', async () => {
  const unfinished = [
    `${T}  INFO codex_core::stream_events_utils: ToolCall: apply_patch *** Begin Patch`,
    '*** Update File: src/app.ts',
    '+const a = 2;',
    `${T}  INFO codex_core::stream_events_utils: ToolCall: shell_command {"command":"git push --force origin main","workdir":"/Users/dev/shop"}`,
  ].join('\n');
  const c = calls(parse(unfinished));
  assert.deepEqual(c.map((e) => e.name), ['apply_patch', 'shell_command']);
  const one = await analyzeText(`${T}  INFO codex_core::stream_events_utils: ToolCall: shell_command {"command":"ls","workdir":"/Users/dev/shop"}\n${T}  INFO codex_core::auth: Reloading auth\n`);
  assert.equal(one.format, 'codex-tui-log');
  assert.equal(one.outcome, 'Review');
  assert.ok(one.findings.some((f) => f.rule === 'coverage/actions-removed'));
  assert.notEqual(codex.detect(sample(`${T}  INFO session_loop{id=1}: myapp::server: listening\n${T}  INFO session_init: myapp::db: connected`))?.format, 'codex-tui-log');
  const fields = ' a_b=c'.repeat(20_000);
  const long = calls(parse(`${T}  INFO codex_core::stream_events_utils: ToolCall: exec_command {"cmd":"ls"}${fields}`));
  assert.equal(long.length, 1);
});
