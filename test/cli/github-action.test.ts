// The GitHub Action as a workflow runs it: the release tree made by the real release script and
// exported with `git archive` into an empty folder (no node_modules, no dist/ — what `uses:`
// downloads), its `runs.main` started with Node the way the runner starts a JavaScript action:
// working directory the workspace, every input declared in action.yml passed as INPUT_<NAME>
// (the workflow's value or the declared default), GITHUB_* files and variables set. Code scanning
// is a local stand-in of GitHub's REST endpoint; the Vouch server is the real app on a real port.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { copyFile, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { BIN, ROOT } from '../helpers/cli.ts';
import { FIXTURES_DIR } from '../helpers/shared.ts';
import { exportTree, readActionMetadata, runNode, scratchRepository, type ActionMetadata } from '../helpers/checkout.ts';
import { sarifSchemaErrors } from '../helpers/sarif-schema.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { inProcessAnalyzer } from '../../src/adapters/analysis-pool/index.ts';

const TOKEN = 'ghs_jobTokenForTheTest0000000000000000';
const SHA = '4b6472266afd7b471e86085a6659e8c7f2b119da';
const REF = 'refs/pull/42/merge';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
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

/** GitHub's code-scanning SARIF endpoint, as far as the Action uses it. */
class CodeScanningStandIn {
  uploads: Array<{ authorization: string | undefined; apiVersion: string | undefined; body: Record<string, unknown>; sarif: Record<string, unknown> }> = [];
  /** accept: 202 then pending, complete; forbid: 403 as for a read-only token; fail: processing fails. */
  mode: 'accept' | 'forbid' | 'fail' = 'accept';
  private polls = 0;
  private server: Server = createServer((req, res) => void this.handle(req).then(([status, body]) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))));
  url = '';

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage): Promise<[number, unknown]> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return [401, { message: 'Bad credentials' }];
    if (req.method === 'POST' && req.url === '/repos/acme/api/code-scanning/sarifs') {
      if (this.mode === 'forbid') return [403, { message: 'Resource not accessible by integration' }];
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      const sarif = JSON.parse(gunzipSync(Buffer.from(String(body.sarif), 'base64')).toString('utf8')) as Record<string, unknown>;
      this.uploads.push({ authorization: req.headers.authorization, apiVersion: req.headers['x-github-api-version'] as string | undefined, body, sarif });
      this.polls = 0;
      return [202, { id: `sarif-${this.uploads.length}`, url: `${this.url}/repos/acme/api/code-scanning/sarifs/sarif-${this.uploads.length}` }];
    }
    if (req.method === 'GET' && req.url?.startsWith('/repos/acme/api/code-scanning/sarifs/sarif-')) {
      this.polls++;
      if (this.mode === 'fail') return [200, { processing_status: 'failed', errors: ['locationFromSarifResult: expected artifact location'] }];
      return [200, { processing_status: this.polls === 1 ? 'pending' : 'complete', analyses_url: `${this.url}/analyses` }];
    }
    return [404, { message: 'Not Found' }];
  }
}

let release: string;
let action: ActionMetadata;
let workspace: string;
/** The runner's files of each step (output, summary), removed at the end. */
let runnerFiles: string;
const codeScanning = new CodeScanningStandIn();

before(async () => {
  const repo = scratchRepository();
  runNode(repo, ['scripts/release-action.mjs']);
  const { version } = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { version: string };
  release = exportTree(repo, `v${version}`);
  await rm(repo, { recursive: true, force: true });
  action = readActionMetadata(release);
  await codeScanning.start();
  workspace = await mkdtemp(join(tmpdir(), 'vouch-action-ws-'));
  runnerFiles = await mkdtemp(join(tmpdir(), 'vouch-action-gh-'));
  await mkdir(join(workspace, 'agent-logs', 'nested'), { recursive: true });
  await copyFile(join(FIXTURES_DIR, 'codex.jsonl'), join(workspace, 'agent-logs', 'codex.jsonl'));
  await writeFile(join(workspace, 'agent-logs', 'nested', 'blocked.jsonl'), destructiveLog());
  await writeFile(join(workspace, 'agent-logs', 'notes.md'), '# not a log\n');
  await mkdir(join(workspace, 'other'), { recursive: true });
  await writeFile(join(workspace, 'other', 'discard.jsonl'), destructiveLog('git reset --hard HEAD~3'));
  await copyFile(join(FIXTURES_DIR, 'claude-code.jsonl'), join(workspace, 'other', 'clean.jsonl'));
});
after(async () => {
  await codeScanning.stop();
  await rm(workspace, { recursive: true, force: true });
  await rm(runnerFiles, { recursive: true, force: true });
  await rm(release, { recursive: true, force: true });
});

