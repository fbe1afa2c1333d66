// The `deliver` processor writes nothing once its job belongs to another worker, on both
// backends: an aged claim is checked before the attempt starts; a fresh claim is not re-checked
// there (it cannot have been taken yet), but the attempt's settlement is always fenced — by the
// lease, or for an answer held past its lease, by its attempt being still open. Also:
// the flush-free commit of the delivery transactions is local to them.
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { commitWithoutFlushWait } from '../../src/adapters/db/durability.ts';
import { claimJob, completeJob, failJob, LeaseLostError, renewLease, retryJob } from '../../src/adapters/jobs/queue.ts';
import type { ClaimedJob } from '../../src/adapters/jobs/queue.ts';
import type { JobContext } from '../../src/adapters/jobs/job-runner.ts';
import { createOutboundClient, createSsrfPolicy } from '../../src/adapters/outbound/index.ts';
import type { OutboundClient } from '../../src/adapters/outbound/index.ts';
import * as hooks from '../../src/services/webhooks/index.ts';
import { createDeliverProcessor } from '../helpers/processors.ts';
import { createTestDb } from '../helpers/db.ts';
import type { TestDb } from '../helpers/db.ts';
import { completion, newAccount, Receiver } from './webhooks-helpers.ts';

const LEASE_MS = 10_000;
const policy = createSsrfPolicy('127.0.0.0/8');
let t: TestDb;
let client: OutboundClient;
let rx: Receiver;

before(async () => {
  t = await createTestDb();
  client = createOutboundClient({ policy, timeoutMs: 2_000 });
  rx = await new Receiver(() => 200).start();
});
after(async () => {
  await client.close();
  await rx.close();
  await t.cleanup();
});
beforeEach(async () => {
  await t.db.kysely.deleteFrom('jobs').execute();
  rx.hits.length = 0;
  rx.respond = () => 200;
});

/** What the job runner hands a processor: settlements fenced by the job's lease. */
function contextFor(job: ClaimedJob): JobContext {
  const fenced = async (ok: Promise<boolean>) => {
    if (!(await ok)) throw new LeaseLostError(job.id);
  };
  return {
    signal: new AbortController().signal,
    renewLease: () => renewLease(t.db, job.id, job.leaseOwner, LEASE_MS),
    complete: (trx) => fenced(completeJob(trx, job.id, job.leaseOwner)),
    retry: (trx, runAt, error) => fenced(retryJob(trx, job.id, job.leaseOwner, runAt, error)),
    fail: (trx, error) => fenced(failJob(trx, job.id, job.leaseOwner, error)),
  };
}

/** One pending delivery to the receiver, its job claimed by "w1" with a lease of `leaseMs`. */
async function claimedDelivery(leaseMs: number): Promise<{ acc: string; id: string; job: ClaimedJob }> {
  const acc = await newAccount(t.db.kysely);
  await hooks.addWebhook(t.db.kysely, { accountId: acc, url: rx.url, shape: 'A' }, { policy });
  const [id] = await t.db.kysely.transaction().execute((trx) => hooks.enqueueAnalysisComplete(trx, completion(acc)));
  const job = await claimJob(t.db, { owner: 'w1', kinds: [hooks.DELIVER_JOB_KIND], leaseMs });
  assert.ok(job, 'the delivery job was claimed');
  return { acc, id, job };
}

async function stealLease(jobId: string): Promise<void> {
  await t.db.kysely.updateTable('jobs').set({ lease_owner: 'thief' }).where('id', '=', jobId).execute();
}

async function leaseOwner(jobId: string): Promise<string | null | undefined> {
  return (await t.db.kysely.selectFrom('jobs').select('lease_owner').where('id', '=', jobId).executeTakeFirst())?.lease_owner;
}

