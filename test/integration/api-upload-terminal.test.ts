// Terminal captures and prompt logs through the API: uploaded as .txt / .log / .json, analysed by
// the real analyser (in process), the report names the format the content shows.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildTestApp } from '../helpers/app.ts';
import type { TestAccount, TestApp } from '../helpers/app.ts';
import type { Analyzer } from '../../src/adapters/analysis-pool/index.ts';
import { analyzeStream } from '../../src/domain/analyze.ts';

const CODEX_TUI = readFileSync(fileURLToPath(new URL('../fixtures/terminal/codex-tui.txt', import.meta.url)), 'utf8');
const LOGS_JSON = JSON.stringify([{ sessionId: 's-1', messageId: 0, type: 'user', message: 'add a dark mode toggle', timestamp: '2025-07-14T09:12:03.511Z' }], null, 2) + '\n';

/** The real analyser, in this process (the pool runs the same analyzeStream in a worker thread). */
const inProcess: Analyzer = { analyze: (source, opts) => analyzeStream(source, opts), close: async () => {} };

let t: TestApp;
let alice: TestAccount;
before(async () => {
  t = await buildTestApp();
  alice = await t.account();
});
after(() => t.close());

async function reportOf(filename: string, content: string) {
  const upload = await t.upload(alice.apiKey, { filename, content, fields: { repo: 'acme/terminal' } });
  assert.equal(upload.statusCode, 202, upload.body);
  await t.analyzeAll(inProcess);
  const res = await t.app.inject({ method: 'GET', url: `/v1/sessions/${upload.json().id}/report`, headers: { authorization: `Bearer ${alice.apiKey}` } });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

test('a Codex TUI capture uploaded as .txt or .log is read as the Codex TUI', async () => {
  for (const name of ['capture.txt', 'codex.log']) {
    const report = await reportOf(name, CODEX_TUI);
    assert.deepEqual([report.format, report.agent, report.confidence], ['codex-tui', 'codex', 'low'], name);
    assert.ok(report.stats.commands >= 4, `${name}: ${report.stats.commands} commands`);
  }
});

test('Gemini CLI\'s logs.json is judged on its prompts and never Clear', async () => {
  const report = await reportOf('logs.jsonl', LOGS_JSON);
  assert.deepEqual([report.format, report.outcome], ['gemini-logs', 'Review']);
  assert.ok(report.findings.some((f: { rule: string }) => f.rule === 'coverage/prompts-only'));
});
