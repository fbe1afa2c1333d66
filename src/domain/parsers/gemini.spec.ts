import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gemini } from './gemini.ts';
import { GeminiDocumentParser } from './gemini/recording.ts';
import { shellExitCode } from './gemini/tools.ts';
import { countKinds, drive, ofKind, sampleOf, type Driven } from './gemini/drive.testing.ts';
import { countWork } from './work-counter.testing.ts';
import type { EventSink, NormEvent } from '../model/events.ts';
import { SHARED } from '../../../test/helpers/shared.ts';

const CORPUS = SHARED + 'corpus';
const corpus = (dir: string, prefix: string) =>
  readFileSync(join(CORPUS, dir, readdirSync(join(CORPUS, dir)).find((f) => f.startsWith(prefix))!), 'utf8');
const jsonl = (...records: unknown[]) => records.map((r) => JSON.stringify(r)).join('\n') + '\n';
const META = { sessionId: 's-1', projectHash: 'ab'.repeat(32), startTime: '2026-05-01T10:00:00.000Z', lastUpdated: '2026-05-01T10:00:00.000Z', kind: 'main' };

function parseCorpus(prefix: string): Driven {
  const out = drive(gemini, corpus('gemini-cli', prefix));
  assert.deepEqual(out.skips, [], `${prefix} parsed without skips`);
  assert.ok(out.events.every((e) => e.index === -1 && e.line >= 1));
  return out;
}

function shell(id: string, command: string, output: string, status = 'success') {
  return {
    id, name: 'run_shell_command', args: { command, dir_path: '/repo' }, status, timestamp: '2026-05-01T10:00:03.000Z',
    result: [{ functionResponse: { id, name: 'run_shell_command', response: { output } } }],
  };
}

function gem(id: string, extra: Record<string, unknown> = {}) {
  return { id, timestamp: '2026-05-01T10:00:02.000Z', type: 'gemini', content: '', model: 'gemini-2.5-pro', ...extra };
}

const user = (id: string, content: unknown, extra: Record<string, unknown> = {}) =>
  ({ id, timestamp: '2026-05-01T10:00:01.000Z', type: 'user', content, ...extra });

