// The GitHub Action's script run as the action runs it (`vouch github-action` with the INPUT_*
// and GITHUB_* variables GitHub sets), locally and without network: it must write the step
// outputs and a readable job summary, the SARIF file when asked, and fail by `fail-on`.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FIXTURES_DIR } from '../helpers/shared.ts';

const BIN = fileURLToPath(new URL('../../bin/vouch.mjs', import.meta.url));

function action(env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, 'github-action'], { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

/** A Claude Code transcript in which the agent runs one command: `rm -rf ~/` is Blocked. */
function destructiveLog(command = 'rm -rf ~/'): string {
  const base = { isSidechain: false, userType: 'external', cwd: '/home/dev/acme-api', sessionId: 'sess-blocked-1', version: '2.0.14', gitBranch: 'main' };
  const records = [
    { ...base, type: 'user', uuid: 'u1', parentUuid: null, timestamp: '2026-11-26T04:00:00.000Z', message: { role: 'user', content: 'Free up some disk space.' } },
    { ...base, type: 'assistant', uuid: 'a1', parentUuid: 'u1', timestamp: '2026-11-26T04:00:05.000Z', message: { id: 'm1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'tool_use', id: 'toolu_rm', name: 'Bash', input: { command, description: 'Clean up' } }], usage: { input_tokens: 1, output_tokens: 1 } } },
    { ...base, type: 'user', uuid: 'u2', parentUuid: 'a1', timestamp: '2026-11-26T04:00:09.000Z', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_rm', content: '', is_error: false }] } },
    { ...base, type: 'assistant', uuid: 'a2', parentUuid: 'u2', timestamp: '2026-11-26T04:00:12.000Z', message: { id: 'm2', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'Done, disk space freed.' }], usage: { input_tokens: 1, output_tokens: 1 } } },
  ];
  return records.map((r) => JSON.stringify(r)).join('\n') + '\n';
}

let workspace: string;
let github: Record<string, string>;

before(async () => {
  workspace = await mkdtemp(join(tmpdir(), 'vouch-action-'));
  await mkdir(join(workspace, 'agent-logs', 'nested'), { recursive: true });
  await copyFile(join(FIXTURES_DIR, 'codex.jsonl'), join(workspace, 'agent-logs', 'codex.jsonl'));
  await writeFile(join(workspace, 'agent-logs', 'nested', 'blocked.jsonl'), destructiveLog());
  await writeFile(join(workspace, 'agent-logs', 'notes.md'), '# not a log\n');
  await mkdir(join(workspace, 'other'), { recursive: true });
  await writeFile(join(workspace, 'other', 'discard.jsonl'), destructiveLog('git reset --hard HEAD~3'));
});
after(() => rm(workspace, { recursive: true, force: true }));

async function freshGithubFiles(): Promise<Record<string, string>> {
  const dir = await mkdtemp(join(workspace, 'gh-'));
  github = { GITHUB_WORKSPACE: workspace, GITHUB_OUTPUT: join(dir, 'output'), GITHUB_STEP_SUMMARY: join(dir, 'summary.md'), GITHUB_REPOSITORY: 'acme/api' };
  await writeFile(github.GITHUB_OUTPUT, '');
  await writeFile(github.GITHUB_STEP_SUMMARY, '');
  return github;
}

test('a glob of logs: worst outcome and its score as outputs, one summary section per log, SARIF with an artifact per log, exit 2 for a critical finding', async () => {
  const env = await freshGithubFiles();
  const r = await action({ ...env, INPUT_LOG: 'agent-logs/**/*.jsonl', 'INPUT_FAIL-ON': 'critical', INPUT_SARIF: 'vouch.sarif' });
  assert.equal(r.code, 2, r.stdout + r.stderr);
  const outputs = await readFile(env.GITHUB_OUTPUT, 'utf8');
  assert.match(outputs, /^outcome=Blocked$/m);
  const score = Number(/^trust-score=(\d+)$/m.exec(outputs)?.[1]);
  assert.ok(score >= 0 && score < 100, `score ${score}`);
  assert.match(outputs, /^report-url=$/m, 'no server: no report link');
  const summary = await readFile(env.GITHUB_STEP_SUMMARY, 'utf8');
  assert.match(summary, /Vouch: Blocked — trust \d+\/100/);
  assert.match(summary, /agent-logs\/nested\/blocked\.jsonl/);
  assert.match(summary, /agent-logs\/codex\.jsonl/);
  assert.match(summary, /destructive\/rm-outside-worktree/);
  assert.doesNotMatch(summary, /notes\.md/, 'the glob picks only .jsonl files');
  const sarif = JSON.parse(await readFile(join(workspace, 'vouch.sarif'), 'utf8')) as { version: string; runs: Array<{ artifacts: Array<{ location: { uri: string } }> }> };
  assert.equal(sarif.version, '2.1.0');
  assert.equal(sarif.runs.length, 1, 'one run of the tool');
  assert.deepEqual(sarif.runs[0].artifacts.map((a) => a.location.uri).sort(), ['agent-logs/codex.jsonl', 'agent-logs/nested/blocked.jsonl'], 'an artifact per log, at its repository path');
});

test('fail-on never exits 0 with the same outputs; fail-on warning fails on a warnings-only log', async () => {
  const never = await freshGithubFiles();
  const r = await action({ ...never, INPUT_LOG: 'agent-logs/nested/blocked.jsonl', 'INPUT_FAIL-ON': 'never' });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(await readFile(never.GITHUB_OUTPUT, 'utf8'), /^outcome=Blocked$/m);
  const warning = await freshGithubFiles();
  const strict = await action({ ...warning, INPUT_LOG: 'other/discard.jsonl', 'INPUT_FAIL-ON': 'warning' });
  assert.equal(strict.code, 1, strict.stdout + strict.stderr);
  assert.match(await readFile(warning.GITHUB_OUTPUT, 'utf8'), /^outcome=Review$/m);
  const lenient = await action({ ...(await freshGithubFiles()), INPUT_LOG: 'other/discard.jsonl', 'INPUT_FAIL-ON': 'critical' });
  assert.equal(lenient.code, 0, 'warnings alone do not fail fail-on critical');
});

test('bad inputs fail with an annotation that says what to fix, and write no outputs', async () => {
  const env = await freshGithubFiles();
  const missing = await action({ ...env, INPUT_LOG: 'nothing/*.jsonl' });
  assert.equal(missing.code, 3);
  assert.match(missing.stdout, /::error title=Vouch::no file matches "nothing\/\*\.jsonl"/);
  const badFailOn = await action({ ...env, INPUT_LOG: 'agent-logs/codex.jsonl', 'INPUT_FAIL-ON': 'sometimes' });
  assert.equal(badFailOn.code, 3);
  assert.match(badFailOn.stdout, /fail-on must be critical, warning or never/);
  const halfServer = await action({ ...env, INPUT_LOG: 'agent-logs/codex.jsonl', 'INPUT_API-URL': 'https://vouch.example' });
  assert.equal(halfServer.code, 3);
  assert.match(halfServer.stdout, /give both api-url and api-key/);
  assert.equal(await readFile(env.GITHUB_OUTPUT, 'utf8'), '');
});
