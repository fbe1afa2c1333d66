// Webhook deliveries in flight when PostgreSQL goes away, with the workers alive: two `vouch
// worker` processes on a cluster of the test's own; the receiver holds every first request until
// all of them have arrived, then the database is stopped (longer than the job lease, or a
// restart's moment), the receiver answers 200 meanwhile, and the database comes back.
// Checked: every delivery reaches its receiver exactly once (the workers keep the answers and
// record them when the database is back, instead of treating the blip as a crash and sending
// again), each is `delivered` after one attempt with the receiver's status, and no attempt is
// closed as interrupted; no worker exits.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { Server, ServerResponse } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../src/adapters/db/database.ts';
import type { Db } from '../../src/adapters/db/database.ts';
import { createAccount } from '../../src/services/accounts.ts';
import { addWebhook } from '../../src/services/webhooks/registry.ts';
import { enqueueAnalysisComplete } from '../../src/services/webhooks/outbox.ts';
import { createSsrfPolicy } from '../../src/adapters/outbound/index.ts';
import { completion } from '../integration/webhooks-helpers.ts';
import { PgCluster, sleep, startVouch, waitFor } from './harness.ts';
import type { VouchProcess } from './harness.ts';

const IN_FLIGHT = 6;
const LEASE_MS = 2_000;

let pg: PgCluster;
let db: Db;
let dataDir: string;
let receiver: Server;
let receiverUrl = '';
let accountId = '';
const procs: VouchProcess[] = [];

/** Requests per delivery id, and the first requests held unanswered until released. */
const received = new Map<string, number>();
let held: ServerResponse[] = [];
let holding = false;

before(async () => {
  pg = await PgCluster.create();
  dataDir = mkdtempSync(join(tmpdir(), 'vouch-faults-hooks-'));
  db = await openDatabase({ databaseUrl: pg.url(), dataDir });
  await db.migrate();
  receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const id = String(req.headers['x-service-delivery']);
      received.set(id, (received.get(id) ?? 0) + 1);
      if (holding) held.push(res);
      else res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
  accountId = (await createAccount(db, { email: 'hooks-outage@example.test', password: 'correct horse battery staple' })).accountId;
  await addWebhook(db.kysely, { accountId, url: receiverUrl, shape: 'A', secret: 'fault-secret' }, { policy: createSsrfPolicy('127.0.0.0/8') });
  const env = {
    DATABASE_URL: pg.url(), VOUCH_DATA_DIR: dataDir, VOUCH_ANALYSIS_POOL_SIZE: '1', VOUCH_JOB_POLL_MS: '200', VOUCH_JOB_LEASE_MS: String(LEASE_MS),
    VOUCH_WEBHOOK_ALLOW_CIDRS: '127.0.0.0/8', VOUCH_WEBHOOK_RETRY_DELAYS_MS: '300,1000,2000', VOUCH_WEBHOOK_TIMEOUT_MS: '60000', VOUCH_DELIVERY_CONCURRENCY: '4',
  };
  procs.push(await startVouch('worker-1', 'worker', env), await startVouch('worker-2', 'worker', env));
});

