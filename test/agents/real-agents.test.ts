// The real agent CLIs, as a user runs them: Claude Code, Codex CLI and Gemini CLI at the versions
// pinned in scripts/agents.mjs (installed into a cache outside the repository by that script),
// each run offline against a local stand-in of its model API (model-stand-in.ts: one shell
// command, one file write, then done) in a git repository, on a temporary HOME where
// `vouch hooks install` put the hook, with a running Vouch. The hook must fire, the session's
// report must appear with the right agent, repo and branch, and Vouch must have read every line
// of the fresh log (no skipped lines, no coverage finding about the format): so an agent release
// that changes its hooks or its log format fails here first.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildTestApp, type TestAccount, type TestApp } from '../helpers/app.ts';
import { inProcessAnalyzer } from '../../src/adapters/analysis-pool/index.ts';
import { codexHookHash, codexHookKey } from '../../src/cli/hooks/codex-trust.ts';
import { startStandIn, type Script, type StandIn } from './model-stand-in.ts';
// @ts-expect-error: a plain .mjs script without types
import { AGENTS, installAgent } from '../../scripts/agents.mjs';

const BIN = fileURLToPath(new URL('../../bin/vouch.mjs', import.meta.url));
const BRANCH = 'feature/real-agents';
const REPO = 'acme/agents-demo';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(cmd: string, args: string[], o: { env: NodeJS.ProcessEnv; cwd: string; stdin?: string }): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { env: o.env, cwd: o.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(o.stdin ?? '');
  });
}

const git = (cwd: string, args: string[]) => new Promise<void>((resolve, reject) => execFile('git', ['-C', cwd, ...args], (e) => (e ? reject(e) : resolve())));

async function filesUnder(dir: string): Promise<string[]> {
  const names = await readdir(dir, { recursive: true }).catch(() => [] as string[]);
  return names.map((n) => join(dir, String(n)));
}

interface Setup {
  home: string;
  project: string;
  env: NodeJS.ProcessEnv;
  standIn: StandIn;
  script: Script;
}

