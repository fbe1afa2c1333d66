// Scale-out mode through a database that restarts, goes away for a while, and processes that
// are killed: two API processes (VOUCH_ROLE=api) and two workers on a PostgreSQL cluster of the
// test's own, uploads streamed with idempotency keys by clients that retry as documented
// (503 → same request after a pause; a refused connection → the other API process), and a
// webhook receiver that fails one first attempt in five. During the run: `pg_ctl restart -m
// fast`, a stop of VOUCH_FAULTS_PG_DOWN_MS (15 s), `kill -9` of a worker and of an API process
// (each replaced, as a supervisor would), and a third API process started while the database
// is stopped.
// Checked: no vouch process exits on its own (the one started during the stop comes up once the
// database is back); clients see only 202 or 503 (never 500 or another
// status, never a hang), and connection errors only from the API process that was killed; every
// upload is accepted once (one session per idempotency key, the same id on every replay);
// every session gets its report, and exactly one webhook delivery id, which is delivered; the
// API processes log no "request failed" (the 500 path), and each outage at error level at most
// a few times per process, not per request.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../src/adapters/db/database.ts';
import type { Db } from '../../src/adapters/db/database.ts';
import { createAccount } from '../../src/services/accounts.ts';
import { addWebhook } from '../../src/services/webhooks/registry.ts';
import { createSsrfPolicy } from '../../src/adapters/outbound/index.ts';
import { claudeLog } from '../helpers/claude-log.ts';
import { PgCluster, errorLines, sleep, startVouch, waitFor } from './harness.ts';
import type { VouchProcess } from './harness.ts';

const UPLOADS = Number(process.env.VOUCH_FAULTS_UPLOADS ?? 40);
const CLIENTS = 4;
const PG_DOWN_MS = Number(process.env.VOUCH_FAULTS_PG_DOWN_MS ?? 15_000);
/** A request that gets no answer within this is a hang (a failure), not a slow answer. */
const HANG_MS = 60_000;

let pg: PgCluster;
let db: Db;
let dataDir: string;
let receiver: Server;
let receiverUrl = '';
const procs: VouchProcess[] = [];

// The receiver: records every delivery id per session and whether it was answered 2xx. One
// first attempt in five is answered 500 (the delivery is retried with the same id).
const deliveries = new Map<string, Map<string, boolean>>();
let seenDeliveries = 0;
const firstSeen = new Set<string>();

before(async () => {
  pg = await PgCluster.create();
  dataDir = mkdtempSync(join(tmpdir(), 'vouch-faults-data-'));
  db = await openDatabase({ databaseUrl: pg.url(), dataDir });
  await db.migrate();
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const id = String(req.headers['x-service-delivery']);
      const session = (JSON.parse(Buffer.concat(chunks).toString()) as { session_id: string }).session_id;
      let first = false;
      if (!firstSeen.has(id)) {
        firstSeen.add(id);
        first = true;
        seenDeliveries++;
      }
      const fail = first && seenDeliveries % 5 === 0;
      const ids = deliveries.get(session) ?? new Map<string, boolean>();
      ids.set(id, (ids.get(id) ?? false) || !fail);
      deliveries.set(session, ids);
      res.writeHead(fail ? 500 : 200).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
});

after(async () => {
  for (const p of procs) await p.kill9();
  await db?.close();
  receiver?.closeAllConnections();
  await new Promise((r) => receiver?.close(r));
  pg?.destroy();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A process's readiness as a failure message shows it: the status, or why there was none. */
async function probe(port: number): Promise<string> {
  return fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(3000) }).then(async (r) => `${r.status} ${(await r.text()).slice(0, 300)}`, (e: unknown) => `no answer (${String((e as Error).name)})`);
}

type Outcome = { status: number; port: number } | { error: string; port: number };

