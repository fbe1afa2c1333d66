// `npm run bench:api`: the HTTP API under load, on loopback, for each backend (SQLite, and
// PostgreSQL at BENCH_PG_URL, default postgres://postgres@127.0.0.1:5432/postgres).
//
// Four accounts with two keys each hold 2,500 sessions apiece (inserted through the
// repositories), 50 of each complete with a realistic report. `vouch serve` runs as a child
// process (VOUCH_ROLE=api, so no analysis competes for the CPU); a bare Fastify server with one
// hello route runs as another child, for reference. autocannon drives them from this process
// with 50 connections, after warming each server up:
//   GET /  (bare Fastify)                 what the framework alone can do on this machine
//   GET /healthz                          a trivial route of our app: the cost of our hooks
//   GET /v1/sessions                      auth + page (+ count), rotating over the 8 keys, 21 repo
//                                         filters and 5 pages, so that the 1 s list-total cache
//                                         does not answer most requests
//   GET /v1/sessions/{id}/report          auth + the stored report JSON, any key's sessions
// Each route is measured 3 times (rounds interleaved); the table shows the median and the
// spread (min–max) of req/s, of the ratio to the same round's /healthz, and of p99.
// Then a generated 100 MB log is uploaded while the server's RSS is sampled from /proc. Last, the
// same data is served by a process that also analyses (VOUCH_ROLE=all): GET /v1/sessions idle,
// then while a realistic 100 MB Claude Code log (bench/inputs.ts) is analysed; target p99 ≤ 1.5×
// the idle p99 (issue 30). BENCH_ANALYSIS_ROUNDS (default 3).
// Targets: /healthz ≥ 0.7× bare Fastify; list and report ≥ 0.5× /healthz with p99 < 50 ms on
// SQLite, ≥ 0.35× with p99 < 80 ms on PostgreSQL; RSS growth during the upload < 150 MB.
// Not a test: it prints a table and exits 1 when a target is missed or PostgreSQL, asked for in
// BENCH_BACKENDS, cannot be reached. BENCH_DURATION (seconds per measurement, default 10).
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdtempSync, openAsBlob, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import net from 'node:net';
import autocannon from 'autocannon';
import pg from 'pg';
import { sql } from 'kysely';
import { openDatabase } from '../src/adapters/db/database.ts';
import type { Db } from '../src/adapters/db/database.ts';
import { insertReport } from '../src/adapters/db/repositories/reports.ts';
import { insertSession } from '../src/adapters/db/repositories/sessions.ts';
import type { Report } from '../src/domain/model/report.ts';
import { createAccount } from '../src/services/accounts.ts';
import { issueApiKey } from '../src/services/keys.ts';
import { newId, nowIso } from '../src/kernel/ids.ts';
import { generate, generated } from './inputs.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ACCOUNTS = 4;
const KEYS_PER_ACCOUNT = 2;
const SESSIONS_PER_ACCOUNT = 2_500;
const WITH_REPORT = 50;
const REPOS = 20;
const ROUNDS = 3;
const CONNECTIONS = 50;
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const UPLOAD_BYTES = 100 * 1024 * 1024;
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const MB = 1024 * 1024;

interface Stat {
  median: number;
  min: number;
  max: number;
}

interface Row {
  backend: string;
  what: string;
  rps?: Stat;
  ratio?: Stat;
  ratioTarget?: number;
  p99?: Stat;
  p99Target?: number;
  mbps?: number;
  rssGrowthMb?: number;
  /** The ratio is a ceiling (p99 under load ÷ idle), not a floor. */
  lowerIsBetter?: boolean;
  ok: boolean;
}

