// The npm package as people get it: `npm pack` of (a copy of) this checkout — which runs the
// package's own prepack (type declarations) and prepare (dist/) — then `npm install --omit=dev`
// of the tarball into an empty folder, install scripts and all, as a user would (the npm cache is
// warm; the registry is the only network). From there, with production dependencies only and no
// tsx: `vouch analyze`, `vouch serve` answering /healthz and analysing an upload, `vouch hooks
// status`, and the two library entries with their types.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../helpers/cli.ts';
import { copyCheckout } from '../helpers/checkout.ts';
import { sarifSchemaErrors } from '../helpers/sarif-schema.ts';
import { FIXTURES_DIR } from '../helpers/shared.ts';

interface PackedFile {
  path: string;
  size: number;
}
interface Packed {
  name: string;
  version: string;
  size: number;
  unpackedSize: number;
  filename: string;
  files: PackedFile[];
}

const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; devDependencies: Record<string, string>; dependencies: Record<string, string> };

let work: string;
let packed: Packed;
let app: string;
let vouchBin: string;

/** Runs the installed `vouch` from the app folder, with nothing of this checkout in reach. */
function vouch(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [vouchBin, ...args], { cwd: app, env: { PATH: process.env.PATH ?? '', HOME: join(work, 'home'), ...env }, timeout: 120_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

/**
 * better-sqlite3's install script (prebuild-install) fetches a prebuilt binding, which an offline
 * machine cannot, and then compiles one: minutes of C++. An offline site gives prebuild-install a
 * folder of prebuilt bindings instead (its `local-prebuilds` setting); here that folder holds the
 * binding this checkout already built, packed the way prebuild-install unpacks it. Should npm pick
 * another better-sqlite3 version, the name does not match and it compiles: slower, still right.
 */
function localPrebuilds(): string {
  const dir = join(work, 'prebuilds');
  const sqlite = join(ROOT, 'node_modules', 'better-sqlite3');
  const { version } = JSON.parse(readFileSync(join(sqlite, 'package.json'), 'utf8')) as { version: string };
  execFileSync('mkdir', ['-p', dir]);
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  execFileSync('tar', ['-czf', join(dir, name), '-C', sqlite, 'build/Release/better_sqlite3.node']);
  return dir;
}

// Packing builds dist/ and the declarations, installing may compile a binding: minutes on a busy
// machine, past the test runner's per-test default (a safety net here, not a measurement).
before(
  () => {
    work = mkdtempSync(join(tmpdir(), 'vouch-package-'));
    const checkout = copyCheckout('vouch-pack-src-');
    try {
      const out = execFileSync(NPM, ['pack', '--json', '--pack-destination', work], { cwd: checkout, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] });
      packed = (JSON.parse(out) as Packed[])[0];
    } finally {
      rmSync(checkout, { recursive: true, force: true });
    }
    app = join(work, 'app');
    execFileSync('mkdir', ['-p', app, join(work, 'home')]);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'uses-vouch', private: true, type: 'module' }));
    // Install scripts run, as for a user (tree-sitter-bash finds its shipped prebuilt binding).
    execFileSync(NPM, ['install', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund', join(work, packed.filename)], {
      cwd: app,
      encoding: 'utf8',
      env: { ...process.env, JOBS: 'max', npm_config_loglevel: 'error', npm_config_better_sqlite3_local_prebuilds: localPrebuilds() },
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 64 * 1024 * 1024,
    });
    vouchBin = join(app, 'node_modules', 'vouch', 'bin', 'vouch.mjs');
  },
  { timeout: 30 * 60_000 },
);
after(() => rmSync(work, { recursive: true, force: true }));

