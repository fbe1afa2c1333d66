// The analyser end to end over the whole corpus and over hostile input.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyzeStream, analyzeText } from './analyze.ts';
import type { Report } from './model/report.ts';

const CORPUS = fileURLToPath(new URL('../../../shared/corpus/', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../../../shared/conformance/fixtures/', import.meta.url));
const AGENT_DIRS = { 'claude-code': 'claude-code', codex: 'codex', 'gemini-cli': 'gemini-cli' } as const;

function corpusFiles(): { agent: string; file: string }[] {
  return Object.entries(AGENT_DIRS).flatMap(([agent, dir]) =>
    readdirSync(join(CORPUS, dir)).map((f) => ({ agent, file: join(CORPUS, dir, f) })),
  );
}

/** Feed a buffer in small uneven chunks, as a network upload would arrive. */
async function* chunked(buf: Buffer, size = 7919): AsyncIterable<Uint8Array> {
  for (let i = 0; i < buf.length; i += size) yield buf.subarray(i, i + size);
}

function assertWellFormed(r: Report): void {
  assert.ok(Number.isInteger(r.trust_score) && r.trust_score >= 0 && r.trust_score <= 100);
  assert.ok(['Clear', 'Review', 'Blocked'].includes(r.outcome));
  assert.ok(r.headline.length > 0 && r.headline.length <= 120, r.headline);
  assert.ok(r.reason.length > 0 && r.summary.length > 0);
  const counted = { critical: 0, warning: 0, info: 0 };
  for (const f of r.findings) counted[f.severity]++;
  assert.deepEqual(r.findings_count, counted);
  const indexes = new Set(r.timeline.map((e) => e.index));
  for (const f of r.findings) for (const e of f.evidence) if (e.timeline_index >= 0) assert.ok(indexes.has(e.timeline_index), `${f.rule} evidence → ${e.timeline_index}`);
  if (r.findings.some((f) => f.severity === 'critical')) assert.equal(r.outcome, 'Blocked');
}

for (const { agent, file } of corpusFiles()) {
  test(`corpus: ${file.split('/').slice(-2).join('/')} is ${agent}, fully parsed`, async () => {
    const report = await analyzeStream(chunked(readFileSync(file)));
    assert.equal(report.agent, agent);
    assert.equal(report.agent_detected, true);
    assert.equal(report.stats.skipped_lines, 0, JSON.stringify(report.findings.filter((f) => f.category === 'coverage')));
    assert.ok(report.timeline.length > 0, 'non-empty timeline');
    assertWellFormed(report);
  });
}

test('conformance fixtures: each agent detected without a hint, terminal log as plain text', async () => {
  for (const [name, agent] of [['claude-code.jsonl', 'claude-code'], ['codex.jsonl', 'codex'], ['gemini-cli.jsonl', 'gemini-cli']] as const) {
    const r = await analyzeStream(chunked(readFileSync(join(FIXTURES, name))));
    assert.equal(r.agent, agent, name);
    assertWellFormed(r);
  }
  const codex = await analyzeStream(chunked(readFileSync(join(FIXTURES, 'codex.jsonl'))));
  assert.equal(codex.branch, 'feat/login-rate-limit');
  const text = await analyzeStream(chunked(readFileSync(join(FIXTURES, 'terminal.log'))));
  assert.equal(text.format, 'plain-text');
  assert.equal(text.confidence, 'low');
  assert.ok(text.timeline.length > 0);
  assert.ok(text.findings.some((f) => f.category === 'coverage'), 'the report says the confidence is lower');
});

test('a terminal capture that opens with a screenful of something else is still recognised; prose stays plain text', async () => {
  const diff = Array.from({ length: 120 }, (_, i) => `      ${190 + i} +  const field${i} = parse(value, ${i});`).join('\n');
  const capture = `${diff}\n\n⏺ Bash(git push origin main)\n  ⎿  To github.com:acme/app.git\n     a1..b2  main -> main\n\n⏺ Bash(npm test)\n  ⎿  12 passing\n\n> thanks, now deploy it\n`;
  const r = await analyzeText(capture);
  assert.equal(r.format, 'claude-code-tui');
  assert.ok(r.stats.commands >= 2, 'the commands after the diff are read');
  // A write-up that quotes its capture after several hundred lines of its own (a course report
  // that pastes the session into code blocks): the capture still decides, within the byte cap.
  const notes = Array.from({ length: 700 }, (_, i) => `Note ${i}: I chose Rust for the backend.`).join('\n');
  const writeUp = await analyzeText(`${notes}\n\n\`\`\`\n${capture}\`\`\`\n`);
  assert.equal(writeUp.format, 'claude-code-tui');
  assert.ok(writeUp.stats.commands >= 2);
  const prose = Array.from({ length: 1_200 }, (_, i) => `Line ${i} of the meeting notes: the team agreed to ship on Friday.`).join('\n');
  assert.equal((await analyzeText(prose)).format, 'plain-text');
  // A screenful of JSON records nobody recognised is decided at once, as before (not sampled further).
  const json = Array.from({ length: 60 }, (_, i) => JSON.stringify({ n: i, unknown: 'record' })).join('\n') + '\n⏺ Bash(ls)\n  ⎿  a\n⏺ Bash(ls b)\n  ⎿  b\n';
  assert.equal((await analyzeText(json)).format, 'plain-text');
});

test('a hint that contradicts the content is overruled and reported as info', async () => {
  const r = await analyzeStream(chunked(readFileSync(join(FIXTURES, 'codex.jsonl'))), { agentHint: 'gemini-cli' });
  assert.equal(r.agent, 'codex');
  const f = r.findings.find((x) => x.rule.includes('hint'));
  assert.ok(f, 'an info finding about the hint');
  assert.equal(f.severity, 'info');
});

test('plain text takes the hint as the agent', async () => {
  const r = await analyzeStream(chunked(readFileSync(join(FIXTURES, 'terminal.log'))), { agentHint: 'codex' });
  assert.equal(r.agent, 'codex');
  assert.equal(r.agent_detected, false);
});

test('a secret is never repeated unmasked anywhere in the report', async () => {
  const token = 'ghp_' + 'Zq7Xc2Vb9Nm4Lk8Jh3Gf6Ds1Aw5Er0Ty2Ui7';
  const base = readFileSync(join(FIXTURES, 'claude-code.jsonl'), 'utf8');
  const line = JSON.stringify({
    type: 'user', uuid: 'm1', parentUuid: null, sessionId: 's', cwd: '/home/dev/acme', timestamp: '2025-10-02T09:00:00.000Z',
    message: { role: 'user', content: `Push with this token: ${token}` },
  });
  const r = await analyzeText(base + line + '\n');
  const json = JSON.stringify(r);
  assert.ok(!json.includes(token), 'the token appears nowhere');
  assert.ok(!json.includes(token.slice(4, 30)), 'not even its middle');
  assert.ok(r.findings.some((f) => f.category === 'secrets' && f.severity === 'critical'));
});

test('hostile input: empty, blank, binary, BOM + CRLF, junk, deep nesting, truncated tail — no crash, counted', async () => {
  const empty = await analyzeText('');
  assert.equal(empty.timeline.length, 0);
  assertWellFormed(empty);

  const binary = await analyzeStream([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 0, 0x0a, 0, 0, 0xff, 0xfe, 0x0a, 1, 0, 3])]);
  assert.ok(binary.stats.skipped_lines >= 2);
  assert.notEqual(binary.outcome, 'Clear', 'a binary file is never Clear');

  const cc = readFileSync(join(FIXTURES, 'claude-code.jsonl'), 'utf8');
  const crlf = await analyzeText('\uFEFF' + cc.replace(/\n/g, '\r\n'));
  assert.equal(crlf.agent, 'claude-code');
  assert.equal(crlf.stats.skipped_lines, 0);

  const deep = '['.repeat(100_000) + ']'.repeat(100_000);
  const junk = await analyzeText(cc + '{not json\n' + deep + '\n' + '{"type":"user","message":{"content":' + '{"a":'.repeat(5000) + '1' + '}'.repeat(5001) + '}\n{"type":"assistant","mess');
  assert.ok(junk.stats.skipped_lines >= 2, `skipped ${junk.stats.skipped_lines}`);
  assert.notEqual(junk.outcome, 'Clear', 'a partly understood log is never Clear');
  assert.ok(junk.findings.some((f) => f.category === 'coverage'));
  assert.ok(junk.findings.some((f) => /truncat/i.test(f.title + f.detail)), 'the cut-off last line is reported');
});