test('an aged claim taken over by another worker: no attempt is started and nothing is sent', async () => {
  // Claimed with a lease far shorter than the processor's: less than half of it is left.
  const { acc, id, job } = await claimedDelivery(1_000);
  await stealLease(job.id);
  const processor = createDeliverProcessor({ db: t.db, client, retryDelaysMs: [100], leaseMs: LEASE_MS });
  await assert.rejects(processor.run(job, contextFor(job)), LeaseLostError);
  assert.equal(rx.hits.length, 0, 'nothing was sent');
  assert.deepEqual(await hooks.listAttempts(t.db.kysely, acc, id), [], 'no attempt row');
  assert.equal((await hooks.getDelivery(t.db.kysely, acc, id)).status, 'pending');
  assert.equal(await leaseOwner(job.id), 'thief', 'the job is left to its new holder');
});

test('a fresh claim whose lease is taken during the request, its new holder not started yet: the receiver\'s answer is kept — delivered, the job removed', async () => {
  const { acc, id, job } = await claimedDelivery(LEASE_MS);
  const stealing: OutboundClient = {
    ...client,
    post: async (...args) => {
      await stealLease(job.id);
      return client.post(...args);
    },
  };
  const processor = createDeliverProcessor({ db: t.db, client: stealing, retryDelaysMs: [100], leaseMs: LEASE_MS, heldAnswerRetryMs: 10 });
  await processor.run(job, contextFor(job));
  assert.equal(rx.hits.length, 1, 'the request was made');
  // The attempt was still open: nobody else sent the delivery since, so its answer stands.
  assert.equal((await hooks.getDelivery(t.db.kysely, acc, id)).status, 'delivered');
  assert.equal(await leaseOwner(job.id), undefined, 'the job is gone: its new holder finds the delivery delivered and sends nothing');
  const attempts = await hooks.listAttempts(t.db.kysely, acc, id);
  assert.deepEqual(attempts.map((a) => a.status_code), [200], 'the attempt records what the receiver answered');
});

test('a held answer whose attempt another run closed as interrupted meanwhile is discarded: nothing settled', async () => {
  const { acc, id, job } = await claimedDelivery(LEASE_MS);
  const overtaken: OutboundClient = {
    ...client,
    post: async (...args) => {
      await stealLease(job.id);
      await t.db.kysely.updateTable('delivery_attempts').set({ finished_at: new Date().toISOString(), error_class: 'interrupted' }).where('delivery_id', '=', id).execute();
      return client.post(...args);
    },
  };
  const processor = createDeliverProcessor({ db: t.db, client: overtaken, retryDelaysMs: [100], leaseMs: LEASE_MS, heldAnswerRetryMs: 10 });
  await processor.run(job, contextFor(job));
  assert.equal((await hooks.getDelivery(t.db.kysely, acc, id)).status, 'pending', 'left to the run that closed the attempt');
  assert.equal(await leaseOwner(job.id), 'thief', 'the job was neither completed nor rescheduled');
  const attempts = await hooks.listAttempts(t.db.kysely, acc, id);
  assert.deepEqual(attempts.map((a) => [a.status_code, a.error_class]), [[null, 'interrupted']]);
});

