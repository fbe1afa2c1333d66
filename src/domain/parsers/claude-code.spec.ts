import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import type { DetectSample } from '../ingest/types.ts';
import type { NormEvent, ToolCallEvent, ToolResultEvent } from '../model/events.ts';
import { claudeCode } from './claude-code.ts';
import { toolInput } from './claude-code/tool-input.ts';
import { isDenial, isPermissionReason } from './claude-code/tool-result.ts';
import { SHARED } from '../../../test/helpers/shared.ts';

const CORPUS = SHARED + 'corpus/';
const ccFiles = readdirSync(`${CORPUS}claude-code`).filter((f) => f.endsWith('.jsonl')).sort();

interface Parsed {
  events: NormEvent[];
  skips: { line: number; reason: string }[];
  missing: { id: string; line: number }[];
  missingBeforeEnd: number;
  metadata: { line: number; type: string }[];
}

function sampleOf(lines: string[]): DetectSample {
  const kept = lines.filter((l) => l.trim() !== '').slice(0, 50);
  return { lines: kept, values: kept.map(tryJson) };
}

function tryJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

function parseValues(values: unknown[], format: 'claude-code-transcript' | 'claude-code-stream-json' = 'claude-code-transcript'): Parsed {
  const out: Parsed = { events: [], skips: [], missing: [], missingBeforeEnd: 0, metadata: [] };
  const sink = {
    emit: (e: NormEvent) => out.events.push(e),
    skip: (line: number, reason: string) => out.skips.push({ line, reason }),
    missingSubagent: (id: string, line: number) => out.missing.push({ id, line }),
    unknownMetadata: (line: number, type: string) => out.metadata.push({ line, type }),
  };
  const parser = claudeCode.create(format);
  values.forEach((v, i) => parser.record?.(v, i + 1, sink));
  out.missingBeforeEnd = out.missing.length;
  parser.end(sink);
  return out;
}

