// Crash safety of webhook delivery: a worker process is SIGKILLed (1) while a retry is pending
// and (2) in the middle of an attempt. Another worker must carry on with the SAME delivery id,
// once — the pending retry is a row, not a timer; an interrupted attempt is re-sent after the
// lease expires (at-least-once).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { createJobRunner, getJob } from '../../src/adapters/jobs/index.ts';
import type { JobRunner } from '../../src/adapters/jobs/index.ts';
import { createOutboundClient, createSsrfPolicy } from '../../src/adapters/outbound/index.ts';
import * as hooks from '../../src/services/webhooks/index.ts';
import { createDeliverProcessor } from '../helpers/processors.ts';
import { createTestDb } from '../helpers/db.ts';
import type { TestDb } from '../helpers/db.ts';
import { completion, newAccount, Receiver, until } from './webhooks-helpers.ts';

const CHILD = fileURLToPath(new URL('./webhooks-crash-child.ts', import.meta.url));
const policy = createSsrfPolicy('127.0.0.0/8');
let t: TestDb;
const receivers: Receiver[] = [];
const children: ChildProcess[] = [];

before(async () => {
  t = await createTestDb();
});
after(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  for (const r of receivers) await r.close();
  await t.cleanup();
});

async function worker(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
    env: { ...process.env, VOUCH_DATA_DIR: t.dataDir, DATABASE_URL: t.databaseUrl ?? '', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
    child.once('exit', (code) => reject(new Error(`worker exited early (${code})`)));
  });
  return child;
}

async function kill(child: ChildProcess): Promise<void> {
  child.kill('SIGKILL');
  if (child.exitCode === null && child.signalCode === null) await once(child, 'exit');
}

/** An in-process worker that takes over after the crash. */
function survivor(leaseMs: number): { runner: JobRunner; stop(): Promise<void> } {
  const client = createOutboundClient({ policy, timeoutMs: 5_000 });
  const runner = createJobRunner({
    db: t.db,
    owner: 'survivor',
    processors: { deliver: createDeliverProcessor({ db: t.db, client, retryDelaysMs: [300], leaseMs, version: 't' }) },
    pollMs: 20,
    leaseMs,
  });
  runner.start();
  return { runner, stop: async () => (await runner.stop(), await client.close()) };
}

async function setup(respond: (n: number) => number | 'hang') {
  const accountId = await newAccount(t.db.kysely);
  const rx = await new Receiver(respond).start();
  receivers.push(rx);
  await hooks.addWebhook(t.db.kysely, { accountId, url: rx.url, shape: 'A', secret: 'crash-secret' }, { policy });
  return { accountId, rx };
}

test('a retry pending when the worker is SIGKILLed is sent once, by another worker, with the same id', async () => {
  const { accountId, rx } = await setup((n) => (n === 1 ? 500 : 200));
  const child = await worker({ DELAYS: '1500', LEASE_MS: '1000' });
  const [id] = await t.db.kysely.transaction().execute((trx) => hooks.enqueueAnalysisComplete(trx, completion(accountId)));
  await until(async () => (await hooks.listAttempts(t.db.kysely, accountId, id)).some((a) => a.finished_at !== null), 10_000, 'first attempt recorded');
  await kill(child);
  const job = await t.db.kysely.selectFrom('jobs').selectAll().where('dedupe_key', '=', `deliver:${id}`).executeTakeFirstOrThrow();
  assert.equal(job.lease_owner, null, 'the retry is waiting, not leased');
  assert.ok(Date.parse(job.run_at) > Date.now(), 'and due later');
  assert.equal(rx.hits.length, 1);

  const s = survivor(1000);
  try {
    await until(async () => (await hooks.getDelivery(t.db.kysely, accountId, id)).status === 'delivered', 15_000, 'delivered after the crash');
    await sleep(1000);
    assert.equal(rx.hits.length, 2, 'sent once more, not once per worker');
    assert.equal(rx.hits[1].headers['x-service-delivery'], id);
    assert.equal(rx.hits[1].headers['x-service-attempt'], '2');
    assert.ok(rx.hits[1].raw.equals(rx.hits[0].raw));
    assert.ok(rx.hits[1].at - rx.hits[0].at >= 1400, 'not before the scheduled delay');
    assert.equal(await getJob(t.db, job.id), undefined);
  } finally {
    await s.stop();
  }
});

test('an attempt cut short by SIGKILL is re-sent after the lease expires, with the same id (at-least-once)', async () => {
  const { accountId, rx } = await setup((n) => (n === 1 ? 'hang' : 200));
  const child = await worker({ DELAYS: '300', LEASE_MS: '1000', TIMEOUT_MS: '20000' });
  const [id] = await t.db.kysely.transaction().execute((trx) => hooks.enqueueAnalysisComplete(trx, completion(accountId)));
  await until(() => rx.hits.length === 1, 10_000, 'first attempt in flight');
  await kill(child);
  const s = survivor(1000);
  try {
    await until(async () => (await hooks.getDelivery(t.db.kysely, accountId, id)).status === 'delivered', 15_000, 'delivered after the lease expired');
    assert.equal(rx.hits.length, 2);
    assert.equal(rx.hits[1].headers['x-service-delivery'], id, 'the receiver can de-duplicate on the delivery id');
    assert.equal(rx.hits[1].headers['x-service-attempt'], '2');
    const attempts = await hooks.listAttempts(t.db.kysely, accountId, id);
    assert.deepEqual(attempts.map((a) => [a.attempt_no, a.error_class, a.status_code]), [[1, 'interrupted', null], [2, null, 200]]);
    assert.ok(attempts[0].finished_at, 'the interrupted attempt is closed');
  } finally {
    await s.stop();
  }
});
