// Service objects over a fresh, migrated SQLite database in a temp directory (or PostgreSQL when
// VOUCH_TEST_DB says so), wired by the real composition root with test stand-ins for what
// reaches outside (the analyser, DNS): for the specs beside src/services/*, which test the use
// cases without HTTP.
import { loadConfig } from '../../src/config.ts';
import type { Config } from '../../src/config.ts';
import type { Db } from '../../src/adapters/db/database.ts';
import type { Analyzer } from '../../src/adapters/analysis-pool/index.ts';
import type { Resolver } from '../../src/adapters/outbound/index.ts';
import { createLogStore } from '../../src/adapters/logstore/index.ts';
import type { LogStore } from '../../src/adapters/logstore/index.ts';
import { wireServices } from '../../src/root/open.ts';
import type { Log, Services } from '../../src/services/index.ts';
import type { AcceptUploadInput, AcceptUploadResult } from '../../src/services/sessions.ts';
import { createTestDb } from './db.ts';
import { stubAnalyzer } from './app.ts';
import { countJobs } from '../../src/adapters/jobs/queue.ts';
import { ANALYZE_JOB } from '../../src/services/sessions.ts';
import { analyzeProcessor } from '../../src/worker/analyze.ts';

export interface ServiceFixture {
  services: Services;
  db: Db;
  logStore: LogStore;
  config: Config;
  /** Stores `content` as an upload of `accountId` and accepts it (session + analyze job). */
  upload(accountId: string, content?: string, extra?: Partial<AcceptUploadInput>): Promise<AcceptUploadResult>;
  /** Runs the queued analyze jobs through the real runner and the worker's processor until none is left. */
  analyzeAll(): Promise<void>;
  /** An account with its owner and an API key, through the accounts service. */
  account(email?: string): Promise<{ accountId: string; userId: string; apiKey: string; email: string }>;
  close(): Promise<void>;
}

export const FIXTURE_PASSWORD = 'correct horse battery staple';
let n = 0;

/** A logger that keeps its lines (level, fields, message) for specs that check what was logged. */
export function recordingLog(): Log & { lines: { level: string; obj: object; msg?: string }[] } {
  const lines: { level: string; obj: object; msg?: string }[] = [];
  const at = (level: string) => (obj: object, msg?: string) => void lines.push({ level, obj, msg });
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

export async function serviceFixture(opts: { env?: Record<string, string>; analyzer?: Analyzer; resolver?: Resolver; log?: Log } = {}): Promise<ServiceFixture> {
  const t = await createTestDb();
  const config = loadConfig({
    VOUCH_DATA_DIR: t.dataDir,
    VOUCH_PUBLIC_URL: 'http://vouch.test',
    VOUCH_WEBHOOK_ALLOW_CIDRS: '127.0.0.0/8',
    VOUCH_JOB_POLL_MS: '10',
    ...(t.databaseUrl ? { DATABASE_URL: t.databaseUrl } : {}),
    ...opts.env,
  });
  const logStore = await createLogStore(t.db, t.dataDir, config.logStore);
  const services = await wireServices(config, t.db, { logStore, analyzer: opts.analyzer ?? stubAnalyzer, resolver: opts.resolver, log: opts.log, metrics: false, mailer: null });
  return {
    services, db: t.db, logStore, config,
    async account(email = `member${++n}-${Date.now()}@example.test`) {
      const a = await services.accounts.createAccount({ email, password: FIXTURE_PASSWORD });
      return { ...a, email };
    },
    async upload(accountId, content = '{"type":"user","message":{"content":"hello"}}\n', extra = {}) {
      const sink = await services.sessions.logStore.beginUpload();
      await sink.write(Buffer.from(content));
      return services.sessions.acceptUpload({ accountId, sink, filename: 'session.jsonl', agentHint: null, repo: null, idempotencyKey: null, maxAttempts: 3, ...extra });
    },
    async analyzeAll() {
      const runner = services.jobs({ owner: 'spec', concurrency: 1, processors: { [ANALYZE_JOB]: analyzeProcessor(services.analysis) } });
      runner.start();
      const deadline = Date.now() + 60_000;
      while ((await countJobs(t.db, { kind: ANALYZE_JOB })) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      await runner.stop();
      if ((await countJobs(t.db, { kind: ANALYZE_JOB })) > 0) throw new Error('analyzeAll: analyze jobs still queued after 60 s');
    },
    async close() {
      await services.close();
      await t.cleanup();
    },
  };
}
