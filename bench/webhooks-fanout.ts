// Webhook fan-out benchmark: N completed analyses × R loopback receivers, through the real
// outbox, job queue, runner, `deliver` processor and SSRF-guarded client.
//
//   node --import tsx bench/webhooks-fanout.ts [--sessions 1000] [--receivers 3] [--concurrency 16]
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --import tsx bench/webhooks-fanout.ts
//     (with DATABASE_URL a scratch database is created and dropped; otherwise SQLite in a temp dir)
//
// Reports deliveries per second and checks that nothing was lost or sent twice: every receiver
// must have seen each of its delivery ids exactly once, and every delivery must be `delivered`.
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { openDatabase } from '../src/adapters/db/database.ts';
import type { Db } from '../src/adapters/db/database.ts';
import { createAccountWithUser } from '../src/adapters/db/repositories/accounts.ts';
import { countJobs, createJobRunner } from '../src/adapters/jobs/index.ts';
import { createOutboundClient, createSsrfPolicy } from '../src/adapters/outbound/index.ts';
import { addWebhook, DELIVER_JOB_KIND, enqueueAnalysisComplete } from '../src/services/webhooks/index.ts';
import { deliveryService } from '../src/services/webhooks/delivery.ts';
import { deliverProcessor } from '../src/worker/deliver-webhook.ts';

const { values: args } = parseArgs({
  options: {
    sessions: { type: 'string', default: '1000' },
    receivers: { type: 'string', default: '3' },
    concurrency: { type: 'string', default: '16' },
  },
});
const SESSIONS = Number(args.sessions);
const RECEIVERS = Number(args.receivers);
const CONCURRENCY = Number(args.concurrency);

interface CountingReceiver {
  server: Server;
  url: string;
  seen: Map<string, number>;
}

async function startReceiver(): Promise<CountingReceiver> {
  const seen = new Map<string, number>();
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const id = String(req.headers['x-service-delivery']);
      seen.set(id, (seen.get(id) ?? 0) + 1);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, seen };
}

async function openScratchDb(): Promise<{ db: Db; cleanup(): Promise<void> }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'vouch-bench-'));
  const admin = process.env.DATABASE_URL;
  let drop = async () => {};
  let url: string | undefined;
  if (admin) {
    const name = `vouch_bench_${randomBytes(4).toString('hex')}`;
    const run = async (q: string) => {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(q).finally(() => c.end());
    };
    await run(`CREATE DATABASE ${name}`);
    const u = new URL(admin);
    u.pathname = `/${name}`;
    url = u.href;
    drop = () => run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
  const db = await openDatabase({ databaseUrl: url, dataDir, poolSize: CONCURRENCY + 4 });
  await db.migrate();
  return {
    db,
    async cleanup() {
      await db.close();
      await drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function enqueueCompletions(db: Db, accountId: string): Promise<number> {
  const t0 = performance.now();
  for (let i = 0; i < SESSIONS; i++) {
    const sessionId = `ses_bench${String(i).padStart(6, '0')}`;
    await db.kysely.transaction().execute((trx) =>
      enqueueAnalysisComplete(trx, {
        accountId,
        session: { id: sessionId, agent: 'claude-code', repo: 'acme/bench', branch: 'main' },
        report: {
          report_id: `rep_bench${i}`, trust_score: 90, outcome: 'Clear', headline: 'Nothing to flag', reason: 'No findings',
          summary: 'Ran 12 commands, changed 3 files.', findings_count: { critical: 0, warning: 0, info: 2 },
        },
        reportUrl: `http://127.0.0.1/reports/${sessionId}`,
      }),
    );
  }
  return performance.now() - t0;
}

function verify(receivers: CountingReceiver[], statuses: Record<string, number>): string[] {
  const problems: string[] = [];
  receivers.forEach((r, i) => {
    const dupes = [...r.seen.values()].filter((n) => n > 1).length;
    if (r.seen.size !== SESSIONS) problems.push(`receiver ${i}: ${r.seen.size} distinct deliveries, expected ${SESSIONS}`);
    if (dupes > 0) problems.push(`receiver ${i}: ${dupes} delivery ids received more than once`);
  });
  if ((statuses.delivered ?? 0) !== SESSIONS * RECEIVERS) problems.push(`delivery statuses: ${JSON.stringify(statuses)}`);
  return problems;
}

async function main(): Promise<void> {
  const { db, cleanup } = await openScratchDb();
  const receivers = await Promise.all(Array.from({ length: RECEIVERS }, startReceiver));
  const policy = createSsrfPolicy('127.0.0.0/8');
  const { account } = await createAccountWithUser(db.kysely, { name: 'bench', email: 'bench@example.test', passwordHash: 'x' });
  for (const r of receivers) await addWebhook(db.kysely, { accountId: account.id, url: r.url, secret: 'whsec_' + randomBytes(32).toString('base64') }, { policy });

  const enqueueMs = await enqueueCompletions(db, account.id);
  const client = createOutboundClient({ policy, timeoutMs: 10_000, connectionsPerOrigin: CONCURRENCY });
  const runner = createJobRunner({
    db,
    owner: 'bench',
    concurrency: CONCURRENCY,
    pollMs: 20,
    processors: { [DELIVER_JOB_KIND]: deliverProcessor(deliveryService({ db, client, retryDelaysMs: [1000, 2000, 3000], leaseMs: 30_000, version: 'bench' })) },
  });
  const t0 = performance.now();
  runner.start();
  const total = SESSIONS * RECEIVERS;
  while ((await countJobs(db, { kind: DELIVER_JOB_KIND })) > 0) await new Promise((r) => setTimeout(r, 25));
  const sendMs = performance.now() - t0;
  await runner.stop();
  await client.close();

  const rows = await db.kysely.selectFrom('deliveries').select(['status']).select((eb) => eb.fn.countAll<number>().as('n')).groupBy('status').execute();
  const statuses = Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
  const problems = verify(receivers, statuses);
  console.log(JSON.stringify({
    database: db.dialect,
    sessions: SESSIONS,
    receivers: RECEIVERS,
    deliveries: total,
    concurrency: CONCURRENCY,
    enqueue_ms: Math.round(enqueueMs),
    deliver_ms: Math.round(sendMs),
    deliveries_per_second: Math.round(total / (sendMs / 1000)),
    lost_or_duplicated: problems.length === 0 ? 'none' : problems,
  }, null, 2));
  for (const r of receivers) {
    r.server.closeAllConnections();
    await new Promise((res) => r.server.close(res));
  }
  await cleanup();
  if (problems.length > 0) process.exitCode = 1;
}

await main();
