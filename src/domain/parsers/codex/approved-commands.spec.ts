// Codex's world_state lists the command prefixes the person approved for the session; people
// paste credentials into them. They reach the rules as one system event, repeated only on change.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeText } from '../../analyze.ts';

const at = (s: number) => `2026-05-01T10:00:${String(s).padStart(2, '0')}.000Z`;
function rollout(prefixes: string[][], turns = 2): string {
  const lines = [
    { timestamp: at(0), type: 'session_meta', payload: { id: '0199aa00-0000-7000-8000-000000000001', cwd: '/home/dev/app', cli_version: '0.146.0', originator: 'codex_cli_rs' } },
  ];
  for (let i = 0; i < turns; i++) {
    lines.push({ timestamp: at(1 + i * 3), type: 'world_state', payload: { full: true, state: { model: 'gpt-5-codex', permissions: { instructions: '', approved_command_prefixes: prefixes } } } } as never);
    lines.push({ timestamp: at(2 + i * 3), type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: `deploy it ${i}` }] } } as never);
    lines.push({ timestamp: at(3 + i * 3), type: 'response_item', payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Deployed.' }] } } as never);
  }
  return lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
}

const token = ['7c3e', '91ab-', '4d2f-4e8a-', 'b1c6-', '3f5a9d0e72b4'].join('');

test('a credential inside an approved command prefix is a secrets finding, and masked in the report', async () => {
  const r = await analyzeText(rollout([['railway', 'up'], [`RAILWAY_TOKEN='${token}'`, 'railway', 'up']]));
  const secrets = r.findings.filter((f) => f.category === 'secrets');
  assert.ok(secrets.length >= 1, JSON.stringify(r.findings.map((f) => f.rule)));
  assert.ok(!JSON.stringify(r).includes(token), 'the token is masked everywhere');
  const entries = r.timeline.filter((e) => e.kind === 'system' && /railway up/.test(e.summary + (e.detail ?? '')));
  assert.equal(entries.length, 1, 'the unchanged list is not repeated for the second turn');
});

test('approved prefixes without credentials raise no secrets finding', async () => {
  const r = await analyzeText(rollout([['npm', 'test'], ['git', 'status']]));
  assert.deepEqual(r.findings.filter((f) => f.category === 'secrets'), []);
});