after(async () => {
  for (const p of procs) await p.kill9();
  await db?.close();
  receiver?.closeAllConnections();
  await new Promise((r) => receiver?.close(r));
  pg?.destroy();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Queues IN_FLIGHT deliveries, waits until all are at the receiver, breaks the database, then answers 200. */
async function answerDuringOutage(breakDatabase: () => Promise<void>): Promise<string[]> {
  holding = true;
  held = [];
  const ids = await db.kysely.transaction().execute(async (trx) => {
    const all: string[] = [];
    for (let i = 0; i < IN_FLIGHT; i++) all.push(...(await enqueueAnalysisComplete(trx, completion(accountId))));
    return all;
  });
  await waitFor(() => held.length === IN_FLIGHT, `${IN_FLIGHT} deliveries at the receiver`, 60_000).catch((err: Error) => {
    err.message += ` (${held.length} arrived)`;
    return withWorkerLogs(err);
  });
  await breakDatabase();
  return ids;
}

async function settledOnce(t: { diagnostic(msg: string): void }, ids: string[]): Promise<void> {
  // Every delivery settled and no deliver job left: nothing can be sent any more.
  await waitFor(async () => {
    const rows = await db.kysely.selectFrom('deliveries').select('status').where('id', 'in', ids).execute().catch(() => []);
    const jobs = await db.kysely.selectFrom('jobs').select('id').where('kind', '=', 'deliver').execute().catch(() => [{ id: '?' }]);
    return rows.length === ids.length && rows.every((r) => r.status !== 'pending') && jobs.length === 0;
  }, 'every delivery settled', 120_000, 200).catch(withWorkerLogs);
  t.diagnostic(`requests per delivery: ${ids.map((id) => received.get(id)).join(', ')}`);
  const deliveries = await db.kysely.selectFrom('deliveries').select(['id', 'status', 'attempt_count']).where('id', 'in', ids).orderBy('id').execute();
  const attempts = await db.kysely.selectFrom('delivery_attempts').select(['delivery_id', 'attempt_no', 'status_code', 'error_class']).where('delivery_id', 'in', ids).orderBy('delivery_id').orderBy('attempt_no').execute();
  // What each delivery went through, in the failure message (CI prints only that).
  const story = ids.map((id) => {
    const d = deliveries.find((x) => x.id === id);
    const tries = attempts.filter((a) => a.delivery_id === id).map((a) => `${a.status_code ?? '-'}/${a.error_class ?? 'ok'}`).join(' ');
    return `${id}: ${received.get(id) ?? 0} request(s), ${d?.status} after ${d?.attempt_count} attempt(s) [${tries}]`;
  }).join('; ');
  try {
    assert.deepEqual(ids.map((id) => received.get(id)), ids.map(() => 1), `each delivery reached the receiver once — ${story}`);
    assert.deepEqual(ids.map((id) => { const d = deliveries.find((x) => x.id === id); return [d?.status, d?.attempt_count]; }), ids.map(() => ['delivered', 1]), `delivered on the first attempt — ${story}`);
    assert.deepEqual(attempts.map((a) => [a.status_code, a.error_class]), ids.map(() => [200, null]), `one attempt each, with the receiver's answer, none interrupted — ${story}`);
  } catch (err) {
    withWorkerLogs(err);
  }
  for (const p of procs) assert.equal(p.unexpectedExit, null, `${p.name} exited on its own: ${p.output().slice(-3000)}`);
}

/** Throws the failure again as a plain error whose message ends with the workers' webhook and job lines. */
function withWorkerLogs(err: unknown): never {
  const lines = procs.map((p) => `${p.name}:\n${p.output().split('\n').filter((l) => /webhook|outage|job|claim|lease/.test(l)).slice(-60).map((l) => l.slice(0, 400)).join('\n')}`).join('\n');
  // The server's own errors (a deadlock, a cancelled statement) say what the workers' lines cannot.
  const server = pg.logTail(200_000).split('\n').filter((l) => /ERROR|DETAIL|FATAL/.test(l) && !/terminating connection|shutting down|starting up/.test(l)).slice(-20).join('\n');
  throw new Error(`${(err as Error).message}\n${lines}\npostgres:\n${server}`, { cause: err });
}

test('PostgreSQL stopped for longer than the lease while the receivers answer: each delivery is sent once and recorded when the database is back', async (t) => {
  const ids = await answerDuringOutage(async () => {
    pg.stop();
    holding = false;
    for (const res of held) res.writeHead(200).end();
    await sleep(LEASE_MS * 3); // every lease lapses meanwhile
    pg.start();
  });
  await settledOnce(t, ids);
  const logs = procs.map((p) => p.output()).join('\n');
  assert.match(logs, /keeping the result until it is back/, 'the workers say they keep the answers');
});

test('PostgreSQL restarted while the receivers answer (a blip shorter than the lease): each delivery is sent once', async (t) => {
  const ids = await answerDuringOutage(async () => {
    // pg_ctl restart -m fast, in two halves so that the answers arrive in between.
    pg.stop();
    holding = false;
    for (const res of held) res.writeHead(200).end();
    await sleep(300);
    pg.start();
  });
  await settledOnce(t, ids);
});
