// `vouch analyze` as a user runs it: every output format, exit codes, and I/O errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { BIN } from '../helpers/cli.ts';
const FIXTURES = fileURLToPath(new URL('../../../shared/conformance/fixtures/', import.meta.url));
const CORPUS = fileURLToPath(new URL('../../../shared/corpus/', import.meta.url));

function vouch(args: string[], input?: string) {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', input, env: { ...process.env, NO_COLOR: '1' }, maxBuffer: 64 * 1024 * 1024 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const tmp = mkdtempSync(join(tmpdir(), 'vouch-cli-'));
const clean = join(tmp, 'clean.jsonl');
writeFileSync(clean, [
  { type: 'user', uuid: 'u1', sessionId: 's', cwd: '/home/dev/app', timestamp: '2025-01-01T10:00:00.000Z', message: { role: 'user', content: 'What does src/index.ts export?' } },
  { type: 'assistant', uuid: 'a1', sessionId: 's', cwd: '/home/dev/app', timestamp: '2025-01-01T10:00:01.000Z', message: { id: 'm1', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: '/home/dev/app/src/index.ts' } }], usage: { input_tokens: 10, output_tokens: 5 } } },
  { type: 'user', uuid: 'u2', sessionId: 's', cwd: '/home/dev/app', timestamp: '2025-01-01T10:00:02.000Z', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'export const x = 1;' }] } },
  { type: 'assistant', uuid: 'a2', sessionId: 's', cwd: '/home/dev/app', timestamp: '2025-01-01T10:00:03.000Z', message: { id: 'm2', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'It exports one constant, x.' }], usage: { input_tokens: 10, output_tokens: 5 } } },
].map((r) => JSON.stringify(r)).join('\n') + '\n');
const blocked = join(tmp, 'blocked.jsonl');
writeFileSync(blocked, [
  { type: 'user', uuid: 'u1', sessionId: 's', cwd: '/home/dev/app', timestamp: '2025-01-01T10:00:00.000Z', message: { role: 'user', content: 'clean up' } },
  { type: 'assistant', uuid: 'a1', sessionId: 's', cwd: '/home/dev/app', timestamp: '2025-01-01T10:00:01.000Z', message: { id: 'm1', role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'rm -rf ~/' } }] } },
  { type: 'user', uuid: 'u2', sessionId: 's', cwd: '/home/dev/app', timestamp: '2025-01-01T10:00:02.000Z', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '' }] } },
].map((r) => JSON.stringify(r)).join('\n') + '\n');

test('json output is the report object, exit code follows the outcome', () => {
  const ok = vouch(['analyze', clean, '--format', 'json']);
  const report = JSON.parse(ok.stdout);
  assert.equal(report.outcome, 'Clear', report.headline);
  assert.equal(ok.code, 0);
  const bad = vouch(['analyze', blocked, '--format', 'json']);
  assert.equal(JSON.parse(bad.stdout).outcome, 'Blocked');
  assert.equal(bad.code, 2);
});

test('text output is a readable summary without colour when not a TTY', () => {
  const r = vouch(['analyze', blocked]);
  assert.equal(r.code, 2);
  assert.match(r.stdout, /BLOCKED/);
  assert.match(r.stdout, /critical/);
  assert.ok(!r.stdout.includes('\u001b['), 'no ANSI colour when piped');
});

test('html output is one self-contained, escaped page', () => {
  const r = vouch(['analyze', blocked, '--format', 'html']);
  assert.match(r.stdout, /^<!doctype html>/);
  assert.ok(!/<script|<link|src="http/i.test(r.stdout), 'no scripts or external assets');
  assert.match(r.stdout, /rm -rf ~\//);
});

test('sarif output is SARIF 2.1.0 with a result per finding', () => {
  const r = vouch(['analyze', blocked, '--format', 'sarif']);
  const sarif = JSON.parse(r.stdout);
  assert.equal(sarif.version, '2.1.0');
  assert.ok(sarif.runs[0].results.length > 0);
  assert.ok(sarif.runs[0].results.some((x: { level: string }) => x.level === 'error'));
  assert.ok(sarif.runs[0].tool.driver.rules.length > 0);
});

test('reads standard input with -', () => {
  const r = vouch(['analyze', '-', '--format', 'json'], `${JSON.stringify({ type: 'user', uuid: 'u', sessionId: 's', message: { role: 'user', content: 'hi' } })}\n`);
  assert.equal(JSON.parse(r.stdout).agent, 'claude-code');
});

test('--fail-on critical ignores warnings; --fail-on warning ignores info', () => {
  assert.equal(vouch(['analyze', blocked, '--fail-on', 'critical', '--format', 'json']).code, 2);
  assert.equal(vouch(['analyze', clean, '--fail-on', 'warning', '--format', 'json']).code, 0);
});

test('usage and I/O errors have their own exit codes and a clear message', () => {
  const missing = vouch(['analyze', join(tmp, 'nope.jsonl')]);
  assert.equal(missing.code, 4);
  assert.match(missing.stderr, /no such file/);
  const dir = vouch(['analyze', tmp]);
  assert.equal(dir.code, 4);
  assert.match(dir.stderr, /directory/);
  const badFormat = vouch(['analyze', clean, '--format', 'pdf']);
  assert.equal(badFormat.code, 3);
  const badAgent = vouch(['analyze', clean, '--agent', 'copilot']);
  assert.equal(badAgent.code, 3);
  if (process.getuid?.() !== 0) {
    const locked = join(tmp, 'locked.jsonl');
    writeFileSync(locked, 'x');
    chmodSync(locked, 0);
    assert.equal(vouch(['analyze', locked]).code, 4);
  }
});

test('every corpus file analyses from the command line', () => {
  for (const f of ['claude-code/cc01-v2.1.38-tool-heavy-websearch-webfetch.jsonl', 'codex/cx05-v0.99.0-alpha-desktop-minimal.jsonl', 'gemini-cli/gm02-2026-03-json-format-read-write-file.json']) {
    const r = vouch(['analyze', join(CORPUS, f), '--format', 'json']);
    assert.ok([0, 1, 2].includes(r.code ?? -1), `${f}: exit ${r.code} ${r.stderr}`);
    assert.ok(JSON.parse(r.stdout).timeline.length > 0);
  }
  const t = vouch(['analyze', join(FIXTURES, 'terminal.log'), '--format', 'json']);
  assert.equal(JSON.parse(t.stdout).format, 'plain-text');
});
