import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { codex } from '../codex.ts';
import { env, run } from './drive.testing.ts';
import type { EventSink, FormatId, NormEvent } from '../../model/events.ts';
import { SHARED } from '../../../../test/helpers/shared.ts';

const DIR = SHARED + 'corpus/codex';
const WEIRD: unknown[] = [null, 0, -1.5, 'x', '', true, [], {}, [null, 7, 'y'], { type: 42 }, '{"not":"closed"', 'Exit code: nope'];

const isStr = (v: unknown) => typeof v === 'string';

/** Every emitted event has the shape the model promises, whatever the input was. */
function checkEvent(e: NormEvent): void {
  assert.equal(e.index, -1);
  assert.ok(Number.isInteger(e.line) && e.line >= 1);
  assert.ok(e.at === null || isStr(e.at));
  switch (e.kind) {
    case 'prompt': case 'message': case 'thinking': case 'error':
      return assert.ok(isStr(e.text));
    case 'system': return assert.ok(isStr(e.subtype) && isStr(e.text));
    case 'interrupt': return assert.ok(isStr(e.reason));
    case 'compaction': return assert.ok(e.summary === undefined || isStr(e.summary));
    case 'subagent_start': case 'subagent_end': return assert.ok(isStr(e.subagentId));
    case 'usage':
      for (const n of [e.input, e.output, e.cacheRead, e.cacheWrite]) assert.ok(Number.isFinite(n) && n >= 0);
      return;
    case 'session_meta':
      for (const [k, v] of Object.entries(e)) if (!['kind', 'index', 'line', 'at', 'flags', 'untrackedFiles'].includes(k)) assert.ok(isStr(v), k);
      assert.ok(e.untrackedFiles === undefined || (e.untrackedFiles.length > 0 && e.untrackedFiles.every(isStr)), 'untrackedFiles');
      return assert.ok(e.flags === undefined || e.flags.every(isStr));
    case 'tool_result':
      assert.ok(isStr(e.callId) && isStr(e.output) && typeof e.isError === 'boolean' && typeof e.denied === 'boolean');
      return assert.ok(e.exitCode === null || Number.isInteger(e.exitCode));
    case 'tool_call': return checkCall(e);
  }
}

function checkCall(e: Extract<NormEvent, { kind: 'tool_call' }>): void {
  assert.ok(isStr(e.callId) && isStr(e.name));
  const i = e.input;
  switch (i.type) {
    case 'command': return assert.ok(isStr(i.command) && (i.workdir === undefined || isStr(i.workdir)));
    case 'patch': return assert.ok(i.files.every((f) => isStr(f.path) && isStr(f.removed) && isStr(f.added) && ['add', 'update', 'delete'].includes(f.op)));
    case 'file_read': return assert.ok(isStr(i.path));
    case 'web_search': return assert.ok(isStr(i.query));
    case 'web_fetch': return assert.ok(isStr(i.url));
    case 'mcp': return assert.ok(isStr(i.server) && isStr(i.tool));
    case 'search': return assert.ok(isStr(i.pattern));
    case 'subagent': return assert.ok(isStr(i.prompt) && isStr(i.description));
  }
}

function feed(format: FormatId, values: unknown[]): { events: NormEvent[]; skips: number; metadata: number } {
  const parser = codex.create(format);
  const events: NormEvent[] = [];
  let skips = 0;
  let metadata = 0;
  const sink: EventSink = { emit: (e) => events.push(e), skip: () => skips++, missingSubagent: () => {}, unknownMetadata: () => metadata++ };
  values.forEach((v, i) => parser.record!(v, i + 1, sink));
  parser.end(sink);
  events.forEach(checkEvent);
  return { events, skips, metadata };
}

/** Copies of `rec` with one field (top level, payload, payload.item/info/action) replaced by `bad`. */
function mutations(rec: unknown): unknown[] {
  if (typeof rec !== 'object' || rec === null) return [];
  const out: unknown[] = [];
  const paths: string[][] = [];
  const walk = (o: Record<string, unknown>, prefix: string[], depth: number) => {
    for (const k of Object.keys(o)) {
      paths.push([...prefix, k]);
      const v = o[k];
      if (depth < 2 && typeof v === 'object' && v !== null && !Array.isArray(v)) walk(v as Record<string, unknown>, [...prefix, k], depth + 1);
    }
  };
  walk(rec as Record<string, unknown>, [], 0);
  for (const path of paths) {
    for (const bad of WEIRD) {
      const copy = structuredClone(rec) as Record<string, unknown>;
      let o = copy;
      for (const k of path.slice(0, -1)) o = o[k] as Record<string, unknown>;
      o[path.at(-1)!] = bad;
      out.push(copy);
    }
  }
  return out;
}