function stat(values: number[]): Stat {
  const sorted = [...values].sort((x, y) => x - y);
  return { median: sorted[Math.floor(sorted.length / 2)], min: sorted[0], max: sorted[sorted.length - 1] };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** A report of realistic size: 150 timeline entries, 12 findings. */
function benchReport(sessionId: string, reportId: string): Report {
  const timeline = Array.from({ length: 150 }, (_, i) => ({
    index: i, at: nowIso(), kind: 'command' as const, actor: 'assistant' as const, summary: `npm test -- --runInBand step ${i}`, tool: 'Bash',
    detail: 'x'.repeat(200), status: 'ok', finding_ids: [], duration_ms: 1200,
  }));
  const findings = Array.from({ length: 12 }, (_, i) => ({
    id: `f${i}`, rule: 'integrity.unbacked-claim', category: 'integrity' as const, severity: 'warning' as const, title: 'Claim not backed by the log',
    detail: 'The agent said all tests pass but the last run failed.', evidence: [{ timeline_index: i, excerpt: 'all tests pass' }], remediation: 'Run the tests.',
  }));
  return {
    session_id: sessionId, report_id: reportId, status: 'complete', analyzer_version: 'bench', agent: 'claude-code', agent_detected: true,
    format: 'claude-code-transcript', confidence: 'high', repo: 'acme/api', branch: 'main', cwd: '/w', models: ['m'], agent_version: '2.0',
    started_at: nowIso(), ended_at: nowIso(), duration_ms: 1000, trust_score: 64, outcome: 'Review', headline: 'h', reason: 'r', summary: 's',
    findings_count: { critical: 0, warning: 12, info: 0 }, findings, timeline,
    stats: { events: 150, prompts: 1, tool_calls: 150, commands: 150, failed_commands: 0, files_read: 0, files_written: 0, tokens: { input: 1, output: 1, cache_read: 0, cache_write: 0 }, subagents: 0, compactions: 0, skipped_lines: 0 },
    files: [], commands: [],
  };
}

interface Seeded {
  keys: string[];
  /** Session ids with a report, of every account. */
  reportIds: string[];
}

async function seedAccount(db: Db, n: number): Promise<{ keys: string[]; reportIds: string[] }> {
  const { accountId, apiKey } = await createAccount(db, { email: `bench-${n}-${Date.now()}@example.test`, password: 'bench password' });
  const keys = [apiKey];
  for (let k = 1; k < KEYS_PER_ACCOUNT; k++) keys.push((await issueApiKey(db.kysely, accountId, `bench-${k}`)).key);
  const reportIds: string[] = [];
  const base = Date.now() - SESSIONS_PER_ACCOUNT * 1000;
  await db.kysely.transaction().execute(async (trx) => {
    for (let i = 0; i < SESSIONS_PER_ACCOUNT; i++) {
      const id = newId('ses');
      const complete = i >= SESSIONS_PER_ACCOUNT - WITH_REPORT;
      const reportId = complete ? newId('rep') : null;
      await insertSession(trx, {
        id, account_id: accountId, status: complete ? 'complete' : 'analyzing', agent_hint: null, agent: 'claude-code', repo: `acme/repo-${i % REPOS}`,
        branch: 'main', filename: 's.jsonl', size_bytes: 1234, sha256: 'a'.repeat(64), created_at: nowIso(base + i * 1000),
        completed_at: complete ? nowIso() : null, trust_score: complete ? 64 : null, outcome: complete ? 'Review' : null,
        findings_critical: complete ? 0 : null, findings_warning: complete ? 12 : null, findings_info: complete ? 0 : null,
        report_id: reportId, failure_reason: null, idempotency_key: null,
      });
      if (reportId) {
        await insertReport(trx, { id: reportId, session_id: id, account_id: accountId, analyzer_version: 'bench', body: JSON.stringify(benchReport(id, reportId)), created_at: nowIso() });
        reportIds.push(id);
      }
    }
  });
  return { keys, reportIds };
}

async function seed(db: Db): Promise<Seeded> {
  const seeded: Seeded = { keys: [], reportIds: [] };
  for (let a = 0; a < ACCOUNTS; a++) {
    const { keys, reportIds } = await seedAccount(db, a);
    seeded.keys.push(...keys);
    seeded.reportIds.push(...reportIds.map((id) => `${keys[0]} ${id}`));
  }
  // A live database has statistics (autovacuum/analyze would have run after these inserts).
  await sql`${sql.raw(db.dialect === 'postgres' ? 'vacuum analyze' : 'analyze')}`.execute(db.kysely);
  return seeded;
}

/** A request: the path and the key it is sent with. */
interface Target {
  path: string;
  key: string | null;
}

/** List requests over every key, repo filter (or none) and the first pages: few repeat within a second. */
function listTargets(keys: string[]): Target[] {
  const out: Target[] = [];
  for (let page = 1; page <= 5; page++) {
    for (let r = -1; r < REPOS; r++) {
      for (const key of keys) out.push({ key, path: r < 0 ? `/v1/sessions?page=${page}` : `/v1/sessions?repo=acme%2Frepo-${r}&page=${page}` });
    }
  }
  // Interleave so that consecutive requests differ in key and filter.
  return out.sort((x, y) => (x.path + x.key).localeCompare(y.path + y.key)).map((_, i, all) => all[(i * 7919) % all.length]);
}

function reportTargets(seeded: Seeded, keys: string[]): Target[] {
  return seeded.reportIds.map((entry) => {
    const [accountKey, id] = entry.split(' ');
    // Either key of the account that owns the session.
    const sibling = keys[keys.indexOf(accountKey) + (id.charCodeAt(id.length - 1) % KEYS_PER_ACCOUNT)];
    return { key: sibling, path: `/v1/sessions/${id}/report` };
  });
}

interface Server {
  proc: ChildProcess;
  base: string;
}

async function startServer(env: Record<string, string>): Promise<Server> {
  const port = await freePort();
  // BENCH_SERVER_NODE_ARGS: extra Node flags for the server only (e.g. "--cpu-prof --cpu-prof-dir=prof").
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const proc = spawn(process.execPath, [...nodeArgs, join(ROOT, 'bin/vouch.mjs'), 'serve'], {
    env: { ...process.env, VOUCH_ROLE: 'api', ...env, PORT: String(port), HOST: '127.0.0.1', VOUCH_LOG_LEVEL: 'info', VOUCH_RATE_LIMIT_MAX: '1000000000', VOUCH_MAX_UPLOAD_BYTES: String(2 * UPLOAD_BYTES) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    if (proc.exitCode !== null) throw new Error(`server exited with ${proc.exitCode}`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) return { proc, base };
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error('server did not start');
}

/** A bare Fastify server with one hello route, in a child process like `vouch serve`. */
async function startHello(): Promise<Server> {
  const port = await freePort();
  const code = `import Fastify from 'fastify';
const app = Fastify();
app.get('/', async () => ({ hello: 'world' }));
app.get('/healthz', async () => ({ status: 'ok' }));
await app.listen({ port: ${port}, host: '127.0.0.1' });`;
  const proc = spawn(process.execPath, ['--input-type=module', '-e', code], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    if (proc.exitCode !== null) throw new Error(`hello server exited with ${proc.exitCode}`);
    try {
      if ((await fetch(`${base}/`)).ok) return { proc, base };
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error('hello server did not start');
}

interface Load {
  rps: number;
  p99: number;
  errors: number;
}

async function load(base: string, targets: Target[], seconds = DURATION): Promise<Load> {
  let n = 0;
  const result = await autocannon({
    url: base,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [{
      setupRequest: (req) => {
        const t = targets[n++ % targets.length];
        return { ...req, path: t.path, headers: t.key ? { ...req.headers, authorization: `Bearer ${t.key}` } : req.headers };
      },
    }],
  });
  return { rps: result.requests.average, p99: result.latency.p99, errors: result.errors + result.non2xx };
}

async function logFile(): Promise<string> {
  const file = join(tmpdir(), 'vouch-bench-upload-100mb.jsonl');
  if (existsSync(file) && statSync(file).size === UPLOAD_BYTES) return file;
  const out = createWriteStream(file);
  const line = Buffer.from(JSON.stringify({ type: 'assistant', message: { content: [{ type: 'text', text: 'x'.repeat(900) }] } }) + '\n');
  let written = 0;
  while (written < UPLOAD_BYTES) {
    const piece = line.subarray(0, Math.min(line.length, UPLOAD_BYTES - written));
    if (!out.write(piece)) await new Promise<void>((r) => out.once('drain', () => r()));
    written += piece.length;
  }
  await new Promise<void>((r) => out.end(() => r()));
  return file;
}

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : 0;
}

async function upload(server: Server, key: string, file: string): Promise<{ mbps: number; growth: number; id: string }> {
  const pid = server.proc.pid as number;
  const baseline = rssMb(pid);
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 25);
  const form = new FormData();
  form.append('repo', 'acme/big');
  form.append('file', await openAsBlob(file), 'big.jsonl');
  const started = performance.now();
  const res = await fetch(`${server.base}/v1/sessions`, { method: 'POST', body: form, headers: { authorization: `Bearer ${key}` } });
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, rssMb(pid));
  if (res.status !== 202) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
  const { id } = (await res.json()) as { id: string };
  return { mbps: UPLOAD_BYTES / MB / seconds, growth: peak - baseline, id };
}

/** POST a log; the new session's id. */
async function post(server: Server, key: string, file: string, name: string): Promise<string> {
  const form = new FormData();
  form.append('repo', 'acme/big');
  form.append('file', await openAsBlob(file), name);
  const res = await fetch(`${server.base}/v1/sessions`, { method: 'POST', body: form, headers: { authorization: `Bearer ${key}` } });
  if (res.status !== 202) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { id: string }).id;
}

async function sessionStatus(server: Server, key: string, id: string): Promise<string> {
  const res = await fetch(`${server.base}/v1/sessions/${id}`, { headers: { authorization: `Bearer ${key}` } });
  return ((await res.json()) as { status?: string }).status ?? `HTTP ${res.status}`;
}

interface Busy {
  idle: Load;
  busy: Load;
  /** The analysis was still running when the busy measurement ended (else it measured less). */
  covered: boolean;
}

/**
 * Issue 30: `GET /v1/sessions` while a 100 MB Claude Code log (generated from the corpus, varied)
 * is analysed by the same server (VOUCH_ROLE=all, its analysis pool on the same 2 cores), against
 * the same route just before with nothing to analyse. Per round: idle, upload, busy (the analysis
 * must still be running when the busy window ends), then wait for the report before the next round.
 */
async function underAnalysis(server: Server, keys: string[], log: string): Promise<Busy[]> {
  const list = listTargets(keys);
  await load(server.base, list, 2);
  const rounds: Busy[] = [];
  for (let r = 0; r < ANALYSIS_ROUNDS; r++) {
    const idle = await load(server.base, list);
    const id = await post(server, keys[0], log, 'big-claude.jsonl');
    const busy = await load(server.base, list);
    const covered = (await sessionStatus(server, keys[0], id)) === 'analyzing';
    console.log(`analysis round ${r + 1}: list p99 idle ${idle.p99} ms, while analysing ${busy.p99} ms (${(busy.p99 / idle.p99).toFixed(2)}×)${covered ? '' : ' — the analysis ended before the window did'}`);
    rounds.push({ idle, busy, covered });
    for (let i = 0; i < 1200 && (await sessionStatus(server, keys[0], id)) === 'analyzing'; i++) await sleep(250);
  }
  return rounds;
}

const ANALYSIS_ROUNDS = Number(process.env.BENCH_ANALYSIS_ROUNDS ?? 3);
const ANALYSIS_TARGET = 1.5;

async function pgDatabase(): Promise<{ url: string; drop(): Promise<void> } | null> {
  const name = `vouch_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  try {
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
  } catch {
    return null;
  } finally {
    await admin.end().catch(() => {});
  }
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    async drop() {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

async function stopProcess(server: Server | undefined): Promise<void> {
  // A process stopped by a signal has signalCode set and exitCode null: it has exited too.
  if (!server || server.proc.exitCode !== null || server.proc.signalCode !== null) return;
  const exited = new Promise((r) => server.proc.once('exit', r));
  server.proc.kill('SIGTERM');
  await exited;
}

const TARGETS = {
  sqlite: { ratio: 0.5, p99: 50 },
  postgres: { ratio: 0.35, p99: 80 },
} as const;
const HEALTHZ_TARGET = 0.7;

async function benchBackend(backend: 'sqlite' | 'postgres', file: string, realistic: string): Promise<Row[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'vouch-bench-api-'));
  const pgDb = backend === 'postgres' ? await pgDatabase() : null;
  // Asked for and unreachable is a failure, not a skip: a green run must have measured it.
  if (backend === 'postgres' && !pgDb) throw new Error(`postgres: ${PG_URL} is not reachable (set BENCH_PG_URL, or BENCH_BACKENDS=sqlite)`);
  const db = await openDatabase({ databaseUrl: pgDb?.url, dataDir });
  let server: Server | undefined;
  let hello: Server | undefined;
  try {
    await db.migrate();
    const t0 = performance.now();
    const seeded = await seed(db);
    console.log(`${backend}: seeded ${ACCOUNTS} accounts × ${SESSIONS_PER_ACCOUNT} sessions, ${seeded.keys.length} keys, in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    server = await startServer({ VOUCH_DATA_DIR: dataDir, ...(pgDb ? { DATABASE_URL: pgDb.url } : {}) });
    hello = await startHello();
    const health: Target[] = [{ path: '/healthz', key: null }];
    const list = listTargets(seeded.keys);
    const report = reportTargets(seeded, seeded.keys);
    // Warm-up: JIT, connection pools, prepared statements, page cache.
    await load(hello.base, [{ path: '/', key: null }], 3);
    await load(server.base, health, 3);
    await load(server.base, list, 2);
    await load(server.base, report, 2);
    const rounds: { hello: Load; health: Load; list: Load; report: Load }[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const round = {
        hello: await load(hello.base, [{ path: '/', key: null }]),
        health: await load(server.base, health),
        list: await load(server.base, list),
        report: await load(server.base, report),
      };
      console.log(`${backend} round ${r + 1}: hello ${round.hello.rps.toFixed(0)}, healthz ${round.health.rps.toFixed(0)}, list ${round.list.rps.toFixed(0)} (p99 ${round.list.p99}), report ${round.report.rps.toFixed(0)} (p99 ${round.report.p99}) req/s`);
      rounds.push(round);
    }
    await stopProcess(hello);
    const up = await upload(server, seeded.keys[0], file);
    // The same data, served by a process that also analyses (its queued upload is analysed first).
    await stopProcess(server);
    server = await startServer({ VOUCH_DATA_DIR: dataDir, VOUCH_ROLE: 'all', ...(pgDb ? { DATABASE_URL: pgDb.url } : {}) });
    for (let i = 0; i < 1200 && (await sessionStatus(server, seeded.keys[0], up.id)) === 'analyzing'; i++) await sleep(250);
    const analysing = await underAnalysis(server, seeded.keys, realistic);
    const ratios = stat(analysing.map((a) => a.busy.p99 / a.idle.p99));
    const target = TARGETS[backend];
    const row = (what: string, pick: (x: (typeof rounds)[number]) => Load, base: ((x: (typeof rounds)[number]) => Load) | null, ratioTarget?: number, p99Target?: number): Row => {
      const ratio = base ? stat(rounds.map((x) => pick(x).rps / base(x).rps)) : undefined;
      const p99 = stat(rounds.map((x) => pick(x).p99));
      const errors = rounds.reduce((n, x) => n + pick(x).errors, 0);
      return {
        backend, what, rps: stat(rounds.map((x) => pick(x).rps)), ratio, ratioTarget, p99, p99Target,
        ok: errors === 0 && (ratio === undefined || ratioTarget === undefined || ratio.median >= ratioTarget) && (p99Target === undefined || p99.median < p99Target),
      };
    };
    return [
      row('GET / (bare Fastify)', (x) => x.hello, null),
      row('GET /healthz (÷ bare Fastify)', (x) => x.health, (x) => x.hello, HEALTHZ_TARGET),
      row('GET /v1/sessions (÷ /healthz)', (x) => x.list, (x) => x.health, target.ratio, target.p99),
      row('GET /v1/sessions/{id}/report (÷ /healthz)', (x) => x.report, (x) => x.health, target.ratio, target.p99),
      { backend, what: 'POST /v1/sessions 100 MB', mbps: up.mbps, rssGrowthMb: up.growth, ok: up.growth < 150 },
      {
        backend, what: 'GET /v1/sessions while analysing 100 MB (p99 ÷ idle p99)', rps: stat(analysing.map((a) => a.busy.rps)), ratio: ratios, ratioTarget: ANALYSIS_TARGET,
        p99: stat(analysing.map((a) => a.busy.p99)), ok: analysing.every((a) => a.covered && a.busy.errors === 0) && ratios.median <= ANALYSIS_TARGET, lowerIsBetter: true,
      },
      { backend, what: '  the same, idle', rps: stat(analysing.map((a) => a.idle.rps)), p99: stat(analysing.map((a) => a.idle.p99)), ok: true },
    ];
  } finally {
    await stopProcess(hello);
    await stopProcess(server);
    await db.close();
    await pgDb?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function printTable(rows: Row[]): void {
  const f = (n: number | undefined, d = 1) => (n === undefined ? '' : n.toFixed(d));
  const spread = (x: Stat | undefined, d: number) => (x === undefined ? '' : `${f(x.median, d)} (${f(x.min, d)}–${f(x.max, d)})`);
  const table = rows.map((r) => ({
    backend: r.backend, route: r.what, 'req/s median (min–max)': spread(r.rps, 0),
    ratio: spread(r.ratio, 2), 'ratio target': r.ratioTarget === undefined ? '' : `${r.lowerIsBetter ? '≤' : '≥'} ${r.ratioTarget}`,
    'p99 ms': spread(r.p99, 0), 'p99 target': r.p99Target === undefined ? '' : `< ${r.p99Target}`,
    'MB/s': f(r.mbps), 'RSS growth MB (<150)': f(r.rssGrowthMb), target: r.ok ? 'met' : 'MISSED',
  }));
  console.table(table);
}

async function main(): Promise<void> {
  const backends = (process.env.BENCH_BACKENDS ?? 'sqlite,postgres').split(',') as ('sqlite' | 'postgres')[];
  const file = await logFile();
  const realistic = await generate('api-claude-100mb.jsonl', 'claude-code', UPLOAD_BYTES);
  process.on('exit', () => generated.forEach((f) => rmSync(f, { force: true })));
  const rows: Row[] = [];
  for (const b of backends) {
    try {
      rows.push(...(await benchBackend(b, file, realistic)));
    } catch (error) {
      console.error(`${b}: ${error instanceof Error ? error.message : String(error)}`);
      rows.push({ backend: b, what: 'not measured', ok: false });
    }
  }
  console.log(`\n${CONNECTIONS} connections, ${DURATION} s per measurement, ${ROUNDS} rounds; ${ACCOUNTS} accounts × ${SESSIONS_PER_ACCOUNT} sessions, ${KEYS_PER_ACCOUNT} keys each`);
  printTable(rows);
  if (rows.some((r) => !r.ok)) process.exitCode = 1;
}

await main();
