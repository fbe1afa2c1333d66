// credential-hunt reads a result for an authentication failure only when a credential search
// follows it (issue 30). These pin that the lazy reading finds what arming on every result found:
// the newest failure within ten calls, over random sequences compared with that eager model.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { NormEvent } from '../model/events.ts';
import { CREDENTIAL_HUNT_RULES } from './credential-hunt.ts';
import { cmd, result, runRules } from './harness.testing.ts';

const FAILURE = 'HTTP 401 Unauthorized: bad token';
const WINDOW = 10;

/** The call's index → the failure's index, for every credential-hunt draft. */
async function armedBy(events: NormEvent[]): Promise<Map<number, number>> {
  const drafts = await runRules(events, { rules: CREDENTIAL_HUNT_RULES });
  return new Map(drafts.map((d) => [d.evidence[1]!.index, d.evidence[0]!.index]));
}

/** What arming on every result gave (the code before issue 30's change). */
function eager(events: NormEvent[], hunts: Set<number>): Map<number, number> {
  const out = new Map<number, number>();
  let armed: { left: number; index: number } | null = null;
  events.forEach((e, i) => {
    if (e.kind === 'tool_result') {
      const o = e.output.length > 20_000 ? e.output.slice(0, 20_000) : e.output;
      if (!e.denied && /\b401\b[^\n]{0,40}\b(?:unauthori[sz]ed|authentication)|bad credentials/i.test(o)) armed = { left: WINDOW, index: i };
    } else if (e.kind === 'tool_call' && armed) {
      armed.left--;
      if (hunts.has(i)) out.set(i, armed.index);
      if (armed.left <= 0) armed = null;
    }
  });
  return out;
}

function sequence(seed: number, length: number): { events: NormEvent[]; hunts: Set<number> } {
  let s = seed;
  const rnd = () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32);
  const events: NormEvent[] = [];
  const hunts = new Set<number>();
  const open: string[] = [];
  for (let k = 0; events.length < length; k++) {
    const r = rnd();
    if (r < 0.45 || open.length === 0) {
      const hunt = rnd() < 0.3;
      const c = cmd(hunt ? `grep -r token ~/ # ${k}` : `ls src # ${k}`);
      if (hunt) hunts.add(events.length);
      events.push(c);
      open.push(c.callId);
    } else {
      const callId = open.splice(Math.floor(rnd() * open.length), 1)[0]!;
      const kind = rnd();
      const output = kind < 0.15 ? FAILURE : kind < 0.2 ? `${'x'.repeat(25_000)}\n${FAILURE}` : kind < 0.25 ? `${FAILURE}\n${'x'.repeat(25_000)}` : 'ok';
      events.push(result(callId, { exitCode: 0, output, denied: rnd() < 0.1 }));
    }
  }
  for (const callId of open) events.push(result(callId, { exitCode: 0, output: 'ok' }));
  return { events: events.map((e, i) => ({ ...e, index: i, line: i + 1 }) as NormEvent), hunts };
}

test('credential-hunt: a search within ten calls of the newest failure names it; the eleventh does not', async () => {
  const events: NormEvent[] = [];
  const fail = cmd('gh api user');
  events.push(fail, result(fail.callId, { exitCode: 1, output: FAILURE }));
  for (let i = 0; i < 9; i++) {
    const c = cmd(`ls ${i}`);
    events.push(c, result(c.callId, { exitCode: 0, output: 'ok' }));
  }
  const tenth = cmd('grep -r token ~/');
  events.push(tenth, result(tenth.callId, { exitCode: 0, output: 'ok' }));
  const eleventh = cmd('grep -r secret ~/');
  events.push(eleventh, result(eleventh.callId, { exitCode: 0, output: 'ok' }));
  const indexed = events.map((e, i) => ({ ...e, index: i, line: i + 1 }) as NormEvent);
  assert.deepEqual([...(await armedBy(indexed))], [[20, 1]]);
});

test('credential-hunt: more than 64 results between two calls keep the newest failure among them', async () => {
  const events: NormEvent[] = [];
  const calls = Array.from({ length: 80 }, (_, i) => cmd(`cat f${i}`));
  events.push(...calls);
  calls.forEach((c, i) => events.push(result(c.callId, { exitCode: 0, output: i === 3 || i === 5 ? FAILURE : 'ok' })));
  const hunt = cmd('grep -r token ~/');
  events.push(hunt, result(hunt.callId, { exitCode: 0, output: 'ok' }));
  const indexed = events.map((e, i) => ({ ...e, index: i, line: i + 1 }) as NormEvent);
  // the result of call 5 (event 80 + 5) is the newest failure
  assert.deepEqual([...(await armedBy(indexed))], [[160, 85]]);
});

test('credential-hunt: reading results lazily finds the failure eager arming found (random sequences)', async () => {
  let armedSearches = 0;
  for (let seed = 1; seed <= 40; seed++) {
    const { events, hunts } = sequence(seed, 120);
    const expected = eager(events, hunts);
    armedSearches += expected.size;
    assert.deepEqual([...(await armedBy(events))].sort((a, b) => a[0] - b[0]), [...expected].sort((a, b) => a[0] - b[0]), `seed ${seed}`);
  }
  assert.ok(armedSearches > 100, `only ${armedSearches} searches were armed`);
});

test('credential-hunt: a call it cannot read fails the rule only where it was read before (armed)', async () => {
  // a search whose path is no string (a malformed log): placing it throws
  const odd = () => ({ ...cmd('x'), input: { type: 'search', pattern: 'token', path: 42 } }) as unknown as NormEvent;
  const plain = cmd('ls');
  const quiet: NormEvent[] = [plain, result(plain.callId, { exitCode: 0, output: 'ok' }), odd()].map((e, i) => ({ ...e, index: i, line: i + 1 }) as NormEvent);
  assert.deepEqual(await runRules(quiet, { rules: CREDENTIAL_HUNT_RULES }), []);
  const fail = cmd('gh api user');
  const armed: NormEvent[] = [fail, result(fail.callId, { exitCode: 1, output: FAILURE }), odd()].map((e, i) => ({ ...e, index: i, line: i + 1 }) as NormEvent);
  await assert.rejects(runRules(armed, { rules: CREDENTIAL_HUNT_RULES }));
});
