// `vouch hooks` as a user and the agents run it: install/uninstall round trips on a temporary
// HOME holding realistic configurations (and malformed ones, which must be left untouched), and
// a simulated session end of each agent — the hook command run with the payload that agent
// sends — which uploads the right file to a running Vouch, where its report appears with the
// repo and branch of the working tree. The failure queue is tested by stopping the server.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildTestApp } from '../helpers/app.ts';
import type { TestAccount, TestApp } from '../helpers/app.ts';
import { CORPUS_DIR, FIXTURES_DIR } from '../helpers/shared.ts';
import { inProcessAnalyzer } from '../../src/adapters/analysis-pool/index.ts';

const BIN = fileURLToPath(new URL('../../bin/vouch.mjs', import.meta.url));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function vouch(args: string[], env: Record<string, string>, stdin?: string, cwd?: string): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, cwd });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
    child.stdin.end(stdin ?? '');
  });
}

function git(cwd: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => execFile('git', ['-C', cwd, ...args], (e) => (e ? reject(e) : resolve())));
}

const CLAUDE_SETTINGS = {
  $schema: 'https://json.schemastore.org/claude-code-settings.json',
  model: 'opus',
  permissions: { allow: ['Bash(npm run test:*)', 'Read(~/.zshrc)'], deny: ['Read(./.env)', 'Read(./secrets/**)'] },
  env: { CLAUDE_CODE_ENABLE_TELEMETRY: '0' },
  hooks: {
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/check-style.sh' }] }],
    SessionEnd: [{ hooks: [{ type: 'command', command: '~/.claude/hooks/archive.sh', timeout: 30 }] }],
  },
  statusLine: { type: 'command', command: '~/.claude/statusline.sh' },
};
const GEMINI_SETTINGS = {
  general: { preferredEditor: 'vim', vimMode: true },
  ui: { theme: 'GitHub' },
  mcpServers: { github: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env: { GITHUB_TOKEN: '$GITHUB_TOKEN' } } },
  hooks: { BeforeTool: [{ matcher: 'run_shell_command', hooks: [{ name: 'audit', type: 'command', command: '~/.gemini/audit.sh', timeout: 5000 }] }] },
};
const CODEX_HOOKS = {
  hooks: { Stop: [{ hooks: [{ type: 'command', command: 'python3 ~/.codex/hooks/notify.py', timeout: 5 }] }] },
};

