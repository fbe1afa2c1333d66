// `vouch analyze` as a user runs it: every output format, exit codes, and I/O errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
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

// Only warnings: the final message claims the tests pass, but no run passed after the edit.
const warnOnly = join(tmp, 'warn-only.jsonl');
writeFileSync(warnOnly, [
  { type: 'user', uuid: 'u1', sessionId: 's', cwd: '/home/dev/app', timestamp: '2025-01-01T10:00:00.000Z', message: { role: 'user', content: 'fix the date test' } },
  { type: 'assistant', uuid: 'a1', sessionId: 's', cwd: '/home/dev/app', timestamp: '2025-01-01T10:00:01.000Z', message: { id: 'm1', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Edit', input: { file_path: '/home/dev/app/src/date.ts', old_string: 'getMonth()', new_string: 'getMonth() + 1' } }] } },
  { type: 'user', uuid: 'u2', sessionId: 's', cwd: '/home/dev/app', timestamp: '2025-01-01T10:00:02.000Z', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'The file has been updated.' }] } },
  { type: 'assistant', uuid: 'a2', sessionId: 's', cwd: '/home/dev/app', timestamp: '2025-01-01T10:00:03.000Z', message: { id: 'm2', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'Fixed: all tests pass now.' }] } },
].map((r) => JSON.stringify(r)).join('\n') + '\n');
// Markup in a command: the HTML report must show it as text.
const markup = join(tmp, 'markup.jsonl');
writeFileSync(markup, [
  { type: 'user', uuid: 'u1', sessionId: 's', cwd: '/home/dev/app', timestamp: '2025-01-01T10:00:00.000Z', message: { role: 'user', content: 'print a banner' } },
  { type: 'assistant', uuid: 'a1', sessionId: 's', cwd: '/home/dev/app', timestamp: '2025-01-01T10:00:01.000Z', message: { id: 'm1', role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'echo "<script>alert(1)</script><img src=x onerror=alert(2)>" && rm -rf ~/' } }] } },
  { type: 'user', uuid: 'u2', sessionId: 's', cwd: '/home/dev/app', timestamp: '2025-01-01T10:00:02.000Z', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '<b>done</b>' }] } },
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

