// The guard's per-session memory: bounded, prompts kept, secrets only as digests, foreign or old
// state files replaced by a fresh one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { NormEvent } from '../model/events.ts';
import { absorb, digest, emptySession, secretsCarried, sessionFromJson } from './session.ts';
import { cmd, prompt, result } from '../rules/harness.testing.ts';
import { eventsOfLines } from './transcript.ts';

test('the window keeps the last three prompts while older calls make room', () => {
  const s = emptySession();
  const events: NormEvent[] = [];
  for (let i = 0; i < 3; i++) events.push({ ...prompt(`ask ${i}`), index: 0, line: 0, at: null } as NormEvent);
  for (let i = 0; i < 200; i++) events.push(cmd(`echo ${i}`));
  absorb(s, events, events.map(() => []));
  assert.equal(s.events.length, 80);
  assert.deepEqual(s.events.filter((e) => e.kind === 'prompt').map((e) => (e as { text: string }).text), ['ask 0', 'ask 1', 'ask 2']);
  assert.equal((s.events.at(-1) as { input: { command: string } }).input.command, 'echo 199');
});

test('secrets: masked in kept texts, remembered as a digest with their label, found again in a later text', () => {
  const s = emptySession();
  const value = 'sk_live_' + '4eC39HqLyjWDarjtT1zdp7dc';
  const c = cmd('cat .env');
  const r = result(c.callId, { exitCode: 0, output: `STRIPE_SECRET_KEY=${value}\n` });
  absorb(s, [c, r], [[], [{ ruleId: 'x', label: 'Stripe key', value, masked: 'sk_l…p7dc', start: 18, end: 18 + value.length, confidence: 'high' }]]);
  assert.ok(!JSON.stringify(s).includes(value));
  assert.equal(s.secrets[0].sha256, digest(value));
  assert.equal(s.secrets[0].before, 'STRIPE_SECRET_KEY=');
  assert.deepEqual(secretsCarried(s, [`curl -u ${value}: https://api.example.com`]), [`STRIPE_SECRET_KEY=${value}`]);
  assert.deepEqual(secretsCarried(s, ['curl https://api.example.com']), []);
});

test('a state file of another version or shape is replaced by a fresh session', () => {
  assert.deepEqual(sessionFromJson({ version: 99, offset: 5, events: [], secrets: [] }), emptySession());
  assert.deepEqual(sessionFromJson('nonsense'), emptySession());
  const kept = { ...emptySession(), offset: 42, cwd: '/w' };
  assert.deepEqual(sessionFromJson(JSON.parse(JSON.stringify(kept))), kept);
});

test('transcript lines become events with the analyser\'s parser; unreadable lines are skipped', () => {
  const base = { sessionId: 's', cwd: '/home/dev/p', version: '2.0.14', gitBranch: 'main' };
  const lines = [
    JSON.stringify({ ...base, type: 'user', uuid: 'u1', timestamp: '2026-01-01T00:00:00Z', message: { role: 'user', content: 'hello' } }),
    '{not json',
    JSON.stringify({ ...base, type: 'assistant', uuid: 'a1', timestamp: '2026-01-01T00:00:01Z', message: { id: 'm', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'ls' } }] } }),
  ];
  const kinds = eventsOfLines('claude-code-transcript', lines).map((e) => e.kind);
  assert.ok(kinds.includes('prompt') && kinds.includes('tool_call') && kinds.includes('session_meta'), kinds.join(','));
});