describe('gemini: the real corpus', () => {
  test('gm01 (JSONL, re-appended ids, /init expansion, tool-response user turn, cancel)', () => {
    const { detection, events } = parseCorpus('gm01');
    assert.deepEqual(detection, { format: 'gemini-jsonl', score: 0.95 });
    const counts = countKinds(events);
    assert.equal(counts.tool_call, 12, 'each re-appended message counted once');
    assert.equal(counts.tool_result, 12);
    assert.equal(counts.message, 2);
    assert.equal(counts.interrupt, 1, '"Request cancelled." info');
    const prompts = ofKind(events, 'prompt');
    assert.deepEqual(prompts.map((p) => [p.text.slice(0, 24), p.synthetic ?? false]), [
      ['/init', false],
      ['\nYou are an AI agent tha', true],
      ['System: Please continue.', true],
      ['幫我做一個小修改 請幫我將上面確保執行時要透過 ', false],
    ]);
    const meta = ofKind(events, 'session_meta');
    assert.equal(meta[0].sessionId, '0ab84937-9fe7-4284-986a-33c832af0b6a');
    assert.equal(meta[0].cwd, '/home/wei/repo/discordbot', 'inferred from write_file answering a relative path');
    assert.deepEqual(meta.slice(1).map((m) => m.model), ['gemini-3-flash-preview', 'gemini-3.1-pro-preview']);
    const edit = ofKind(events, 'tool_call').find((c) => c.name === 'replace')!;
    assert.equal(edit.input.type, 'file_edit');
    assert.equal(edit.line, 26, 'the line of the copy that won');
  });

  test('gm02 (legacy JSON document, Part[] prompt): read_file x3, write_file x4', () => {
    const { detection, events } = parseCorpus('gm02');
    assert.deepEqual(detection, { format: 'gemini-json', score: 0.9 });
    const calls = ofKind(events, 'tool_call');
    assert.deepEqual(calls.map((c) => c.input.type), ['file_read', 'file_read', 'file_read', 'file_write', 'file_write', 'file_write', 'file_write']);
    assert.equal(ofKind(events, 'tool_result').filter((r) => r.isError).length, 0);
    const prompt = ofKind(events, 'prompt');
    assert.equal(prompt.length, 1);
    assert.equal(prompt[0].line, 8, 'mapped to the line of the message id, not line 1');
  });

  test('gm03 (legacy JSON, chat only)', () => {
    const counts = countKinds(parseCorpus('gm03').events);
    assert.equal(counts.prompt, 1);
    assert.equal(counts.message, 13);
    assert.equal(counts.tool_call, undefined);
  });

  test('gm03 replies 13 times to one prompt with no tool call recorded: the calls it answered are not in the file', () => {
    assert.deepEqual(parseCorpus('gm03').toolsNotRecorded?.turns, 12);
  });

  test('gm13 (one question, one answer, no tool call) is a chat, not a recording that lost its calls', () => {
    assert.equal(parseCorpus('gm13').toolsNotRecorded, null);
  });

  test('gm04 (@file injection split off the typed request; one failed replace)', () => {
    const { events } = parseCorpus('gm04');
    const prompts = ofKind(events, 'prompt');
    assert.equal(prompts[0].text, 'add another hello bob console log to @index.ts');
    assert.equal(prompts[0].synthetic, undefined);
    assert.ok(prompts[1].synthetic && prompts[1].text.startsWith('--- Content from referenced files ---'));
    assert.equal(ofKind(events, 'tool_call').length, 5);
    const failed = ofKind(events, 'tool_result').filter((r) => r.isError);
    assert.deepEqual(failed.map((r) => r.name), ['replace']);
    assert.match(failed[0].output, /Expected 1 occurrence but found 4/);
  });

  test('gm05 (legacy JSON): 5 prompts, 11 calls, exactly one error result', () => {
    const { events } = parseCorpus('gm05');
    const counts = countKinds(events);
    assert.equal(counts.prompt, 5);
    assert.equal(counts.tool_call, 11);
    assert.equal(counts.tool_result, 11);
    const errors = ofKind(events, 'tool_result').filter((r) => r.isError);
    assert.equal(errors.length, 1);
    assert.equal(errors[0].callId, 'replace-1761077322005-e180d6d44397f');
    assert.equal(errors[0].denied, false);
    assert.ok(ofKind(events, 'usage').every((u) => u.model === 'gemini-2.5-pro'));
  });

  test('gm06 (JSONL, current shell output without "Exit Code") → exit 0', () => {
    const { events } = parseCorpus('gm06');
    const [call] = ofKind(events, 'tool_call');
    assert.deepEqual(call.input, { type: 'command', command: 'ls -F' });
    const [result] = ofKind(events, 'tool_result');
    assert.equal(result.exitCode, 0);
    assert.equal(result.isError, false);
    assert.match(result.output, /README\.md/);
    assert.deepEqual(countKinds(events), { session_meta: 2, prompt: 1, tool_call: 1, tool_result: 1, usage: 2, message: 1 });
  });

  test('gm11 (Content[] history): 45 calls, 46 responses, compaction summary, the context preamble, one refusal', () => {
    const { detection, events } = parseCorpus('gm11');
    assert.deepEqual(detection, { format: 'gemini-history', score: 0.9 });
    const counts = countKinds(events);
    assert.equal(counts.tool_call, 45);
    // One response answers a call the saved history no longer holds (its id is kept, unmatched).
    assert.equal(counts.tool_result, 46);
    assert.equal(counts.compaction, 1);
    assert.equal(ofKind(events, 'session_meta')[0].cwd, '/Users/ntaylormullen/GitHub/gemini-cli2');
    assert.ok(ofKind(events, 'system').some((e) => e.subtype === 'session_context'));
    const prompts = ofKind(events, 'prompt');
    assert.equal(prompts[0].text, "agent teams shouldn't persist, I want it to ask me every boot");
    assert.ok(prompts.every((p) => !p.text.startsWith('<session_context>') && !p.text.startsWith('<state_snapshot>')));
    const refused = ofKind(events, 'tool_result').filter((r) => r.denied);
    assert.deepEqual(refused.map((r) => r.callId), ['r5upl1os']);
    const build = ofKind(events, 'tool_call').find((c) => c.callId === 'pcty51v5');
    assert.equal(build?.input.type, 'command');
    // Events point at the entry's own line, not at the document's first line.
    assert.ok(new Set(events.map((e) => e.line)).size > 50);
  });

  test('a one-line Content[] without ids pairs responses with calls by name, in order', () => {
    const history = [
      { role: 'user', parts: [{ text: 'list then build' }] },
      { role: 'model', parts: [{ text: 'plan', thought: true }, { functionCall: { name: 'run_shell_command', args: { command: 'ls' } } }, { functionCall: { name: 'run_shell_command', args: { command: 'npm run build' } } }] },
      { role: 'user', parts: [{ functionResponse: { name: 'run_shell_command', response: { output: 'Output: a.txt' } } }, { functionResponse: { name: 'run_shell_command', response: { output: 'Output: boom\nExit Code: 2' } } }] },
      { role: 'model', parts: [{ text: 'The build fails.' }] },
    ];
    const out = drive(gemini, JSON.stringify(history));
    assert.deepEqual(out.skips, []);
    assert.equal(out.detection?.format, 'gemini-history');
    const calls = ofKind(out.events, 'tool_call');
    const results = ofKind(out.events, 'tool_result');
    assert.deepEqual(results.map((r) => [r.callId, r.exitCode, r.isError]), [[calls[0].callId, 0, false], [calls[1].callId, 2, true]]);
    assert.deepEqual(countKinds(out.events), { prompt: 1, thinking: 1, tool_call: 2, tool_result: 2, message: 1 });
  });

  test('gm09: a shell command the policy engine could not parse was refused, not failed', () => {
    const { events } = parseCorpus('gm09');
    const rejected = ofKind(events, 'tool_result').filter((r) => r.output === 'Command rejected because it could not be parsed safely');
    assert.equal(rejected.length, 9);
    assert.ok(rejected.every((r) => r.denied && r.isError));
    const other = ofKind(events, 'tool_result').find((r) => /ENOENT/.test(r.output));
    assert.equal(other?.denied, false, 'a real error stays a failure');
  });

  test('a /chat save checkpoint wrapping the history ({history, authType}) reads the same, events on their entry lines', () => {
    const history = [
      { role: 'user', parts: [{ text: 'run the tests' }] },
      { role: 'model', parts: [{ functionCall: { id: 'c1', name: 'run_shell_command', args: { command: 'npm test' } } }] },
      { role: 'user', parts: [{ functionResponse: { id: 'c1', name: 'run_shell_command', response: { output: 'Output: ok' } } }] },
    ];
    const out = drive(gemini, JSON.stringify({ history, authType: 'oauth-personal' }, null, 2));
    assert.deepEqual(out.skips, []);
    assert.equal(out.detection?.format, 'gemini-history');
    assert.deepEqual(countKinds(out.events), { prompt: 1, tool_call: 1, tool_result: 1 });
    assert.deepEqual(out.events.map((e) => e.line), [3, 11, 25]);
  });

  test('an error report ({error, context}) is the conversation it was sending: read as a history, the pending message a prompt', () => {
    const context = [
      { role: 'user', parts: [{ text: 'run the tests' }] },
      { role: 'model', parts: [{ functionCall: { id: 'c1', name: 'run_shell_command', args: { command: 'rm -rf build' } } }] },
      { role: 'user', parts: [{ functionResponse: { id: 'c1', name: 'run_shell_command', response: { output: 'Output: (empty)' } } }] },
      'why is the build folder gone?',
    ];
    const report = { error: { message: 'got status: UNAVAILABLE. The model is overloaded.', stack: 'ApiError: …' }, context };
    const out = drive(gemini, JSON.stringify(report, null, 2));
    assert.equal(out.detection?.format, 'gemini-history');
    assert.deepEqual(out.skips, []);
    assert.deepEqual(countKinds(out.events), { prompt: 2, tool_call: 1, tool_result: 1 });
    assert.equal(ofKind(out.events, 'prompt').at(-1)?.text, 'why is the build folder gone?');
    // An object with an "error" and no conversation is not a history.
    assert.equal(gemini.detect(sampleOf(JSON.stringify({ error: { message: 'x' }, context: { a: 1 } }, null, 2))), null);
  });

  test('a legacy chat recording (sessionId, messages) is still gemini-json, not a history', () => {
    assert.equal(gemini.detect(sampleOf(corpus('gemini-cli', 'gm05')))?.format, 'gemini-json');
  });

  test('a JSON array of OpenAI-style chat messages is not a Gemini history', () => {
    const chat = [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'hello' }];
    assert.equal(gemini.detect(sampleOf(JSON.stringify(chat, null, 2))), null);
    assert.equal(gemini.detect(sampleOf(JSON.stringify(chat))), null);
  });

  test('the conformance fixture: read, edit, legacy shell summary with Exit Code: 0', () => {
    const out = drive(gemini, readFileSync(SHARED + 'conformance/fixtures/gemini-cli.jsonl', 'utf8'));
    assert.deepEqual(out.skips, []);
    assert.equal(out.detection?.format, 'gemini-jsonl');
    const calls = ofKind(out.events, 'tool_call');
    assert.deepEqual(calls.map((c) => c.input), [
      { type: 'file_read', path: '/home/dev/docs-site/README.md' },
      { type: 'file_edit', path: '/home/dev/docs-site/README.md', edits: [{ oldText: '    npm install\n    npm run build', newText: '    pnpm install\n    pnpm build' }] },
      { type: 'command', command: 'pnpm build' },
    ]);
    const shellResult = ofKind(out.events, 'tool_result')[2];
    assert.equal(shellResult.exitCode, 0);
    assert.equal(shellResult.name, 'run_shell_command');
    const usage = ofKind(out.events, 'usage')[0];
    assert.deepEqual([usage.input, usage.output, usage.cacheRead], [10211, 64 + 38, 0]);
    assert.equal(ofKind(out.events, 'usage')[1].input, 10480 - 9984);
    assert.match(ofKind(out.events, 'message')[0].text, /pnpm install/);
  });
});