test('html output is one self-contained page with the log\'s markup escaped', () => {
  const r = vouch(['analyze', markup, '--format', 'html']);
  assert.match(r.stdout, /^<!doctype html>/);
  assert.ok(!/<script|<link|<img|src="http/i.test(r.stdout), 'no scripts, images or external assets, not even from the log');
  assert.match(r.stdout, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/, 'the command is shown as text');
  assert.match(r.stdout, /rm -rf ~\//);
});

test('sarif output is SARIF 2.1.0 with one result per finding of the report, at the file name', () => {
  const report = JSON.parse(vouch(['analyze', markup, '--format', 'json']).stdout);
  const r = vouch(['analyze', markup, '--format', 'sarif']);
  const sarif = JSON.parse(r.stdout);
  assert.equal(sarif.version, '2.1.0');
  assert.equal(r.code, 2);
  const results = sarif.runs[0].results as { ruleId: string; level: string; locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[];
  assert.deepEqual(results.map((x) => x.ruleId), report.findings.map((f: { rule: string }) => f.rule));
  assert.deepEqual(results.map((x) => x.level), report.findings.map((f: { severity: string }) => ({ critical: 'error', warning: 'warning', info: 'note' })[f.severity]));
  for (const x of results) assert.equal(x.locations[0].physicalLocation.artifactLocation.uri, 'markup.jsonl');
  assert.deepEqual(sarif.runs[0].tool.driver.rules.map((x: { id: string }) => x.id).sort(), [...new Set(report.findings.map((f: { rule: string }) => f.rule))].sort());
});

test('sarif --repo-root gives the log path relative to the repository; a log outside it is a usage error', () => {
  const repo = mkdtempSync(join(tmpdir(), 'vouch-repo-'));
  mkdirSync(join(repo, 'agent logs'));
  const log = join(repo, 'agent logs', 'run 1.jsonl');
  writeFileSync(log, readFileSync(blocked));
  const r = vouch(['analyze', log, '--format', 'sarif', '--repo-root', repo]);
  const uris = JSON.parse(r.stdout).runs[0].results.map((x: { locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }) => x.locations[0].physicalLocation.artifactLocation.uri);
  assert.ok(uris.length > 0);
  assert.deepEqual([...new Set(uris)], ['agent%20logs/run%201.jsonl']);
  const outside = vouch(['analyze', blocked, '--format', 'sarif', '--repo-root', repo]);
  assert.equal(outside.code, 3);
  assert.match(outside.stderr, /not inside --repo-root/);
  const named = vouch(['analyze', blocked, '--format', 'sarif', '--sarif-artifact-uri', 'logs/ci.jsonl']);
  assert.equal(JSON.parse(named.stdout).runs[0].artifacts[0].location.uri, 'logs/ci.jsonl');
});

test('text output names session-level evidence "session", never "#-1"', () => {
  const r = vouch(['analyze', clean]);
  assert.match(r.stdout, /Models used/);
  assert.match(r.stdout, /^ +session claude-sonnet-4-5$/m);
  assert.ok(!r.stdout.includes('#-1'));
});

test('reads standard input with -', () => {
  const r = vouch(['analyze', '-', '--format', 'json'], `${JSON.stringify({ type: 'user', uuid: 'u', sessionId: 's', message: { role: 'user', content: 'hi' } })}\n`);
  assert.equal(JSON.parse(r.stdout).agent, 'claude-code');
});

test('--fail-on critical ignores warnings; --fail-on warning ignores info', () => {
  const warned = vouch(['analyze', warnOnly, '--format', 'json']);
  const report = JSON.parse(warned.stdout);
  assert.deepEqual([report.findings_count.critical, report.findings_count.warning > 0], [0, true], 'the fixture has warnings and no critical finding');
  assert.equal(warned.code, 1, 'without --fail-on a warning means Review');
  assert.equal(vouch(['analyze', warnOnly, '--fail-on', 'critical', '--format', 'json']).code, 0);
  assert.equal(vouch(['analyze', warnOnly, '--fail-on', 'warning', '--format', 'json']).code, 1);
  assert.equal(vouch(['analyze', blocked, '--fail-on', 'critical', '--format', 'json']).code, 2);
  const cleanReport = JSON.parse(vouch(['analyze', clean, '--format', 'json']).stdout);
  assert.ok(cleanReport.findings_count.info > 0, 'the clean fixture has info findings');
  assert.equal(vouch(['analyze', clean, '--fail-on', 'warning', '--format', 'json']).code, 0);
});

test('usage and I/O errors have their own exit codes and a clear message', () => {
  const missing = vouch(['analyze', join(tmp, 'nope.jsonl')]);
  assert.equal(missing.code, 4);
  assert.match(missing.stderr, /no such file/);
  const empty = vouch(['analyze', mkdtempSync(join(tmpdir(), 'vouch-empty-'))]);
  assert.equal(empty.code, 4);
  assert.match(empty.stderr, /no logs/);
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

// Many logs at once: a directory tree and files, one process, the worst exit code.
function batchDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'vouch-batch-'));
  mkdirSync(join(dir, 'project-a'));
  mkdirSync(join(dir, '.hidden'));
  writeFileSync(join(dir, 'project-a', 'clean.jsonl'), readFileSync(clean));
  writeFileSync(join(dir, 'project-a', 'warn.jsonl'), readFileSync(warnOnly));
  writeFileSync(join(dir, 'blocked.jsonl'), readFileSync(blocked));
  writeFileSync(join(dir, 'notes.md'), '# not a log');
  writeFileSync(join(dir, '.hidden', 'skipped.jsonl'), readFileSync(blocked));
  return dir;
}

test('a directory: every log in it (recursively, not hidden ones) in a summary table, worst first, worst exit code', () => {
  const dir = batchDir();
  const r = vouch(['analyze', dir]);
  assert.equal(r.code, 2, r.stderr);
  const rows = r.stdout.split('\n').filter((l) => /^(Blocked|Review|Clear)\b/.test(l));
  assert.deepEqual(rows.map((l) => l.split(/\s+/)[0]), ['Blocked', 'Review', 'Clear']);
  assert.match(rows[0], /blocked\.jsonl$/);
  assert.match(r.stdout, /3 logs: 1 Blocked, 1 Review, 1 Clear/);
  assert.ok(!r.stdout.includes('skipped.jsonl') && !r.stdout.includes('notes.md'));
  assert.equal(r.stderr, '', 'no progress bar when stderr is not a terminal');
});

test('--format jsonl prints one report per line with its file; the exit code is the worst (Review here)', () => {
  const dir = batchDir();
  const r = vouch(['analyze', join(dir, 'project-a'), join(dir, 'project-a', 'clean.jsonl'), '--format', 'jsonl']);
  const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { file: string; outcome: string; trust_score: number });
  assert.equal(lines.length, 2, 'clean.jsonl named twice (in its directory and as an argument) is analysed once');
  assert.deepEqual(lines.map((l) => l.file).sort(), [join(dir, 'project-a', 'clean.jsonl'), join(dir, 'project-a', 'warn.jsonl')]);
  assert.deepEqual(lines.map((l) => l.outcome).sort(), ['Clear', 'Review']);
  for (const l of lines) assert.equal(typeof l.trust_score, 'number');
  assert.equal(r.code, 1);
  assert.equal(vouch(['analyze', join(dir, 'project-a'), '--format', 'jsonl', '--fail-on', 'critical']).code, 0);
});

test('several logs in sarif make one run with an artifact per log, relative to --repo-root', () => {
  const dir = batchDir();
  const r = vouch(['analyze', dir, '--format', 'sarif', '--repo-root', dir]);
  const run = JSON.parse(r.stdout).runs;
  assert.equal(run.length, 1);
  assert.deepEqual(run[0].artifacts.map((a: { location: { uri: string } }) => a.location.uri).sort(), ['blocked.jsonl', 'project-a/clean.jsonl', 'project-a/warn.jsonl']);
  assert.equal(run[0].automationDetails.id, 'vouch/logs/', 'the repository root itself: the default category');
});

test('sarif category: the paths given (relative to --repo-root), or --sarif-category; so two uploads for one commit keep apart', () => {
  const dir = batchDir();
  const id = (args: string[]) => JSON.parse(vouch(['analyze', ...args, '--format', 'sarif']).stdout).runs[0].automationDetails.id as string;
  assert.equal(id([join(dir, 'project-a'), '--repo-root', dir]), 'vouch/project-a/');
  assert.equal(id([join(dir, 'project-a'), join(dir, 'blocked.jsonl'), '--repo-root', dir]), 'vouch/project-a,blocked.jsonl/');
  assert.equal(id([join(dir, 'blocked.jsonl'), '--repo-root', dir]), 'vouch/blocked.jsonl/', 'one log: its artifact path');
  assert.equal(id([join(dir, 'project-a'), '--sarif-category', 'nightly agents']), 'vouch/nightly agents/');
});

test('many logs: a missing path is reported and exits 4 after the others are analysed; html and stdin are refused', () => {
  const dir = batchDir();
  const r = vouch(['analyze', dir, join(dir, 'nope.jsonl'), '--format', 'jsonl']);
  assert.equal(r.code, 4);
  assert.match(r.stderr, /nope\.jsonl: no such file/);
  assert.equal(r.stdout.trim().split('\n').length, 3);
  assert.equal(vouch(['analyze', dir, '--format', 'html']).code, 3);
  assert.equal(vouch(['analyze', dir, '-']).code, 3);
});

test('--jobs sets how many logs are analysed at once; anything but 1-256 is a usage error', () => {
  const dir = batchDir();
  const one = vouch(['analyze', dir, '--jobs', '1', '--format', 'jsonl']);
  assert.equal(one.code, 2);
  assert.equal(one.stdout.trim().split('\n').length, 3);
  for (const bad of ['0', '1.5', 'many']) {
    const r = vouch(['analyze', dir, '--jobs', bad]);
    assert.equal(r.code, 3, bad);
    assert.match(r.stderr, /--jobs/);
  }
});

test('a Codex TUI capture saved as .txt is read as the Codex TUI, named on the command line', () => {
  const capture = join(tmp, 'capture.txt');
  writeFileSync(capture, readFileSync(fileURLToPath(new URL('../fixtures/terminal/codex-tui.txt', import.meta.url))));
  const r = vouch(['analyze', capture, '--format', 'json']);
  const report = JSON.parse(r.stdout);
  assert.deepEqual([report.format, report.agent, report.confidence], ['codex-tui', 'codex', 'low']);
  assert.ok(report.stats.commands >= 4, `commands: ${report.stats.commands}`);
});

test('Gemini CLI\'s logs.json (prompts only) is Review at best and says why', () => {
  const logs = join(tmp, 'logs.json');
  writeFileSync(logs, JSON.stringify([{ sessionId: 's-1', messageId: 0, type: 'user', message: 'add a dark mode toggle', timestamp: '2025-07-14T09:12:03.511Z' }], null, 2) + '\n');
  const r = vouch(['analyze', logs, '--format', 'json']);
  const report = JSON.parse(r.stdout);
  assert.deepEqual([report.format, report.outcome, r.code], ['gemini-logs', 'Review', 1]);
  assert.ok(report.findings.some((f: { rule: string; severity: string }) => f.rule === 'coverage/prompts-only' && f.severity === 'info'));
});

test('a log analysed on two threads (VOUCH_ANALYSIS_THREADS=2, as a big log is) prints the same report as on one', () => {
  const log = join(CORPUS, 'claude-code', 'cc02-v2.1.38-task-subagent-planmode.jsonl');
  const run = (threads: string) => spawnSync(process.execPath, [BIN, 'analyze', log, '--format', 'json'], { encoding: 'utf8', env: { ...process.env, VOUCH_ANALYSIS_THREADS: threads }, maxBuffer: 64 * 1024 * 1024 });
  const two = run('2');
  const one = run('1');
  assert.equal(two.stderr, '');
  assert.equal(two.status, one.status);
  assert.ok(JSON.parse(two.stdout).findings.length > 0);
  assert.equal(two.stdout, one.stdout);
});