test('the tarball ships bin/, dist/, types/, README and package.json only: no sources, tests, specs, scripts or dev loaders', () => {
  const paths = packed.files.map((f) => f.path);
  const top = new Set(paths.map((p) => p.split('/')[0]));
  assert.deepEqual([...top].sort(), ['README.md', 'bin', 'dist', 'package.json', 'types']);
  assert.ok(paths.includes('bin/vouch.mjs') && paths.includes('dist/cli/main.js') && paths.includes('dist/index.js'));
  assert.ok(paths.includes('types/index.d.ts') && paths.includes('types/webhooks-receiver/index.d.ts'));
  const offending = paths.filter((p) => /\.(spec|test|testing)\.[jt]sx?(\.map)?$|(^|\/)test-helpers\.|(^|\/)(test|fixtures|scripts|src)\//.test(p) || (/\.tsx?$/.test(p) && !p.endsWith('.d.ts')));
  assert.deepEqual(offending, []);
  assert.ok(!paths.some((p) => p.endsWith('worker-entry.mjs')), 'the tsx loader shim of the sources is not shipped');
  assert.ok(!paths.includes('dist/.build-stamp'));
  // Sizes with room to grow (2.8 MB packed, 9.3 MB unpacked on 2026-12-07 — the rules' source maps
  // grow with them, ~0.4 MB in that day's rules; 2.4 / 7.9 MB on 2026-12-05; 2.0 / 6.9 MB on
  // 2026-12-02; 1.1 / 4 MB when this was written): a jump past these means something large got in
  // (a fixture, a map of a vendored bundle …).
  assert.ok(packed.size < 3.5 * 1024 * 1024, `tarball ${packed.size} bytes`);
  assert.ok(packed.unpackedSize < 11 * 1024 * 1024, `unpacked ${packed.unpackedSize} bytes`);
});

test('README and docs/integrations.md state the packed size npm pack reports (within 15 %)', () => {
  const mb = packed.size / 1e6;
  for (const doc of ['README.md', 'docs/integrations.md']) {
    const stated = /~(\d+(?:\.\d+)?) MB packed/.exec(readFileSync(join(ROOT, doc), 'utf8'));
    assert.ok(stated, `${doc} states the packed size`);
    assert.ok(Math.abs(Number(stated[1]) - mb) <= mb * 0.15, `${doc} says ~${stated[1]} MB packed; npm pack made ${mb.toFixed(2)} MB`);
  }
});

test('installed with production dependencies only: no tsx or other dev tool, and nothing shipped imports one', () => {
  const modules = readdirSync(join(app, 'node_modules'));
  for (const dev of ['tsx', 'typescript', 'esbuild', 'eslint', 'playwright-core', '@action-validator', 'autocannon', '@redocly']) assert.ok(!modules.includes(dev), `${dev} is installed`);
  assert.ok(!('tsx' in pkg.dependencies) && 'tsx' in pkg.devDependencies, 'tsx is a dev dependency');
  // grep: exit 1 is "no match", the answer wanted; 0 lists the offenders.
  const grep = spawnSync('grep', ['-rlE', `(from|import\\() *['"](tsx|typescript|esbuild)(/|['"])`, join(app, 'node_modules', 'vouch')], { encoding: 'utf8' });
  assert.equal(grep.status, 1, `files importing a dev tool: ${grep.stdout}${grep.stderr}`);
  // The check can match: the sources' worker shim does import tsx.
  assert.equal(spawnSync('grep', ['-qE', `(from|import\\() *['"](tsx|typescript|esbuild)(/|['"])`, join(ROOT, 'src', 'adapters', 'analysis-pool', 'worker-entry.mjs')]).status, 0);
});

test('vouch --version, and vouch analyze on a log: its verdict, exit code and SARIF', async () => {
  const version = await vouch(['--version']);
  assert.equal(version.stdout.trim(), pkg.version);
  const text = await vouch(['analyze', join(FIXTURES_DIR, 'claude-code.jsonl')]);
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /CLEAR\s+trust 100\/100/);
  const sarif = await vouch(['analyze', join(FIXTURES_DIR, 'codex.jsonl'), '--format', 'sarif']);
  assert.equal(sarifSchemaErrors(JSON.parse(sarif.stdout)), null);
  const missing = await vouch(['analyze', join(work, 'nope.jsonl')]);
  assert.equal(missing.code, 4);
});

test('vouch hooks status runs (a fresh HOME: nothing installed, no server configured)', async () => {
  const r = await vouch(['hooks', 'status']);
  assert.equal(r.code, 0, r.stderr);
  for (const agent of ['claude-code', 'codex', 'gemini-cli']) assert.match(r.stdout, new RegExp(`^${agent}\\b`, 'm'));
});