test('an attempt left open by another run: the next claim waits for its result first; the claim after that closes it as interrupted, sends, and the interrupted attempt spends no retry budget', async () => {
  const { acc, id, job } = await claimedDelivery(LEASE_MS);
  // A run that started attempt 1 and never recorded its result (crashed, or still holding it).
  await t.db.kysely.updateTable('deliveries').set({ attempt_count: 1 }).where('id', '=', id).execute();
  await t.db.kysely.insertInto('delivery_attempts').values({ id: 'att_open', delivery_id: id, attempt_no: 1, started_at: new Date().toISOString() }).execute();
  rx.respond = () => 500;
  // One retry in the budget: had the interrupted attempt counted, the first real failure would end the series.
  const processor = createDeliverProcessor({ db: t.db, client, retryDelaysMs: [100], leaseMs: LEASE_MS });
  await processor.run(job, contextFor(job));
  assert.equal(rx.hits.length, 0, 'nothing sent on first sight');
  const waiting = await t.db.kysely.selectFrom('jobs').selectAll().where('id', '=', job.id).executeTakeFirstOrThrow();
  assert.match(String(waiting.last_error), /waiting for the result of attempt 1/);
  assert.ok(Date.parse(waiting.run_at) - Date.now() > 1_000, 'due after the grace period');

  await t.db.kysely.updateTable('jobs').set({ run_at: new Date(0).toISOString() }).where('id', '=', job.id).execute();
  const again = await claimJob(t.db, { owner: 'w2', kinds: [hooks.DELIVER_JOB_KIND], leaseMs: LEASE_MS });
  assert.ok(again);
  await processor.run(again, contextFor(again));
  assert.equal(rx.hits.length, 1, 'sent once the grace period is over');
  const attempts = await hooks.listAttempts(t.db.kysely, acc, id);
  assert.deepEqual(attempts.map((a) => [a.attempt_no, a.error_class, a.status_code]), [[1, 'interrupted', null], [2, 'http_status', 500]]);
  const delivery = await hooks.getDelivery(t.db.kysely, acc, id);
  assert.equal(delivery.status, 'pending', 'a retry is left: the interrupted attempt did not spend it');
});

test('an attempt the worker abandons (shutdown) on the last attempt of the budget: the delivery stays pending and is due again at once', async () => {
  const { acc, id, job } = await claimedDelivery(LEASE_MS);
  const abandoning: OutboundClient = {
    ...client,
    post: async () => ({ ok: false, statusCode: null, latencyMs: 5, errorClass: 'interrupted', error: 'abandoned by the worker (shutdown or lost lease)', responseExcerpt: null }),
  };
  // No retries configured: a failed attempt would end the series.
  const processor = createDeliverProcessor({ db: t.db, client: abandoning, retryDelaysMs: [], leaseMs: LEASE_MS });
  await processor.run(job, contextFor(job));
  assert.equal((await hooks.getDelivery(t.db.kysely, acc, id)).status, 'pending');
  const row = await t.db.kysely.selectFrom('jobs').selectAll().where('id', '=', job.id).executeTakeFirstOrThrow();
  assert.equal(row.lease_owner, null);
  assert.ok(Date.parse(row.run_at) <= Date.now(), 'due now');
});

test('a fresh claim that stays ours: delivered, the job completed', async () => {
  const { acc, id, job } = await claimedDelivery(LEASE_MS);
  const processor = createDeliverProcessor({ db: t.db, client, retryDelaysMs: [100], leaseMs: LEASE_MS });
  await processor.run(job, contextFor(job));
  assert.equal(rx.hits.length, 1);
  assert.equal((await hooks.getDelivery(t.db.kysely, acc, id)).status, 'delivered');
  assert.equal(await leaseOwner(job.id), undefined, 'the job row is gone');
});

test('commitWithoutFlushWait is local to its transaction (PostgreSQL: synchronous_commit off inside, on after; SQLite: the transaction commits)', async () => {
  await t.db.kysely.transaction().execute(async (trx) => {
    await commitWithoutFlushWait(t.db, trx);
    if (t.db.dialect === 'postgres') {
      const { rows } = await sql<{ v: string }>`select current_setting('synchronous_commit') as v`.execute(trx);
      assert.equal(rows[0].v, 'off');
    }
    await trx.insertInto('jobs').values({ id: 'job_durability', kind: 'x', payload: '{}', attempts: 0, max_attempts: 1, run_at: new Date().toISOString(), created_at: new Date().toISOString() }).execute();
  });
  assert.ok(await t.db.kysely.selectFrom('jobs').select('id').where('id', '=', 'job_durability').executeTakeFirst(), 'the write committed');
  if (t.db.dialect === 'postgres') {
    // Every pooled connection is back to the server default.
    const settings = await Promise.all(Array.from({ length: 4 }, () => sql<{ v: string }>`select current_setting('synchronous_commit') as v`.execute(t.db.kysely)));
    assert.deepEqual(settings.map((s) => s.rows[0].v), ['on', 'on', 'on', 'on']);
  }
});