test('invalid UTF-8 is decoded (U+FFFD), counted and reported, not fatal', async () => {
  const cc = readFileSync(join(FIXTURES, 'claude-code.jsonl'));
  const prompt = (text: Buffer) => Buffer.concat([Buffer.from('{"type":"user","uuid":"u-bad","sessionId":"s","message":{"role":"user","content":"caf'), text, Buffer.from(' au lait"}}\n')]);
  const r = await analyzeStream([Buffer.concat([cc, prompt(Buffer.from([0xc3, 0x28]))])]);
  assert.equal(r.agent, 'claude-code');
  assert.equal(r.stats.skipped_lines, 0, 'the line is decoded, not skipped');
  assert.ok(r.timeline.some((e) => `${e.summary} ${e.detail ?? ''}`.includes('caf\uFFFD( au lait')), 'the prompt reached the timeline with U+FFFD in place of the bad byte');
  const finding = r.findings.find((f) => f.rule === 'coverage/invalid-utf8');
  assert.equal(finding?.detail, '1 line with invalid UTF-8.');
  assertWellFormed(r);
  // A correctly encoded U+FFFD in the log is text, not an encoding error.
  const ok = await analyzeStream([Buffer.concat([cc, prompt(Buffer.from('\uFFFD', 'utf8'))])]);
  assert.ok(!ok.findings.some((f) => f.rule === 'coverage/invalid-utf8'));
});

