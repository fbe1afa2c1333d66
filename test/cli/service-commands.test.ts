// `vouch admin …` and `vouch upload` as an operator / a CI job runs them: exactly one JSON object
// on stdout, reasons on stderr, and exit codes a pipeline can act on.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildTestApp } from '../helpers/app.ts';
import type { TestAccount, TestApp } from '../helpers/app.ts';

import { BIN } from '../helpers/cli.ts';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function vouch(args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

function oneJson(r: Run): Record<string, unknown> {
  const lines = r.stdout.trim().split('\n');
  assert.equal(lines.length, 1, `exactly one line on stdout: ${r.stdout}`);
  return JSON.parse(lines[0]) as Record<string, unknown>;
}

describe('vouch admin', () => {
  let dir: string;
  let env: Record<string, string>;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vouch-cli-'));
    env = { VOUCH_DATA_DIR: dir, DATABASE_URL: '' };
  });
  after(() => rm(dir, { recursive: true, force: true }));

  test('create-account, create-key, revoke-key print one JSON object each', async () => {
    const created = await vouch(['admin', 'create-account', '--email', 'Ops@Example.test', '--password', 'correct horse battery staple'], env);
    assert.equal(created.code, 0, created.stderr);
    const acct = oneJson(created);
    assert.deepEqual(Object.keys(acct).sort(), ['account_id', 'api_key']);
    assert.match(String(acct.account_id), /^acc_/);
    assert.match(String(acct.api_key), /^vk_[0-9A-Za-z]{49}$/);

    const key = await vouch(['admin', 'create-key', '--account', String(acct.account_id)], env);
    assert.equal(key.code, 0, key.stderr);
    const { api_key, scopes } = oneJson(key);
    assert.match(String(api_key), /^vk_/);
    assert.deepEqual(scopes, ['sessions:read', 'sessions:write', 'sessions:delete', 'logs:redact', 'audit:read'], 'the operator\'s key: every scope');
    const narrow = oneJson(await vouch(['admin', 'create-key', '--account', String(acct.account_id), '--scope', 'sessions:write'], env));
    assert.deepEqual(narrow.scopes, ['sessions:write']);
    const wrong = await vouch(['admin', 'create-key', '--account', String(acct.account_id), '--scope', 'admin:all'], env);
    assert.equal(wrong.code, 3);
    assert.match(wrong.stderr, /no scope "admin:all"/);

    const revoked = await vouch(['admin', 'revoke-key', '--key', String(api_key)], env);
    assert.deepEqual(oneJson(revoked), { revoked: true });
    const again = await vouch(['admin', 'revoke-key', '--key', String(api_key)], env);
    assert.equal(again.code, 3);
    assert.equal(again.stdout, '');
    assert.match(again.stderr, /no active API key/);
  });

  test('refusals: duplicate email, short password, unknown account, SSRF-refused webhook URL', async () => {
    await vouch(['admin', 'create-account', '--email', 'dup@example.test', '--password', 'long enough password'], env);
    const cases: [string[], RegExp][] = [
      [['admin', 'create-account', '--email', 'DUP@example.test', '--password', 'long enough password'], /already exists/],
      [['admin', 'create-account', '--email', 'x@example.test', '--password', 'short'], /at least 8/],
      [['admin', 'create-account', '--email', 'not-an-email', '--password', 'long enough password'], /email/],
      [['admin', 'create-key', '--account', 'acc_nope'], /no account/],
      [['admin', 'add-webhook', '--account', 'acc_nope', '--url', 'http://127.0.0.1:9/hook'], /./],
    ];
    for (const [args, reason] of cases) {
      const r = await vouch(args, env);
      assert.ok(r.code >= 1, `${args.join(' ')}: exit ${r.code}`);
      assert.equal(r.stdout, '', 'nothing on stdout');
      assert.match(r.stderr, reason);
    }
    const acct = oneJson(await vouch(['admin', 'create-account', '--email', 'hooks@example.test', '--password', 'long enough password'], env));
    const ssrf = await vouch(['admin', 'add-webhook', '--account', String(acct.account_id), '--url', 'http://169.254.169.254/latest'], env);
    assert.notEqual(ssrf.code, 0);
    assert.equal(ssrf.stdout, '');
    assert.ok(ssrf.stderr.length > 0, 'the reason is on stderr');
  });

  test('retention: shows the period (null = for ever), sets days or forever, refuses a bad value or account', async () => {
    const created = oneJson(await vouch(['admin', 'create-account', '--email', 'retention@example.test', '--password', 'correct horse battery staple'], env));
    const account = String(created.account_id);
    assert.deepEqual(oneJson(await vouch(['admin', 'retention', '--account', account], env)), { account_id: account, retention_days: null });
    assert.deepEqual(oneJson(await vouch(['admin', 'retention', '--account', account, '--set', '90'], env)), { account_id: account, retention_days: 90 });
    assert.deepEqual(oneJson(await vouch(['admin', 'retention', '--account', account], env)), { account_id: account, retention_days: 90 });
    assert.deepEqual(oneJson(await vouch(['admin', 'retention', '--account', account, '--set', 'forever'], env)), { account_id: account, retention_days: null });
    const zero = await vouch(['admin', 'retention', '--account', account, '--set', '0'], env);
    assert.equal(zero.code, 3);
    assert.match(zero.stderr, /whole number of days from 1 to 3650/);
    const unknown = await vouch(['admin', 'retention', '--account', 'acc_nope', '--set', '30'], env);
    assert.equal(unknown.code, 3);
    assert.match(unknown.stderr, /no account acc_nope/);
  });

  test('a bad configuration is a clear usage error', async () => {
    const r = await vouch(['admin', 'create-key', '--account', 'acc_x'], { ...env, VOUCH_MAX_UPLOAD_BYTES: 'lots' });
    assert.equal(r.code, 3);
    assert.match(r.stderr, /VOUCH_MAX_UPLOAD_BYTES/);
  });
});