test('a run that begins while another run records the held answer waits for that record and sends nothing (PostgreSQL: concurrently, on the delivery row lock; SQLite: writers are serialised, so after it)', async () => {
  const { acc, id, job } = await claimedDelivery(LEASE_MS);
  // Attempt 1 was made by another run, which is recording the receiver's answer right now.
  await t.db.kysely.updateTable('deliveries').set({ attempt_count: 1 }).where('id', '=', id).execute();
  await t.db.kysely.insertInto('delivery_attempts').values({ id: 'att_held', delivery_id: id, attempt_no: 1, started_at: new Date().toISOString() }).execute();
  const processor = createDeliverProcessor({ db: t.db, client, retryDelaysMs: [100], leaseMs: LEASE_MS });
  const record = (trx: typeof t.db.kysely) => Promise.all([
    trx.updateTable('delivery_attempts').set({ finished_at: new Date().toISOString(), status_code: 200 }).where('id', '=', 'att_held').execute(),
    trx.updateTable('deliveries').set({ status: 'delivered', updated_at: new Date().toISOString() }).where('id', '=', id).execute(),
  ]);
  if (t.db.dialect === 'postgres') {
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let locked!: () => void;
    const holding = new Promise<void>((r) => (locked = r));
    const recorder = t.db.kysely.transaction().execute(async (trx) => {
      await record(trx);
      locked();
      await released;
    });
    await holding;
    const run = processor.run(job, contextFor(job));
    // The run is now waiting on the delivery's row; the record commits.
    await new Promise((r) => setTimeout(r, 200));
    release();
    await recorder;
    await run;
  } else {
    await t.db.kysely.transaction().execute((trx) => record(trx));
    await processor.run(job, contextFor(job));
  }
  assert.equal(rx.hits.length, 0, 'nothing was sent again');
  assert.equal((await hooks.getDelivery(t.db.kysely, acc, id)).status, 'delivered');
  assert.equal(await leaseOwner(job.id), undefined, 'the job is done: the delivery was delivered');
  const attempts = await hooks.listAttempts(t.db.kysely, acc, id);
  assert.deepEqual(attempts.map((a) => [a.attempt_no, a.status_code]), [[1, 200]], 'no second attempt');
});