interface GithubFiles {
  output: string;
  summary: string;
}

async function githubFiles(): Promise<GithubFiles> {
  const dir = await mkdtemp(join(runnerFiles, 'step-'));
  const files = { output: join(dir, 'output'), summary: join(dir, 'summary.md') };
  await writeFile(files.output, '');
  await writeFile(files.summary, '');
  return files;
}

/** The runner's INPUT_ variables: every declared input, the workflow's value or its default (expressions evaluated). */
function inputEnv(withInputs: Record<string, string>): Record<string, string> {
  for (const name of Object.keys(withInputs)) assert.ok(name in action.inputs, `the workflow passes ${name}, which action.yml does not declare`);
  const evaluate = (d: string | undefined) => (d === '${{ github.token }}' ? TOKEN : (d ?? ''));
  return Object.fromEntries(Object.entries(action.inputs).map(([name, spec]) => [`INPUT_${name.replace(/ /g, '_').toUpperCase()}`, withInputs[name] ?? evaluate(spec.default)]));
}

/** Starts the action as the runner does: `node <action dir>/<runs.main>` in the workspace. */
function runAction(withInputs: Record<string, string>, files: GithubFiles, extraEnv: Record<string, string> = {}, command = [join(release, action.runs.main)]): Promise<Run> {
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_WORKSPACE: workspace,
    GITHUB_OUTPUT: files.output,
    GITHUB_STEP_SUMMARY: files.summary,
    GITHUB_REPOSITORY: 'acme/api',
    GITHUB_SHA: SHA,
    GITHUB_REF: REF,
    GITHUB_REF_NAME: '42/merge',
    GITHUB_HEAD_REF: 'feature/agent-cleanup',
    GITHUB_API_URL: codeScanning.url,
    ...inputEnv(withInputs),
    ...extraEnv,
  };
  return new Promise((resolve) => {
    const child = spawn(process.execPath, command, { cwd: workspace, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

/** $GITHUB_OUTPUT as the runner reads it (name=value lines and name<<delimiter blocks). */
function parseOutputs(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const heredoc = /^([^=<]+)<<(.+)$/.exec(lines[i]);
    if (heredoc) {
      const end = lines.indexOf(heredoc[2], i + 1);
      out[heredoc[1]] = lines.slice(i + 1, end).join('\n');
      i = end;
    } else if (lines[i].includes('=')) out[lines[i].slice(0, lines[i].indexOf('='))] = lines[i].slice(lines[i].indexOf('=') + 1);
  }
  return out;
}

async function outputsOf(files: GithubFiles): Promise<Record<string, string>> {
  const outputs = parseOutputs(await readFile(files.output, 'utf8'));
  for (const name of Object.keys(outputs)) assert.ok(name in action.outputs, `the action sets ${name}, which action.yml does not declare`);
  return outputs;
}

/** No stack trace, no Node warning: what a failing step shows is our annotation alone. */
function assertNoTrace(r: Run): void {
  assert.doesNotMatch(r.stdout + r.stderr, /^\s+at .+\(.+:\d+:\d+\)$|^\s+at file:|Error: .*\n\s+at /m, `a stack trace: ${r.stdout}${r.stderr}`);
  assert.equal(r.stderr, '', 'nothing on stderr');
}

describe('the release tree', () => {
  test('holds action.yml and the bundle it names, and nothing to install: a JavaScript action on node24, no node_modules', async () => {
    assert.equal(action.runs.using, 'node24');
    assert.equal(action.runs.main, 'dist-action/index.mjs');
    const ls = execFileSync('find', [release, '-name', 'node_modules', '-o', '-path', `${release}/dist`, '-print'], { encoding: 'utf8' });
    assert.equal(ls.trim(), '', 'neither node_modules nor dist/ in the release');
    for (const f of ['index.mjs', 'tree-sitter.wasm', 'tree-sitter-bash.wasm', 'THIRD-PARTY-LICENSES.txt']) await readFile(join(release, 'dist-action', f));
    assert.match(await readFile(join(release, 'dist-action', 'THIRD-PARTY-LICENSES.txt'), 'utf8'), /web-tree-sitter@[\d.]+ \(MIT\)/);
  });
});

describe('the bundled action, run from the release tree', () => {
  test('a glob of logs: worst outcome and score as outputs, a summary section per log, SARIF written and uploaded to code scanning, exit 2 for a critical finding', async () => {
    const files = await githubFiles();
    const r = await runAction({ log: 'agent-logs/**/*.jsonl', 'fail-on': 'critical', sarif: 'reports/vouch.sarif' }, files);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assertNoTrace(r);
    const outputs = await outputsOf(files);
    assert.equal(outputs.outcome, 'Blocked');
    assert.ok(Number(outputs['trust-score']) >= 0 && Number(outputs['trust-score']) < 100, `score ${outputs['trust-score']}`);
    assert.equal(outputs['report-url'], '', 'no server: no report link');
    assert.equal(outputs['sarif-id'], `sarif-${codeScanning.uploads.length}`);
    const summary = await readFile(files.summary, 'utf8');
    assert.match(summary, /Vouch: Blocked — trust \d+\/100/);
    assert.match(summary, /agent-logs\/nested\/blocked\.jsonl/);
    assert.match(summary, /agent-logs\/codex\.jsonl/);
    assert.match(summary, /destructive\/rm-outside-worktree/);
    assert.doesNotMatch(summary, /notes\.md/, 'the glob picks only .jsonl files');
    assert.match(r.stdout, /^Blocked \d+\/100 agent-logs\/nested\/blocked\.jsonl — /m);

    const written = await readFile(join(workspace, 'reports', 'vouch.sarif'), 'utf8');
    const sarif = JSON.parse(written) as { version: string; runs: Array<{ automationDetails: { id: string }; artifacts: Array<{ location: { uri: string } }> }> };
    assert.equal(sarifSchemaErrors(sarif), null);
    assert.equal(sarif.runs.length, 1, 'one run of the tool');
    assert.deepEqual(sarif.runs[0].artifacts.map((a) => a.location.uri).sort(), ['agent-logs/codex.jsonl', 'agent-logs/nested/blocked.jsonl'], 'an artifact per log, at its repository path');
    assert.equal(sarif.runs[0].automationDetails.id, 'vouch/agent-logs/**/*.jsonl/', 'the category defaults to the log input');

    const upload = codeScanning.uploads.at(-1)!;
    assert.equal(upload.authorization, `Bearer ${TOKEN}`, 'the job token (github-token default) authenticates the upload');
    assert.equal(upload.apiVersion, '2022-11-28');
    assert.equal(upload.body.commit_sha, SHA);
    assert.equal(upload.body.ref, REF);
    assert.equal(upload.body.tool_name, 'Vouch');
    assert.deepEqual(upload.sarif, JSON.parse(written), 'the uploaded SARIF (gzip, base64) is the file written');
    assert.match(r.stdout, /SARIF uploaded to code scanning \(sarif-\d+\)/);
  });

  test('fail-on: never exits 0 with the same outputs; warning fails a warnings-only log; critical lets it pass', async () => {
    const never = await githubFiles();
    const r = await runAction({ log: 'agent-logs/nested/blocked.jsonl', 'fail-on': 'never' }, never);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal((await outputsOf(never)).outcome, 'Blocked');
    const warning = await githubFiles();
    const strict = await runAction({ log: 'other/discard.jsonl', 'fail-on': 'warning' }, warning);
    assert.equal(strict.code, 1, strict.stdout + strict.stderr);
    assert.equal((await outputsOf(warning)).outcome, 'Review');
    const lenient = await runAction({ log: 'other/discard.jsonl' }, await githubFiles());
    assert.equal(lenient.code, 0, 'warnings alone do not fail the default fail-on (critical)');
    const clean = await githubFiles();
    assert.equal((await runAction({ log: './other/clean.jsonl' }, clean)).code, 0);
    assert.deepEqual(await outputsOf(clean), { outcome: 'Clear', 'trust-score': '100', 'report-url': '' });
  });

  test('sarif-category names the upload; sarif-upload false only writes the file (no token, no upload)', async () => {
    const before = codeScanning.uploads.length;
    const files = await githubFiles();
    const r = await runAction({ log: 'other/*.jsonl', sarif: 'other.sarif', 'sarif-category': 'nightly-agents', 'sarif-upload': 'false', 'github-token': '' }, files, { GITHUB_SHA: '' });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(codeScanning.uploads.length, before, 'nothing uploaded');
    const sarif = JSON.parse(await readFile(join(workspace, 'other.sarif'), 'utf8')) as { runs: Array<{ automationDetails: { id: string } }> };
    assert.equal(sarif.runs[0].automationDetails.id, 'vouch/nightly-agents/');
    assert.equal((await outputsOf(files))['sarif-id'], undefined);
  });

  test('every bad input: one ::error annotation saying what to fix, exit 3, no stack trace, no outputs', async () => {
    await mkdir(join(workspace, 'bad', 'a-directory.jsonl'), { recursive: true });
    await symlink('loop-b.jsonl', join(workspace, 'bad', 'loop-a.jsonl')).catch(() => {});
    await symlink('loop-a.jsonl', join(workspace, 'bad', 'loop-b.jsonl')).catch(() => {});
    execFileSync('mkfifo', [join(workspace, 'bad', 'fifo.jsonl')]);
    const cases: Array<[Record<string, string>, RegExp, Record<string, string>?]> = [
      [{ log: '' }, /the `log` input is required/],
      [{ log: 'agent-logs/missing.jsonl' }, /cannot read the log "agent-logs\/missing\.jsonl": no such file/],
      [{ log: 'nothing/**/*.jsonl' }, /no file matches "nothing\/\*\*\/\*\.jsonl"/],
      [{ log: 'bad/a-directory.jsonl' }, /is not a file but a directory \(use a glob/],
      [{ log: 'bad/loop-a.jsonl' }, /cannot read the log "bad\/loop-a\.jsonl": .*ELOOP/],
      [{ log: 'bad/fifo.jsonl' }, /the log "bad\/fifo\.jsonl" is not a file/],
      [{ log: 'agent-logs/codex.jsonl', 'fail-on': 'sometimes' }, /fail-on must be critical, warning or never \(got "sometimes"\)/],
      [{ log: 'agent-logs/codex.jsonl', 'api-url': 'https://vouch.example' }, /give both api-url and api-key/],
      [{ log: 'agent-logs/codex.jsonl', 'api-url': 'vouch.example', 'api-key': 'vk_x' }, /api-url must be an http\(s\) URL/],
      [{ log: 'agent-logs/codex.jsonl', agent: 'copilot' }, /agent must be one of claude-code, codex, gemini-cli/],
      [{ log: 'agent-logs/codex.jsonl', sarif: 'x.sarif', 'sarif-upload': 'yes' }, /sarif-upload must be true or false/],
      [{ log: 'agent-logs/codex.jsonl', sarif: 'agent-logs' }, /sarif must name a file, and "agent-logs" is a directory/],
      [{ log: 'agent-logs/codex.jsonl', sarif: 'x.sarif', 'github-token': '' }, /without a token: the github-token input is empty/],
      [{ log: 'agent-logs/codex.jsonl', sarif: 'x.sarif' }, /outside a GitHub Actions job: GITHUB_SHA not set/, { GITHUB_SHA: '' }],
    ];
    for (const [inputs, message, env] of cases) {
      const files = await githubFiles();
      const r = await runAction(inputs, files, env);
      const label = JSON.stringify(inputs);
      assert.equal(r.code, 3, `${label}: ${r.stdout}${r.stderr}`);
      assertNoTrace(r);
      const lines = r.stdout.trim().split('\n');
      assert.equal(lines.length, 1, `${label}: exactly one line, the annotation: ${r.stdout}`);
      assert.match(lines[0], /^::error title=Vouch::/, label);
      assert.match(lines[0], message, label);
      assert.equal(await readFile(files.output, 'utf8'), '', `${label}: no outputs`);
      assert.equal(await readFile(files.summary, 'utf8'), '', `${label}: no summary`);
    }
    await assert.rejects(readFile(join(workspace, 'x.sarif')), 'no SARIF file either');
  });

  test('code scanning refusing the token or failing to process: ::error naming the fix, exit 5, outputs, summary and SARIF file still there', async () => {
    try {
      codeScanning.mode = 'forbid';
      const forbidden = await githubFiles();
      const r = await runAction({ log: 'other/clean.jsonl', sarif: 'clean.sarif' }, forbidden);
      assert.equal(r.code, 5, r.stdout + r.stderr);
      assertNoTrace(r);
      assert.match(r.stdout, /^::error title=Vouch::code scanning refused the upload \(HTTP 403: Resource not accessible by integration\); give the job `permissions: security-events: write`/m);
      assert.equal((await outputsOf(forbidden)).outcome, 'Clear');
      assert.match(await readFile(forbidden.summary, 'utf8'), /Vouch: Clear/);
      await readFile(join(workspace, 'clean.sarif'));
      const gated = await runAction({ log: 'agent-logs/nested/blocked.jsonl', sarif: 'blocked.sarif' }, await githubFiles());
      assert.equal(gated.code, 2, 'a failed upload does not hide the verdict: the gate exit code stays');
      assert.match(gated.stdout, /^::error title=Vouch::code scanning refused/m);
      codeScanning.mode = 'fail';
      const failed = await runAction({ log: 'other/clean.jsonl', sarif: 'clean.sarif' }, await githubFiles());
      assert.equal(failed.code, 5, failed.stdout + failed.stderr);
      assert.match(failed.stdout, /^::error title=Vouch::code scanning could not process the SARIF: locationFromSarifResult: expected artifact location$/m);
    } finally {
      codeScanning.mode = 'accept';
    }
  });

  test('a Vouch server that cannot be reached: ::error, exit 5, no stack trace', async () => {
    const closed = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const port = (s.address() as { port: number }).port;
        s.close(() => resolve(port));
      });
    });
    const files = await githubFiles();
    const r = await runAction({ log: 'other/clean.jsonl', 'api-url': `http://127.0.0.1:${closed}`, 'api-key': 'vk_test' }, files, { VOUCH_UPLOAD_RETRY_SECONDS: '0' });
    assert.equal(r.code, 5, r.stdout + r.stderr);
    assertNoTrace(r);
    assert.match(r.stdout, /^::error title=Vouch::cannot reach http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED; gave up after 1 try in \d+ s \(retrying for 0 s: --retry-for, VOUCH_UPLOAD_RETRY_SECONDS\)$/m);
  });

  test('file names and log text cannot start workflow commands of their own', async () => {
    const dir = join(workspace, 'evil', '::warning::x');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'run\n::error title=pwned::owned.jsonl'), destructiveLog('rm -rf ~/ #\n::error::pwned'));
    const files = await githubFiles();
    const r = await runAction({ log: 'evil/**/*.jsonl', sarif: 'evil.sarif', 'sarif-upload': 'false' }, files);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    const commands = r.stdout.split('\n').filter((l) => l.startsWith('::'));
    assert.deepEqual(commands, [], `no line of output is a workflow command: ${r.stdout}`);
    const sarif = JSON.parse(await readFile(join(workspace, 'evil.sarif'), 'utf8')) as { runs: Array<{ artifacts: Array<{ location: { uri: string } }> }> };
    assert.equal(sarifSchemaErrors(sarif), null);
    assert.equal(sarif.runs[0].artifacts[0].location.uri, 'evil/%3A%3Awarning%3A%3Ax/run%0A%3A%3Aerror%20title%3Dpwned%3A%3Aowned.jsonl', 'percent-encoded, a valid URI reference');
  });
});