function corpusLines(file: string): string[] {
  const lines = readFileSync(`${CORPUS}claude-code/${file}`, 'utf8').split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

const parsedCache = new Map<string, Parsed>();
function parseCorpus(prefix: string): Parsed {
  const file = ccFiles.find((f) => f.startsWith(prefix));
  assert.ok(file, `corpus file ${prefix}`);
  let parsed = parsedCache.get(file);
  if (!parsed) {
    parsed = parseValues(corpusLines(file).map((l) => (l.trim() === '' ? undefined : JSON.parse(l))), formatOfFile(file));
    parsedCache.set(file, parsed);
  }
  return parsed;
}

// An intersection (not Extract) so SubagentEvent, whose kind is a union, narrows too.
function ofKind<K extends NormEvent['kind']>(events: NormEvent[], kind: K): (NormEvent & { kind: K })[] {
  return events.filter((e): e is NormEvent & { kind: K } => e.kind === kind);
}

function resultAt(p: Parsed, line: number): ToolResultEvent {
  const r = ofKind(p.events, 'tool_result').find((e) => e.line === line);
  assert.ok(r, `tool_result on line ${line}`);
  return r;
}

// Independently counted from the raw files (tool_use / tool_result blocks, including the
// subagent messages carried by progress records; cc14 repeats one result record on resume).
const EXPECTED: Record<string, { calls: number; results: number; usage: number; minPrompts: number }> = {
  cc01: { calls: 6, results: 6, usage: 4, minPrompts: 2 },
  cc02: { calls: 25, results: 25, usage: 17, minPrompts: 2 },
  cc03: { calls: 2, results: 2, usage: 1, minPrompts: 1 },
  cc04: { calls: 33, results: 33, usage: 12, minPrompts: 1 },
  cc05: { calls: 0, results: 0, usage: 1, minPrompts: 1 },
  cc06: { calls: 167, results: 167, usage: 170, minPrompts: 2 },
  cc07: { calls: 21, results: 21, usage: 20, minPrompts: 1 },
  cc08: { calls: 12, results: 12, usage: 7, minPrompts: 1 },
  cc09: { calls: 218, results: 218, usage: 193, minPrompts: 30 },
  cc10: { calls: 10, results: 10, usage: 12, minPrompts: 2 },
  cc11: { calls: 7, results: 7, usage: 10, minPrompts: 3 },
  cc12: { calls: 13, results: 13, usage: 13, minPrompts: 1 },
  cc13: { calls: 1, results: 1, usage: 2, minPrompts: 1 },
  cc14: { calls: 30, results: 30, usage: 31, minPrompts: 4 },
  cc15: { calls: 37, results: 37, usage: 40, minPrompts: 3 },
  cc16: { calls: 3, results: 3, usage: 1, minPrompts: 1 },
  cc19: { calls: 39, results: 39, usage: 31, minPrompts: 1 },
  cc20: { calls: 17, results: 17, usage: 15, minPrompts: 1 },
  // stream-json of `claude -p` through a proxied model: no tool, the prompt is not echoed
  // (no --replay-user-messages), messages stream all-zero usage and the `result` holds the run's counts.
  cc21: { calls: 0, results: 0, usage: 1, minPrompts: 0 },
  cc22: { calls: 40, results: 40, usage: 41, minPrompts: 1 },
  cc23: { calls: 28, results: 28, usage: 26, minPrompts: 1 },
  cc24: { calls: 16, results: 16, usage: 15, minPrompts: 1 },
  cc25: { calls: 5, results: 5, usage: 8, minPrompts: 1 },
};

/** The corpus names its `claude -p --output-format stream-json` captures; the rest are transcripts. */
function formatOfFile(file: string): 'claude-code-transcript' | 'claude-code-stream-json' {
  return file.includes('stream-json') ? 'claude-code-stream-json' : 'claude-code-transcript';
}

describe('claude-code detect', () => {
  for (const file of ccFiles) {
    it(`recognises ${file.slice(0, 4)} as an unmistakable ${formatOfFile(file)}`, () => {
      const d = claudeCode.detect(sampleOf(corpusLines(file)));
      assert.deepEqual(d?.format, formatOfFile(file));
      assert.ok(d.score >= 0.9, `score ${d.score}`);
    });
  }

  it('does not claim any Codex or Gemini CLI corpus file', () => {
    for (const dir of ['codex', 'gemini-cli']) {
      for (const file of readdirSync(`${CORPUS}${dir}`)) {
        const text = readFileSync(`${CORPUS}${dir}/${file}`, 'utf8').slice(0, 65536);
        assert.equal(claudeCode.detect(sampleOf(text.split('\n'))), null, `${dir}/${file}`);
      }
    }
  });

  it('recognises stream-json output', () => {
    const d = claudeCode.detect(sampleOf(STREAM_JSON));
    assert.equal(d?.format, 'claude-code-stream-json');
    assert.ok(d.score >= 0.9);
  });

  it('does not claim Gemini stream-json or Codex exec --json', () => {
    const gemini = [
      { type: 'init', timestamp: '2026-01-01T00:00:00Z', session_id: 'g1', model: 'gemini-2.5-pro' },
      { type: 'message', role: 'user', content: 'hi', timestamp: '2026-01-01T00:00:01Z' },
      { type: 'tool_use', tool_name: 'run_shell_command', tool_id: 't1', parameters: { command: 'ls' } },
      { type: 'tool_result', tool_id: 't1', status: 'success', output: 'a' },
      { type: 'result', status: 'success', stats: {} },
    ];
    const codex = [
      { type: 'thread.started', thread_id: 'x' },
      { type: 'turn.started' },
      { type: 'item.completed', item: { id: 'i', type: 'agent_message', text: 'hi' } },
    ];
    for (const values of [gemini, codex]) {
      assert.equal(claudeCode.detect({ lines: values.map((v) => JSON.stringify(v)), values }), null);
    }
  });

  it('returns null for text and for foreign-looking JSON', () => {
    assert.equal(claudeCode.detect(sampleOf(['hello', 'world'])), null);
    assert.equal(claudeCode.detect(sampleOf(['{"a":1}', '[1,2]', 'null'])), null);
  });
});

describe('claude-code stream-json: plumbing and run totals', () => {
  const sid = { session_id: 's-1' };
  const init = { type: 'system', subtype: 'init', ...sid, model: 'm' };
  const assistant = (usage: object) => ({ type: 'assistant', ...sid, message: { id: 'msg-1', role: 'assistant', model: 'm', content: [{ type: 'text', text: 'OK' }], usage } });
  const result = { type: 'result', subtype: 'success', is_error: false, ...sid, result: 'OK', usage: { input_tokens: 19660, output_tokens: 33 } };

  it('status and thinking-token records drive the live UI only: no timeline event', () => {
    const p = parseValues([init, { type: 'system', subtype: 'status', status: 'requesting', ...sid }, { type: 'system', subtype: 'thinking_tokens', estimated_tokens: 5, ...sid }, assistant({ input_tokens: 0, output_tokens: 0 }), result], 'claude-code-stream-json');
    assert.deepEqual(p.skips, []);
    assert.deepEqual(ofKind(p.events, 'system').map((e) => e.subtype), ['result']);
  });

  it('a run whose messages streamed zero usage counts its tokens once, from the result', () => {
    const p = parseValues([init, assistant({ input_tokens: 0, output_tokens: 0 }), result], 'claude-code-stream-json');
    assert.deepEqual(ofKind(p.events, 'usage').map((u) => [u.input, u.output]), [[19660, 33]]);
  });

  it('a run whose messages carried usage is not counted a second time from its result', () => {
    const p = parseValues([init, assistant({ input_tokens: 100, output_tokens: 7 }), result], 'claude-code-stream-json');
    assert.deepEqual(ofKind(p.events, 'usage').map((u) => [u.input, u.output]), [[100, 7]]);
  });

  it('cc21 (proxied model) reads as one reply, its thinking and the run totals', () => {
    const p = parseCorpus('cc21');
    assert.deepEqual(ofKind(p.events, 'message').map((m) => m.text), ['AGENTV-LIVE-MATRIX-OK']);
    assert.equal(ofKind(p.events, 'thinking').length, 1);
    assert.deepEqual(ofKind(p.events, 'usage').map((u) => [u.input, u.output]), [[19660, 33]]);
  });
});

describe('claude-code parse: corpus', () => {
  for (const file of ccFiles) {
    const key = file.slice(0, 4);
    it(`${key}: zero skips and a sensible event stream`, () => {
      const p = parseCorpus(key);
      assert.deepEqual(p.skips, []);
      assert.deepEqual(p.metadata, [], 'every record type of the corpus is known');
      const want = EXPECTED[key];
      const calls = ofKind(p.events, 'tool_call');
      const results = ofKind(p.events, 'tool_result');
      assert.equal(calls.length, want.calls, 'tool calls');
      assert.equal(results.length, want.results, 'tool results');
      assert.equal(ofKind(p.events, 'usage').length, want.usage, 'one usage event per message id');
      assert.ok(ofKind(p.events, 'prompt').length >= want.minPrompts, 'prompts');
      assert.ok(ofKind(p.events, 'session_meta').length >= 1, 'session_meta');
      for (const e of p.events) {
        assert.equal(e.index, -1);
        assert.ok(e.line >= 1 && Number.isInteger(e.line));
        assert.ok(e.at === null || /^\d{4}-\d\d-\d\dT/.test(e.at));
      }
      // Results carry the tool name from their call (the composite cc16 has id-less calls).
      if (key !== 'cc16') {
        const callIds = new Set(calls.map((c) => c.callId));
        for (const r of results) {
          assert.ok(callIds.has(r.callId), `result ${r.callId} answers a call`);
          assert.ok(r.name, `result ${r.callId} is named`);
        }
      }
    });
  }

  it('emits session_meta only when a field appears or changes', () => {
    const p = parseCorpus('cc09');
    const metas = ofKind(p.events, 'session_meta');
    assert.ok(metas.length <= 6, `${metas.length} session_meta events`);
    const last = metas.at(-1);
    assert.equal(last?.sessionId, '03a1382e-ecd5-42c4-b3d4-5c659e165904');
    assert.equal(last?.agentVersion, '2.1.33');
    assert.ok(last?.cwd?.startsWith('/Users/alex/workspace/cli'));
    assert.ok(last?.model?.startsWith('claude-'));
  });

  it('reads the permission mode from user records and permission-mode records', () => {
    assert.equal(ofKind(parseCorpus('cc03').events, 'session_meta').at(-1)?.permissionMode, 'bypassPermissions');
    const cc16 = ofKind(parseCorpus('cc16').events, 'session_meta');
    assert.ok(cc16.some((m) => m.line === 2 && m.permissionMode === 'bypassPermissions'));
  });

  it('extracts "Exit code N" and implies 0 for a successful shell result', () => {
    const p = parseCorpus('cc09');
    assert.deepEqual(pick(resultAt(p, 10)), { exitCode: 128, isError: true, denied: false, name: 'Bash' });
    assert.deepEqual(pick(resultAt(p, 87)), { exitCode: 1, isError: true, denied: false, name: 'Bash' });
    // returnCodeInterpretation "No matches found": a non-zero code Claude Code did not treat as failure.
    assert.deepEqual(pick(resultAt(p, 70)), { exitCode: null, isError: false, denied: false, name: 'Bash' });
    const cc01 = parseCorpus('cc01');
    assert.deepEqual(pick(resultAt(cc01, 17)), { exitCode: 0, isError: false, denied: false, name: 'Bash' });
    // A background command has not finished: its exit code is unknown.
    assert.equal(resultAt(cc01, 11).exitCode, null);
  });

  it('marks permission denials', () => {
    const cc03 = parseCorpus('cc03');
    assert.deepEqual(pick(resultAt(cc03, 11)), { exitCode: null, isError: true, denied: true, name: 'Bash' });
    assert.deepEqual(pick(resultAt(cc03, 12)), { exitCode: null, isError: true, denied: true, name: 'Glob' });
    const cc08 = ofKind(parseCorpus('cc08').events, 'tool_result');
    assert.ok(cc08.some((r) => r.denied && r.output.startsWith('Claude requested permissions to write')));
    assert.ok(ofKind(parseCorpus('cc16').events, 'tool_result').some((r) => r.denied && r.agentId !== undefined));
    // cc09 holds four rejections ("Error: The user doesn't want to proceed…") and no other denial.
    const deniedCount = ofKind(parseCorpus('cc09').events, 'tool_result').filter((r) => r.denied).length;
    assert.equal(deniedCount, 4);
  });

  it('turns the interruption marker into an interrupt event, not a prompt', () => {
    const p = parseCorpus('cc03');
    assert.deepEqual(ofKind(p.events, 'interrupt').map((e) => [e.line, e.reason]), [[13, 'Request interrupted by user for tool use']]);
    assert.ok(!ofKind(p.events, 'prompt').some((e) => e.text.includes('[Request interrupted')));
  });

  it('marks injected text synthetic and keeps typed slash commands', () => {
    const prompts = ofKind(parseCorpus('cc08').events, 'prompt');
    assert.deepEqual(prompts.map((e) => [e.line, e.synthetic]), [[1, false], [2, true]]);
    assert.ok(prompts[0].text.includes('<command-name>/init</command-name>'));
    const cc01 = ofKind(parseCorpus('cc01').events, 'prompt');
    assert.ok(cc01.some((e) => e.text.startsWith('<local-command-caveat>') && e.synthetic));
    // Local command output is not an instruction.
    assert.ok(!cc01.some((e) => e.text.startsWith('<local-command-stdout>')));
    assert.ok(ofKind(parseCorpus('cc01').events, 'system').some((e) => e.subtype === 'local_command' && e.text.includes('Reconnected')));
  });

  for (const key of ['cc09', 'cc10']) {
    it(`${key}: a compaction boundary carries the compact summary`, () => {
      const p = parseCorpus(key);
      const compactions = ofKind(p.events, 'compaction');
      assert.equal(compactions.length, 1);
      const [c] = compactions;
      assert.equal(c.trigger, 'auto');
      assert.ok(typeof c.preTokens === 'number' && c.preTokens > 100_000);
      assert.ok(c.summary?.startsWith('This session is being continued'));
      assert.ok(!ofKind(p.events, 'prompt').some((e) => e.text.startsWith('This session is being continued')));
    });
  }

  it('queued prompts are emitted once', () => {
    const prompts = ofKind(parseCorpus('cc09').events, 'prompt');
    assert.equal(prompts.filter((e) => e.text.startsWith("(I'm not 100% sure")).length, 1);
  });

  it('maps tool inputs from real calls', () => {
    const calls = (k: string) => ofKind(parseCorpus(k).events, 'tool_call');
    const bash = calls('cc01').find((c) => c.name === 'Bash' && c.input.type === 'command' && c.input.background);
    assert.ok(bash, 'run_in_background → background');
    assert.ok(calls('cc07').some((c) => c.name === 'MultiEdit' && c.input.type === 'file_edit' && c.input.edits.length > 1));
    assert.ok(calls('cc09').some((c) => c.input.type === 'mcp' && c.input.server === 'linear-server' && c.input.tool === 'create_issue'));
    assert.ok(calls('cc01').some((c) => c.input.type === 'web_search'));
    assert.ok(calls('cc11').some((c) => c.input.type === 'web_fetch' && c.input.url.startsWith('https://')));
    assert.ok(calls('cc15').some((c) => c.input.type === 'file_write'));
  });
});

describe('claude-code parse: subagents', () => {
  for (const [key, count] of [['cc06', 5], ['cc07', 2]] as const) {
    it(`${key}: inline sidechains get agentIds and start/end events linked to their Task`, () => {
      const p = parseCorpus(key);
      const starts = ofKind(p.events, 'subagent_start');
      const ends = ofKind(p.events, 'subagent_end');
      assert.equal(starts.length, count);
      assert.deepEqual(ends.map((e) => e.subagentId).sort(), starts.map((e) => e.subagentId).sort());
      const taskCalls = ofKind(p.events, 'tool_call').filter((c) => c.name === 'Task');
      const descriptions = new Set(taskCalls.map((c) => (c.input.type === 'subagent' ? c.input.description : '')));
      for (const s of starts) assert.ok(s.description && descriptions.has(s.description), `description of ${s.subagentId}`);
      const agents = new Set(starts.map((s) => s.subagentId));
      const sideCalls = ofKind(p.events, 'tool_call').filter((c) => c.agentId !== undefined);
      assert.ok(sideCalls.length > 0);
      for (const c of sideCalls) assert.ok(agents.has(c.agentId ?? ''));
      // Main-thread Task calls stay on the main thread; each sidechain ends before its Task result.
      for (const c of taskCalls) assert.equal(c.agentId, undefined);
      for (const end of ends) {
        const endAt = p.events.indexOf(end);
        const next = p.events[endAt + 1];
        assert.equal(next.kind, 'tool_result');
        assert.equal((next as ToolResultEvent).name, 'Task');
      }
    });
  }

  it('cc06: sidechain prompts are synthetic, main prompts are not', () => {
    const prompts = ofKind(parseCorpus('cc06').events, 'prompt');
    for (const e of prompts) if (e.agentId !== undefined) assert.equal(e.synthetic, true);
    assert.ok(prompts.some((e) => e.agentId === undefined && !e.synthetic && e.text.startsWith('Thanks!')));
  });

  it('cc04: a standalone subagent file is one subagent', () => {
    const p = parseCorpus('cc04');
    const threaded = p.events.filter((e) => !['session_meta', 'subagent_start', 'subagent_end'].includes(e.kind));
    assert.ok(threaded.length > 50);
    for (const e of threaded) assert.equal(e.agentId, 'a2898e3');
    assert.deepEqual(ofKind(p.events, 'subagent_start').map((e) => e.subagentId), ['a2898e3']);
    assert.deepEqual(ofKind(p.events, 'subagent_end').map((e) => e.subagentId), ['a2898e3']);
    assert.ok(ofKind(p.events, 'session_meta').some((m) => m.model?.startsWith('claude-sonnet')));
  });

  it('cc02: agent_progress records carry the subagent calls, nothing is missing', () => {
    const p = parseCorpus('cc02');
    const side = ofKind(p.events, 'tool_call').filter((c) => c.agentId === 'afb92ff');
    assert.equal(side.length, 9);
    const [start] = ofKind(p.events, 'subagent_start');
    assert.equal(start.subagentId, 'afb92ff');
    assert.ok(start.description);
    assert.deepEqual(ofKind(p.events, 'subagent_end').map((e) => e.subagentId), ['afb92ff']);
    assert.deepEqual(p.missing, []);
    // The subagent's model (haiku) does not replace the session's model.
    assert.ok(ofKind(p.events, 'session_meta').every((m) => !m.model?.includes('haiku')));
  });

  it('reports a subagent whose transcript is not in the file, at end()', () => {
    const p = parseValues([
      rec('assistant', { message: { id: 'm1', content: [{ type: 'tool_use', id: 'toolu_t', name: 'Task', input: { description: 'd', prompt: 'p' } }] } }),
      rec('user', {
        message: { content: [{ type: 'tool_result', tool_use_id: 'toolu_t', content: [{ type: 'text', text: 'done' }] }] },
        toolUseResult: { status: 'completed', agentId: 'a1b2c3', content: [] },
      }),
    ]);
    assert.equal(p.missingBeforeEnd, 0);
    assert.deepEqual(p.missing, [{ id: 'a1b2c3', line: 2 }]);
    assert.equal(ofKind(p.events, 'tool_result')[0].name, 'Task');
  });
});

describe('claude-code parse: split messages and usage', () => {
  const split = [
    rec('assistant', { message: msg('msg_A', [{ type: 'thinking', thinking: 'hmm' }], 1) }),
    rec('assistant', { message: msg('msg_A', [{ type: 'text', text: 'Running it.' }], 1) }),
    rec('assistant', { message: msg('msg_A', [{ type: 'tool_use', id: 'toolu_A', name: 'Bash', input: { command: 'ls', description: 'List' } }], 57) }),
    // A repeated line of the same message: nothing new.
    rec('assistant', { message: msg('msg_A', [{ type: 'tool_use', id: 'toolu_A', name: 'Bash', input: { command: 'ls' } }], 57) }),
    rec('user', {
      message: { content: [{ type: 'tool_result', tool_use_id: 'toolu_A', content: 'a\nb' }] },
      toolUseResult: { stdout: 'a\nb', stderr: '', interrupted: false, isImage: false },
    }),
    rec('assistant', { message: msg('msg_B', [{ type: 'text', text: 'Done.' }], 3) }),
  ];

  it('emits each block once and one usage event per message id with the final counts', () => {
    const p = parseValues(split);
    assert.equal(ofKind(p.events, 'thinking').length, 1);
    assert.deepEqual(ofKind(p.events, 'message').map((e) => e.text), ['Running it.', 'Done.']);
    assert.equal(ofKind(p.events, 'tool_call').length, 1);
    const usage = ofKind(p.events, 'usage');
    assert.deepEqual(usage.map((u) => [u.line, u.output, u.input, u.cacheRead, u.cacheWrite, u.model]), [
      [1, 57, 10, 100, 5, 'claude-test'],
      [6, 3, 10, 100, 5, 'claude-test'],
    ]);
    const call = ofKind(p.events, 'tool_call')[0];
    assert.deepEqual(call.input, { type: 'command', command: 'ls', justification: 'List' });
    assert.deepEqual(pick(ofKind(p.events, 'tool_result')[0]), { exitCode: 0, isError: false, denied: false, name: 'Bash' });
  });

  it('keeps usage of interleaved subagent threads apart', () => {
    const p = parseValues([
      rec('assistant', { message: msg('m_main', [{ type: 'text', text: 'a' }], 5) }),
      rec('assistant', { isSidechain: true, agentId: 'sub', message: msg('m_sub', [{ type: 'text', text: 'b' }], 7) }),
      rec('assistant', { message: msg('m_main', [{ type: 'text', text: 'c' }], 9) }),
    ]);
    const usage = ofKind(p.events, 'usage').map((u) => [u.agentId, u.output]);
    assert.deepEqual(usage.sort(), [['sub', 7], [undefined, 9]].sort());
  });
});

describe('claude-code parse: results and records', () => {
  it('reads exit codes, denials and interruptions from result text and structure', () => {
    const p = parseValues([
      callRec('t1', 'Bash', { command: 'false' }),
      resultRec('t1', 'Exit code 1\nboom', { is_error: true }, 'Error: Exit code 1\nboom'),
      callRec('t2', 'Bash', { command: 'sleep 100' }),
      resultRec('t2', 'partial', {}, { stdout: 'partial', stderr: '', interrupted: true }),
      callRec('t3', 'Write', { file_path: '/x', content: 'y' }),
      resultRec('t3', "The user doesn't want to proceed with this tool use. The tool use was rejected", { is_error: true }, 'User rejected tool use'),
      callRec('t4', 'Bash', { command: 'rm -rf /' }),
      resultRec('t4', 'Permission to use Bash with command rm -rf / has been denied.', { is_error: true }),
      callRec('t5', 'Read', { file_path: '/etc/hosts' }),
      resultRec('t5', '', {}, { type: 'text', file: { filePath: '/etc/hosts', content: '127.0.0.1 localhost' } }),
      callRec('t6', 'Bash', { command: 'x' }),
      resultRec('t6', [{ type: 'text', text: 'Exit code 2' }, { type: 'text', text: 'usage' }], { is_error: true }),
    ]);
    const results = ofKind(p.events, 'tool_result');
    assert.deepEqual(results.map(pick), [
      { exitCode: 1, isError: true, denied: false, name: 'Bash' },
      { exitCode: null, isError: false, denied: false, name: 'Bash' },
      { exitCode: null, isError: true, denied: true, name: 'Write' },
      { exitCode: null, isError: true, denied: true, name: 'Bash' },
      { exitCode: null, isError: false, denied: false, name: 'Read' },
      { exitCode: 2, isError: true, denied: false, name: 'Bash' },
    ]);
    assert.equal(results[1].interrupted, true);
    assert.equal(results[4].output, '127.0.0.1 localhost', 'structured Read result fills an empty output');
    assert.equal(results[5].output, 'Exit code 2\nusage');
  });

  it('reads the PowerShell tool (Claude Code on Windows) as a command run by PowerShell, with its exit status', () => {
    const p = parseValues([
      callRec('p1', 'PowerShell', { command: 'Get-ChildItem C:\\Users\\dev | Select-Object Name', description: 'List the home folder', dangerouslyDisableSandbox: true }),
      resultRec('p1', 'Desktop', {}, { stdout: 'Desktop', stderr: '', interrupted: false, isImage: false }),
      callRec('p2', 'PowerShell', { command: 'Get-Content missing.txt' }),
      resultRec('p2', 'Exit code 1\nGet-Content: Cannot find path', { is_error: true }, 'Error: Exit code 1'),
    ]);
    const calls = ofKind(p.events, 'tool_call');
    assert.deepEqual(calls.map((c) => c.input), [
      { type: 'command', command: 'Get-ChildItem C:\\Users\\dev | Select-Object Name', shell: 'powershell', justification: 'List the home folder', escalated: true },
      { type: 'command', command: 'Get-Content missing.txt', shell: 'powershell' },
    ]);
    assert.deepEqual(ofKind(p.events, 'tool_result').map(pick), [
      { exitCode: 0, isError: false, denied: false, name: 'PowerShell' },
      { exitCode: 1, isError: true, denied: false, name: 'PowerShell' },
    ]);
    assert.deepEqual(toolInput('Bash', { command: 'ls' }), { type: 'command', command: 'ls' }, 'a Bash call has no shell mark');
  });

  it('recognises the canned denial texts only at the start', () => {
    assert.ok(isDenial("The user doesn't want to take this action right now. STOP"));
    assert.ok(isDenial("Error: Claude requested permissions to use Bash, but you haven't granted it yet."));
    assert.ok(isDenial('Error: This command uses shell operators that require approval for safety'));
    assert.ok(!isDenial('Note: This command uses shell operators that require approval for safety'));
    assert.ok(!isDenial("I read that 'The user doesn't want to proceed with this tool use' is a message"));
    assert.ok(!isDenial('Claude requested permissions to write somewhere'));
  });

  it("reads a permission check's own reason on an error result as a refusal, in any release's words (a headless run asks nobody)", () => {
    // reasons Claude Code's permission checks give (seen in real `claude -p` runs and in 2.1.81's cli.js)
    for (const reason of [
      'This Bash command contains multiple operations. The following part requires approval: npm run test:screenshot',
      'This Bash command contains multiple operations. The following parts require approval: git add -A, git commit -m "x"',
      'Commands that change directories and write via output redirection require explicit approval to ensure paths are evaluated correctly. For security, Claude Code cannot automatically determine the final working directory.',
      "cd in '/__w/app/app' was blocked. For security, Claude Code may only change directories to the allowed working directories for this session: /__w/app/app/game.",
      "Output redirection to '/etc/hosts' was blocked. For security, Claude Code may only write to files in the allowed working directories for this session: /home/dev/app.",
      'Contains shell syntax (string) that cannot be statically analyzed',
      'env with -S flag cannot be statically analyzed',
      'Command contains quoted characters in flag names',
      'Compound commands with cd and git require approval to prevent bare repository attacks',
      "Permission rule 'Bash(rm:*)' from project settings requires approval for this Bash command",
      "Hook 'guard' blocked this action: rm -rf outside the tree",
      'Error: sed command requires approval (contains potentially dangerous operations)',
      "Permission rule 'Bash(echo 'hi')' from project settings requires approval for this Bash command",
      'Command contains newlines that could separate multiple commands',
      'Command contains backticks (`) for command substitution',
      'Shell expansion syntax in paths requires manual approval',
      'Compound command contains cd with write operation - manual approval required to prevent path resolution bypass',
    ]) {
      assert.ok(isPermissionReason(reason), reason);
      const p = parseValues([rec('assistant', { message: { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'x' } }] } }), rec('user', { message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: reason, is_error: true }] } })]);
      assert.deepEqual(ofKind(p.events, 'tool_result').map((r) => r.denied), [true], reason);
    }
    // a command's own output says what it printed, never why it did not run; tool errors are not permission checks
    // (Claude Code 1.0.x gives a failed command's output bare: a program's own words about approval are its output)
    for (const other of ['Command `terraform apply` requires approval for workspace prod', 'Commands run against prod require approval for each change', 'Deploy to production requires approval from the release manager.', 'Error: the job was blocked. Ask an admin.', 'Commands require approval in this repo (see CONTRIBUTING)', 'Exit code 1\nThis deployment requires approval from an admin', '<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>', 'String to replace not found in file.', 'npm ERR! 403 Forbidden', 'The review said:\nthe merge requires approval']) {
      assert.ok(!isPermissionReason(other), other);
    }
    // the words only on an error result: a successful call that prints them ran
    const ok = parseValues([rec('assistant', { message: { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'cat policy.md' } }] } }), rec('user', { message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'Every merge requires approval', is_error: false }] } })]);
    assert.deepEqual(ofKind(ok.events, 'tool_result').map((r) => r.denied), [false]);
  });

  it('maps system records: api_error → error, compaction, other subtypes → system', () => {
    const p = parseValues([
      rec('system', { subtype: 'api_error', error: { status: 529, error: { error: { type: 'overloaded_error', message: 'Overloaded' } } }, retryAttempt: 1, maxRetries: 10 }),
      rec('system', { subtype: 'microcompact_boundary', microcompactMetadata: { trigger: 'auto', preTokens: 5000 } }),
      rec('system', { subtype: 'informational', content: 'Hook blocked the command' }),
      rec('summary', { summary: 'Fix the build', leafUuid: 'x' }),
      rec('summary', { summary: 'Fix the build', leafUuid: 'y' }),
    ]);
    const [err] = ofKind(p.events, 'error');
    assert.ok(err.text.includes('status 529') && err.text.includes('Overloaded') && err.text.includes('retry 1/10'), err.text);
    assert.deepEqual(ofKind(p.events, 'compaction').map((c) => [c.trigger, c.preTokens, c.summary]), [['auto', 5000, undefined]]);
    assert.deepEqual(ofKind(p.events, 'system').map((s) => [s.subtype, s.text]), [
      ['informational', 'Hook blocked the command'],
      ['summary', 'Fix the build'],
    ]);
  });

  it('knows metadata records and skips unknown records that carry content', () => {
    const p = parseValues([
      { type: 'file-history-snapshot', messageId: 'm', snapshot: {} },
      { type: 'queue-operation', operation: 'remove', sessionId: 's' },
      { type: 'agent-name', agentName: 'x' },
      { type: 'last-prompt', lastPrompt: 'hi' },
      { type: 'future-metadata', sessionId: 's', flag: true },
      { type: 'future-action', sessionId: 's', command: 'rm -rf /' },
      rec('progress', { data: { type: 'bash_progress', output: 'x' } }),
      rec('attachment', { attachment: { type: 'nested_memory', content: 'x' } }),
    ]);
    assert.deepEqual(p.skips.map((s) => s.line), [6]);
    assert.ok(p.skips[0].reason.includes('future-action'));
    // The unknown record with nothing an agent does in it is reported as metadata, not dropped.
    assert.deepEqual(p.metadata, [{ line: 5, type: 'future-metadata' }]);
  });

  it('file text the harness attached (an @-file, a file changed outside the agent, an IDE selection) is text the model saw, not an action', () => {
    const p = parseValues([
      rec('attachment', { attachment: { type: 'file', filename: '/w/app/.env', displayPath: '.env', content: { type: 'text', file: { filePath: '/w/app/.env', content: 'API_URL=https://x\n', numLines: 1, startLine: 1, totalLines: 1 } } } }),
      rec('attachment', { attachment: { type: 'edited_text_file', filename: '/w/app/config.ts', snippet: '12→export const mode = "dev";' } }),
      rec('attachment', { attachment: { type: 'selected_lines_in_ide', ideName: 'VS Code', lineStart: 1, lineEnd: 2, filename: '/w/app/README.md', content: 'Vault: abc' } }),
      rec('attachment', { attachment: { type: 'edited_text_file', filename: '/w/app/empty.ts', snippet: '  ' } }),
      rec('attachment', { attachment: { type: 'file', filename: 7, content: 'not an object' } }),
    ]);
    assert.deepEqual(p.skips, []);
    assert.deepEqual(p.events.filter((e) => e.kind !== 'session_meta').map((e) => (e.kind === 'system' ? [e.subtype, e.text] : [e.kind])), [
      ['attached_file', 'Attached /w/app/.env\nAPI_URL=https://x\n'],
      ['file_changed_outside', '/w/app/config.ts changed outside the agent\n12→export const mode = "dev";'],
      ['ide_selection', 'Selected in the IDE: /w/app/README.md\nVault: abc'],
    ]);
    assert.ok(!p.events.some((e) => e.kind === 'tool_call' || e.kind === 'prompt'), 'nothing the agent or the person did');
  });

  // Shapes as Claude Code 2.1.332 writes them (seen in the agents tier's fresh logs).
  const SHAPE = { type: 'api-request-shape', sessionId: 's', shapeHash: 'h1', version: '2.1.332', shape: { system: [{ type: 'text', text: 'You are a Claude agent' }], tools: [] } };
  const REQUEST = { type: 'api-request', sessionId: 's', id: 'r1', version: '2.1.332', shapeHash: 'h1', params: { model: 'claude-sonnet-4-5', max_tokens: 32000 }, tail: ['b1'] };
  const blob = (content: unknown, role = 'user') => ({ type: 'api-request-blob', sessionId: 's', hash: 'b1', message: { role, content } });
  const bash = (id: string) => rec('assistant', { message: msg('msg_' + id, [{ type: 'tool_use', id, name: 'Bash', input: { command: 'ls' } }], 1) });
  const answer = (id: string) => rec('user', { message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'a.txt' }] } });

  it('2.1.3xx request bookkeeping: shapes, requests, tool lists and cost totals are known and emit nothing', () => {
    const p = parseValues([SHAPE, REQUEST, { type: 'tools-used', tools: ['Bash'], sessionId: 's' }, { type: 'cost-state', sessionId: 's', totalCostUSD: 0.01 }]);
    assert.deepEqual(p.skips, []);
    assert.deepEqual(p.metadata, []);
    assert.deepEqual(p.events, []);
  });

  it('2.1.3xx request blobs: a copy of an answered result or of the prompt adds nothing', () => {
    const p = parseValues([bash('t1'), answer('t1'), blob([{ type: 'text', text: '<system-reminder>env</system-reminder>' }, { type: 'text', text: 'List the folder.' }, { type: 'tool_result', tool_use_id: 't1', content: 'a.txt' }])]);
    assert.deepEqual(p.skips, []);
    assert.equal(p.events.filter((e) => e.kind === 'tool_result').length, 1, 'the result once, from its user record');
    assert.equal(p.events.filter((e) => e.kind === 'prompt').length, 0, 'the copied prompt text is not a second prompt');
  });

  it('2.1.3xx request blobs: a result no record answered is read from the blob; other shapes are skipped, said so', () => {
    const p = parseValues([bash('t2'), blob([{ type: 'tool_result', tool_use_id: 't2', content: 'secret.txt' }]), blob([{ type: 'tool_use', id: 'x', name: 'Bash', input: {} }]), blob([{ type: 'text', text: 'hi' }], 'assistant')]);
    const results = p.events.filter((e): e is ToolResultEvent => e.kind === 'tool_result');
    assert.deepEqual(results.map((r) => [r.callId, r.name, r.output]), [['t2', 'Bash', 'secret.txt']]);
    assert.deepEqual(p.skips.map((s) => s.line), [3, 4]);
    assert.ok(p.skips.every((s) => s.reason.includes('api-request-blob')));
  });
});