describe('the real agent CLIs fire the hook, and Vouch reads every line of their fresh logs', () => {
  let t: TestApp;
  let alice: TestAccount;
  let base: string;

  before(async () => {
    t = await buildTestApp();
    alice = await t.account();
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(() => t.close());

  /** A temporary HOME with `vouch` on PATH (as a global install puts it), a git repo, a stand-in. */
  async function setup(agent: string): Promise<Setup> {
    const home = await mkdtemp(join(tmpdir(), `vouch-agents-${agent}-`));
    const project = join(home, 'src', 'agents-demo');
    await mkdir(project, { recursive: true });
    await git(project, ['init', '-q', '-b', BRANCH]);
    await git(project, ['remote', 'add', 'origin', `git@github.com:${REPO}.git`]);
    await writeFile(join(project, 'README.md'), '# demo\n');
    const shims = join(home, 'bin');
    await mkdir(shims, { recursive: true });
    await writeFile(join(shims, 'vouch'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
    await chmod(join(shims, 'vouch'), 0o755);
    const script: Script = { dir: project, command: 'ls -la', file: 'hello.txt', content: 'hello from the agent\n', done: 'Done: listed the folder and wrote hello.txt.' };
    const standIn = await startStandIn(script);
    const env: NodeJS.ProcessEnv = {
      PATH: `${shims}:${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`,
      HOME: home,
      USER: 'vouch-test',
      LANG: 'C.UTF-8',
      TERM: 'dumb',
      NO_COLOR: '1',
      CI: '1',
      VOUCH_API_URL: base,
      VOUCH_API_KEY: alice.apiKey,
      VOUCH_HOOK_SETTLE_MS: '0',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_AUTHOR_NAME: 'Vouch Test',
      GIT_AUTHOR_EMAIL: 'test@vouch.test',
      GIT_COMMITTER_NAME: 'Vouch Test',
      GIT_COMMITTER_EMAIL: 'test@vouch.test',
    };
    return { home, project, env, standIn, script };
  }

  async function vouch(s: Setup, args: string[]): Promise<Run> {
    return run(process.execPath, [BIN, ...args], { env: s.env, cwd: s.project });
  }

  /** Waits for the hook's upload of this transcript, analyses it, returns the report. */
  async function reportFor(s: Setup, transcriptName: string, diag: () => string) {
    let hit: { id: string; repo: string | null; branch: string | null } | undefined;
    for (let i = 0; i < 600 && !hit; i++) {
      const res = await t.app.inject({ method: 'GET', url: '/v1/sessions?limit=100', headers: { authorization: `Bearer ${alice.apiKey}` } });
      hit = (res.json() as { data: Array<{ id: string; filename: string; repo: string | null; branch: string | null }> }).data.find((x) => x.filename === transcriptName);
      if (!hit) await new Promise((r) => setTimeout(r, 100));
    }
    if (!hit) {
      const log = await readFile(join(s.home, '.vouch', 'hooks', 'hook.log'), 'utf8').catch(() => '(no hook log: the hook never ran)');
      assert.fail(`${transcriptName} was never uploaded.\nhook log:\n${log}\n${diag()}`);
    }
    await t.analyzeAll(inProcessAnalyzer());
    const res = await t.app.inject({ method: 'GET', url: `/v1/sessions/${hit.id}/report`, headers: { authorization: `Bearer ${alice.apiKey}` } });
    assert.equal(res.statusCode, 200);
    return { session: hit, report: res.json() as { agent: string; repo: string | null; branch: string | null; findings: Array<{ rule: string; detail?: string }>; stats: { lines: number; skipped_lines: number; commands: number; files_written: number } } };
  }

  /** The report covers the whole fresh log: every line read, nothing skipped, no format coverage finding. */
  async function assertFullyRead(report: Awaited<ReturnType<typeof reportFor>>['report'], transcript: string, agent: string) {
    const lines = (await readFile(transcript, 'utf8')).split('\n').filter((l) => l.trim() !== '').length;
    assert.equal(report.agent, agent);
    assert.equal(report.repo, REPO);
    assert.equal(report.branch, BRANCH);
    const skipped = report.findings.filter((f) => f.rule === 'coverage/skipped-lines');
    assert.equal(report.stats.skipped_lines, 0, `skipped lines in ${transcript}: ${JSON.stringify(skipped)}`);
    assert.equal(report.stats.lines, lines, 'every line of the fresh log was read');
    const coverage = report.findings.filter((f) => /^coverage\/(skipped-lines|not-a-session-log|low-confidence|invalid-utf8|oversize-lines|truncated)$/.test(f.rule));
    assert.deepEqual(coverage, [], 'no coverage finding about the log format');
    assert.ok(report.stats.commands >= 1, 'the scripted shell command is in the report');
  }

  /** The hook never ran: it queues before the agent exits, so an empty hooks folder after exit is proof. */
  async function assertHookDidNotRun(s: Setup, diag: () => string) {
    const queued = await readdir(join(s.home, '.vouch', 'hooks', 'queue')).catch(() => [] as string[]);
    assert.deepEqual(queued.filter((n) => n.endsWith('.json')), [], `the hook ran although status said it would not\n${diag()}`);
  }

  const cleanup = async (s: Setup) => {
    await s.standIn.close();
    // VOUCH_AGENTS_KEEP=1 keeps the temporary HOME (logs, configs) to look at a failure.
    if (process.env.VOUCH_AGENTS_KEEP) console.error(`kept ${s.home}`);
    else await rm(s.home, { recursive: true, force: true });
  };

  test(`claude-code ${AGENTS['claude-code'].version}: SessionEnd hook uploads the session`, async () => {
    const claude = installAgent('claude-code');
    const s = await setup('claude');
    try {
      const installed = await vouch(s, ['hooks', 'install', 'claude-code']);
      assert.equal(installed.code, 0, installed.stderr);
      assert.equal(installed.stderr, '', 'vouch is on PATH: no absolute-path warning');
      const env = { ...s.env, ANTHROPIC_BASE_URL: s.standIn.url, ANTHROPIC_API_KEY: 'sk-ant-stand-in', DISABLE_AUTOUPDATER: '1', DISABLE_TELEMETRY: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_ERROR_REPORTING: '1' };
      const args = ['-p', 'List the folder, then write hello.txt.', '--allowedTools', 'Bash,Write', '--model', 'claude-sonnet-4-5'];
      // First with every hook disabled by the project: status must say so, and Claude must not run it.
      await mkdir(join(s.project, '.claude'), { recursive: true });
      await writeFile(join(s.project, '.claude', 'settings.json'), '{ "disableAllHooks": true }\n');
      const disabled = JSON.parse((await vouch(s, ['hooks', 'status', 'claude-code', '--json', '--offline'])).stdout) as { hooks: Array<{ scope: string; will_run: boolean; why_not: string | null }> };
      assert.match(disabled.hooks.find((h) => h.scope === 'user')!.why_not ?? '', /disableAllHooks/);
      const off = await run(claude, args, { env, cwd: s.project });
      assert.equal(off.code, 0, off.stderr);
      await assertHookDidNotRun(s, () => `claude: ${off.stdout}\n${off.stderr}`);
      await rm(join(s.project, '.claude'), { recursive: true });
      await rm(join(s.project, 'hello.txt'), { force: true });
      await rm(join(s.home, '.claude', 'projects'), { recursive: true, force: true });
      const r = await run(claude, args, { env, cwd: s.project });
      const diag = () => `claude exit ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}\nrequests: ${s.standIn.requests.map((q) => q.path).join(', ')}`;
      assert.equal(r.code, 0, diag());
      assert.equal(await readFile(join(s.project, 'hello.txt'), 'utf8'), s.script.content, diag());
      const transcript = (await filesUnder(join(s.home, '.claude', 'projects'))).find((f) => f.endsWith('.jsonl') && !f.includes('subagents'));
      assert.ok(transcript, diag());
      const { report } = await reportFor(s, transcript.split('/').pop()!, diag);
      await assertFullyRead(report, transcript, 'claude-code');
    } finally {
      await cleanup(s);
    }
  });

  test(`codex ${AGENTS.codex.version}: SessionEnd hook, trusted with the hash Vouch computes, uploads the session`, async () => {
    const codex = installAgent('codex');
    const s = await setup('codex');
    try {
      const codexHome = join(s.home, '.codex');
      await mkdir(codexHome, { recursive: true });
      const config = [
        'model = "gpt-5.5"',
        'model_provider = "stand-in"',
        'approval_policy = "never"',
        'sandbox_mode = "danger-full-access"',
        '',
        '[model_providers.stand-in]',
        'name = "Stand-in"',
        `base_url = "${s.standIn.url}/v1"`,
        'env_key = "STAND_IN_API_KEY"',
        'wire_api = "responses"',
        '',
        `[projects."${s.project}"]`,
        'trust_level = "trusted"',
        '',
      ].join('\n');
      await writeFile(join(codexHome, 'config.toml'), config);
      const env = { ...s.env, CODEX_HOME: codexHome, STAND_IN_API_KEY: 'stand-in' };
      const installed = await run(process.execPath, [BIN, 'hooks', 'install', 'codex'], { env, cwd: s.project });
      assert.equal(installed.code, 0, installed.stderr);
      assert.match(installed.stdout, /It will not run yet: the hook is not trusted yet/);
      // Untrusted, `codex exec` skips the hook silently, as status says.
      const untrusted = await run(codex, ['exec', '--skip-git-repo-check', 'List the folder, then write hello.txt.'], { env, cwd: s.project });
      assert.equal(untrusted.code, 0, untrusted.stderr.slice(-2000));
      await assertHookDidNotRun(s, () => untrusted.stderr.slice(-2000));
      await rm(join(s.project, 'hello.txt'), { force: true });
      await rm(join(codexHome, 'sessions'), { recursive: true, force: true });
      // Trust it the way Codex's "Trust all" does: the state key and hash Vouch computes must be
      // the ones Codex checks, or the hook below never runs.
      const hooksJson = join(codexHome, 'hooks.json');
      const hook = (JSON.parse(await readFile(hooksJson, 'utf8')) as { hooks: { SessionEnd: Array<{ hooks: Array<{ command: string; timeout: number }> }> } }).hooks.SessionEnd[0].hooks[0];
      await writeFile(join(codexHome, 'config.toml'), `${config}\n[hooks.state."${codexHookKey(hooksJson, 'SessionEnd', 0, 0)}"]\ntrusted_hash = "${codexHookHash('SessionEnd', hook)}"\n`);
      const status = JSON.parse((await run(process.execPath, [BIN, 'hooks', 'status', 'codex', '--json', '--offline'], { env, cwd: s.project })).stdout) as { hooks: Array<{ scope: string; via: string; will_run: boolean; why_not: string | null }> };
      assert.equal(status.hooks.find((h) => h.scope === 'user' && h.via === 'hooks')!.will_run, true, JSON.stringify(status));
      const r = await run(codex, ['exec', '--skip-git-repo-check', 'List the folder, then write hello.txt.'], { env, cwd: s.project });
      const diag = () => `codex exit ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr.slice(-4000)}\nrequests: ${s.standIn.requests.map((q) => q.path).join(', ')}`;
      assert.equal(r.code, 0, diag());
      assert.equal(await readFile(join(s.project, 'hello.txt'), 'utf8'), s.script.content, diag());
      const transcript = (await filesUnder(join(codexHome, 'sessions'))).find((f) => /rollout-.*\.jsonl$/.test(f));
      assert.ok(transcript, diag());
      const { report } = await reportFor(s, transcript.split('/').pop()!, diag);
      await assertFullyRead(report, transcript, 'codex');
    } finally {
      await cleanup(s);
    }
  });

  test(`codex ${AGENTS.codex.version} --via notify: no trust step, and the user's own notify program still runs`, async () => {
    const codex = installAgent('codex');
    const s = await setup('codex-notify');
    try {
      const codexHome = join(s.home, '.codex');
      await mkdir(codexHome, { recursive: true });
      const theirs = join(s.home, 'their-notify.sh');
      const seen = join(s.home, 'their-notify.out');
      await writeFile(theirs, `#!/bin/sh\nprintf '%s' "$1" > "${seen}"\n`);
      await chmod(theirs, 0o755);
      const config = [
        `notify = ["${theirs}"]`,
        'model = "gpt-5.5"',
        'model_provider = "stand-in"',
        'approval_policy = "never"',
        'sandbox_mode = "danger-full-access"',
        '',
        '[model_providers.stand-in]',
        'name = "Stand-in"',
        `base_url = "${s.standIn.url}/v1"`,
        'env_key = "STAND_IN_API_KEY"',
        'wire_api = "responses"',
        '',
        `[projects."${s.project}"]`,
        'trust_level = "trusted"',
        '',
      ].join('\n');
      await writeFile(join(codexHome, 'config.toml'), config);
      const env = { ...s.env, CODEX_HOME: codexHome, STAND_IN_API_KEY: 'stand-in' };
      const installed = await run(process.execPath, [BIN, 'hooks', 'install', 'codex', '--via', 'notify'], { env, cwd: s.project });
      assert.equal(installed.code, 0, installed.stderr);
      assert.match(installed.stdout, /your notify program still runs after Vouch's/);
      const r = await run(codex, ['exec', '--skip-git-repo-check', 'List the folder, then write hello.txt.'], { env, cwd: s.project });
      const diag = () => `codex exit ${r.code}\nstderr: ${r.stderr.slice(-3000)}`;
      assert.equal(r.code, 0, diag());
      const transcript = (await filesUnder(join(codexHome, 'sessions'))).find((f) => /rollout-.*\.jsonl$/.test(f));
      assert.ok(transcript, diag());
      const { report } = await reportFor(s, transcript.split('/').pop()!, diag);
      await assertFullyRead(report, transcript, 'codex');
      // Their program got the same JSON argument (it runs detached, after Vouch queued the session).
      let payload = '';
      for (let i = 0; i < 300 && !payload; i++) {
        payload = await readFile(seen, 'utf8').catch(() => '');
        if (!payload) await new Promise((res) => setTimeout(res, 100));
      }
      assert.equal((JSON.parse(payload) as { type: string }).type, 'agent-turn-complete');
      assert.equal((await run(process.execPath, [BIN, 'hooks', 'uninstall', 'codex'], { env, cwd: s.project })).code, 0);
      assert.equal(await readFile(join(codexHome, 'config.toml'), 'utf8'), config, 'their notify line is back, byte for byte');
    } finally {
      await cleanup(s);
    }
  });

  test(`gemini-cli ${AGENTS['gemini-cli'].version}: SessionEnd hook in a trusted folder uploads the session`, async () => {
    const gemini = installAgent('gemini-cli');
    const s = await setup('gemini');
    try {
      const geminiDir = join(s.home, '.gemini');
      await mkdir(geminiDir, { recursive: true });
      await writeFile(join(geminiDir, 'settings.json'), JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } }, privacy: { usageStatisticsEnabled: false }, general: { disableAutoUpdate: true, disableUpdateNag: true } }, null, 2) + '\n');
      const installed = await vouch(s, ['hooks', 'install', 'gemini-cli']);
      assert.equal(installed.code, 0, installed.stderr);
      assert.match(installed.stdout, /It will not run yet: .* is not a trusted folder/);
      await writeFile(join(geminiDir, 'trustedFolders.json'), JSON.stringify({ [s.project]: 'TRUST_FOLDER' }, null, 2));
      const status = JSON.parse((await vouch(s, ['hooks', 'status', 'gemini-cli', '--json', '--offline'])).stdout) as { hooks: Array<{ scope: string; will_run: boolean }> };
      assert.equal(status.hooks.find((h) => h.scope === 'user')!.will_run, true);
      const env = { ...s.env, GEMINI_API_KEY: 'stand-in', GOOGLE_GEMINI_BASE_URL: s.standIn.url, GEMINI_CLI_NO_RELAUNCH: 'true' };
      const r = await run(gemini, ['-p', 'List the folder, then write hello.txt.', '--yolo', '-m', 'gemini-2.5-flash'], { env, cwd: s.project });
      const diag = () => `gemini exit ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr.slice(-4000)}\nrequests: ${s.standIn.requests.map((q) => q.path).join(', ')}`;
      assert.equal(r.code, 0, diag());
      assert.equal(await readFile(join(s.project, 'hello.txt'), 'utf8'), s.script.content, diag());
      const transcript = (await filesUnder(join(geminiDir, 'tmp'))).find((f) => /\/chats\/.*\.jsonl?$/.test(f));
      assert.ok(transcript, diag());
      const { report } = await reportFor(s, transcript.split('/').pop()!.replace(/\.json$/, '.json.txt'), diag);
      await assertFullyRead(report, transcript, 'gemini-cli');
    } finally {
      await cleanup(s);
    }
  });
});
