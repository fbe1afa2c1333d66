// The agent registry is the one place an agent is declared: every other list of agents or formats
// in the domain is derived from it, and every agent has what the rest of the analyser needs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AGENTS, AGENT_IDS, FORMAT_AGENT, HOOK_AGENT_IDS, LOW_CONFIDENCE_FORMATS, TERMINAL_FORMATS, agentLabel, isAgentId, liveTranscriptFormat, type FormatId } from './agents.ts';
import { FAMILIES, PARSERS, familyFor } from './parsers/index.ts';
import { terminal } from './parsers/terminal/index.ts';
import { plainText } from './parsers/plain-text.ts';
import { formatAnswer, parsePendingCall } from './guard/payload.ts';

const ALL_FORMATS = Object.keys(FORMAT_AGENT) as FormatId[];

test('the ids are the registry keys, in order; labels come from the entries', () => {
  assert.deepEqual(AGENT_IDS, Object.keys(AGENTS));
  assert.deepEqual(AGENT_IDS, ['claude-code', 'codex', 'gemini-cli']);
  for (const a of AGENT_IDS) assert.equal(agentLabel(a), AGENTS[a].label);
  assert.ok(isAgentId('codex'));
  assert.ok(!isAgentId('toString'), 'an inherited property is not an agent');
  assert.ok(!isAgentId('cursor'));
});

test('every format belongs to the agent that declares it, plain text to none, and no format to two agents', () => {
  const declared = AGENT_IDS.flatMap((a) => [...AGENTS[a].formats, ...AGENTS[a].terminalFormats]);
  assert.equal(new Set(declared).size, declared.length, 'a format is declared once');
  assert.deepEqual(new Set(ALL_FORMATS), new Set([...declared, 'plain-text']));
  for (const a of AGENT_IDS) for (const f of AGENTS[a].formats) assert.equal(FORMAT_AGENT[f], a);
  assert.equal(FORMAT_AGENT['plain-text'], null);
});

test('terminal formats and plain text are the lower-confidence formats', () => {
  assert.deepEqual(new Set(TERMINAL_FORMATS), new Set(AGENT_IDS.flatMap((a) => AGENTS[a].terminalFormats)));
  assert.deepEqual(new Set(LOW_CONFIDENCE_FORMATS), new Set(['plain-text', ...TERMINAL_FORMATS]));
});

test('every agent has its parser family, asked in registry order, and every format has a family that can read it', () => {
  assert.deepEqual(Object.keys(PARSERS).sort(), [...AGENT_IDS].sort());
  assert.deepEqual(FAMILIES, [...AGENT_IDS.map((a) => PARSERS[a]), terminal, plainText]);
  for (const format of ALL_FORMATS) {
    const family = familyFor(format);
    const agent = FORMAT_AGENT[format];
    if (TERMINAL_FORMATS.includes(format)) assert.equal(family, terminal, format);
    else assert.equal(family, agent ? PARSERS[agent] : plainText, format);
    assert.doesNotThrow(() => family.create(format), format);
  }
});

test('every agent with hooks has a guard dialect, and the guard reads the live transcript the registry names', () => {
  for (const agent of HOOK_AGENT_IDS) {
    const call = parsePendingCall(agent, { tool_name: 'Bash', tool_input: { command: 'ls' }, session_id: 's', transcript_path: '/t/x.jsonl' });
    assert.equal(call.agent, agent);
    assert.match(formatAnswer(agent, 'deny', 'no').stdout, /no/);
    const live = AGENTS[agent].liveTranscript;
    assert.equal(liveTranscriptFormat(agent, '/t/x.jsonl'), live?.format ?? null);
    if (live && 'pathSuffix' in live) assert.equal(liveTranscriptFormat(agent, '/t/x.json'), null);
  }
});