describe('the action with a Vouch server', () => {
  let t: TestApp;
  let base: string;
  before(async () => {
    t = await buildTestApp();
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(() => t.close());

  test('api-url and api-key: the logs are uploaded with repo and branch, analysed by the server, report-url points at the report, the summary links it', async () => {
    const alice = await t.account();
    const files = await githubFiles();
    const run = runAction({ log: 'agent-logs/nested/blocked.jsonl', 'api-url': `${base}/`, 'api-key': alice.apiKey, agent: 'claude-code' }, files);
    // Play the worker while the action waits for the report.
    let done: Run | undefined;
    void run.then((x) => (done = x));
    while (!done) {
      await t.analyzeAll(inProcessAnalyzer());
      await new Promise((r) => setTimeout(r, 50));
    }
    const r = done;
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assertNoTrace(r);
    const outputs = await outputsOf(files);
    assert.equal(outputs.outcome, 'Blocked');
    assert.match(outputs['report-url'], /\/r\/ses_[0-9A-Za-z]+$/);
    assert.ok((await readFile(files.summary, 'utf8')).includes(outputs['report-url']), 'the summary links the report');
    const id = /\/r\/(ses_[0-9A-Za-z]+)$/.exec(outputs['report-url'])![1];
    const session = (await t.app.inject({ url: `/v1/sessions/${id}`, headers: { authorization: `Bearer ${alice.apiKey}` } })).json() as { repo: string; branch: string; filename: string };
    assert.deepEqual([session.repo, session.branch, session.filename], ['acme/api', 'feature/agent-cleanup', 'blocked.jsonl']);
  });
});

describe('vouch github-action (the installed package)', () => {
  test('runs the same code as the bundle: same outputs and exit code', async () => {
    const files = await githubFiles();
    const r = await runAction({ log: 'agent-logs/nested/blocked.jsonl', 'fail-on': 'critical' }, files, {}, [BIN, 'github-action']);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.equal((await outputsOf(files)).outcome, 'Blocked');
    const bad = await runAction({ log: 'agent-logs/missing.jsonl' }, await githubFiles(), {}, [BIN, 'github-action']);
    assert.equal(bad.code, 3);
    assert.match(bad.stdout, /^::error title=Vouch::cannot read the log/);
  });
});
