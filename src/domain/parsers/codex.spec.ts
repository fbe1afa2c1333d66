import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { codex } from './codex.ts';
import { countKinds, jsonl, ofKind, run, sample, type Run } from './codex/drive.testing.ts';
import type { NormEvent } from '../model/events.ts';
import { SHARED } from '../../../test/helpers/shared.ts';

const CORPUS = SHARED + 'corpus';
const CONFORMANCE = SHARED + 'conformance/fixtures';
const files = (dir: string) => readdirSync(join(CORPUS, dir)).map((f) => join(CORPUS, dir, f));
const cx = (prefix: string) => readFileSync(files('codex').find((f) => f.includes(`/${prefix}`))!, 'utf8');

function parsed(prefix: string): Run {
  const r = run(cx(prefix));
  assert.deepEqual(r.skips, [], `${prefix}: no skipped lines`);
  assert.ok(r.events.every((e) => e.index === -1 && e.line >= 1), 'parsers leave index at -1');
  return r;
}

const calls = (r: Run) => ofKind(r.events, 'tool_call');
const results = (r: Run) => ofKind(r.events, 'tool_result');
const atLine = <E extends NormEvent>(events: E[], line: number) => events.find((e) => e.line === line)!;
const inputTypes = (r: Run) => countBy(calls(r).map((c) => c.input.type));
function countBy(keys: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const k of keys) out[k] = (out[k] ?? 0) + 1;
  return out;
}
/** The last value each session_meta field took. */
function meta(r: Run): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const m of ofKind(r.events, 'session_meta')) {
    for (const [k, v] of Object.entries(m)) if (!['kind', 'index', 'line', 'at'].includes(k)) out[k] = k === 'flags' ? [...((out.flags as string[]) ?? []), ...(v as string[])] : v;
  }
  return out;
}

describe('codex: detection', () => {
  test('every corpus file is recognised with no hint', () => {
    const expected: Record<string, string> = {
      cx01: 'codex-rollout', cx02: 'codex-rollout', cx03: 'codex-rollout', cx04: 'codex-legacy',
      cx05: 'codex-rollout', cx06: 'codex-rollout', cx07: 'codex-rollout',
    };
    for (const [prefix, format] of Object.entries(expected)) {
      const d = codex.detect(sample(cx(prefix)));
      assert.equal(d?.format, format, prefix);
      assert.ok(d.score >= 0.9, `${prefix} is unmistakable (${d.score})`);
    }
    assert.equal(codex.detect(sample(readFileSync(join(CONFORMANCE, 'codex.jsonl'), 'utf8')))?.format, 'codex-rollout');
  });

  test('Claude Code, Gemini CLI and plain text are not claimed', () => {
    const others = [...files('claude-code'), ...files('gemini-cli'), ...['claude-code.jsonl', 'gemini-cli.jsonl', 'terminal.log'].map((f) => join(CONFORMANCE, f))];
    for (const f of others) assert.equal(codex.detect(sample(readFileSync(f, 'utf8'))), null, f);
    const streams = [
      jsonl({ type: 'system', subtype: 'init', cwd: '/r', session_id: 's', tools: [], model: 'claude' }, { type: 'assistant', message: { content: [] } }, { type: 'result', subtype: 'success' }),
      jsonl({ type: 'init', session_id: 's', model: 'gemini' }, { type: 'message', role: 'user', content: 'hi' }, { type: 'message', role: 'assistant', content: 'yo', delta: true }),
    ];
    for (const s of streams) assert.equal(codex.detect(sample(s)), null);
    assert.equal(codex.detect({ lines: [], values: [] }), null);
    assert.equal(codex.detect({ lines: ['x', '{}', '5'], values: [undefined, {}, 5] }), null);
  });

  test('exec --json and a bare legacy tail are recognised', () => {
    assert.equal(codex.detect(sample(jsonl({ type: 'thread.started', thread_id: 't' }, { type: 'turn.started' })))?.format, 'codex-exec-json');
    const legacy = jsonl({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }, { record_type: 'state' }, { type: 'function_call', name: 'shell', arguments: '{}', call_id: 'c' });
    assert.equal(codex.detect(sample(legacy))?.format, 'codex-legacy');
    const headOnly = codex.detect(sample(jsonl({ id: 'cf4d', timestamp: '2025-09-10T18:58:38.331Z', instructions: 'x'.repeat(70_000) })));
    assert.deepEqual(headOnly, { format: 'codex-legacy', score: 0.75 }, 'a first line that fills the whole sample');
  });

  test('create() refuses formats of other families', () => {
    assert.throws(() => codex.create('gemini-jsonl'));
    assert.equal(codex.create('codex-exec-json').agent, 'codex');
  });
});

