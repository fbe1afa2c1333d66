// `npm run bench:api`: the HTTP API under load, on loopback, for each backend (SQLite, and
// PostgreSQL when BENCH_PG_URL / postgres://postgres@127.0.0.1:5432/postgres answers).
//
// One account holds 10,000 sessions (inserted through the repositories), 200 of them complete
// with a realistic report. `vouch serve` runs as a child process (VOUCH_ROLE=api, so no analysis
// competes for the CPU); autocannon drives it from this process with 50 connections:
//   GET /healthz                          the baseline: a trivial route of the same app
//   GET /v1/sessions                      auth + count + page of 20 from 10,000
//   GET /v1/sessions/{id}/report          auth + the stored report JSON
// and a generated 100 MB log is uploaded while the server's RSS is sampled from /proc.
// Targets: req/s ratio to /healthz >= 0.4, p99 < 50 ms, RSS growth during the upload < 150 MB.
// Not a test: it prints a table. BENCH_DURATION (seconds per route, default 10), BENCH_BACKENDS.
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
import { newId, nowIso } from '../src/services/ids.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SESSIONS = 10_000;
const WITH_REPORT = 200;
const CONNECTIONS = 50;
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const UPLOAD_BYTES = 100 * 1024 * 1024;
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const MB = 1024 * 1024;

interface Row {
  backend: string;
  what: string;
  rps?: number;
  ratio?: number;
  p99?: number;
  mbps?: number;
  rssGrowthMb?: number;
  ok: boolean;
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

async function seed(db: Db): Promise<{ key: string; reportIds: string[] }> {
  const { accountId, apiKey } = await createAccount(db, { email: `bench-${Date.now()}@example.test`, password: 'bench password' });
  const reportIds: string[] = [];
  const base = Date.now() - SESSIONS * 1000;
  await db.kysely.transaction().execute(async (trx) => {
    for (let i = 0; i < SESSIONS; i++) {
      const id = newId('ses');
      const complete = i >= SESSIONS - WITH_REPORT;
      const reportId = complete ? newId('rep') : null;
      await insertSession(trx, {
        id, account_id: accountId, status: complete ? 'complete' : 'analyzing', agent_hint: null, agent: 'claude-code', repo: `acme/repo-${i % 20}`,
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
  // A live database has statistics (autovacuum/analyze would have run after 10,000 inserts).
  await sql`${sql.raw(db.dialect === 'postgres' ? 'vacuum analyze' : 'analyze')}`.execute(db.kysely);
  return { key: apiKey, reportIds };
}

interface Server {
  proc: ChildProcess;
  base: string;
}

async function startServer(env: Record<string, string>): Promise<Server> {
  const port = await freePort();
  const proc = spawn(process.execPath, [join(ROOT, 'bin/vouch.mjs'), 'serve'], {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', VOUCH_ROLE: 'api', VOUCH_LOG_LEVEL: 'info', VOUCH_RATE_LIMIT_MAX: '1000000000', VOUCH_MAX_UPLOAD_BYTES: String(2 * UPLOAD_BYTES) },
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

async function load(url: string, key: string | null, paths?: string[]): Promise<{ rps: number; p99: number; errors: number }> {
  let n = 0;
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: DURATION,
    headers: key ? { authorization: `Bearer ${key}` } : {},
    requests: paths ? [{ setupRequest: (req) => ({ ...req, path: paths[n++ % paths.length] }) }] : undefined,
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

async function upload(server: Server, key: string, file: string): Promise<{ mbps: number; growth: number }> {
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
  return { mbps: UPLOAD_BYTES / MB / seconds, growth: peak - baseline };
}

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

async function benchBackend(backend: 'sqlite' | 'postgres', file: string): Promise<Row[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'vouch-bench-api-'));
  const pgDb = backend === 'postgres' ? await pgDatabase() : null;
  if (backend === 'postgres' && !pgDb) {
    console.log(`postgres: skipped (${PG_URL} not reachable)`);
    return [];
  }
  const db = await openDatabase({ databaseUrl: pgDb?.url, dataDir });
  let server: Server | undefined;
  try {
    await db.migrate();
    const t0 = performance.now();
    const { key, reportIds } = await seed(db);
    console.log(`${backend}: seeded ${SESSIONS} sessions in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    server = await startServer({ VOUCH_DATA_DIR: dataDir, ...(pgDb ? { DATABASE_URL: pgDb.url } : {}) });
    const health = await load(`${server.base}/healthz`, null);
    const list = await load(`${server.base}/v1/sessions`, key);
    const report = await load(`${server.base}/v1/sessions`, key, reportIds.map((id) => `/v1/sessions/${id}/report`));
    const up = await upload(server, key, file);
    const row = (what: string, r: { rps: number; p99: number; errors: number }, baseline: boolean): Row => ({
      backend, what, rps: r.rps, p99: r.p99, ratio: baseline ? undefined : r.rps / health.rps,
      ok: r.errors === 0 && (baseline || (r.rps / health.rps >= 0.4 && r.p99 < 50)),
    });
    return [
      row('GET /healthz (baseline)', health, true),
      row('GET /v1/sessions', list, false),
      row('GET /v1/sessions/{id}/report', report, false),
      { backend, what: 'POST /v1/sessions 100 MB', mbps: up.mbps, rssGrowthMb: up.growth, ok: up.growth < 150 },
    ];
  } finally {
    server?.proc.kill('SIGTERM');
    if (server) await new Promise((r) => server?.proc.once('exit', r));
    await db.close();
    await pgDb?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function printTable(rows: Row[]): void {
  const f = (n: number | undefined, d = 1) => (n === undefined ? '' : n.toFixed(d));
  const table = rows.map((r) => ({
    backend: r.backend, route: r.what, 'req/s': f(r.rps, 0), 'ratio (>=0.4)': f(r.ratio, 2), 'p99 ms (<50)': f(r.p99, 0),
    'MB/s': f(r.mbps), 'RSS growth MB (<150)': f(r.rssGrowthMb), target: r.ok ? 'met' : 'MISSED',
  }));
  console.table(table);
}

async function main(): Promise<void> {
  const backends = (process.env.BENCH_BACKENDS ?? 'sqlite,postgres').split(',') as ('sqlite' | 'postgres')[];
  const file = await logFile();
  const rows: Row[] = [];
  for (const b of backends) rows.push(...(await benchBackend(b, file)));
  console.log(`\n${CONNECTIONS} connections, ${DURATION} s per route, ${SESSIONS} sessions in one account`);
  printTable(rows);
  if (rows.some((r) => !r.ok)) process.exitCode = 1;
}

await main();
