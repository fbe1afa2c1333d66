// codex-json: a rollout saved as one JSON array (hooks and export tools, `logs/chat.json` beside
// Codex Desktop): read as the rollout it holds, record for record.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeText } from '../../analyze.ts';
import { session } from '../../synthetic.testing.ts';
import { run } from './drive.testing.ts';
import type { NormEvent } from '../../model/events.ts';

const STEPS = [
  { prompt: 'deploy the site' },
  { bash: 'git push --force origin main', output: '+ 1a2b3c...4d5e6f main -> main (forced update)' },
  { bash: 'rm -rf ~/Documents', output: '' },
  { say: 'Done.' },
];
const ROLLOUT = session('codex', STEPS);
const records = ROLLOUT.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as unknown);

/** What an event says, without where it was (the array's lines differ from the rollout's). */
const gist = (events: NormEvent[]) => events.map(({ line: _line, index: _index, ...rest }) => rest);

test('a rollout saved as one JSON array, pretty-printed (two spaces, four, a tab) or on one line, is detected as codex-json and yields the rollout\'s events', () => {
  const fromRollout = run(ROLLOUT);
  assert.equal(fromRollout.detection?.format, 'codex-rollout');
  for (const text of [JSON.stringify(records, null, 2), JSON.stringify(records, null, 4), JSON.stringify(records, null, '\t'), JSON.stringify(records)]) {
    const fromArray = run(`${text}\n`);
    assert.equal(fromArray.detection?.format, 'codex-json');
    assert.deepEqual(fromArray.skips, []);
    assert.deepEqual(gist(fromArray.events), gist(fromRollout.events));
  }
});

test('each record points at the line where its element opens in a pretty-printed array', () => {
  const text = JSON.stringify(records, null, 2);
  const lines = text.split('\n');
  const events = run(`${text}\n`).events;
  const call = events.find((e) => e.kind === 'tool_call');
  assert.ok(call);
  assert.equal(lines[call.line - 1], '  {');
  assert.match(lines.slice(call.line - 1, call.line + 12).join('\n'), /function_call|exec_command|local_shell/);
});

test('the same findings as the rollout: what ran is judged the same whichever way it was saved', async () => {
  const rules = async (text: string) => (await analyzeText(text)).findings.filter((f) => f.severity !== 'info').map((f) => [f.rule, f.severity]).sort();
  const report = await analyzeText(JSON.stringify(records, null, 2));
  assert.equal(report.format, 'codex-json');
  assert.equal(report.agent, 'codex');
  assert.deepEqual(await rules(JSON.stringify(records, null, 2)), await rules(ROLLOUT));
  assert.ok((await rules(ROLLOUT)).length > 0);
});

test('a document cut off mid-record keeps its complete records and says the last is lost; junk is a clear skip', () => {
  const text = JSON.stringify(records, null, 2);
  const cut = text.slice(0, text.lastIndexOf('\n  {') + 40);
  const out = run(`${cut}\n`, 'codex-json');
  assert.equal(out.skips.length, 1);
  assert.match(out.skips[0]!.reason, /Codex JSON rollout is cut off/);
  assert.ok(out.events.some((e) => e.kind === 'tool_call'));
  const junk = run('[\n  {"type": "session_meta", "payload": {\n  ]]] nonsense\n', 'codex-json');
  assert.deepEqual(junk.skips.map((s) => s.reason), ['Codex JSON rollout does not parse']);
  assert.deepEqual(junk.events, []);
  const notArray = run('{"type": "session_meta"}\n', 'codex-json');
  assert.deepEqual(notArray.skips.map((s) => s.reason), ['Codex JSON rollout is not an array of records']);
});

test('one compact record a line inside the brackets is codex-json too, each record at its own line (review of 0.106.0)', () => {
  const text = `[\n${records.map((r) => JSON.stringify(r)).join(',\n')}\n]\n`;
  const out = run(text);
  assert.equal(out.detection?.format, 'codex-json');
  assert.deepEqual(out.skips, []);
  assert.deepEqual(gist(out.events), gist(run(ROLLOUT).events));
  const call = out.events.find((e) => e.kind === 'tool_call');
  assert.match(text.split('\n')[call!.line - 1]!, /function_call|local_shell|exec_command/);
});

test('a compact array cut off inside its last record keeps the records before it (second review of 0.106.0)', () => {
  const lines = records.map((r) => JSON.stringify(r));
  const text = `[\n${lines.join(',\n')}\n]\n`;
  const cut = text.slice(0, text.lastIndexOf(lines.at(-1)!) + 20);
  const out = run(`${cut}\n`, 'codex-json');
  assert.deepEqual(out.skips.map((s) => s.reason), ['Codex JSON rollout is cut off: the incomplete last record is lost']);
  assert.ok(out.events.some((e) => e.kind === 'tool_call'));
});

test('an array of something else is not taken for a rollout', () => {
  assert.notEqual(run('[\n  {\n    "role": "user",\n    "content": "hi"\n  }\n]\n').detection?.format, 'codex-json');
  assert.notEqual(run(`${JSON.stringify([{ a: 1 }, { b: 2 }])}\n`).detection?.format, 'codex-json');
});