test('vouch serve: answers /healthz, takes an upload and analyses it (worker threads from dist/), drains on SIGTERM', async () => {
  const data = join(work, 'data');
  const env = { VOUCH_DATA_DIR: data, DATABASE_URL: '', VOUCH_LOG_LEVEL: 'warn' };
  const created = await vouch(['admin', 'create-account', '--email', 'lead@acme.test', '--password', 'a long passphrase for the test'], env);
  assert.equal(created.code, 0, created.stderr);
  const { api_key: key } = JSON.parse(created.stdout) as { api_key: string };
  const port = await new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
  const proc = spawn(process.execPath, [vouchBin, 'serve'], { cwd: app, env: { PATH: process.env.PATH ?? '', HOME: join(work, 'home'), ...env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  proc.stdout.on('data', (d) => (output += d));
  proc.stderr.on('data', (d) => (output += d));
  const base = `http://127.0.0.1:${port}`;
  try {
    let up = false;
    for (let i = 0; i < 600 && !up; i++) {
      up = await fetch(`${base}/healthz`).then((r) => r.ok, () => false);
      if (!up) await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(up, `serve answered /healthz: ${output}`);
    const form = new FormData();
    form.append('file', new Blob([readFileSync(join(FIXTURES_DIR, 'codex.jsonl'))]), 'codex.jsonl');
    const upload = await fetch(`${base}/v1/sessions`, { method: 'POST', body: form, headers: { authorization: `Bearer ${key}` } });
    assert.equal(upload.status, 202, await upload.clone().text());
    const { id } = (await upload.json()) as { id: string };
    let report: { status?: string; outcome?: string; agent?: string } = {};
    for (let i = 0; i < 600 && report.status !== 'complete'; i++) {
      const r = await fetch(`${base}/v1/sessions/${id}/report`, { headers: { authorization: `Bearer ${key}` } });
      if (r.status === 200) report = (await r.json()) as typeof report;
      else await new Promise((res) => setTimeout(res, 100));
    }
    assert.equal(report.status, 'complete', `the upload was analysed: ${output}`);
    assert.equal(report.agent, 'codex');
    const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
    proc.kill('SIGTERM');
    assert.equal(await exited, 0, output);
  } finally {
    proc.kill('SIGKILL');
  }
});

test('the library entries load from the installed package, and their types resolve for a TypeScript consumer', async () => {
  writeFileSync(join(app, 'use.mjs'), "import { analyzeText } from 'vouch';\nimport { verifyServiceSignature } from 'vouch/webhooks';\nconst r = await analyzeText('');\nconsole.log(r.outcome, typeof verifyServiceSignature);\n");
  const run = execFileSync(process.execPath, ['use.mjs'], { cwd: app, encoding: 'utf8' });
  assert.match(run, /^(Clear|Review|Blocked) function$/m);
  // Type-check a consumer with this checkout's TypeScript (the app has none): the declarations
  // resolve, and a wrong use is caught (so the check is not vacuous).
  writeFileSync(join(app, 'use.ts'), "import { analyzeText, type Report } from 'vouch';\nimport { verifyStandardWebhook } from 'vouch/webhooks';\nconst r: Report = await analyzeText('');\nconst score: number = r.trust_score;\nconst wrong: string = r.trust_score;\nconsole.log(score, wrong, verifyStandardWebhook);\n");
  writeFileSync(join(app, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', strict: true, noEmit: true, types: ['node'], typeRoots: [join(ROOT, 'node_modules', '@types')] }, files: ['use.ts'] }));
  const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  let errors = '';
  try {
    execFileSync(process.execPath, [tsc, '-p', app], { cwd: app, encoding: 'utf8' });
  } catch (error) {
    errors = (error as { stdout: string }).stdout;
  }
  const lines = errors.split('\n').filter((l) => /error TS\d+/.test(l));
  assert.equal(lines.length, 1, `exactly the deliberate error: ${errors}`);
  assert.match(lines[0], /use\.ts\(5,7\): error TS2322: Type 'number' is not assignable to type 'string'/);
  assert.ok(existsSync(join(app, 'node_modules', 'vouch', 'types', 'index.d.ts')));
});