// `claude -p --output-format stream-json --verbose`, with a Task subagent (parent_tool_use_id).
const STREAM_JSON = [
  { type: 'system', subtype: 'init', cwd: '/home/u/proj', session_id: 's-1', tools: ['Bash', 'Read', 'Task'], mcp_servers: [], model: 'claude-sonnet-4-5', permissionMode: 'bypassPermissions', apiKeySource: 'none', claude_code_version: '2.0.30', uuid: 'u0' },
  { type: 'assistant', message: msg('msg_1', [{ type: 'text', text: 'Running tests.' }], 2), parent_tool_use_id: null, session_id: 's-1', uuid: 'u1' },
  { type: 'assistant', message: msg('msg_1', [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'npm test' } }], 40), parent_tool_use_id: null, session_id: 's-1', uuid: 'u2' },
  { type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'Exit code 1\n1 failing', is_error: true }] }, parent_tool_use_id: null, session_id: 's-1', uuid: 'u3', tool_use_result: 'Error: Exit code 1\n1 failing' },
  { type: 'assistant', message: msg('msg_2', [{ type: 'tool_use', id: 'toolu_2', name: 'Task', input: { description: 'Explore', prompt: 'Find the flaky test', subagent_type: 'Explore' } }], 9), parent_tool_use_id: null, session_id: 's-1', uuid: 'u4' },
  { type: 'assistant', message: msg('msg_3', [{ type: 'tool_use', id: 'toolu_3', name: 'Read', input: { file_path: '/home/u/proj/a.test.ts' } }], 4), parent_tool_use_id: 'toolu_2', session_id: 's-1', uuid: 'u5' },
  { type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_3', content: 'test("x")' }] }, parent_tool_use_id: 'toolu_2', session_id: 's-1', uuid: 'u6' },
  { type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_2', content: [{ type: 'text', text: 'It is a.test.ts' }] }] }, parent_tool_use_id: null, session_id: 's-1', uuid: 'u7' },
  { type: 'result', subtype: 'success', is_error: false, duration_ms: 1234, num_turns: 3, result: 'Done.', session_id: 's-1', total_cost_usd: 0.01, usage: {}, permission_denials: [] },
].map((v) => JSON.stringify(v));

describe('claude-code parse: stream-json', () => {
  it('turns the stream into events', () => {
    const p = parseValues(STREAM_JSON.map((l) => JSON.parse(l)), 'claude-code-stream-json');
    assert.deepEqual(p.skips, []);
    const meta = ofKind(p.events, 'session_meta').find((m) => m.line === 1);
    assert.deepEqual(
      [meta?.sessionId, meta?.cwd, meta?.model, meta?.permissionMode, meta?.agentVersion],
      ['s-1', '/home/u/proj', 'claude-sonnet-4-5', 'bypassPermissions', '2.0.30'],
    );
    // The assistant messages name another model: the later value is announced once.
    assert.equal(ofKind(p.events, 'session_meta').at(-1)?.model, 'claude-test');
    const results = ofKind(p.events, 'tool_result');
    assert.deepEqual(results.map((r) => [r.callId, r.name, r.exitCode, r.isError, r.agentId]), [
      ['toolu_1', 'Bash', 1, true, undefined],
      ['toolu_3', 'Read', null, false, 'toolu_2'],
      ['toolu_2', 'Task', null, false, undefined],
    ]);
    const read = ofKind(p.events, 'tool_call').find((c) => c.name === 'Read') as ToolCallEvent;
    assert.equal(read.agentId, 'toolu_2');
    assert.deepEqual(ofKind(p.events, 'subagent_start').map((s) => [s.subagentId, s.description]), [['toolu_2', 'Explore']]);
    assert.deepEqual(ofKind(p.events, 'subagent_end').map((s) => s.subagentId), ['toolu_2']);
    assert.deepEqual(ofKind(p.events, 'usage').map((u) => u.output).sort((a, b) => a - b), [4, 9, 40]);
    assert.deepEqual(ofKind(p.events, 'system').map((s) => [s.subtype, s.text]), [['result', 'Done.']]);
  });

  it('reports a failed run as an error', () => {
    const p = parseValues([{ type: 'result', subtype: 'error_max_turns', is_error: true, session_id: 's', permission_denials: [{ tool_name: 'Bash' }] }]);
    assert.deepEqual(ofKind(p.events, 'error').map((e) => e.text), ['error_max_turns: (1 permission denial)']);
  });
});

describe('claude-code parse: hostile input', () => {
  function deep(levels: number): unknown {
    let o: unknown = { leaf: true };
    for (let i = 0; i < levels; i++) o = { a: o, b: [o] };
    return o;
  }
  function deepArray(levels: number): unknown {
    let o: unknown = 'x';
    for (let i = 0; i < levels; i++) o = [o];
    return o;
  }
  const huge = 'x'.repeat(5_000_000);
  const hostile: unknown[] = [
    {}, { type: 'user' }, { type: 'user', message: null }, { type: 'user', message: { content: 42 } },
    { type: 'assistant' }, { type: 'assistant', message: { content: 42 } }, { type: 'assistant', message: 'str' },
    null, 42, 'text', [], [1, 2], true, { type: 5 }, { type: '' }, deep(1000),
    { type: 'user', message: { content: deepArray(1000) } },
    { type: 'user', message: { content: [null, 5, 'typed', { type: 'tool_result', content: deep(1000) }, { type: 'tool_result', tool_use_id: 7, content: [null, 1, { type: 'text', text: 5 }] }] } },
    { type: 'assistant', message: { id: 5, model: {}, content: [null, 5, 'x', {}, { type: 'tool_use' }, { type: 'tool_use', id: 5, name: {}, input: 'str' }, { type: 'tool_use', id: 'tx', name: 'MultiEdit', input: { file_path: '/a', edits: 'nope' } }], usage: { input_tokens: 'NaN', output_tokens: -5 } } },
    { type: 'assistant', message: { content: [{ type: 'tool_use', id: 'deep', name: 'mcp__x__y', input: deep(1000) }] } },
    { type: 'user', toolUseResult: deep(1000), message: { content: [{ type: 'tool_result', tool_use_id: 'deep', content: 'ok' }] } },
    { type: 'user', isSidechain: true, parentUuid: {}, uuid: [], agentId: 9, message: { content: 'hi' } },
    { type: 'progress', data: { type: 'agent_progress', agentId: {}, message: { type: 'assistant', message: null } } },
    { type: 'progress', data: { type: 'agent_progress', message: deep(1000) } },
    { type: 'progress', data: 'x' },
    { type: 'system', subtype: 'api_error', error: deep(1000) },
    { type: 'system', subtype: 'compact_boundary', compactMetadata: 'x' },
    { type: 'system', subtype: {}, content: deep(10) },
    { type: 'attachment', attachment: 5 },
    { type: 'attachment', attachment: { type: 'queued_command', prompt: deep(100) } },
    { type: 'summary', summary: {} },
    { type: 'result', subtype: 5, result: deep(10), permission_denials: 'x' },
    { type: 'worktree-state', worktreeSession: 'x' },
    { type: 'queue-operation', operation: 'enqueue', content: deep(10) },
    { type: 'user', isCompactSummary: true, message: { content: [] } },
    { type: 'user', sessionId: huge, cwd: huge, timestamp: huge, message: { content: huge } },
    { type: 'assistant', message: { id: 'h', content: [{ type: 'text', text: huge }, { type: 'tool_use', id: 'hc', name: 'Bash', input: { command: huge } }] } },
    { type: 'user', message: { content: [{ type: 'tool_result', tool_use_id: 'hc', content: `Exit code ${huge}` }] }, toolUseResult: huge },
  ];

  it('never throws, and reports the unreadable records', () => {
    const p = parseValues(hostile);
    // Nothing reached the last-resort catch: every shape was handled by the normal code paths.
    assert.deepEqual(p.skips.filter((s) => s.reason.startsWith('unreadable')), []);
    const skipped = new Set(p.skips.map((s) => s.line));
    for (const line of [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]) assert.ok(skipped.has(line), `line ${line} skipped`);
    for (const e of p.events) assert.equal(typeof e.kind, 'string');
    assert.ok(ofKind(p.events, 'tool_call').some((c) => c.name === 'Bash' && c.input.type === 'command' && c.input.command.length === huge.length));
    const hugeResult = ofKind(p.events, 'tool_result').find((r) => r.callId === 'hc');
    assert.equal(hugeResult?.exitCode, null, 'a non-numeric exit code is not invented');
  });

  it('keeps the call-name map bounded when results never arrive', () => {
    const values: unknown[] = [];
    for (let i = 0; i < 12_000; i++) values.push(callRec(`c${i}`, 'Bash', { command: 'true' }));
    values.push(resultRec('c11999', 'ok', {}), resultRec('c0', 'ok', {}));
    const results = ofKind(parseValues(values).events, 'tool_result');
    assert.deepEqual(results.map((r) => [r.callId, r.name]), [['c11999', 'Bash'], ['c0', undefined]]);
  });

  it('tolerates end() without records, twice', () => {
    const parser = claudeCode.create('claude-code-transcript');
    const sink = { emit: () => {}, skip: () => {} };
    parser.end(sink);
    parser.end(sink);
  });
});

describe('claude-code tool input mapping', () => {
  it('maps every known tool and falls back to other', () => {
    const cases: [string, unknown, unknown][] = [
      ['Bash', { command: 'npm i', description: 'Install', run_in_background: true, dangerouslyDisableSandbox: true }, { type: 'command', command: 'npm i', justification: 'Install', background: true, escalated: true }],
      ['Bash', { description: 'no command' }, { type: 'other', args: { description: 'no command' } }],
      ['Read', { file_path: '/a', offset: 1 }, { type: 'file_read', path: '/a' }],
      ['Write', { file_path: '/a', content: 'x' }, { type: 'file_write', path: '/a', content: 'x' }],
      ['Edit', { file_path: '/a', old_string: 'o', new_string: 'n' }, { type: 'file_edit', path: '/a', edits: [{ oldText: 'o', newText: 'n' }] }],
      ['MultiEdit', { file_path: '/a', edits: [{ old_string: '1', new_string: '2' }, null, { old_string: '3', new_string: '4' }] }, { type: 'file_edit', path: '/a', edits: [{ oldText: '1', newText: '2' }, { oldText: '3', newText: '4' }] }],
      ['NotebookEdit', { notebook_path: '/n.ipynb', new_source: 'print(1)' }, { type: 'file_edit', path: '/n.ipynb', edits: [{ oldText: '', newText: 'print(1)' }] }],
      ['WebFetch', { url: 'https://x.test', prompt: 'p' }, { type: 'web_fetch', url: 'https://x.test', prompt: 'p' }],
      ['WebSearch', { query: 'q' }, { type: 'web_search', query: 'q' }],
      ['Task', { description: 'd', prompt: 'p', subagent_type: 'Explore' }, { type: 'subagent', description: 'd', prompt: 'p', agentType: 'Explore' }],
      ['Agent', { description: 'd', prompt: 'p' }, { type: 'subagent', description: 'd', prompt: 'p' }],
      ['Glob', { pattern: '**/*.ts', path: '/src' }, { type: 'search', pattern: '**/*.ts', path: '/src' }],
      ['Grep', { pattern: 'TODO' }, { type: 'search', pattern: 'TODO' }],
      ['LS', { path: '/src' }, { type: 'search', pattern: '', path: '/src' }],
      ['mcp__linear-server__create_issue', { title: 't' }, { type: 'mcp', server: 'linear-server', tool: 'create_issue', args: { title: 't' } }],
      ['mcp__my_srv__do__it', 'raw', { type: 'mcp', server: 'my_srv', tool: 'do__it', args: 'raw' }],
      ['TodoWrite', { todos: [] }, { type: 'other', args: { todos: [] } }],
      ['Write', null, { type: 'other', args: null }],
    ];
    for (const [name, input, want] of cases) assert.deepEqual(toolInput(name, input), want, name);
  });
});

// ---- fixture helpers ----

function rec(type: string, fields: Record<string, unknown>): Record<string, unknown> {
  return { type, sessionId: 'sess', uuid: `u-${Math.random()}`, timestamp: '2026-01-01T00:00:00.000Z', ...fields };
}

function msg(id: string, content: unknown[], output: number): Record<string, unknown> {
  return {
    id, role: 'assistant', model: 'claude-test', content,
    usage: { input_tokens: 10, output_tokens: output, cache_read_input_tokens: 100, cache_creation_input_tokens: 5 },
  };
}

function callRec(id: string, name: string, input: unknown): Record<string, unknown> {
  return rec('assistant', { message: msg(`m-${id}`, [{ type: 'tool_use', id, name, input }], 1) });
}

function resultRec(id: string, content: unknown, extra: Record<string, unknown>, toolUseResult?: unknown): Record<string, unknown> {
  return rec('user', { message: { content: [{ type: 'tool_result', tool_use_id: id, content, ...extra }] }, toolUseResult });
}

function pick(r: ToolResultEvent): { exitCode: number | null; isError: boolean; denied: boolean; name: string | undefined } {
  return { exitCode: r.exitCode, isError: r.isError, denied: r.denied, name: r.name };
}

/** A whole-document format's text, line by line through its parser (claude-code-json, claude-code-hooks). */
function parseDocument(text: string, format: 'claude-code-json' | 'claude-code-hooks'): Parsed {
  const out: Parsed = { events: [], skips: [], missing: [], missingBeforeEnd: 0, metadata: [] };
  const sink = { emit: (e: NormEvent) => out.events.push(e), skip: (line: number, reason: string) => out.skips.push({ line, reason }) };
  const parser = claudeCode.create(format);
  text.split('\n').forEach((l, i) => parser.text?.(l, i + 1, sink));
  parser.end(sink);
  return out;
}

describe('claude-code-json: a transcript saved as one JSON array', () => {
  const records = [
    rec('summary', { summary: 'Fix the CI', leafUuid: 'leaf-1' }),
    rec('user', { parentUuid: null, isSidechain: false, message: { role: 'user', content: 'fix the ci please' } }),
    callRec('j1', 'Bash', { command: 'git push origin main' }),
    resultRec('j1', 'pushed', {}, { stdout: 'pushed', stderr: '', interrupted: false }),
  ];
  const parseText = (text: string) => parseDocument(text, 'claude-code-json');

  it('is detected pretty-printed or on one line, and each record points at the line where it opens', () => {
    const pretty = JSON.stringify(records, null, 2);
    assert.equal(claudeCode.detect(sampleOf(pretty.split('\n')))?.format, 'claude-code-json');
    assert.equal(claudeCode.detect(sampleOf([JSON.stringify(records)]))?.format, 'claude-code-json');
    const p = parseText(pretty);
    const [call] = ofKind(p.events, 'tool_call');
    assert.deepEqual(call.input, { type: 'command', command: 'git push origin main' });
    const opens = pretty.split('\n').map((l, i) => (l === '  {' ? i + 1 : 0)).filter(Boolean);
    assert.equal(call.line, opens[2], 'the call points at its record');
    assert.deepEqual(ofKind(p.events, 'tool_result').map((r) => r.exitCode), [0]);
    assert.deepEqual(p.skips, []);
  });

  it('each record points at the line where it opens whatever the indentation (four spaces, a tab), and a cut-off array of that indentation keeps its complete records (held-out set 60)', () => {
    for (const indent of [4, '\t'] as const) {
      const pretty = JSON.stringify(records, null, indent);
      const open = `${typeof indent === 'number' ? ' '.repeat(indent) : indent}{`;
      const opens = pretty.split('\n').map((l, i) => (l === open ? i + 1 : 0)).filter(Boolean);
      assert.equal(opens.length, records.length);
      const [call] = ofKind(parseText(pretty).events, 'tool_call');
      assert.equal(call!.line, opens[2], `indent ${JSON.stringify(indent)}: the call points at its record`);
      const cut = parseText(pretty.slice(0, pretty.lastIndexOf('"pushed"')));
      assert.equal(ofKind(cut.events, 'tool_call').length, 1, `indent ${JSON.stringify(indent)}: salvaged`);
      assert.match(cut.skips.map((x) => x.reason).join(), /cut off/);
    }
  });

  it('a cut-off array keeps its complete records and says the last is lost; other arrays are not claimed', () => {
    const pretty = JSON.stringify(records, null, 2);
    const cut = parseText(pretty.slice(0, pretty.lastIndexOf('"pushed"')));
    assert.equal(ofKind(cut.events, 'tool_call').length, 1);
    assert.match(cut.skips.map((s) => s.reason).join(), /cut off/);
    for (const other of [
      JSON.stringify([{ sessionId: 's', messageId: 0, type: 'user', message: 'hi', timestamp: 't' }], null, 2), // Gemini's logs.json
      JSON.stringify([{ role: 'user', parts: [{ text: 'hi' }] }], null, 2), // a Gemini history
      JSON.stringify([1, 2, 3]),
    ]) assert.notEqual(claudeCode.detect(sampleOf(other.split('\n')))?.format, 'claude-code-json', other.slice(0, 60));
  });
});

describe('claude-code-hooks: the payloads hooks received, saved by the hooks (held-out set 58)', () => {
  const base = { session_id: 'c032', transcript_path: '/home/dev/.claude/projects/-home-dev-app/c032.jsonl', cwd: '/home/dev/app', permission_mode: 'default' };
  const payloads = [
    { ...base, hook_event_name: 'UserPromptSubmit', prompt: 'update the deps' },
    { ...base, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'git push origin main' } },
    { ...base, hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'npm test' }, tool_use_id: 'toolu_1', tool_response: { stdout: 'ok', stderr: '', interrupted: false, isImage: false } },
    { ...base, hook_event_name: 'PostToolUseFailure', tool_name: 'Bash', tool_input: { command: 'npm run lint' }, tool_use_id: 'toolu_2', error: 'Exit code 1\nlint failed' },
    { ...base, hook_event_name: 'PostToolUse', tool_name: 'Read', tool_input: { file_path: '/home/dev/app/package.json' }, tool_use_id: 'toolu_3', tool_response: { type: 'text', file: { filePath: '/home/dev/app/package.json', content: '{"name":"app"}' } } },
    { ...base, hook_event_name: 'Stop', stop_hook_active: false },
  ];
  const parseText = (text: string) => parseDocument(text, 'claude-code-hooks');

  it('is detected as an array (pretty or on one line) or one payload a line; a transcript or a chat.json is not', () => {
    assert.equal(claudeCode.detect(sampleOf(JSON.stringify(payloads, null, 2).split('\n')))?.format, 'claude-code-hooks');
    assert.equal(claudeCode.detect(sampleOf([JSON.stringify(payloads)]))?.format, 'claude-code-hooks');
    assert.equal(claudeCode.detect(sampleOf(payloads.map((p) => JSON.stringify(p))))?.format, 'claude-code-hooks');
    const transcript = [rec('user', { parentUuid: null, isSidechain: false, message: { role: 'user', content: 'hi' } }), callRec('j1', 'Bash', { command: 'ls' })];
    assert.notEqual(claudeCode.detect(sampleOf(JSON.stringify(transcript, null, 2).split('\n')))?.format, 'claude-code-hooks');
    assert.notEqual(claudeCode.detect(sampleOf(transcript.map((r) => JSON.stringify(r))))?.format, 'claude-code-hooks');
  });

  it('payloads without a tool_use_id (older versions): a PostToolUse with the tool and input of an unanswered PreToolUse is its result, not a second call (held-out set 60)', () => {
    const pre = (command: string) => ({ ...base, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command } });
    const post = (command: string, stdout: string) => ({ ...base, hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command }, tool_response: { stdout, stderr: '', interrupted: false, isImage: false } });
    const p = parseText(JSON.stringify([pre('npm test'), pre('git status'), post('npm test', 'ok'), post('git status', 'clean'), pre('npm test'), post('ls', 'a b')], null, 2));
    const calls = ofKind(p.events, 'tool_call');
    assert.deepEqual(calls.map((c) => (c.input.type === 'command' ? c.input.command : '')), ['npm test', 'git status', 'npm test', 'ls']);
    const results = ofKind(p.events, 'tool_result');
    assert.deepEqual(results.map((r) => [calls.findIndex((c) => c.callId === r.callId), r.output]), [[0, 'ok'], [1, 'clean'], [3, 'a b']]);
    // two identical calls in flight answer in the order they were made (review of the diff)
    const twice = parseText(JSON.stringify([pre('npm test'), pre('npm test'), post('npm test', 'first'), post('npm test', 'second')], null, 2));
    const twoCalls = ofKind(twice.events, 'tool_call');
    assert.equal(twoCalls.length, 2);
    assert.deepEqual(ofKind(twice.events, 'tool_result').map((r) => [twoCalls.findIndex((c) => c.callId === r.callId), r.output]), [[0, 'first'], [1, 'second']]);
  });

  for (const [form, text] of [['an array', JSON.stringify(payloads, null, 2)], ['one payload a line', payloads.map((p) => JSON.stringify(p)).join('\n')]] as const) {
    it(`reads ${form}: a prompt, a call with no result (PreToolUse), calls with their results (PostToolUse, a failure), nothing for other events`, () => {
      const p = parseText(text);
      assert.deepEqual(ofKind(p.events, 'prompt').map((e) => e.text), ['update the deps']);
      const calls = ofKind(p.events, 'tool_call');
      assert.deepEqual(calls.map((c) => c.input.type === 'command' ? c.input.command : c.input.type), ['git push origin main', 'npm test', 'npm run lint', 'file_read']);
      const results = ofKind(p.events, 'tool_result');
      assert.deepEqual(results.map((r) => [r.callId, r.exitCode, r.isError]), [['toolu_1', 0, false], ['toolu_2', 1, true], ['toolu_3', null, false]]);
      assert.equal(results[2]!.output, '{"name":"app"}');
      assert.ok(!results.some((r) => r.callId === calls[0]!.callId), 'the PreToolUse call has no result');
      assert.deepEqual(p.skips, []);
    });
  }

  it('a line that does not parse is skipped and said; the rest is read', () => {
    const p = parseText([JSON.stringify(payloads[1]), '{"session_id": "c032", "hook_event', JSON.stringify(payloads[2])].join('\n'));
    assert.equal(ofKind(p.events, 'tool_call').length, 2);
    assert.deepEqual(p.skips.map((s) => s.line), [2]);
  });
});

