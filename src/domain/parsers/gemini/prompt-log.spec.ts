// Gemini CLI's logs.json (prompts only): read as a session of prompts, judged on them, never Clear.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { gemini } from '../gemini.ts';
import { drive, ofKind } from './drive.testing.ts';
import { analyzeText } from '../../analyze.ts';

const SESSION_A = '5c1d7a0e-8f2b-4c3a-9d1e-2b7f6a4c8e90';
const SESSION_B = '9e0f1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b';
const entry = (sessionId: string, messageId: number, message: string, timestamp = `2025-07-14T09:${String(10 + messageId).padStart(2, '0')}:00.000Z`) =>
  ({ sessionId, messageId, type: 'user', message, timestamp });
const pretty = (entries: unknown[]) => JSON.stringify(entries, null, 2) + '\n';

const LOG = [
  entry(SESSION_A, 0, 'add a dark mode toggle to the settings page'),
  entry(SESSION_A, 1, '/quit'),
  entry(SESSION_B, 0, 'now write tests for the toggle'),
];

describe('gemini-logs: the prompt log is read as a session of prompts', () => {
  test('pretty-printed (as Gemini CLI writes it) and on one line, it is detected', () => {
    assert.deepEqual(drive(gemini, pretty(LOG)).detection, { format: 'gemini-logs', score: 0.9 });
    assert.deepEqual(drive(gemini, JSON.stringify(LOG) + '\n').detection, { format: 'gemini-logs', score: 0.9 });
  });

  test('every entry is a prompt at the line its entry opens, with its timestamp', () => {
    const out = drive(gemini, pretty(LOG));
    assert.deepEqual(out.skips, []);
    assert.deepEqual(ofKind(out.events, 'prompt').map((p) => [p.line, p.at, p.text]), [
      [2, '2025-07-14T09:10:00.000Z', 'add a dark mode toggle to the settings page'],
      [9, '2025-07-14T09:11:00.000Z', '/quit'],
      [16, '2025-07-14T09:10:00.000Z', 'now write tests for the toggle'],
    ]);
  });

  test('each session id is session metadata; a second session starts a new run', () => {
    const out = drive(gemini, pretty(LOG));
    assert.deepEqual(ofKind(out.events, 'session_meta').map((m) => m.sessionId), [SESSION_A, SESSION_B]);
    assert.deepEqual(ofKind(out.events, 'system').map((s) => s.subtype), ['run_start']);
  });

  test("the first releases' numeric session ids (seconds since 1970) are read like string ids; other ids are not", () => {
    const early = [1748393130, 1748393130, 1748395000].map((id, i) => ({ ...entry('x', i, ['hello', 'summarize my project', 'run the tests'][i]!), sessionId: id }));
    const out = drive(gemini, pretty(early));
    assert.deepEqual(out.detection, { format: 'gemini-logs', score: 0.9 });
    assert.deepEqual(out.skips, []);
    assert.deepEqual(ofKind(out.events, 'prompt').map((p) => p.text), ['hello', 'summarize my project', 'run the tests']);
    assert.deepEqual(ofKind(out.events, 'session_meta').map((m) => m.sessionId), ['1748393130', '1748395000']);
    for (const id of [1.5, -3, true, null, { id: 1 }]) {
      const odd = drive(gemini, pretty([{ ...entry('x', 0, 'hello'), sessionId: id }]), 'gemini-logs');
      assert.deepEqual(ofKind(odd.events, 'prompt'), [], `sessionId ${JSON.stringify(id)}`);
    }
  });

  test('a file cut off mid-entry keeps the complete entries and says the rest is lost', () => {
    const text = pretty(LOG);
    const out = drive(gemini, text.slice(0, text.indexOf('now write')), 'gemini-logs');
    assert.equal(ofKind(out.events, 'prompt').length, 2);
    assert.equal(out.skips.length, 1);
    assert.match(out.skips[0].reason, /cut off/);
  });

  test('entries of another shape are skipped lines, not prompts', () => {
    const out = drive(gemini, pretty([entry(SESSION_A, 0, 'hello'), { sessionId: SESSION_A, note: 'x' }, 42]), 'gemini-logs');
    assert.equal(ofKind(out.events, 'prompt').length, 1);
    assert.equal(out.skips.length, 2);
  });

  test('look-alikes are not claimed: Claude Code records, Gemini API histories, other arrays', () => {
    const claude = JSON.stringify([{ uuid: 'u1', sessionId: SESSION_A, messageId: 0, type: 'user', message: 'hi' }]) + '\n';
    assert.notEqual(drive(gemini, claude).detection?.format, 'gemini-logs');
    const history = pretty([{ role: 'user', parts: [{ text: 'hi' }] }]);
    assert.equal(drive(gemini, history).detection?.format, 'gemini-history');
    assert.equal(drive(gemini, pretty([{ id: 1, message: 'hi' }])).detection, null);
  });

  test('hostile input never throws', () => {
    for (const text of ['[\n', '[\n  {\n    "sessionId": "', '[\n' + '  {\n'.repeat(10_000), '[\n  {"sessionId": "a", "messageId": 0, "type": "user", "message": "\u0000\uFFFD"}\n]\n', '[\n  null,\n  {"__proto__": {"x": 1}}\n]\n']) {
      assert.doesNotThrow(() => drive(gemini, text, 'gemini-logs'));
    }
  });
});

describe('gemini-logs: judged on its prompts, never vouched for', () => {
  test('harmless prompts: Review (not Clear), an info that says what the file cannot show, no warning', async () => {
    const r = await analyzeText(pretty(LOG));
    assert.deepEqual([r.format, r.agent, r.outcome], ['gemini-logs', 'gemini-cli', 'Review']);
    assert.deepEqual(r.findings.filter((f) => f.severity !== 'info').map((f) => f.rule), []);
    const info = r.findings.find((f) => f.rule === 'coverage/prompts-only');
    assert.ok(info, 'the report says the actions are not in the file');
    assert.match(info.detail, /^3 prompts read\./);
    assert.match(r.headline, /^Review: Prompts only/);
    assert.match(r.reason, /cannot show what the agent did/);
    assert.equal(r.trust_score, 100, 'nothing counts against the session');
    assert.equal(r.confidence, 'high', 'what it shows is read exactly');
  });

  test('a secret pasted into a prompt is reported as in any other log', async () => {
    const key = 'ghp' + '_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';
    const r = await analyzeText(pretty([entry(SESSION_A, 0, `push with token ${key} please`)]));
    assert.ok(r.findings.some((f) => f.rule.startsWith('secrets/') && f.severity !== 'info'));
    assert.ok(!JSON.stringify(r).includes(key), 'the token is masked');
  });
});