describe('gemini: detection', () => {
  test('never claims Claude Code or Codex logs', () => {
    for (const dir of ['claude-code', 'codex']) {
      for (const file of readdirSync(join(CORPUS, dir))) {
        assert.equal(gemini.detect(sampleOf(readFileSync(join(CORPUS, dir, file), 'utf8'))), null, file);
      }
    }
    assert.equal(gemini.detect(sampleOf(readFileSync(SHARED + 'conformance/fixtures/terminal.log', 'utf8'))), null);
  });

  test('JSONL without its metadata line, a one-line document, stream-json', () => {
    assert.equal(gemini.detect(sampleOf(jsonl(gem('g1'))))?.format, 'gemini-jsonl');
    assert.equal(gemini.detect(sampleOf(jsonl({ $set: { lastUpdated: 'x' } })))?.format, 'gemini-jsonl');
    assert.equal(gemini.detect(sampleOf(JSON.stringify({ ...META, messages: [] })))?.format, 'gemini-jsonl');
    assert.equal(gemini.detect(sampleOf(jsonl({ type: 'init', session_id: 'x', model: 'm' })))?.format, 'gemini-stream-json');
    assert.equal(gemini.detect(sampleOf(JSON.stringify({ ...META, messages: [] }, null, 2)))?.format, 'gemini-json');
    assert.equal(gemini.detect(sampleOf('{\n  "hello": 1\n}\n')), null);
    assert.equal(gemini.detect({ lines: [], values: [] }), null);
  });
});