describe('codex: hostile input never crashes', () => {
  test('non-objects are skipped; {}, payload null / wrong types / unknown types with nothing in them are metadata', () => {
    const { events, skips, metadata } = feed('codex-rollout', [
      null, 5, 'str', [], [1, 2], {}, { type: 7 }, env('response_item', null), env('event_msg', 'x'), env('event_msg', {}),
      env('event_msg', { type: 5 }), env('response_item', { type: 'martian' }), env('mystery', {}), { record_type: 'state' },
    ]);
    assert.equal(events.length, 0);
    assert.equal(skips, 5);
    assert.equal(metadata, 8);
  });

  test('unknown records that look like actions are skipped, never waved through as metadata', () => {
    const { events, skips, metadata } = feed('codex-rollout', [
      env('response_item', { type: 'martian_call', call_id: 'c1', arguments: '{"cmd":"rm -rf /"}' }),
      env('mystery', { command: ['bash', '-lc', 'curl x | sh'] }),
      env('event_msg', { type: 'exec_command_finished', aggregated_output: 'done' }),
      { type: 'new_thing', payload: { nested: { deeper: { patch: '*** Begin Patch' } } } },
    ]);
    assert.equal(events.length, 0);
    assert.equal(skips, 4);
    assert.equal(metadata, 0);
  });

  test('arguments that are not JSON, numbers, null, deeply nested or huge', () => {
    const deep = '['.repeat(200_000) + ']'.repeat(200_000);
    let nested: unknown = 'leaf';
    for (let i = 0; i < 100_000; i++) nested = [nested];
    const fn = (name: string, args: unknown, id: string) => env('response_item', { type: 'function_call', name, arguments: args, call_id: id });
    const { events } = feed('codex-rollout', [
      fn('shell', 'not json {', 'a'), fn('shell', 42, 'b'), fn('shell_command', null, 'c'), fn('exec_command', deep, 'd'),
      fn('x__y', { deep: nested }, 'e'), fn('apply_patch', { input: 5 }, 'f'), fn('shell', '{"command":[1,{"a":2},null]}', 'g'),
      env('response_item', { type: 'message', role: 'user', content: nested }),
      env('response_item', { type: 'function_call_output', call_id: 'a', output: nested }),
      env('response_item', { type: 'custom_tool_call', name: 'apply_patch', input: '*** Begin Patch\n' + '+x\n'.repeat(1_000_000), call_id: 'h' }),
      env('event_msg', { type: 'user_message', message: 'p'.repeat(5_000_000) }),
      env('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: '<environment_context><cwd>' + 'd'.repeat(3_000_000) }] }),
    ]);
    const inputs = events.filter((e) => e.kind === 'tool_call').map((e) => e.kind === 'tool_call' && e.input.type);
    assert.deepEqual(inputs, ['other', 'other', 'other', 'other', 'mcp', 'other', 'command', 'patch']);
  });

  // The JSON rollouts only (cx08 is `codex exec` text output, read by the terminal parser).
  for (const file of readdirSync(DIR).filter((f) => f.endsWith('.jsonl'))) {
    test(`every field of ${file.slice(0, 4)} records replaced by junk`, () => {
      const lines = readFileSync(join(DIR, file), 'utf8').split('\n').filter((l) => l.trim());
      // A spread of record shapes: the first lines and every 25th after.
      const picked = lines.filter((_, i) => i < 40 || i % 25 === 0).map((l) => JSON.parse(l) as unknown);
      const format = file.includes('legacy') ? 'codex-legacy' : 'codex-rollout';
      const values = picked.flatMap(mutations);
      assert.ok(values.length > 100);
      feed(format, values);
    });
  }

  test('exec --json junk', () => {
    const recs = [
      { type: 'item.completed', item: null }, { type: 'item.completed', item: { type: 'command_execution' } },
      { type: 'item.completed', item: { id: 5, type: 'file_change', changes: 'x' } }, { type: 'turn.completed', usage: 'x' },
      { type: 'turn.failed' }, { type: 'error' }, { type: 'thread.started', thread_id: {} },
      { type: 'item.completed', item: { id: 'm', type: 'mcp_tool_call', result: { content: 'x' }, error: 'y' } },
    ];
    feed('codex-exec-json', recs.flatMap((r) => [r, ...mutations(r)]));
  });

  test('a log cut mid-way parses what is there', () => {
    const text = readFileSync(join(DIR, readdirSync(DIR)[0]), 'utf8');
    const r = run(text.slice(0, 300_000) + '{"timestamp":"2025-11-22T20', 'codex-rollout');
    assert.deepEqual(r.skips.map((s) => s.reason), ['invalid JSON']);
    assert.ok(r.events.length > 100);
  });
});
