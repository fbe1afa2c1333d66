// The one way integration tests build the service: the real app (buildApp) over a fresh
// database from createTestDb() (SQLite or PostgreSQL by VOUCH_TEST_DB), driven with inject().
// Analysis runs through the real job runner and `analyze` processor; the analyser itself is a
// stub by default (fast, deterministic), or anything implementing Analyzer.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyBaseLogger, FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp, createLogger } from '../../src/app/app.ts';
import { loadConfig } from '../../src/config.ts';
import type { Config } from '../../src/config.ts';
import type { Db } from '../../src/adapters/db/database.ts';
import { createLogStore } from '../../src/adapters/logstore/index.ts';
import { S3_TEST_CREDENTIALS } from './s3.ts';
import type { LogStore } from '../../src/adapters/logstore/index.ts';
import { countJobs, createJobRunner } from '../../src/adapters/jobs/index.ts';
import type { Analyzer } from '../../src/adapters/analysis-pool/index.ts';
import type { Report } from '../../src/domain/model/report.ts';
import { createAccount } from '../../src/services/accounts.ts';
import type { Metrics, Services } from '../../src/services/index.ts';
import type { TxtResolver } from '../../src/services/ports.ts';
import { ANALYZE_JOB } from '../../src/services/sessions.ts';
import { wireServices } from '../../src/root/open.ts';
import { createAnalyzeProcessor } from './processors.ts';
import { createTestDb } from './db.ts';

export const PUBLIC_URL = 'http://vouch.test';
export const PASSWORD = 'correct horse battery staple';

export interface TestAccount {
  accountId: string;
  apiKey: string;
  email: string;
  password: string;
}

export interface UploadInput {
  filename?: string;
  content?: string | Buffer | null;
  fields?: Record<string, string>;
  headers?: Record<string, string>;
}

export interface TestApp {
  app: FastifyInstance;
  /** The service objects the app was built with (the composition root's, over this database). */
  services: Services;
  db: Db;
  logStore: LogStore;
  config: Config;
  metrics: Metrics;
  dataDir: string;
  account(email?: string): Promise<TestAccount>;
  upload(key: string, input?: UploadInput): Promise<LightMyRequestResponse>;
  /** What is stored anywhere: sessions, log files / uploads, temp files. For "nothing stored" checks. */
  stored(): Promise<{ sessions: number; tempFiles: number; logs: number }>;
  /** Runs queued analyze jobs through the real processor until none is left. */
  analyzeAll(analyzer?: Analyzer): Promise<void>;
  close(): Promise<void>;
}

let accounts = 0;

/** A minimal, valid report as the analyser would return it. */
export function stubReport(overrides: Partial<Report> = {}): Report {
  return {
    session_id: null, report_id: null, status: 'complete', analyzer_version: 'test', agent: 'claude-code', agent_detected: true,
    format: 'claude-code-transcript', confidence: 'high', repo: null, branch: 'main', cwd: '/work', models: [], agent_version: null,
    started_at: null, ended_at: null, duration_ms: null, trust_score: 72, outcome: 'Review', headline: 'Stub headline',
    reason: 'Stub reason.', summary: 'Stub summary.', findings_count: { critical: 0, warning: 1, info: 0 },
    findings: [{ id: 'f1', rule: 'stub.rule', category: 'integrity', severity: 'warning', title: 'Stub finding', detail: 'd', evidence: [], remediation: 'r' }],
    timeline: [{ index: 0, at: null, kind: 'prompt', actor: 'user', summary: 'hello <b>world</b>', tool: null, detail: null, status: null, finding_ids: [], duration_ms: null }],
    stats: { events: 1, prompts: 1, tool_calls: 0, commands: 0, failed_commands: 0, files_read: 0, files_written: 0, tokens: { input: 0, output: 0, cache_read: 0, cache_write: 0 }, subagents: 0, compactions: 0, skipped_lines: 0 },
    files: [], commands: [],
    ...overrides,
  };
}

/** Reads the whole log (so the stream is exercised) and returns stubReport(). */
export const stubAnalyzer: Analyzer = {
  async analyze(source) {
    for await (const chunk of source) void chunk;
    return stubReport();
  },
  async close() {},
};