describe('gemini: replies whose tool calls the file does not hold', () => {
  const legacy = (...messages: unknown[]) => JSON.stringify({ ...META, messages }, null, 2) + '\n';

  test('model turns in a row with no call and no prompt between them, in both recording formats', () => {
    const messages = [user('u1', 'rename the project'), gem('g1', { content: 'Reading Cargo.toml.' }), gem('g2', { content: 'Edited src/cli.rs.' }), gem('g3', { content: 'cargo check passed.' })];
    for (const content of [legacy(...messages), jsonl(META, ...messages)]) {
      const out = drive(gemini, content);
      assert.deepEqual(out.skips, []);
      assert.equal(out.toolsNotRecorded?.turns, 2);
    }
  });

  test('a prompt between the turns, one lone extra turn, or any recorded call: nothing is missing', () => {
    const chat = drive(gemini, jsonl(META, user('u1', 'what is this?'), gem('g1', { content: 'A CLI.' }), user('u2', 'and that?'), gem('g2', { content: 'Its tests.' })));
    assert.equal(chat.toolsNotRecorded, null, 'a conversation: every reply follows a prompt');
    const nudge = drive(gemini, jsonl(META, user('u1', 'explain'), gem('g1', { content: 'Part one.' }), gem('g2', { content: 'Part two.' })));
    assert.equal(nudge.toolsNotRecorded, null, 'one extra turn may be the CLI asking the model to continue');
    const recorded = drive(gemini, jsonl(META, user('u1', 'clean'), gem('g1', { toolCalls: [shell('c1', 'ls', 'Output: a')] }), gem('g2', { content: 'Listed.' }), gem('g3', { content: 'Done.' }), gem('g4', { content: 'Bye.' })));
    assert.equal(recorded.toolsNotRecorded, null, 'a file that records calls is read as it is');
  });
});

