// The two-thread analysis (analyze.ts, "Two threads") must give the very report one thread gives,
// whichever rules run on the shard: checked on every corpus log and fixture, fed in small slices
// so the shard is sometimes behind the report pass and sometimes level with it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { analyzeStream, analyzeText } from './analyze.ts';
import { goldenInputs } from './golden.testing.ts';
import { inProcessShard, splitOf, type Split } from './shard.testing.ts';
import { secondThreadRules } from './shard.ts';
import { RULES } from './rules/index.ts';
import type { Rule } from './rules/types.ts';
import type { RemoteRules } from './shard-types.ts';

function slices(buf: Buffer, size: number): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i < buf.length; i += size) out.push(buf.subarray(i, i + size));
  return out;
}

async function both(buf: Buffer, split: Split, rules?: Rule[]): Promise<[string, string]> {
  const one = await analyzeStream(slices(buf, 4096), { rules });
  const two = await analyzeStream(slices(buf, 4096), { rules, remote: inProcessShard(split, rules) });
  return [JSON.stringify(one), JSON.stringify(two)];
}

test('every corpus log and fixture: the same report with every other rule on the shard, or the production split', async () => {
  // Alternating between the two splits keeps this file's time down; each input is checked once.
  for (const [i, input] of goldenInputs().entries()) {
    const split = i % 2 === 0 ? 'alternate' : 'production';
    const [one, two] = await both(readFileSync(input.path), split);
    assert.equal(two, one, `${input.name} (${split})`);
  }
});

test('with every rule on the shard the report is the same too', async () => {
  const some = goldenInputs().filter((_, i) => i % 7 === 0);
  assert.ok(some.length >= 5);
  for (const input of some) {
    const [one, two] = await both(readFileSync(input.path), 'all');
    assert.equal(two, one, input.name);
  }
});

function failing(id: string, phase: 'onEvent' | 'finish'): Rule[] {
  return RULES.map((rule) =>
    !rule.metas.some((m) => m.id === id)
      ? rule
      : {
          metas: rule.metas,
          create(ctx) {
            const inner = rule.create(ctx);
            return {
              onEvent(event, facts) {
                if (phase === 'onEvent' && event.kind === 'tool_call') throw new Error('boom');
                inner.onEvent(event, facts);
              },
              finish() {
                if (phase === 'finish') throw new Error('boom at the end');
                inner.finish?.();
              },
            };
          },
        },
  );
}

const RM_HOME = [
  JSON.stringify({ type: 'user', cwd: '/home/u/app', sessionId: 's', timestamp: '2026-01-01T00:00:00Z', message: { role: 'user', content: 'clean up' } }),
  JSON.stringify({ type: 'assistant', cwd: '/home/u/app', sessionId: 's', timestamp: '2026-01-01T00:00:01Z', message: { id: 'm1', role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'rm -rf ~/' } }] } }),
  JSON.stringify({ type: 'user', cwd: '/home/u/app', sessionId: 's', timestamp: '2026-01-01T00:00:02Z', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '' }] } }),
].join('\n') + '\n';

test("a rule that fails on the shard is reported as it is on one thread (its failure crosses over)", async () => {
  for (const phase of ['onEvent', 'finish'] as const) {
    const rules = failing('destructive/rm-outside-worktree', phase);
    const [one, two] = await both(Buffer.from(RM_HOME), 'all', rules);
    assert.match(one, /coverage\/rule-failed/);
    assert.equal(two, one, phase);
  }
});

test('the rm -rf ~/ log: its critical finding comes from the shard when the rule runs there', async () => {
  const idx = RULES.findIndex((r) => r.metas.some((m) => m.id === 'destructive/rm-outside-worktree'));
  assert.ok(splitOf('all').has(idx));
  const two = await analyzeText(RM_HOME, { remote: inProcessShard('all') });
  assert.ok(two.findings.some((f) => f.rule === 'destructive/rm-outside-worktree' && f.severity === 'critical'));
  // Negative case: a shard that never reports anything loses the finding (the drafts do cross).
  const mute: RemoteRules = { ...inProcessShard('all'), poll: () => undefined };
  const silent = await analyzeText(RM_HOME, { remote: { ...mute, next: async () => ({ events: 4, drafts: [], end: { failures: [] } }) } });
  assert.ok(!silent.findings.some((f) => f.rule === 'destructive/rm-outside-worktree'));
});

test('threads that disagree on the events fail the analysis instead of merging wrong drafts', async () => {
  const liar: RemoteRules = { rules: new Set([0]), push() {}, end() {}, poll: () => undefined, next: async () => ({ events: 99, drafts: [], end: { failures: [] } }) };
  await assert.rejects(analyzeText(RM_HOME, { remote: liar }), /analysis threads disagree: 99 events on one, 4 on the other/);
});

test('the second thread takes rules by id; a rule it does not name stays on the analysing thread', () => {
  const split = secondThreadRules(RULES);
  assert.ok(split.size > 0 && split.size < RULES.length);
  const extra: Rule = { metas: [{ ...RULES[0].metas[0], id: 'new/rule' }], create: () => ({ onEvent() {} }) };
  assert.ok(!secondThreadRules([...RULES, extra]).has(RULES.length));
});