test('PostgreSQL restarts and stops, a worker and an API process are killed: nothing accepted is lost or duplicated, no 500, no process dies', async (t) => {
  const account = await createAccount(db, { email: 'faults@example.test', password: 'correct horse battery staple' });
  await addWebhook(db.kysely, { accountId: account.accountId, url: receiverUrl, shape: 'A', secret: 'fault-secret' }, { policy: createSsrfPolicy('127.0.0.0/8') });

  const env = {
    DATABASE_URL: pg.url(), VOUCH_DATA_DIR: dataDir, VOUCH_ANALYSIS_POOL_SIZE: '1', VOUCH_JOB_POLL_MS: '200', VOUCH_JOB_LEASE_MS: '5000',
    VOUCH_WEBHOOK_ALLOW_CIDRS: '127.0.0.0/8', VOUCH_WEBHOOK_RETRY_DELAYS_MS: '300,1000,2000,4000', VOUCH_RATE_LIMIT_MAX: '100000', VOUCH_SHUTDOWN_TIMEOUT_MS: '2000',
  };
  const api = [await startVouch('api-1', 'serve', { ...env, VOUCH_ROLE: 'api' }), await startVouch('api-2', 'serve', { ...env, VOUCH_ROLE: 'api' })];
  const workers = [await startVouch('worker-1', 'worker', env), await startVouch('worker-2', 'worker', env)];
  procs.push(...api, ...workers);

  const outcomes: Outcome[] = [];
  const trace: string[] = []; // every answer with its time, printed on a failure
  const accepted = new Map<string, Set<string>>();
  let killedApiPort = -1;
  let next = 0;

  // One upload, retried as a client should until it is accepted: 503 → wait and resend the same
  // request (same Idempotency-Key); connection refused/reset → the other API process.
  async function uploadOne(i: number): Promise<void> {
    const key = `fault-upload-${i}`;
    const body = claudeLog([{ prompt: `fix bug number ${i}` }, { bash: `npm test -- --grep case${i}`, output: 'ok' }, { say: `Fixed ${i}.` }]);
    for (let tryNo = 0; ; tryNo++) {
      const target = api[(i + tryNo) % api.length];
      const form = new FormData();
      form.set('file', new Blob([body]), `s${i}.jsonl`);
      let outcome: Outcome;
      try {
        const r = await fetch(`http://127.0.0.1:${target.port}/v1/sessions`, {
          method: 'POST', body: form, headers: { authorization: `Bearer ${account.apiKey}`, 'idempotency-key': key }, signal: AbortSignal.timeout(HANG_MS),
        });
        const json = (await r.json()) as { id?: string };
        outcome = { status: r.status, port: target.port! };
        if (r.status === 202) {
          const ids = accepted.get(key) ?? new Set<string>();
          ids.add(String(json.id));
          accepted.set(key, ids);
        }
      } catch (error) {
        outcome = { error: (error as Error).name === 'TimeoutError' ? 'hang' : String((error as { cause?: { code?: string } }).cause?.code ?? error), port: target.port! };
      }
      outcomes.push(outcome);
      trace.push(`${new Date().toISOString()} upload ${i} try ${tryNo} → ${JSON.stringify(outcome)}`);
      if ('status' in outcome && outcome.status === 202) return;
      if (('status' in outcome && outcome.status !== 503) || ('error' in outcome && outcome.error === 'hang')) {
        t.diagnostic(`upload ${i}: ${JSON.stringify(outcome)}`);
        return; // a failure: recorded, asserted below
      }
      await sleep(500);
    }
  }

  async function client(): Promise<void> {
    while (next < UPLOADS) await uploadOne(next++);
  }

  const acceptedCount = () => accepted.size;
  async function faults(): Promise<void> {
    await waitFor(() => acceptedCount() >= UPLOADS * 0.2, '20 % of uploads accepted', 120_000);
    pg.restart();
    t.diagnostic(`PostgreSQL restarted (-m fast) after ${acceptedCount()} uploads`);
    await waitFor(() => acceptedCount() >= UPLOADS * 0.4, '40 % of uploads accepted', 120_000);
    pg.stop();
    const stoppedAt = Date.now();
    // A process started while the database is down waits for it instead of exiting.
    // Listed at once: killed after the test, and shown in a failure, even if it never comes up.
    const late = startVouch('api-3-started-during-outage', 'serve', { ...env, VOUCH_ROLE: 'api' }, (p) => procs.push(p));
    await sleep(PG_DOWN_MS);
    pg.start();
    const back = Date.now();
    const before = acceptedCount();
    t.diagnostic(`PostgreSQL stopped for ${back - stoppedAt} ms`);
    await waitFor(() => acceptedCount() > before, 'an upload accepted after PostgreSQL came back', 120_000, 20);
    t.diagnostic(`first upload accepted ${Date.now() - back} ms after PostgreSQL came back`);
    await late;
    await waitFor(() => acceptedCount() >= UPLOADS * 0.6, '60 % of uploads accepted', 120_000);
    await workers[0].kill9();
    workers[0] = await startVouch('worker-1b', 'worker', env);
    procs.push(workers[0]);
    await waitFor(() => acceptedCount() >= UPLOADS * 0.75, '75 % of uploads accepted', 120_000);
    killedApiPort = api[1].port!;
    await api[1].kill9();
    // Clients move to the remaining process until the replacement is up.
    const replacement = await startVouch('api-2b', 'serve', { ...env, VOUCH_ROLE: 'api' });
    procs.push(replacement);
    api[1] = replacement;
  }

  // On a failure, say what each process was doing: the run's only witnesses.
  const explained = faults().catch(async (error: unknown) => {
    const states = await Promise.all(procs.map(async (p) => `${p.name}: ${p.unexpectedExit ? `EXITED ${JSON.stringify(p.unexpectedExit)}` : 'running'}${p.port ? `, /readyz ${await probe(p.port)}` : ''}\n${await p.snapshot()}\n${p.output().slice(-3000)}`));
    throw new Error(`${String(error)}\n${states.join('\n---\n')}\n--- last answers\n${trace.slice(-30).join('\n')}\n--- PostgreSQL log\n${pg.logTail()}`);
  });
  await Promise.all([...Array.from({ length: CLIENTS }, client), explained]);

  const bad = outcomes.filter((o) => ('status' in o ? o.status !== 202 && o.status !== 503 : o.error === 'hang' || o.port !== killedApiPort));
  assert.deepEqual(bad, [], 'clients saw only 202 or 503, and connection errors only from the killed API process');
  t.diagnostic(`answers: ${outcomes.filter((o) => 'status' in o && o.status === 202).length} × 202, ${outcomes.filter((o) => 'status' in o && o.status === 503).length} × 503, ${outcomes.filter((o) => 'error' in o).length} connection errors`);
  assert.equal(accepted.size, UPLOADS, 'every upload was accepted');
  for (const [key, ids] of accepted) assert.equal(ids.size, 1, `${key}: every replay answered the same session`);

  const sessionIds = [...accepted.values()].map((ids) => [...ids][0]);
  await waitFor(async () => {
    const rows = await db.kysely.selectFrom('sessions').select(['id', 'status']).where('account_id', '=', account.accountId).execute().catch(() => []);
    return rows.length === UPLOADS && rows.every((r) => r.status === 'complete');
  }, 'every session analysed', 180_000, 250);
  const rows = await db.kysely.selectFrom('sessions').select('id').where('account_id', '=', account.accountId).execute();
  assert.deepEqual(rows.map((r) => r.id).sort(), [...sessionIds].sort(), 'one session per idempotency key, no other');
  const reports = await db.kysely.selectFrom('reports').select('session_id').where('session_id', 'in', sessionIds).execute();
  assert.equal(new Set(reports.map((r) => r.session_id)).size, UPLOADS, 'every session has its report');

  await waitFor(() => sessionIds.every((id) => [...(deliveries.get(id)?.values() ?? [])].some(Boolean)), 'every session\'s webhook delivered', 120_000, 100);
  for (const id of sessionIds) assert.equal(deliveries.get(id)?.size, 1, `${id}: one delivery id (retries reuse it)`);

  for (const p of procs) assert.equal(p.unexpectedExit, null, `${p.name} exited on its own: ${p.output().slice(-3000)}`);
  for (const p of procs.filter((p) => p.port !== null)) {
    const errors = errorLines(p.output());
    assert.deepEqual(errors.filter((e) => e.msg === 'request failed'), [], `${p.name}: no request failed with a 500`);
    // Two outages (restart, stop): a handful of error lines, not one per refused request.
    assert.ok(errors.length <= 6, `${p.name}: outages logged at error level ${errors.length} times: ${errors.map((e) => e.msg).join(' | ')}`);
  }
});