describe('gemini: JSONL upsert log', () => {
  test('re-appended ids: last copy wins, in first-seen order', () => {
    const out = drive(gemini, jsonl(
      META,
      user('u1', [{ text: 'clean the build' }]),
      gem('g1', { content: 'Cleaning.' }),
      { $set: { lastUpdated: '2026-05-01T10:00:02.100Z' } },
      user('u2', 'and then?'),
      gem('g1', { content: 'Cleaning.', toolCalls: [shell('c1', 'rm -rf build', 'Output: (empty)')], tokens: { input: 100, output: 10, cached: 40 } }),
    ));
    assert.deepEqual(out.skips, []);
    assert.deepEqual(out.events.map((e) => e.kind), ['session_meta', 'prompt', 'session_meta', 'message', 'tool_call', 'tool_result', 'usage', 'prompt']);
    assert.equal(ofKind(out.events, 'tool_call')[0].line, 6);
    assert.deepEqual(ofKind(out.events, 'tool_call')[0].input, { type: 'command', command: 'rm -rf build', workdir: '/repo' });
  });

  test('$rewindTo drops later messages from the history but keeps their evidence, marked', () => {
    const out = drive(gemini, jsonl(
      META,
      user('u1', 'first'),
      gem('g1', { content: 'ok' }),
      user('u2', 'delete the db'),
      gem('g2', { toolCalls: [shell('c2', 'dropdb prod', 'Output: done')] }),
      { $rewindTo: 'u2' },
      user('u3', 'never mind, list files'),
      gem('g2', { content: 'a re-used id after a rewind is a new message' }),
    ));
    assert.deepEqual(out.skips, []);
    const order = out.events.filter((e) => e.kind !== 'session_meta').map((e) => (e.kind === 'prompt' || e.kind === 'message' ? `${e.kind}:${e.text}` : e.kind));
    assert.deepEqual(order, [
      'prompt:first', 'message:ok', 'prompt:delete the db', 'tool_call', 'tool_result', 'system',
      'prompt:never mind, list files', 'message:a re-used id after a rewind is a new message',
    ]);
    const marker = ofKind(out.events, 'system')[0];
    assert.equal(marker.subtype, 'rewind');
    assert.equal(marker.line, 6);
    assert.match(marker.text, /2 message\(s\)/);
  });

  test('$set: summary becomes a system event; a messages rewrite keeps logged records', () => {
    const out = drive(gemini, jsonl(
      META,
      user('u1', 'read the secrets file'),
      gem('g1', { toolCalls: [{ id: 'r1', name: 'read_file', args: { file_path: '.env' }, status: 'success', result: [{ functionResponse: { id: 'r1', response: { output: 'TOKEN=abc' } } }] }] }),
      { $set: { summary: 'Read the env file', memoryScratchpad: { x: 1 } } },
      { $set: { messages: [
        user('u1', 'read the secrets file'),
        gem('g1', { toolCalls: [{ id: 'r1', name: 'read_file', args: { file_path: '.env' }, status: 'success', result: [{ functionResponse: { id: 'r1', response: { output: '<masked>' } } }] }] }),
        gem('g9', { content: 'summary turn' }),
      ] } },
      { $set: { messages: [gem('g9', { content: 'summary turn' })] } },
    ));
    assert.deepEqual(out.skips, []);
    assert.equal(ofKind(out.events, 'tool_result')[0].output, 'TOKEN=abc', 'the masked rewrite does not replace what was logged');
    assert.deepEqual(ofKind(out.events, 'message').map((m) => m.text), ['summary turn']);
    assert.equal(ofKind(out.events, 'compaction').length, 1, 'the second rewrite dropped u1 and g1');
    const summary = ofKind(out.events, 'system').find((s) => s.subtype === 'summary');
    assert.equal(summary?.text, 'Read the env file');
    assert.equal(summary?.line, 4);
  });

  test('tool results: current shell exit codes, denial, interruption, policy, late user-turn responses', () => {
    const out = drive(gemini, jsonl(
      META,
      gem('g1', { toolCalls: [
        shell('s1', 'npm test', 'Output: 1 failing\nExit Code: 1\nProcess Group PGID: 7'),
        shell('s2', 'rm -rf /', '', 'cancelled'),
        { ...shell('s3', 'curl x | sh', ''), status: 'cancelled', result: [{ functionResponse: { id: 's3', response: { error: '[Operation Cancelled] Reason: User did not allow tool call' } } }] },
        { id: 'w1', name: 'write_file', args: { file_path: '/etc/hosts', content: 'x' }, status: 'error', result: [{ functionResponse: { id: 'w1', response: { error: 'Tool execution denied by policy.' } } }] },
        { ...shell('s4', 'sleep 100', ''), status: 'cancelled', result: undefined },
        { ...shell('s5', 'false', ''), result: undefined, resultDisplay: 'no output' },
        { id: 'p1', name: 'run_shell_command', args: { command: 'make' }, status: 'executing' },
      ] }),
      user('u-resp', [{ functionResponse: { id: 'p1', name: 'run_shell_command', response: { output: 'Output: built\nExit Code: 2' } } }]),
    ));
    assert.deepEqual(out.skips, []);
    assert.equal(ofKind(out.events, 'prompt').length, 0, 'a tool-response user turn is no prompt');
    const results = Object.fromEntries(ofKind(out.events, 'tool_result').map((r) => [r.callId, r]));
    assert.deepEqual([results.s1.exitCode, results.s1.isError], [1, true]);
    assert.deepEqual([results.s2.denied, results.s2.interrupted, results.s2.exitCode], [false, true, null]);
    assert.deepEqual([results.s3.denied, results.s3.interrupted, results.s3.isError], [true, undefined, true]);
    assert.deepEqual([results.w1.denied, results.w1.isError], [true, true]);
    assert.equal(results.s4.interrupted, true);
    assert.deepEqual([results.s5.output, results.s5.exitCode], ['no output', null], 'display text alone: exit unknown');
    assert.deepEqual([results.p1.exitCode, results.p1.isError, results.p1.line], [2, true, 3]);
  });

  test('tool names map to the right inputs', () => {
    const call = (id: string, name: string, args: unknown, extra: Record<string, unknown> = {}) => ({ id, name, args, status: 'success', result: [], ...extra });
    const out = drive(gemini, jsonl(META, gem('g1', { toolCalls: [
      call('a', 'web_fetch', { prompt: 'Summarise https://evil.example/x?q=1, and https://b.example.' }),
      call('b', 'google_web_search', { query: 'cve 2026' }),
      call('c', 'glob', { pattern: '**/*.ts', dir_path: 'src' }),
      call('d', 'grep_search', { pattern: 'TODO' }),
      call('e', 'list_directory', { dir_path: '/home/me' }),
      call('f', 'invoke_agent', { agent_name: 'codebase_investigator', prompt: 'map the repo' }, { agentId: 'sub-1' }),
      call('g', 'github__create_issue', { title: 't' }),
      call('h', 'mcp_linear_list_issues', {}),
      call('i', 'read_many_files', { paths: ['a.ts', 'b.ts'] }),
      call('j', 'write_todos', { todos: [] }),
      call('k', 'run_shell_command', { command: 'ls', directory: 'sub', is_background: true }),
    ] })));
    const inputs = ofKind(out.events, 'tool_call').map((c) => c.input);
    assert.deepEqual(inputs, [
      { type: 'web_fetch', url: 'https://evil.example/x?q=1', prompt: 'Summarise https://evil.example/x?q=1, and https://b.example.' },
      { type: 'web_search', query: 'cve 2026' },
      { type: 'search', pattern: '**/*.ts', path: 'src' },
      { type: 'search', pattern: 'TODO' },
      { type: 'search', pattern: '', path: '/home/me' },
      { type: 'subagent', description: 'codebase_investigator', prompt: 'map the repo', agentType: 'codebase_investigator' },
      { type: 'mcp', server: 'github', tool: 'create_issue', args: { title: 't' } },
      { type: 'mcp', server: 'linear', tool: 'list_issues', args: {} },
      { type: 'file_read', path: 'a.ts\nb.ts' },
      { type: 'other', args: { todos: [] } },
      { type: 'command', command: 'ls', workdir: 'sub', background: true },
    ]);
    assert.deepEqual(out.missing, [{ id: 'sub-1', line: 2 }]);
  });

  test('a minified one-line legacy document is read as metadata plus a history', () => {
    const out = drive(gemini, JSON.stringify({ ...META, summary: 'Fix CI', messages: [user('u1', 'fix ci'), gem('g1', { content: 'Done.' })] }) + '\n');
    assert.equal(out.detection?.format, 'gemini-jsonl');
    assert.deepEqual(out.skips, []);
    assert.deepEqual(out.events.map((e) => e.kind), ['session_meta', 'prompt', 'session_meta', 'message', 'system']);
    assert.ok(out.events.every((e) => e.line === 1));
  });

  test('a subagent recording tags every event with its agent id', () => {
    const out = drive(gemini, jsonl({ ...META, sessionId: 'sub-7', kind: 'subagent' }, user('u', 'go'), gem('g', { content: 'done' })));
    assert.ok(out.events.length > 0 && out.events.every((e) => e.agentId === 'sub-7'));
  });

  test('info, warning and error notices', () => {
    const out = drive(gemini, jsonl(META,
      { id: 'i', type: 'info', content: 'Switched model' },
      { id: 'w', type: 'warning', content: 'Low disk' },
      { id: 'e', type: 'error', content: [{ text: 'API error 429' }] },
      { id: 'x', type: 'telepathy', content: '?' }));
    assert.deepEqual(out.events.map((e) => e.kind), ['session_meta', 'system', 'system', 'error']);
    assert.equal(ofKind(out.events, 'error')[0].text, 'API error 429');
    assert.deepEqual(out.skips.map((s) => s.line), [5], 'an unknown message type is skipped, not fatal');
  });
});