test('lines over the cap are skipped while streaming and reported', async () => {
  const cc = readFileSync(join(FIXTURES, 'claude-code.jsonl'), 'utf8');
  const big = JSON.stringify({ type: 'summary', summary: 'x'.repeat(200_000) });
  const r = await analyzeStream(chunked(Buffer.from(cc + big + '\n' + cc), 65536), { maxLineBytes: 100_000 });
  assert.equal(r.stats.skipped_lines, 1);
  assert.ok(r.findings.some((f) => f.category === 'coverage'));
});

test('the timeline is capped on huge logs and evidence still resolves', async () => {
  const cc = readFileSync(join(FIXTURES, 'claude-code.jsonl'), 'utf8');
  const r = await analyzeText(cc.repeat(40), { timelineCap: 50 });
  assert.ok(r.timeline.length <= 50 + 64 + 10, `timeline ${r.timeline.length}`);
  assert.ok((r.stats.timeline_omitted ?? 0) > 0);
  assertWellFormed(r);
});

test('a step past the timeline cap that a finding points at is built exactly as it would be within the cap', async () => {
  const log = readFileSync(join(CORPUS, 'claude-code', 'cc09-v2.1.33-compaction-bash-heavy-19-errors-mcp.jsonl'), 'utf8');
  const capped = await analyzeText(log, { timelineCap: 20 });
  const full = await analyzeText(log);
  const promoted = capped.timeline.filter((e) => e.index >= 20);
  assert.ok(promoted.length > 0, 'the log has findings past the 20th step');
  for (const entry of promoted) assert.deepEqual(entry, full.timeline.find((e) => e.index === entry.index));
  assert.deepEqual(capped.findings, full.findings);
});
