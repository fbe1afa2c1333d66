// The hook tables are keyed by the agent registry: one per agent with hooks, none for another.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HOOK_AGENT_IDS, AGENTS } from '../../domain/agents.ts';
import { HOOK_AGENTS, HOOK_KINDS } from './agents.ts';

test('every agent with hooks in the registry has its hook table, and only those', () => {
  assert.deepEqual(Object.keys(HOOK_AGENTS).sort(), [...HOOK_AGENT_IDS].sort());
  assert.deepEqual(HOOK_AGENT_IDS, (Object.keys(AGENTS) as (keyof typeof AGENTS)[]).filter((a) => AGENTS[a].hooks));
  for (const agent of HOOK_AGENT_IDS) {
    assert.equal(HOOK_AGENTS[agent].agent, agent);
    for (const kind of HOOK_KINDS) assert.deepEqual(HOOK_AGENTS[agent].kinds[kind].words(agent).at(-1), agent);
  }
});