describe('gemini: legacy JSON document through text()', () => {
  test('a cut-off document keeps its complete messages and reports one skip', () => {
    const full = corpus('gemini-cli', 'gm05');
    const cut = full.slice(0, full.indexOf('add a Pause/Resume feature'));
    const out = drive(gemini, cut);
    assert.equal(out.skips.length, 1);
    assert.match(out.skips[0].reason, /cut off/);
    assert.equal(ofKind(out.events, 'prompt').length, 2);
    assert.equal(ofKind(out.events, 'tool_call').length, 4);
  });

  test('a document over the cap is dropped and every line reported', () => {
    const parser = new GeminiDocumentParser(1000);
    const skips: number[] = [];
    const events: NormEvent[] = [];
    const sink: EventSink = { emit: (e) => events.push(e), skip: (line) => skips.push(line) };
    const lines = JSON.stringify({ ...META, messages: [user('u', 'x'.repeat(2000))] }, null, 2).split('\n');
    lines.forEach((l, i) => parser.text(l, i + 1, sink));
    parser.end(sink);
    assert.deepEqual(events, []);
    assert.deepEqual(skips, lines.map((_, i) => i + 1));
  });

  test("a recording saved in the API's shape (/export-session): functionCall parts are calls, the next user turn's functionResponse parts their results", () => {
    const doc = {
      ...META,
      messages: [
        { id: 'u1', timestamp: '2026-05-01T10:00:01.000Z', type: 'user', content: [{ text: 'deploy the migration' }] },
        { id: 'g1', timestamp: '2026-05-01T10:00:02.000Z', type: 'gemini', content: [{ thoughtSignature: 'AY89' }, { functionCall: { id: 'run_shell_command__1', name: 'run_shell_command', args: { command: 'npx prisma db push --accept-data-loss' } } }, { functionCall: { name: 'read_file', args: { file_path: '.env' } } }] },
        { id: 'u2', timestamp: '2026-05-01T10:00:05.000Z', type: 'user', content: [{ functionResponse: { id: 'run_shell_command__1', name: 'run_shell_command', response: { output: 'Output: done\nExit Code: 0' } } }, { functionResponse: { name: 'read_file', response: { output: 'DATABASE_URL=…' } } }] },
        { id: 'g2', timestamp: '2026-05-01T10:00:06.000Z', type: 'gemini', content: 'Pushed.' },
      ],
    };
    const out = drive(gemini, JSON.stringify(doc, null, 2));
    assert.deepEqual(out.skips, []);
    const calls = ofKind(out.events, 'tool_call');
    assert.deepEqual(calls.map((c) => c.name), ['run_shell_command', 'read_file']);
    assert.equal(calls[0].input.type === 'command' ? calls[0].input.command : null, 'npx prisma db push --accept-data-loss');
    const results = ofKind(out.events, 'tool_result');
    assert.deepEqual(results.map((r) => r.callId), [calls[0].callId, calls[1].callId], 'answered by id, and by tool name without one');
    assert.deepEqual(ofKind(out.events, 'prompt').map((p) => p.text), ['deploy the migration'], 'the response turn is no prompt');
    // a record that has toolCalls keeps its calls there; its functionCall parts (without ids) are the same calls
    const both = { ...META, messages: [{ id: 'g1', timestamp: '2026-05-01T10:00:02.000Z', type: 'gemini', content: [{ functionCall: { name: 'run_shell_command', args: { command: 'rm -rf /home/dev/photos' } } }], toolCalls: [{ ...shell('run_shell_command_1', 'rm -rf /home/dev/photos', ''), status: 'cancelled', result: undefined }] }] };
    assert.equal(ofKind(drive(gemini, JSON.stringify(both, null, 2)).events, 'tool_call').length, 1);
  });

  test('garbage document: one skip, no throw', () => {
    const out = drive(gemini, '{\n  "sessionId": "x",\n  "messages": 12\n', 'gemini-json');
    assert.equal(out.skips.length, 1);
    const notArray = drive(gemini, JSON.stringify({ ...META, messages: 'nope' }, null, 2));
    assert.deepEqual(notArray.skips.map((s) => s.reason), ['Gemini document: messages is not an array']);
    assert.equal(notArray.events[0].kind, 'session_meta');
  });
});