describe('vouch upload', () => {
  let t: TestApp;
  let alice: TestAccount;
  let base: string;
  let dir: string;
  let log: string;
  before(async () => {
    t = await buildTestApp();
    alice = await t.account();
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    dir = await mkdtemp(join(tmpdir(), 'vouch-upload-'));
    log = join(dir, 'session.jsonl');
    await writeFile(log, '{"type":"user","message":{"role":"user","content":"hi"}}\n');
  });
  after(async () => {
    await t.close();
    await rm(dir, { recursive: true, force: true });
  });

  const env = (key = alice.apiKey, url = base) => ({ VOUCH_API_URL: url, VOUCH_API_KEY: key });

  test('uploads and prints the session; --format json is one object', async () => {
    const r = await vouch(['upload', log, '--repo', 'acme/cli', '--agent', 'claude-code', '--format', 'json'], env());
    assert.equal(r.code, 0, r.stderr);
    const s = oneJson(r);
    assert.equal(s.status, 'analyzing');
    assert.match(String(s.report_url), /\/r\/ses_/);
    const stored = (await t.app.inject({ url: `/v1/sessions/${s.id}`, headers: { authorization: `Bearer ${alice.apiKey}` } })).json();
    assert.equal(stored.repo, 'acme/cli');
    assert.equal(stored.filename, 'session.jsonl');
  });

  test('--wait prints the summary and exits by the outcome (Review → 1)', async () => {
    const run = vouch(['upload', log, '--wait', '--format', 'json'], env());
    // Play the worker while the CLI polls.
    const deadline = Date.now() + 20_000;
    let r: Run | undefined;
    void run.then((x) => (r = x));
    while (!r && Date.now() < deadline) {
      await t.analyzeAll();
      await new Promise((res) => setTimeout(res, 100));
    }
    r ??= await run;
    assert.equal(r.code, 1, r.stderr);
    assert.equal(oneJson(r).outcome, 'Review');
  });

  test('problems exit with 3 and more, with the reason on stderr', async () => {
    const cases: [Record<string, string>, string[], number, RegExp][] = [
      [env('vk_wrong'), [log], 5, /API key was refused/],
      [{ ...env(alice.apiKey, 'http://127.0.0.1:9'), VOUCH_UPLOAD_RETRY_SECONDS: '0' }, [log], 5, /cannot reach .*gave up after 1 try/],
      [{ VOUCH_API_URL: base, VOUCH_API_KEY: '' }, [log], 3, /VOUCH_API_KEY/],
      [env(), [join(dir, 'missing.jsonl')], 4, /no such file/],
      [env(), [log, '--agent', 'copilot'], 3, /./],
    ];
    const bad = join(dir, 'tool.exe');
    await writeFile(bad, 'MZ');
    cases.push([env(), [bad], 5, /unsupported_file_type/]);
    for (const [e, args, code, reason] of cases) {
      const r = await vouch(['upload', ...args], e);
      assert.equal(r.code, code, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, reason);
      assert.equal(r.stdout, '');
    }
  });
});

describe('vouch serve', () => {
  test('starts on a fresh data directory, answers, and drains on SIGTERM with exit code 0', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vouch-serve-'));
    const { spawn } = await import('node:child_process');
    const net = await import('node:net');
    const port = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const proc = spawn(process.execPath, [BIN, 'serve'], {
      env: { ...process.env, VOUCH_DATA_DIR: join(dir, 'data'), PORT: String(port), DATABASE_URL: '', VOUCH_LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    proc.stdout.on('data', (d) => (output += d));
    proc.stderr.on('data', (d) => (output += d));
    try {
      let up = false;
      for (let i = 0; i < 200 && !up; i++) {
        up = await fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.ok, () => false);
        if (!up) await new Promise((r) => setTimeout(r, 100));
      }
      assert.ok(up, `serve answered /readyz: ${output}`);
      const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
      proc.kill('SIGTERM');
      assert.equal(await exited, 0, output);
    } finally {
      proc.kill('SIGKILL');
      await rm(dir, { recursive: true, force: true });
    }
  });
});