describe('codex: the real corpus', () => {
  test('cx01 (0.60.1): prompts, shell_command, apply_patch, exit codes, escalation, abort, usage', () => {
    const r = parsed('cx01');
    const counts = countKinds(r.events);
    assert.equal(counts.prompt, 54, 'user_message and its response_item copy count once');
    assert.equal(ofKind(r.events, 'prompt').filter((p) => p.synthetic).length, 0, 'environment_context is metadata, not a prompt');
    assert.equal(counts.message, 53);
    assert.equal(counts.thinking, 151, 'agent_reasoning and reasoning summaries count once');
    assert.equal(counts.tool_call, 298);
    assert.equal(counts.tool_result, 298);
    assert.deepEqual(inputTypes(r), { command: 118, patch: 176, other: 4 }, '3 shell heredocs are apply_patch');
    assert.equal(counts.interrupt, 1);
    assert.deepEqual(atLine(ofKind(r.events, 'interrupt'), 1258).reason, 'interrupted');

    const jsonOut = atLine(results(r), 48);
    assert.equal(jsonOut.exitCode, 0, 'exit code from a JSON output');
    assert.equal(jsonOut.name, 'apply_patch');
    assert.equal(jsonOut.isError, false);
    const textOut = atLine(results(r), 168);
    assert.equal(textOut.exitCode, 1, 'exit code from "Exit code: 1" text');
    assert.equal(textOut.isError, true);
    assert.equal(textOut.durationMs, 100);
    assert.equal(results(r).filter((x) => x.name === 'apply_patch' && x.isError).length, 8, 'verification failures');

    const add = atLine(calls(r), 47);
    assert.equal(add.input.type === 'patch' && add.input.files[0].op, 'add');
    assert.ok(add.input.type === 'patch' && add.input.files[0].added.startsWith('<!DOCTYPE html>'));
    const del = atLine(calls(r), 1200);
    assert.deepEqual(del.input, { type: 'patch', files: [{ path: 'app.js', op: 'delete', removed: '', added: '' }] });

    const escalated = atLine(calls(r), 588);
    assert.equal(escalated.input.type, 'command');
    assert.equal(escalated.input.type === 'command' && escalated.input.escalated, true);
    assert.match(escalated.input.type === 'command' ? escalated.input.justification ?? '' : '', /lichess cburnett/);
    assert.equal(calls(r).filter((c) => c.input.type === 'command' && c.input.escalated).length, 6);

    const m = meta(r);
    assert.equal(m.sessionId, '019aad50-a7e6-7422-b7a8-0b384290624f');
    assert.equal(m.cwd, '/Users/pinouchon/code/rtchess');
    assert.equal(m.model, 'gpt-5.1-codex-max');
    assert.equal(m.approvalPolicy, 'on-request');
    assert.equal(m.sandbox, 'workspace-write');
    assert.equal(m.agentVersion, '0.60.1');
    assert.deepEqual(m.flags, ['originator:codex_cli_rs', 'model_provider:openai', 'source:cli']);
    // (undo snapshots that list untracked files pass those on as session facts of their own)
    assert.equal(ofKind(r.events, 'session_meta').filter((e) => !e.untrackedFiles).length, 3, '352 identical turn_contexts do not repeat the metadata');

    const usage = ofKind(r.events, 'usage');
    assert.equal(usage.length, 351, '703 token_count events repeat each total twice');
    const sum = (k: 'input' | 'output' | 'cacheRead') => usage.reduce((s, u) => s + u[k], 0);
    assert.deepEqual([sum('input') + sum('cacheRead'), sum('cacheRead'), sum('output')], [30644629, 29513728, 183421], 'the session total');
  });

  test('cx02 (0.39 VS Code): argv shell, approval never + danger-full-access, git, patch rejected', () => {
    const r = parsed('cx02');
    const m = meta(r);
    assert.equal(m.approvalPolicy, 'never');
    assert.equal(m.sandbox, 'danger-full-access');
    assert.equal(m.branch, 'main');
    assert.equal(m.repositoryUrl, 'https://github.com/Mai0313/claude-code');
    assert.ok((m.flags as string[]).includes('originator:codex_vscode'));
    assert.equal(countKinds(r.events).prompt, 1);
    assert.deepEqual(inputTypes(r), { other: 4, command: 9, patch: 5 });
    const ls = calls(r).find((c) => c.input.type === 'command')!;
    assert.deepEqual(ls.input, { type: 'command', command: 'ls -la' }, '["bash","-lc",script] is the script');
    const rejected = results(r).find((x) => x.output === 'patch rejected: empty patch')!;
    assert.equal(rejected.isError, true);
    const gomod = atLine(calls(r), 54);
    assert.deepEqual(gomod.input.type === 'patch' && gomod.input.files.map((f) => [f.path, f.op]), [['go.mod', 'update']], 'applypatch heredoc');
  });

  test('cx03 (0.47): apply_patch custom tool, shell, reasoning', () => {
    const r = parsed('cx03');
    const counts = countKinds(r.events);
    assert.deepEqual([counts.prompt, counts.tool_call, counts.tool_result, counts.thinking, counts.message], [3, 18, 18, 20, 3]);
    assert.deepEqual(inputTypes(r), { command: 3, other: 4, patch: 11 });
    assert.ok(calls(r).every((c) => c.input.type !== 'patch' || c.input.files.length > 0));
  });

  test('cx04 (legacy bare format): no times, cwd from <environment_context>, MCP, argv apply_patch', () => {
    const r = parsed('cx04');
    assert.ok(r.events.filter((e) => e.line > 1).every((e) => e.at === null), 'bare items carry no timestamp');
    const m = meta(r);
    assert.equal(m.cwd, '/home/user/projects/codex-session-viewer');
    assert.equal(m.sessionId, 'cf4def41-21e0-4b91-adb4-5397c1492084');
    assert.equal(m.branch, 'main');
    assert.equal(m.approvalPolicy, 'on-request');
    const prompts = ofKind(r.events, 'prompt');
    assert.equal(prompts.length, 46);
    assert.deepEqual(prompts.filter((p) => p.synthetic).map((p) => p.line), [3], '<user_instructions> (AGENTS.md) is synthetic');
    assert.deepEqual(inputTypes(r), { mcp: 41, command: 106, other: 9, patch: 90 });
    assert.equal(results(r).length, 246);
    const mcp = calls(r).find((c) => c.name === 'task-master-ai__next_task')!;
    assert.deepEqual(mcp.input, { type: 'mcp', server: 'task-master-ai', tool: 'next_task', args: { projectRoot: '/home/user/projects/codex-session-viewer' } });
    assert.ok(calls(r).some((c) => c.input.type === 'patch' && c.input.files.some((f) => f.op === 'update')));
    const failed = results(r).filter((x) => x.output.startsWith('failed in sandbox'));
    assert.equal(failed.length, 5);
    assert.ok(failed.every((x) => x.isError && x.exitCode !== null));
  });

  test('cx05/cx06 (Desktop 0.99): apply_patch function call {patch}, model switch, full access', () => {
    const a = parsed('cx05');
    assert.deepEqual(calls(a)[0].input, { type: 'patch', files: [{ path: 'src/main.rs', op: 'update', removed: 'fn main() {}', added: 'fn greet() { println!("hello"); }\nfn main() { greet(); }' }] });
    assert.equal(meta(a).model, 'gpt-5-codex');
    const b = parsed('cx06');
    assert.equal(meta(b).model, 'gpt-5.1-codex');
    assert.equal(meta(b).sandbox, 'danger-full-access');
    assert.equal(meta(b).approvalPolicy, 'never');
    assert.deepEqual(calls(b).map((c) => c.input.type), ['patch', 'command']);
    assert.equal(results(b).length, 0, 'the trimmed log has no outputs');
  });

  test('cx07 (0.146 composite): every record type understood; extended events fill in', () => {
    const r = parsed('cx07');
    const counts = countKinds(r.events);
    assert.equal(counts.compaction, 6, 'context_compacted and the first compacted line are one compaction');
    assert.equal(counts.interrupt, 1);
    assert.equal(counts.error, 2);
    assert.deepEqual(r.missing, ['[trimmed for fixture]'], 'a spawned sub-agent transcript lives elsewhere');
    const shell = calls(r).filter((c) => c.line <= 10);
    assert.deepEqual(shell.map((c) => c.input), [{ type: 'command', command: 'ls' }, { type: 'command', command: 'ls' }], 'custom and function shell calls');
    assert.equal(atLine(results(r), 21).output, 'a.txt\nb.txt\n', 'array output');
    const mcp = atLine(calls(r), 16);
    assert.deepEqual(mcp.input, { type: 'mcp', server: 'example', tool: 'example_tool', args: { title: 'example' } }, 'from mcp_tool_call_end alone');
    assert.equal(atLine(results(r), 16).durationMs, 4);
    const patch = atLine(calls(r), 17);
    assert.deepEqual(patch.input.type === 'patch' && patch.input.files.map((f) => [f.path, f.op]), [['/tmp/repo/a.txt', 'update']]);
    assert.equal(calls(r).filter((c) => c.input.type === 'web_search').length, 1, 'web_search_call and web_search_end are one search');
    const flags = meta(r).flags as string[];
    assert.ok(flags.includes('source:subagent'));
    assert.ok(flags.some((f) => f.startsWith('parent_thread:')));
    const u = ofKind(r.events, 'usage');
    assert.deepEqual(u.map((x) => [x.input, x.cacheRead, x.output]), [[16341 - 3584, 3584, 81]]);
    assert.ok(ofKind(r.events, 'system').some((s) => s.subtype === 'guardian_assessment'));
  });

  test('conformance fixture: branch, commands and their exit codes, patch files', () => {
    const r = run(readFileSync(join(CONFORMANCE, 'codex.jsonl'), 'utf8'));
    assert.deepEqual(r.skips, []);
    const first = ofKind(r.events, 'session_meta')[0];
    assert.equal(first.branch, 'feat/login-rate-limit');
    assert.equal(first.cwd, '/home/dev/acme-web');
    assert.equal(first.repositoryUrl, 'git@github.com:acme/web.git');
    assert.deepEqual(calls(r).filter((c) => c.input.type === 'command').map((c) => c.input.type === 'command' && c.input.command), [
      'rg -n "login" src/routes', "sed -n '1,60p' src/routes/auth.ts", 'npm test -- login-rate-limit', 'npm test',
    ]);
    assert.deepEqual(results(r).map((x) => x.exitCode), [0, 0, 0, 1, 0, 0]);
    const patches = calls(r).filter((c) => c.input.type === 'patch').flatMap((c) => (c.input.type === 'patch' ? c.input.files : []));
    assert.deepEqual(patches.map((f) => [f.path, f.op]), [['src/routes/auth.ts', 'update'], ['test/login-rate-limit.test.ts', 'add'], ['src/middleware/rateLimit.ts', 'add']]);
    assert.deepEqual(countKinds(r.events), { session_meta: 3, prompt: 1, thinking: 1, tool_call: 6, tool_result: 6, usage: 1, message: 1 });
    assert.deepEqual(ofKind(r.events, 'usage')[0], { kind: 'usage', index: -1, line: 19, at: '2025-11-03T14:01:15.000Z', model: 'gpt-5-codex', input: 48211 - 40960, output: 1893, cacheRead: 40960, cacheWrite: 0 }, 'the running total, not only the last call');
  });
});