describe('gemini: stream-json', () => {
  const stream = jsonl(
    { type: 'init', timestamp: '2026-05-01T10:00:00.000Z', session_id: 'st-1', model: 'gemini-2.5-flash' },
    { type: 'message', role: 'user', content: 'List files then read the README', timestamp: '2026-05-01T10:00:01.000Z' },
    { type: 'message', role: 'assistant', content: 'I will ', delta: true },
    { type: 'message', role: 'assistant', content: 'list them.', delta: true },
    { type: 'tool_use', tool_name: 'run_shell_command', tool_id: 't1', parameters: { command: 'ls -la' } },
    { type: 'tool_result', tool_id: 't1', status: 'success', output: 'README.md' },
    { type: 'tool_use', tool_name: 'read_file', tool_id: 't2', parameters: { file_path: 'README.md' } },
    { type: 'tool_result', tool_id: 't2', status: 'error', error: { type: 'FILE_NOT_FOUND', message: 'File not found' } },
    { type: 'message', role: 'assistant', content: 'The README ', delta: true },
    { type: 'message', role: 'assistant', content: 'is missing.', delta: true },
    { type: 'error', severity: 'warning', message: 'Loop detected' },
    { type: 'result', status: 'success', stats: { total_tokens: 300, input_tokens: 250, output_tokens: 50, cached: 100, duration_ms: 900, tool_calls: 2 } },
  );

  test('init, merged deltas, call/result pairs, usage', () => {
    const out = drive(gemini, stream);
    assert.deepEqual(out.skips, []);
    assert.deepEqual(out.detection, { format: 'gemini-stream-json', score: 0.95 });
    assert.deepEqual(out.events.map((e) => e.kind), ['session_meta', 'prompt', 'message', 'tool_call', 'tool_result', 'tool_call', 'tool_result', 'message', 'system', 'usage']);
    assert.deepEqual(ofKind(out.events, 'message').map((m) => [m.text, m.line]), [['I will list them.', 3], ['The README is missing.', 9]]);
    const [ls, read] = ofKind(out.events, 'tool_result');
    assert.deepEqual([ls.exitCode, ls.isError, ls.name], [null, false, 'run_shell_command'], 'display text never states the exit code');
    assert.deepEqual([read.isError, read.output, read.exitCode], [true, 'File not found', null]);
    const usage = ofKind(out.events, 'usage')[0];
    assert.deepEqual([usage.input, usage.output, usage.cacheRead, usage.model], [150, 50, 100, 'gemini-2.5-flash']);
    assert.equal(ofKind(out.events, 'session_meta')[0].sessionId, 'st-1');
  });

  test('an unfinished reply is flushed at end; unknown events: metadata, or skipped when they may hold an action', () => {
    const out = drive(gemini, jsonl({ type: 'init', session_id: 'x' }, { type: 'wat', command: 'rm -rf x' }, { type: 'message', role: 'assistant', content: 'half', delta: true }, { type: 'heartbeat', seq: 3 }));
    assert.deepEqual(out.skips.map((s) => s.line), [2]);
    assert.deepEqual(out.metadata, [{ line: 4, type: 'heartbeat' }]);
    assert.equal(ofKind(out.events, 'message')[0].text, 'half');
  });
});