describe('vouch hooks install / uninstall on existing configurations', () => {
  let home: string;
  let env: Record<string, string>;
  before(async () => {
    home = await mkdtemp(join(tmpdir(), 'vouch-hooks-home-'));
    env = { HOME: home, VOUCH_API_KEY: '', CODEX_HOME: '' };
    delete (env as Record<string, string | undefined>).CODEX_HOME;
  });
  after(() => rm(home, { recursive: true, force: true }));

  const cases = [
    { agent: 'claude-code', file: '.claude/settings.json', before: CLAUDE_SETTINGS, event: 'SessionEnd' },
    { agent: 'gemini-cli', file: '.gemini/settings.json', before: GEMINI_SETTINGS, event: 'SessionEnd' },
    { agent: 'codex', file: '.codex/hooks.json', before: CODEX_HOOKS, event: 'SessionEnd' },
  ] as const;

  for (const c of cases) {
    test(`${c.agent}: install adds one hook and keeps the rest, a second install changes nothing, uninstall restores the file`, async () => {
      const path = join(home, c.file);
      await mkdir(join(path, '..'), { recursive: true });
      const original = JSON.stringify(c.before, null, 2) + '\n';
      await writeFile(path, original);

      const installed = await vouch(['hooks', 'install', c.agent], env);
      assert.equal(installed.code, 0, installed.stderr);
      assert.match(installed.stdout, /^Installed: /);
      const after1 = JSON.parse(await readFile(path, 'utf8')) as Record<string, Record<string, Array<{ hooks: Array<{ command: string }> }>>>;
      for (const [key, value] of Object.entries(c.before)) if (key !== 'hooks') assert.deepEqual(after1[key], value, `${key} kept`);
      const ours = after1.hooks[c.event].flatMap((g) => g.hooks).filter((h) => h.command.endsWith(`hooks run ${c.agent}`));
      assert.equal(ours.length, 1);
      assert.equal(await readFile(`${path}.vouch-backup`, 'utf8'), original, 'the original is kept beside it');

      const again = await vouch(['hooks', 'install', c.agent, '--user'], env);
      assert.match(again.stdout, /^Already installed: /);
      assert.deepEqual(JSON.parse(await readFile(path, 'utf8')), after1);

      const status = JSON.parse((await vouch(['hooks', 'status', c.agent, '--json'], env)).stdout) as { hooks: Array<{ kind: string; scope: string; installed: boolean }> };
      assert.deepEqual(status.hooks.map((h) => [h.kind, h.scope, h.installed]), [['upload', 'user', true], ['guard', 'user', false], ['upload', 'project', false], ['guard', 'project', false]]);

      const removed = await vouch(['hooks', 'uninstall', c.agent], env);
      assert.equal(removed.code, 0, removed.stderr);
      assert.match(removed.stdout, /^Removed \(file restored to its original bytes\): /);
      assert.equal(await readFile(path, 'utf8'), original, 'the original bytes are back');
    });
  }

  // The shapes a re-serialising install used to damage (issue 16): each must come back byte for byte.
  const shapes = {
    '4-space': '{\n    "model": "opus",\n    "hooks": {\n        "PreToolUse": []\n    }\n}\n',
    CRLF: '{\r\n  "model": "opus",\r\n  "hooks": {}\r\n}\r\n',
    BOM: '\uFEFF{\n  "model": "opus"\n}\n',
    'big numbers': '{\n  "limit": 12345678901234567890,\n  "ratio": 1.0\n}\n',
    commented: '{\n  // keep my theme\n  "ui": { "theme": "GitHub" }, /* and this */\n  "general": { "vimMode": true }, // trailing\n}\n',
    inline: '{"ui":{"theme":"GitHub"},"hooks":{}}',
  };
  for (const [shape, original] of Object.entries(shapes)) {
    test(`a ${shape} file: install keeps it (plus our entry), uninstall gives back the exact bytes`, async () => {
      const path = join(home, '.gemini', 'settings.json');
      await mkdir(join(path, '..'), { recursive: true });
      await rm(`${path}.vouch-backup`, { force: true });
      await writeFile(path, original);
      const r = await vouch(['hooks', 'install', 'gemini-cli'], env);
      assert.equal(r.code, 0, r.stderr);
      const installed = await readFile(path, 'utf8');
      assert.match(installed, /vouch\.mjs hooks run gemini-cli/);
      assert.equal(await readFile(`${path}.vouch-backup`, 'utf8'), original);
      assert.equal((await vouch(['hooks', 'uninstall', 'gemini-cli'], env)).code, 0);
      assert.equal(await readFile(path, 'utf8'), original);
    });
  }

  test('the first backup is never overwritten: install, uninstall, edit, install again keeps the very first original', async () => {
    const path = join(home, '.claude', 'settings.json');
    await mkdir(join(path, '..'), { recursive: true });
    await rm(`${path}.vouch-backup`, { force: true });
    const first = '{\n  "model": "opus"\n}\n';
    await writeFile(path, first);
    await vouch(['hooks', 'install', 'claude-code'], env);
    await vouch(['hooks', 'uninstall', 'claude-code'], env);
    const edited = '{\n  "model": "sonnet"\n}\n';
    await writeFile(path, edited);
    await vouch(['hooks', 'install', 'claude-code'], env);
    assert.equal(await readFile(`${path}.vouch-backup`, 'utf8'), first);
    await vouch(['hooks', 'uninstall', 'claude-code'], env);
    assert.equal(await readFile(path, 'utf8'), edited, "uninstall gives back the state before this install, the user's edit included");
  });

  test('an edit by the user after install survives uninstall: only our entry goes', async () => {
    const path = join(home, '.claude', 'settings.json');
    await writeFile(path, '{\n  "model": "opus"\n}\n');
    await vouch(['hooks', 'install', 'claude-code'], env);
    await writeFile(path, (await readFile(path, 'utf8')).replace('"opus"', '"sonnet"'));
    await vouch(['hooks', 'uninstall', 'claude-code'], env);
    assert.equal(await readFile(path, 'utf8'), '{\n  "model": "sonnet"\n}\n');
  });

  test('a malformed or non-UTF-8 configuration is refused with a clear message and left byte for byte', async () => {
    const path = join(home, '.gemini', 'settings.json');
    await mkdir(join(path, '..'), { recursive: true });
    for (const broken of ['{ "ui": { "theme": "GitHub" }, ', '{ "ui": { "theme": "GitHub" } ']) {
      await writeFile(path, broken);
      const r = await vouch(['hooks', 'install', 'gemini-cli'], env);
      assert.equal(r.code, 4);
      assert.match(r.stderr, /settings\.json is not valid JSON.*nothing was changed/s);
      assert.equal(await readFile(path, 'utf8'), broken);
    }
    const latin1 = Buffer.from('{"ui": {"theme": "Caf\xe9"}}', 'latin1');
    await writeFile(path, latin1);
    const r = await vouch(['hooks', 'install', 'gemini-cli'], env);
    assert.equal(r.code, 4);
    assert.match(r.stderr, /not UTF-8 text.*Nothing was changed/s);
    assert.ok((await readFile(path)).equals(latin1));
  });

  test('install into a home without configuration creates the file with only the hook; uninstall removes it and its folder again', async () => {
    const fresh = await mkdtemp(join(tmpdir(), 'vouch-hooks-fresh-'));
    try {
      const r = await vouch(['hooks', 'install', 'claude-code'], { HOME: fresh, VOUCH_API_KEY: '' });
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /no VOUCH_API_KEY/);
      const settings = JSON.parse(await readFile(join(fresh, '.claude', 'settings.json'), 'utf8')) as { hooks: { SessionEnd: unknown[] } };
      assert.deepEqual(Object.keys(settings), ['hooks']);
      assert.equal(settings.hooks.SessionEnd.length, 1);
      const removed = await vouch(['hooks', 'uninstall', 'claude-code'], { HOME: fresh, VOUCH_API_KEY: '' });
      assert.equal(removed.code, 0);
      assert.match(removed.stdout, /^Removed \(file deleted: Vouch had created it\): claude-code hook in /, 'says the file was deleted, not "restored"');
      assert.deepEqual(await readdir(fresh).then((n) => n.filter((x) => x !== '.vouch')), [], 'no settings.json, no backup, no .claude folder left');
    } finally {
      await rm(fresh, { recursive: true, force: true });
    }
  });
});