/** Sessions of this test's database waiting on a lock (PostgreSQL), polled until there are `n`. */
async function lockWaiters(n: number): Promise<void> {
  for (;;) {
    const r = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`.execute(t.db.kysely);
    if ((r.rows[0]?.n ?? 0) >= n) return;
    await new Promise((res) => setTimeout(res, 20));
  }
}

test('an answer held past its lease is recorded while the run that claimed the job next begins: both take the delivery row before the job row, so neither is aborted as a deadlock — recorded once, nothing sent again (PostgreSQL: the two queued on the delivery row; SQLite: writers are serialised)', async () => {
  const { acc, id, job } = await claimedDelivery(LEASE_MS);
  // The run that claims the job next, freshly (its claim is checked by the settlement, not by a fence).
  const next: ClaimedJob = { ...job, leaseOwner: 'w2', leaseExpiresAt: new Date(Date.now() + LEASE_MS).toISOString() };
  const nextProcessor = createDeliverProcessor({ db: t.db, client, retryDelaysMs: [100], leaseMs: LEASE_MS });
  let nextRun: Promise<void> | undefined;
  let releaseRow: (() => void) | undefined;
  let rowHolder: Promise<void> | undefined;
  const lapsing: OutboundClient = {
    ...client,
    post: async (...args) => {
      // The lease lapsed during the request and the job went to w2.
      await t.db.kysely.updateTable('jobs').set({ lease_owner: 'w2', lease_expires_at: next.leaseExpiresAt }).where('id', '=', job.id).execute();
      if (t.db.dialect === 'postgres') {
        // Hold the delivery row so that w2's begin queues on it before this run's settlement does.
        const held = new Promise<void>((r) => (releaseRow = r));
        let locked!: () => void;
        const holding = new Promise<void>((r) => (locked = r));
        rowHolder = t.db.kysely.transaction().execute(async (trx) => {
          await trx.updateTable('deliveries').set({ updated_at: new Date().toISOString() }).where('id', '=', id).execute();
          locked();
          await held;
        });
        await holding;
        nextRun = nextProcessor.run(next, contextFor(next));
        await lockWaiters(1);
      }
      return client.post(...args);
    },
  };
  const processor = createDeliverProcessor({ db: t.db, client: lapsing, retryDelaysMs: [100], leaseMs: LEASE_MS, heldAnswerRetryMs: 10 });
  const run = processor.run(job, contextFor(job));
  if (t.db.dialect === 'postgres') {
    // w2's begin and this run's settlement both wait on the delivery row; then it is let go.
    await lockWaiters(2);
    releaseRow?.();
    await rowHolder;
    await Promise.all([run, nextRun]);
  } else {
    await run;
    // The held answer settled the delivery and removed the job: w2's run writes nothing.
    await assert.rejects(nextProcessor.run(next, contextFor(next)), LeaseLostError);
  }
  assert.equal(rx.hits.length, 1, 'sent once');
  assert.equal((await hooks.getDelivery(t.db.kysely, acc, id)).status, 'delivered');
  const attempts = await hooks.listAttempts(t.db.kysely, acc, id);
  assert.deepEqual(attempts.map((a) => [a.attempt_no, a.status_code, a.error_class]), [[1, 200, null]], 'the held answer recorded, no attempt closed as interrupted');
});

test("a webhook removed while a run settling one of its deliveries holds that delivery and then disables the webhook: the removal waits on the delivery first, so neither is aborted as a deadlock (PostgreSQL: concurrently; SQLite: writers are serialised)", async () => {
  const { acc, id } = await claimedDelivery(LEASE_MS);
  const hook = (await t.db.kysely.selectFrom('deliveries').select('webhook_id').where('id', '=', id).executeTakeFirstOrThrow()).webhook_id;
  if (t.db.dialect === 'postgres') {
    let go!: () => void;
    const removalQueued = new Promise<void>((r) => (go = r));
    let removal: Promise<void> | undefined;
    // the settling run: its delivery first, then (auto-disable) the webhook's row
    const settling = t.db.kysely.transaction().execute(async (trx) => {
      await trx.updateTable('deliveries').set({ updated_at: new Date().toISOString() }).where('id', '=', id).execute();
      removal = hooks.removeWebhook(t.db.kysely, acc, hook);
      await lockWaiters(1);
      go();
      await trx.updateTable('webhooks').set({ enabled: 0, disabled_reason: 'failing' }).where('id', '=', hook).execute();
    });
    await removalQueued;
    await settling;
    await removal;
  } else {
    await t.db.kysely.transaction().execute(async (trx) => {
      await trx.updateTable('deliveries').set({ updated_at: new Date().toISOString() }).where('id', '=', id).execute();
      await trx.updateTable('webhooks').set({ enabled: 0, disabled_reason: 'failing' }).where('id', '=', hook).execute();
    });
    await hooks.removeWebhook(t.db.kysely, acc, hook);
  }
  assert.equal(await t.db.kysely.selectFrom('webhooks').select('id').where('id', '=', hook).executeTakeFirst(), undefined, 'the webhook is gone');
  assert.equal(await t.db.kysely.selectFrom('deliveries').select('id').where('id', '=', id).executeTakeFirst(), undefined, 'its deliveries with it');
});