describe('claude-code-hooks: another agent\'s hook payloads (review of the diff)', () => {
  it('Gemini CLI\'s events are not claimed; Codex\'s, which use Claude Code\'s names and shape, are read the same way', () => {
    const gemini = [{ session_id: 's', transcript_path: '/home/dev/.gemini/tmp/abc/chats/session-1.json', cwd: '/home/dev/app', hook_event_name: 'BeforeTool', tool_name: 'run_shell_command', tool_input: { command: 'ls' } }];
    const codexHooks = [{ session_id: 's', transcript_path: '/home/dev/.codex/sessions/2026/01/01/rollout-x.jsonl', cwd: '/home/dev/app', hook_event_name: 'PreToolUse', tool_name: 'shell', tool_input: { command: ['ls'] } }];
    assert.notEqual(claudeCode.detect(sampleOf(JSON.stringify(gemini, null, 2).split('\n')))?.format, 'claude-code-hooks');
    assert.notEqual(claudeCode.detect(sampleOf(gemini.map((p) => JSON.stringify(p))))?.format, 'claude-code-hooks');
    assert.equal(claudeCode.detect(sampleOf(JSON.stringify(codexHooks, null, 2).split('\n')))?.format, 'claude-code-hooks');
    assert.equal(claudeCode.detect(sampleOf(codexHooks.map((p) => JSON.stringify(p))))?.format, 'claude-code-hooks');
  });
});