describe('a session end of each agent uploads its log to a running Vouch', () => {
  let t: TestApp;
  let alice: TestAccount;
  let base: string;
  let home: string;
  let project: string;
  let env: Record<string, string>;

  before(async () => {
    t = await buildTestApp();
    alice = await t.account();
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    home = await mkdtemp(join(tmpdir(), 'vouch-hooks-run-'));
    project = join(home, 'src', 'hooked');
    await mkdir(project, { recursive: true });
    await git(project, ['init', '-q', '-b', 'feature/hooks']);
    await git(project, ['remote', 'add', 'origin', 'git@github.com:acme/hooked.git']);
    env = { HOME: home, VOUCH_API_URL: base, VOUCH_API_KEY: alice.apiKey, VOUCH_HOOK_SETTLE_MS: '0' };
  });
  after(async () => {
    await t.close();
    await rm(home, { recursive: true, force: true });
  });

  async function sessions(): Promise<Array<{ id: string; repo: string | null; branch: string | null; filename: string; agent: string | null; status: string }>> {
    const res = await t.app.inject({ method: 'GET', url: '/v1/sessions?limit=100', headers: { authorization: `Bearer ${alice.apiKey}` } });
    return (res.json() as { data: [] }).data;
  }

  /** Waits for the detached uploader: until a session with this file name exists (or it gave up). */
  async function uploaded(filename: string) {
    for (let i = 0; i < 600; i++) {
      const hit = (await sessions()).find((s) => s.filename === filename);
      if (hit) return hit;
      await new Promise((r) => setTimeout(r, 100));
    }
    const log = await readFile(join(home, '.vouch', 'hooks', 'hook.log'), 'utf8').catch(() => '(no hook log)');
    assert.fail(`${filename} was never uploaded; hook log:\n${log}`);
  }

  const runs = [
    { agent: 'claude-code', fixture: 'claude-code.jsonl', name: 'f3e1c2d4-claude.jsonl', payload: (p: string) => ({ session_id: 'f3e1c2d4', transcript_path: p, cwd: project, hook_event_name: 'SessionEnd', reason: 'prompt_input_exit' }) },
    { agent: 'gemini-cli', fixture: 'gemini-cli.jsonl', name: 'session-2026-11-26T04-12-gem.jsonl', payload: (p: string) => ({ session_id: 'gem-0001', transcript_path: p, cwd: project, hook_event_name: 'SessionEnd', timestamp: new Date().toISOString(), reason: 'exit' }) },
    { agent: 'codex', fixture: 'codex.jsonl', name: 'rollout-2026-11-26T04-12-33-0199aa00-1111-7222-8333-944445555666.jsonl', payload: (p: string) => ({ session_id: '0199aa00-1111-7222-8333-944445555666', transcript_path: p, cwd: project, hook_event_name: 'Stop', model: 'gpt-5-codex', turn_id: 't1' }) },
  ] as const;

  for (const r of runs) {
    test(`${r.agent}: the hook returns at once with no output, and the log arrives with repo and branch, and is analysed`, async () => {
      const transcript = join(home, r.name);
      await copyFile(join(FIXTURES_DIR, r.fixture), transcript);
      const run = await vouch(['hooks', 'run', r.agent], env, JSON.stringify(r.payload(transcript)));
      assert.equal(run.code, 0);
      assert.equal(run.stdout, '', 'nothing on stdout: Gemini reads it as JSON');
      assert.equal(run.stderr, '');
      const session = await uploaded(r.name);
      assert.equal(session.repo, 'acme/hooked');
      assert.equal(session.branch, 'feature/hooks');
      await t.analyzeAll(inProcessAnalyzer());
      const report = await t.app.inject({ method: 'GET', url: `/v1/sessions/${session.id}/report`, headers: { authorization: `Bearer ${alice.apiKey}` } });
      assert.equal(report.statusCode, 200);
      assert.equal((report.json() as { agent: string }).agent, r.agent);
    });
  }

  test("codex's notify payload (thread id, no path) finds the rollout under ~/.codex/sessions", async () => {
    const thread = '0199bb00-2222-7333-8444-955556666777';
    const day = join(home, '.codex', 'sessions', '2026', '11', '26');
    await mkdir(day, { recursive: true });
    const name = `rollout-2026-11-26T05-00-00-${thread}.jsonl`;
    await copyFile(join(FIXTURES_DIR, 'codex.jsonl'), join(day, name));
    const notify = JSON.stringify({ type: 'agent-turn-complete', 'thread-id': thread, 'turn-id': 't9', cwd: project, 'input-messages': ['hi'], 'last-assistant-message': 'done' });
    const run = await vouch(['hooks', 'run', 'codex', notify], env);
    assert.equal(run.code, 0);
    const session = await uploaded(name);
    assert.equal(session.repo, 'acme/hooked');
  });

  test('with the server down the upload is queued, shown by status, and sent at the next session end', async () => {
    const downEnv = { ...env, VOUCH_API_URL: 'http://127.0.0.1:9', VOUCH_UPLOAD_RETRY_SECONDS: '0' }; // discard port: nothing listens
    const first = join(home, 'queued-first.jsonl');
    await copyFile(join(FIXTURES_DIR, 'claude-code.jsonl'), first);
    const payload = JSON.stringify({ session_id: 'queued-1', transcript_path: first, cwd: project });
    await vouch(['hooks', 'run', 'claude-code'], downEnv, payload);
    // The uploader started by the hook is detached: wait until it has recorded the failure.
    type Status = { queue: Array<{ transcript: string; attempts: number; last_error: string }> };
    let status: Status = { queue: [] };
    for (let i = 0; i < 300; i++) {
      status = JSON.parse((await vouch(['hooks', 'status', '--json'], downEnv)).stdout) as Status;
      if (status.queue.some((q) => q.transcript === first && q.attempts >= 1)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const entry = status.queue.find((q) => q.transcript === first);
    assert.ok(entry, 'the failed upload is waiting');
    assert.ok(entry.attempts >= 1);
    assert.match(entry.last_error, /cannot reach/);
    assert.doesNotMatch(JSON.stringify(status), new RegExp(alice.apiKey), 'status never prints the key');

    const second = join(home, 'queued-second.jsonl');
    await copyFile(join(FIXTURES_DIR, 'claude-code.jsonl'), second);
    await vouch(['hooks', 'run', 'claude-code'], env, JSON.stringify({ session_id: 'queued-2', transcript_path: second, cwd: project }));
    await uploaded('queued-second.jsonl');
    await uploaded('queued-first.jsonl');
    const after = JSON.parse((await vouch(['hooks', 'status', '--json'], env)).stdout) as { queue: unknown[] };
    for (let i = 0; i < 100 && after.queue.length > 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
      after.queue = (JSON.parse((await vouch(['hooks', 'status', '--json'], env)).stdout) as { queue: unknown[] }).queue;
    }
    assert.deepEqual(after.queue, []);
  });

  test('an unusable payload never fails the agent: exit 0, nothing printed, the reason in the hook log', async () => {
    const run = await vouch(['hooks', 'run', 'claude-code'], env, '{"transcript_path": "/nonexistent/x.jsonl"}');
    assert.equal(run.code, 0);
    assert.equal(run.stdout + run.stderr, '');
    const log = await readFile(join(home, '.vouch', 'hooks', 'hook.log'), 'utf8');
    assert.match(log, /claude-code hook: the transcript \/nonexistent\/x\.jsonl is not a readable file/);
  });
});

describe('vouch hooks status says whether each installed hook will run, and why not', () => {
  let home: string;
  let project: string;
  let env: Record<string, string>;
  type Status = { hooks: Array<{ agent: string; scope: string; via: string; installed: boolean; will_run: boolean; why_not: string | null; todo: string | null }>; api: { reachable: boolean; key_valid: boolean | null; problem: string | null } | null };
  const status = async (agent: string, extra: Record<string, string> = {}) => JSON.parse((await vouch(['hooks', 'status', agent, '--json', ...(extra.VOUCH_API_KEY ? [] : ['--offline'])], { ...env, ...extra }, undefined, project)).stdout) as Status;
  const user = (s: Status) => s.hooks.find((h) => h.scope === 'user' && h.via === 'hooks')!;

  before(async () => {
    home = await mkdtemp(join(tmpdir(), 'vouch-hooks-status-'));
    project = join(home, 'src', 'app');
    await mkdir(project, { recursive: true });
    await git(project, ['init', '-q', '-b', 'main']);
    env = { HOME: home, VOUCH_API_KEY: '', VOUCH_HOOKS_DIR: join(home, '.vouch', 'hooks') };
  });
  after(() => rm(home, { recursive: true, force: true }));

  test('not installed is "not installed", never "will run"', async () => {
    const s = user(await status('claude-code'));
    assert.equal(s.installed, false);
    assert.equal(s.will_run, false);
  });

  test('claude-code: disableAllHooks in the project settings means installed but will not run', async () => {
    assert.equal((await vouch(['hooks', 'install', 'claude-code'], env, undefined, project)).code, 0);
    assert.equal(user(await status('claude-code')).will_run, true);
    await mkdir(join(project, '.claude'), { recursive: true });
    await writeFile(join(project, '.claude', 'settings.json'), '{ "disableAllHooks": true }\n');
    const s = user(await status('claude-code'));
    assert.equal(s.installed, true);
    assert.equal(s.will_run, false);
    assert.match(s.why_not!, /"disableAllHooks": true in .*\.claude\/settings\.json/);
    const text = (await vouch(['hooks', 'status', 'claude-code', '--offline'], env, undefined, project)).stdout;
    assert.match(text, /installed but will not run: hooks are disabled/);
  });

  test('gemini-cli: an untrusted folder (folder trust is on by default) means will not run; trusting it fixes that', async () => {
    const r = await vouch(['hooks', 'install', 'gemini-cli'], env, undefined, project);
    assert.match(r.stdout, /It will not run yet: .* is not a trusted folder/);
    assert.match(user(await status('gemini-cli')).why_not!, /not a trusted folder/);
    await writeFile(join(home, '.gemini', 'trustedFolders.json'), JSON.stringify({ [project]: 'TRUST_FOLDER' }));
    assert.equal(user(await status('gemini-cli')).will_run, true);
    await writeFile(join(home, '.gemini', 'trustedFolders.json'), JSON.stringify({ [home]: 'TRUST_FOLDER', [project]: 'DO_NOT_TRUST' }));
    assert.match(user(await status('gemini-cli')).why_not!, /DO_NOT_TRUST/);
  });

  test('codex: untrusted until config.toml holds the hash Codex computes; a changed command is no longer trusted', async () => {
    const r = await vouch(['hooks', 'install', 'codex'], env, undefined, project);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /It will not run yet: the hook is not trusted yet\.\nTo do: .*Trust all and continue.*--dangerously-bypass-hook-trust/);
    const hooksJson = join(home, '.codex', 'hooks.json');
    const command = (JSON.parse(await readFile(hooksJson, 'utf8')) as { hooks: { SessionEnd: Array<{ hooks: Array<{ command: string }> }> } }).hooks.SessionEnd[0].hooks[0].command;
    // What Codex writes when the user chooses "Trust all": sha256 of the sorted, compact identity.
    const identity = JSON.stringify({ async: false, command, timeout: 3, type: 'command' });
    const hash = 'sha256:' + createHash('sha256').update(`{"event_name":"session_end","hooks":[${identity}]}`).digest('hex');
    const config = `model = "gpt-5-codex"\n\n[hooks.state."${hooksJson}:session_end:0:0"]\ntrusted_hash = "${hash}"\n`;
    await writeFile(join(home, '.codex', 'config.toml'), config);
    const trusted = user(await status('codex'));
    assert.equal(trusted.will_run, true, JSON.stringify(trusted));
    // The command changes (e.g. Vouch now on PATH): Codex no longer trusts it.
    await writeFile(join(home, '.codex', 'config.toml'), config.replace(hash, 'sha256:' + '0'.repeat(64)));
    const changed = user(await status('codex'));
    assert.equal(changed.will_run, false);
    assert.match(changed.why_not!, /no longer trusted/);
  });

  test("codex: an older Vouch's per-turn Stop entry moves to SessionEnd on install; the user's own Stop hook stays", async () => {
    const file = join(home, '.codex', 'hooks.json');
    const old = JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'python3 ~/.codex/notify.py', timeout: 5 }] }, { hooks: [{ type: 'command', command: '/usr/bin/node /opt/vouch/bin/vouch.mjs hooks run codex', timeout: 10 }] }] } }, null, 2) + '\n';
    await writeFile(file, old);
    assert.equal((await vouch(['hooks', 'install', 'codex'], env, undefined, project)).code, 0);
    const hooks = (JSON.parse(await readFile(file, 'utf8')) as { hooks: Record<string, Array<{ hooks: Array<{ command: string; timeout: number }> }>> }).hooks;
    assert.deepEqual(hooks.Stop.flatMap((g) => g.hooks.map((h) => h.command)), ['python3 ~/.codex/notify.py']);
    assert.equal(hooks.SessionEnd.length, 1);
    assert.equal(hooks.SessionEnd[0].hooks[0].timeout, 3);
    assert.match(hooks.SessionEnd[0].hooks[0].command, /hooks run codex$/);
  });

  test('codex --via notify chains to an existing notify program and gives it back on uninstall', async () => {
    const file = join(home, '.codex', 'config.toml');
    const original = '# mine\nnotify = ["notify-send", "Codex"]\nmodel = "o3"\n\n[tui]\nnotifications = true\n';
    await writeFile(file, original);
    const r = await vouch(['hooks', 'install', 'codex', '--via', 'notify'], env, undefined, project);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /your notify program still runs after Vouch's: notify-send Codex/);
    const text = await readFile(file, 'utf8');
    assert.match(text, /^# mine\nnotify = \[".*", "hooks", "run", "codex", "--then", "\[\\"notify-send\\",\\"Codex\\"\]"\]\nmodel = "o3"\n\n\[tui\]\nnotifications = true\n$/);
    const s = await status('codex');
    assert.ok(s.hooks.some((h) => h.via === 'notify' && h.installed && h.will_run));
    assert.equal((await vouch(['hooks', 'uninstall', 'codex', '--via', 'notify'], env, undefined, project)).code, 0);
    assert.equal(await readFile(file, 'utf8'), original);
  });

  test('server: an unreachable server and a refused key are each reported', async () => {
    const down = await status('claude-code', { VOUCH_API_KEY: 'vk_live_abcdefghijklmnop', VOUCH_API_URL: 'http://127.0.0.1:9' });
    assert.equal(down.api!.reachable, false);
    assert.match(down.api!.problem!, /cannot reach http:\/\/127\.0\.0\.1:9/);
    const t = await buildTestApp();
    try {
      const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
      const refused = await status('claude-code', { VOUCH_API_KEY: 'vk_live_abcdefghijklmnop', VOUCH_API_URL: base });
      assert.equal(refused.api!.reachable, true);
      assert.equal(refused.api!.key_valid, false);
      const account = await t.account();
      const ok = await status('claude-code', { VOUCH_API_KEY: account.apiKey, VOUCH_API_URL: base });
      assert.equal(ok.api!.key_valid, true);
    } finally {
      await t.close();
    }
  });
});