/** A multipart body as a real client (undici's FormData) would send it. */
export async function multipart(form: FormData): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const req = new Request('http://x/', { method: 'POST', body: form });
  return { payload: Buffer.from(await req.arrayBuffer()), headers: { 'content-type': req.headers.get('content-type') as string } };
}

export function uploadForm(input: UploadInput = {}): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(input.fields ?? {})) form.append(k, v);
  if (input.content !== null) {
    const content = input.content ?? '{"type":"user"}\n';
    form.append('file', new Blob([typeof content === 'string' ? content : new Uint8Array(content)]), input.filename ?? 'session.jsonl');
  }
  return form;
}

/** A logger at `level` whose lines (JSON text) are kept in `lines`, for tests that read the log. */
export function capturedLogger(level: string): { logger: FastifyBaseLogger; lines: string[] } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { logger: createLogger(level, sink), lines };
}

export async function buildTestApp(env: Record<string, string> = {}, opts: { logger?: FastifyBaseLogger; resolveTxt?: TxtResolver } = {}): Promise<TestApp> {
  const t = await createTestDb();
  const config = loadConfig({
    VOUCH_DATA_DIR: t.dataDir,
    VOUCH_PUBLIC_URL: PUBLIC_URL,
    ...(t.databaseUrl ? { DATABASE_URL: t.databaseUrl } : {}),
    VOUCH_JOB_POLL_MS: '20',
    ...env,
  });
  // An s3:// store (env from startTestS3().env()) signs with the test server's keys.
  const logStore = await createLogStore(t.db, t.dataDir, config.logStore, { credentials: S3_TEST_CREDENTIALS });
  const services = await wireServices(config, t.db, { logStore, metrics: { defaultMetrics: false }, analyzer: stubAnalyzer, resolveTxt: opts.resolveTxt });
  const metrics = services.metrics as Metrics;
  const app = await buildApp({ services, logger: opts.logger ?? false });
  await app.ready();

  return {
    app, services, db: t.db, logStore, config, metrics, dataDir: t.dataDir,
    async account(email = `user${++accounts}-${Date.now()}@example.test`) {
      const a = await createAccount(t.db, { email, password: PASSWORD });
      return { accountId: a.accountId, apiKey: a.apiKey, email, password: PASSWORD };
    },
    async upload(key, input = {}) {
      const { payload, headers } = await multipart(uploadForm(input));
      return app.inject({ method: 'POST', url: '/v1/sessions', payload, headers: { authorization: `Bearer ${key}`, ...headers, ...input.headers } });
    },
    async stored() {
      const sessions = Number((await t.db.kysely.selectFrom('sessions').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
      if (logStore.kind === 's3') {
        const rows = await t.db.kysely.selectFrom('log_objects').select('state').execute();
        return { sessions, tempFiles: rows.filter((r) => r.state !== 'committed').length, logs: rows.filter((r) => r.state === 'committed').length };
      }
      if (t.db.dialect === 'postgres') {
        const logs = Number((await t.db.kysely.selectFrom('log_uploads').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
        return { sessions, tempFiles: 0, logs };
      }
      const list = async (dir: string) => readdir(join(t.dataDir, dir)).catch(() => [] as string[]);
      return { sessions, tempFiles: (await list('uploads')).length, logs: (await list('logs')).length };
    },
    async analyzeAll(analyzer = stubAnalyzer) {
      const processor = createAnalyzeProcessor({ db: t.db, logStore, analyzer, publicUrl: config.publicUrl, metrics });
      const runner = createJobRunner({ db: t.db, owner: 'test', processors: { [ANALYZE_JOB]: processor }, pollMs: 10, leaseMs: 5000 });
      runner.start();
      // Waits on the condition (no analyze job left); a job still there after the deadline is a
      // failure of the test, never a silent return with the work undone.
      const deadline = Date.now() + 60_000;
      let left = await countJobs(t.db, { kind: ANALYZE_JOB });
      while (left > 0 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 20));
        left = await countJobs(t.db, { kind: ANALYZE_JOB });
      }
      await runner.stop();
      if (left > 0) throw new Error(`analyzeAll: ${left} analyze job(s) still queued after 60 s (a processor that never finishes?)`);
    },
    async close() {
      await app.close();
      await services.close();
      await t.cleanup();
    },
  };
}