describe('gemini: hostile input never throws', () => {
  const deep = (n: number): unknown => { let v: unknown = 'x'; for (let i = 0; i < n; i++) v = [v]; return v; };
  const nasty: unknown[] = [
    {}, null, 42, 'str', [], [1, 2], { id: 5 }, { $set: 'x' }, { $set: null }, { $rewindTo: 7 }, { $rewindTo: 'missing' },
    { sessionId: 'x', messages: 'not an array' }, { id: 'm', type: 'gemini', toolCalls: 'a string' },
    { id: 'm2', type: 'gemini', toolCalls: [null, 1, 'x', { name: 5, args: 'no', result: 'plain', status: 9 }] },
    { id: 'm3', type: 'user', content: deep(2000) }, { id: 'm4', type: 'gemini', content: { text: 5 }, thoughts: 'x', tokens: 'x' },
    { id: 'm5', type: 'gemini', thoughts: [null, 5, { subject: 1 }], tokens: { input: 'x', output: Infinity } },
    { id: 'm6', type: 'user', content: [{ text: 'y'.repeat(5_000_000) }], displayContent: 12 },
    { id: 'm7', type: 'gemini', model: { x: 1 }, timestamp: 12, toolCalls: [{ id: 'z', name: 'run_shell_command', args: { command: ['rm'] }, result: [{ functionResponse: { response: { output: deep(3000), error: { message: 7 } } } }], status: 'error' }] },
    { id: '__proto__', type: 'user', content: 'proto' }, { id: 'constructor', type: 'info', content: null },
  ];

  test('JSONL records of every wrong shape', () => {
    const sink: EventSink = { emit: () => {}, skip: () => {} };
    const parser = gemini.create('gemini-jsonl');
    nasty.forEach((v, i) => parser.record!(v, i + 1, sink));
    assert.doesNotThrow(() => parser.end(sink));
  });

  test('stream-json events of every wrong shape', () => {
    const sink: EventSink = { emit: () => {}, skip: () => {} };
    const parser = gemini.create('gemini-stream-json');
    const events = [...nasty, { type: 'message', role: 'assistant', delta: true, content: deep(100) }, { type: 'tool_result', output: deep(2000), error: 5 }, { type: 'result', stats: 'x', status: 'error', error: 4 }];
    assert.doesNotThrow(() => {
      events.forEach((v, i) => parser.record!(v, i + 1, sink));
      parser.end(sink);
    });
  });

  test('document parser with junk lines', () => {
    const out = drive(gemini, '{\n\u0000\u0001\u0002\n"sessionId":\n' + 'z'.repeat(100_000) + '\n', 'gemini-json');
    assert.equal(out.events.length, 0);
    assert.equal(out.skips.length, 1);
  });

  test('adversarial upsert logs stay linear: 4× the records cost at most 5× the work', () => {
    const adversarial = (n: number) => () => {
      const sink: EventSink = { emit: () => {}, skip: () => {} };
      const parser = gemini.create('gemini-jsonl');
      const old = 1_000;
      for (let i = 0; i < old; i++) parser.record!({ id: `old${i}`, type: 'info', content: 'x' }, i + 1, sink);
      for (let i = 0; i < n; i++) {
        parser.record!({ id: `m${i}`, type: 'info', content: 'x' }, i + 1, sink);
        parser.record!({ $rewindTo: `m${i}` }, i + 1, sink);
        parser.record!({ $set: { messages: [{ id: `old${i % old}` }] } }, i + 1, sink);
      }
      parser.end(sink);
    };
    const small = countWork(adversarial(5_000));
    const large = countWork(adversarial(20_000));
    assert.ok(small > 5_000, `the probe sees the parser's work (${small})`);
    assert.ok(large <= 5 * small, `work grew ${(large / small).toFixed(1)}× for 4× the input (quadratic would be ~16×)`);
  });

  test('Content[] history with junk entries: every bad entry skipped with a reason, nothing thrown', () => {
    const junk = [
      { role: 'user', parts: [{ text: 'go' }] },
      null, 5, 'str', { role: 'user' }, { role: 'alien', parts: [] }, { role: 'model', parts: 'no' },
      { role: 'model', parts: [null, 7, { functionCall: 5 }, { functionCall: { name: 9, args: 'x' } }, { text: 7 }, { text: 'ok', thought: 'yes' }] },
      { role: 'user', parts: [{ functionResponse: { id: 5, name: null, response: 'str' } }, { functionResponse: { response: { error: { message: 'boom' } } } }] },
      { role: 'user', parts: [{ text: deep(3000) }, { functionResponse: { response: { output: deep(3000) } } }] },
    ];
    const out = drive(gemini, JSON.stringify(junk, null, 2), 'gemini-history');
    // null, 5, {role: user} and parts: "no" have no parts; 'str' is a message (the API takes a bare string as the person's turn).
    assert.deepEqual(out.skips.map((s) => s.reason), [
      'Gemini history entry without parts', 'Gemini history entry without parts',
      'Gemini history entry without parts', 'Gemini history entry with an unknown role "alien"', 'Gemini history entry without parts',
    ]);
    assert.equal(ofKind(out.events, 'tool_call').length, 1);
    assert.ok(ofKind(out.events, 'tool_result').length >= 2);
  });

  test('detect() on odd samples', () => {
    assert.doesNotThrow(() => gemini.detect({ lines: ['{', '"sessionId"'], values: [undefined, undefined] }));
    assert.equal(gemini.detect({ lines: ['x'], values: [deep(50)] }), null);
  });
});

test('shellExitCode reads only the summary line', () => {
  assert.equal(shellExitCode('Command: x\nOutput: a\nError: (none)\nExit Code: 0\nSignal: (none)'), 0);
  assert.equal(shellExitCode('Output: boom\nExit Code: 127'), 127);
  assert.equal(shellExitCode('Output: printed Exit Code: 5 inline'), null);
  assert.equal(shellExitCode('Exit Code: (none)'), null);
  assert.equal(shellExitCode('Output: a\nExit Code: 3\nlater text\nExit Code: 9'), 9);
});

test("the shell summary's output label stands on its own line, so the command's first line starts a line (the summary's first label only; a recording's display text and other tools are as written)", () => {
  const out = (output: string, name = 'run_shell_command') => ofKind(drive(gemini, jsonl(META, gem('g1', { toolCalls: [{ id: 'a', name, args: { command: 'curl x | sh' }, status: 'success', result: [{ functionResponse: { id: 'a', name, response: { output } } }] }] }))).events, 'tool_result')[0]!.output;
  assert.equal(out('Command: curl x | sh\nDirectory: (root)\nOutput: curl: (6) Could not resolve host: x\nError: (none)\nExit Code: 0'), 'Command: curl x | sh\nDirectory: (root)\nOutput:\ncurl: (6) Could not resolve host: x\nError: (none)\nExit Code: 0');
  assert.equal(out('Output: AgentSessions/\nREADME.md\nProcess Group PGID: 12345'), 'Output:\nAgentSessions/\nREADME.md\nProcess Group PGID: 12345', 'newer builds start with it');
  assert.equal(out('Output: a\nOutput: b'), 'Output:\na\nOutput: b', "the command's own words after it stay");
  assert.equal(out('no summary here\nit said Output: x'), 'no summary here\nit said Output: x');
  assert.equal(out('Output: kept', 'read_file'), 'Output: kept', 'not a shell tool');
});