describe('portable hook commands, vanished logs, Claude subagent transcripts', () => {
  let t: TestApp;
  let alice: TestAccount;
  let base: string;
  let home: string;
  let project: string;
  let env: Record<string, string>;

  before(async () => {
    t = await buildTestApp();
    alice = await t.account();
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    home = await mkdtemp(join(tmpdir(), 'vouch-hooks-portable-'));
    project = join(home, 'src', 'team-app');
    await mkdir(project, { recursive: true });
    await git(project, ['init', '-q', '-b', 'main']);
    await git(project, ['remote', 'add', 'origin', 'https://github.com/acme/team-app.git']);
    env = { HOME: home, VOUCH_API_URL: base, VOUCH_API_KEY: alice.apiKey, VOUCH_HOOK_SETTLE_MS: '0' };
  });
  after(async () => {
    await t.close();
    await rm(home, { recursive: true, force: true });
  });

  test('--project writes `npx --no-install vouch` and nothing machine-specific (no node path, no checkout path, no home)', async () => {
    for (const [agent, file] of [['codex', '.codex/hooks.json'], ['gemini-cli', '.gemini/settings.json'], ['claude-code', '.claude/settings.local.json']] as const) {
      const r = await vouch(['hooks', 'install', agent, '--project'], env, undefined, project);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stderr, '', 'no absolute-path warning');
      const text = await readFile(join(project, file), 'utf8');
      assert.match(text, new RegExp(`"command": "npx --no-install vouch hooks run ${agent}"`));
      assert.ok(!text.includes(process.execPath) && !text.includes(BIN) && !text.includes(home), text);
      assert.deepEqual((await readdir(join(project, file, '..'))).filter((n) => n.includes('vouch')), [], 'no backup or temp file in the repository');
    }
  });

  test('a user install names `vouch` when a global install puts it on PATH, and the absolute paths (with a warning) only when not', async () => {
    const bin = join(home, 'global-bin');
    await mkdir(bin, { recursive: true });
    await writeFile(join(bin, 'vouch'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`, { mode: 0o755 });
    const onPath = await vouch(['hooks', 'install', 'claude-code'], { ...env, PATH: `${bin}:${process.env.PATH}` }, undefined, project);
    assert.equal(onPath.stderr, '');
    assert.match(await readFile(join(home, '.claude', 'settings.json'), 'utf8'), /"command": "vouch hooks run claude-code"/);
    const gemini = await vouch(['hooks', 'install', 'gemini-cli'], { ...env, PATH: '/usr/bin:/bin' }, undefined, project);
    assert.match(gemini.stderr, /vouch is not on PATH, so the hook names .* it breaks if either moves/);
  });

  test('a queued log that no longer exists is dropped at the next flush, not retried', async () => {
    const log = join(home, 'gone.jsonl');
    await copyFile(join(FIXTURES_DIR, 'gemini-cli.jsonl'), log);
    const down = { ...env, VOUCH_API_URL: 'http://127.0.0.1:9', VOUCH_UPLOAD_RETRY_SECONDS: '0' };
    await vouch(['hooks', 'run', 'gemini-cli'], down, JSON.stringify({ session_id: 'gone-1', transcript_path: log, cwd: project }));
    type Status = { queue: Array<{ transcript: string; attempts: number }>; given_up: unknown[] };
    let s: Status = { queue: [], given_up: [] };
    for (let i = 0; i < 300; i++) {
      s = JSON.parse((await vouch(['hooks', 'status', '--json', '--offline'], down)).stdout) as Status;
      if (s.queue.some((q) => q.transcript === log && q.attempts >= 1)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(s.queue.some((q) => q.transcript === log), 'queued after the failed upload');
    await rm(log);
    const flushed = await vouch(['hooks', 'flush'], env);
    assert.equal(flushed.code, 0, flushed.stderr);
    s = JSON.parse((await vouch(['hooks', 'status', '--json', '--offline'], env)).stdout) as Status;
    assert.ok(!s.queue.some((q) => q.transcript === log), 'no longer queued');
    assert.deepEqual(s.given_up, []);
    assert.match(await readFile(join(home, '.vouch', 'hooks', 'hook.log'), 'utf8'), /dropped gemini-cli .*gone\.jsonl: the file no longer exists/);
  });

  test("claude-code: the session's subagent transcripts (<session>/subagents/agent-*.jsonl) are uploaded with it as one report", async () => {
    const agentLines = await readFile(join(CORPUS_DIR, 'claude-code', 'cc04-v2.1.39-subagent-file-agent-a2898e3.jsonl'), 'utf8');
    const sid = '4d5611e5-241a-462a-8d15-5122611a9569';
    const at = (s: number) => `2026-02-11T10:00:${String(s).padStart(2, '0')}.000Z`;
    const main = [
      { type: 'user', sessionId: sid, uuid: 'u1', parentUuid: null, timestamp: at(1), cwd: project, version: '2.1.39', message: { role: 'user', content: 'Explore the repository thoroughly' } },
      { type: 'assistant', sessionId: sid, uuid: 'a1', parentUuid: 'u1', timestamp: at(2), message: { role: 'assistant', model: 'claude-opus-4-6', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Task', input: { description: 'Explore', prompt: 'Very thorough exploration', subagent_type: 'Explore' } }] } },
      { type: 'user', sessionId: sid, uuid: 'u2', parentUuid: 'a1', timestamp: at(50), message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'Done exploring.' }] }, toolUseResult: { status: 'completed', agentId: 'a2898e3', content: [{ type: 'text', text: 'Done exploring.' }] } },
      { type: 'assistant', sessionId: sid, uuid: 'a2', parentUuid: 'u2', timestamp: at(51), message: { role: 'assistant', model: 'claude-opus-4-6', content: [{ type: 'text', text: 'The exploration is complete.' }] } },
    ].map((r) => JSON.stringify(r)).join('\n') + '\n';
    const dir = join(home, '.claude', 'projects', '-src-team-app');
    await mkdir(join(dir, sid, 'subagents'), { recursive: true });
    const alone = join(dir, 'alone.jsonl');
    await writeFile(alone, main);
    await writeFile(join(dir, `${sid}.jsonl`), main);
    await writeFile(join(dir, sid, 'subagents', 'agent-a2898e3.jsonl'), agentLines);

    const report = async (file: string, name: string, session: string) => {
      await vouch(['hooks', 'run', 'claude-code'], env, JSON.stringify({ session_id: session, transcript_path: file, cwd: project, hook_event_name: 'SessionEnd' }));
      let hit: { id: string } | undefined;
      for (let i = 0; i < 600 && !hit; i++) {
        const res = await t.app.inject({ method: 'GET', url: '/v1/sessions?limit=100', headers: { authorization: `Bearer ${alice.apiKey}` } });
        hit = (res.json() as { data: Array<{ id: string; filename: string }> }).data.find((x) => x.filename === name);
        if (!hit) await new Promise((r) => setTimeout(r, 100));
      }
      assert.ok(hit, `${name} uploaded`);
      await t.analyzeAll(inProcessAnalyzer());
      const res = await t.app.inject({ method: 'GET', url: `/v1/sessions/${hit.id}/report`, headers: { authorization: `Bearer ${alice.apiKey}` } });
      return res.json() as { findings: Array<{ rule: string }>; stats: { subagents: number; lines: number; skipped_lines: number } };
    };
    const without = await report(alone, 'alone.jsonl', 'alone-1');
    assert.ok(without.findings.some((f) => f.rule === 'coverage/missing-subagents'), 'alone, the session names a subagent transcript it lacks');
    const withAgents = await report(join(dir, `${sid}.jsonl`), `${sid}.jsonl`, sid);
    assert.ok(!withAgents.findings.some((f) => f.rule === 'coverage/missing-subagents'), JSON.stringify(withAgents.findings.map((f) => f.rule)));
    assert.equal(withAgents.stats.lines, 4 + agentLines.trimEnd().split('\n').length, 'one report over the session and its subagent');
    assert.equal(withAgents.stats.skipped_lines, 0);
    assert.ok(withAgents.stats.subagents >= 1);
  });
});
