// A worker stopped with SIGTERM while a webhook request of its own is still waiting for the
// receiver, past VOUCH_SHUTDOWN_TIMEOUT_MS: it abandons the request and hands the delivery back,
// and the abandoned attempt is not a failed attempt: no retry budget spent, no retry delay (the
// only retry is 10 minutes away here) — the next worker delivers it at once.
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
import { PgCluster, startVouch, waitFor } from './harness.ts';
import type { VouchProcess } from './harness.ts';

let pg: PgCluster;
let db: Db;
let dataDir: string;
let receiver: Server;
const procs: VouchProcess[] = [];
const hits: string[] = [];
const hanging: ServerResponse[] = [];

before(async () => {
  pg = await PgCluster.create();
  dataDir = mkdtempSync(join(tmpdir(), 'vouch-faults-sigterm-'));
  db = await openDatabase({ databaseUrl: pg.url(), dataDir });
  await db.migrate();
  receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      hits.push(String(req.headers['x-service-delivery']));
      // The first request never gets an answer: the worker is stopped while it waits.
      if (hits.length === 1) hanging.push(res);
      else res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
});

after(async () => {
  for (const p of procs) await p.kill9();
  for (const res of hanging) res.destroy();
  await db?.close();
  receiver?.closeAllConnections();
  await new Promise((r) => receiver?.close(r));
  pg?.destroy();
  rmSync(dataDir, { recursive: true, force: true });
});

test('SIGTERM during a webhook request that outlives the shutdown timeout: handed back, delivered by the next worker, no retry budget spent', async () => {
  const { accountId } = await createAccount(db, { email: 'sigterm@example.test', password: 'correct horse battery staple' });
  const url = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
  await addWebhook(db.kysely, { accountId, url, shape: 'A', secret: 'fault-secret' }, { policy: createSsrfPolicy('127.0.0.0/8') });
  const env = {
    DATABASE_URL: pg.url(), VOUCH_DATA_DIR: dataDir, VOUCH_JOB_POLL_MS: '200', VOUCH_JOB_LEASE_MS: '5000', VOUCH_WEBHOOK_ALLOW_CIDRS: '127.0.0.0/8',
    VOUCH_WEBHOOK_RETRY_DELAYS_MS: '600000', VOUCH_WEBHOOK_TIMEOUT_MS: '60000', VOUCH_SHUTDOWN_TIMEOUT_MS: '500', VOUCH_WORKER_QUEUES: 'deliver',
  };
  const first = await startVouch('worker-1', 'worker', env);
  procs.push(first);
  const [id] = await db.kysely.transaction().execute((trx) => enqueueAnalysisComplete(trx, completion(accountId)));
  await waitFor(() => hits.length === 1, 'the first request at the receiver', 60_000);
  first.proc.kill('SIGTERM');
  const code = await new Promise<number | null>((r) => first.proc.once('exit', (c) => r(c)));
  assert.equal(code, 0, first.output().slice(-2000));

  procs.push(await startVouch('worker-2', 'worker', env));
  // Counted as a failed attempt, the delivery would wait for its retry, 10 minutes away.
  await waitFor(async () => {
    const row = await db.kysely.selectFrom('deliveries').select('status').where('id', '=', id).executeTakeFirst();
    return row?.status === 'delivered';
  }, 'the delivery delivered by the next worker', 60_000);
  const attempts = await db.kysely.selectFrom('delivery_attempts').select(['attempt_no', 'error_class', 'status_code']).where('delivery_id', '=', id).orderBy('attempt_no').execute();
  assert.deepEqual(attempts.map((a) => [a.attempt_no, a.error_class, a.status_code]), [[1, 'interrupted', null], [2, null, 200]]);
  assert.deepEqual(hits, [id, id], 'sent again with the same delivery id');
});
