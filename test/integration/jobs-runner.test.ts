// The job runner: processors settle jobs in their own transactions, exceptions retry with
// backoff, exhausted jobs reach onExhausted, leases are renewed while running and released on
// stop, nudge polls at once, concurrency is bounded.
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { createJobRunner } from '../../src/adapters/jobs/job-runner.ts';
import type { JobRunner, JobRunnerOptions, Processor, ProcessorFn } from '../../src/adapters/jobs/job-runner.ts';
import { claimJob, countJobs, enqueueJob, getJob, LeaseLostError } from '../../src/adapters/jobs/queue.ts';
import type { ClaimedJob } from '../../src/adapters/jobs/queue.ts';
import { createAccountWithUser, getAccount } from '../../src/adapters/db/repositories/accounts.ts';
import { createTestDb } from '../helpers/db.ts';
import type { TestDb } from '../helpers/db.ts';

let t: TestDb;
const runners: JobRunner[] = [];
before(async () => {
  t = await createTestDb();
});
after(async () => {
  for (const r of runners) await r.stop();
  await t.cleanup();
});
beforeEach(async () => {
  await t.db.kysely.deleteFrom('jobs').execute();
});

function runner(processors: Record<string, Processor | ProcessorFn>, over: Partial<JobRunnerOptions> = {}): JobRunner {
  const r = createJobRunner({ db: t.db, owner: 'test', processors, pollMs: 20, leaseMs: 5_000, ...over });
  runners.push(r);
  r.start();
  return r;
}

/** Waits for a condition; the deadline is a guard against a hang, not a speed check. */
async function until(cond: () => Promise<boolean> | boolean, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await sleep(10);
  }
}

test('a processor commits its state change and the job completion together', async () => {
  let accountId = '';
  const r = runner({
    analyze: async (_job, ctx) => {
      await t.db.kysely.transaction().execute(async (trx) => {
        accountId = (await createAccountWithUser(trx, { name: 'n', email: 'runner1@example.test', passwordHash: 'h' })).account.id;
        await ctx.complete(trx);
      });
    },
  });
  const id = (await enqueueJob(t.db.kysely, { kind: 'analyze', payload: {} }))!;
  await until(async () => (await getJob(t.db, id)) === undefined);
  assert.ok(await getAccount(t.db.kysely, accountId));
  await r.stop();
});

test('a processor that returns without settling gets its outcome applied (default done)', async () => {
  const r = runner({ analyze: async () => {}, deliver: async () => ({ type: 'dead', error: 'gave up' }) });
  const a = (await enqueueJob(t.db.kysely, { kind: 'analyze', payload: {} }))!;
  const d = (await enqueueJob(t.db.kysely, { kind: 'deliver', payload: {} }))!;
  await until(async () => (await getJob(t.db, a)) === undefined && Boolean((await getJob(t.db, d))?.dead_at));
  assert.equal((await getJob(t.db, d))?.last_error, 'gave up');
  await r.stop();
});

test('a throwing processor is retried with backoff until it succeeds', async () => {
  const seen: number[] = [];
  const r = runner({
    analyze: {
      backoffMs: [30, 60],
      run: async (job) => {
        seen.push(job.attempts);
        if (job.attempts < 3) throw new Error(`flaky ${job.attempts}`);
      },
    },
  });
  const id = (await enqueueJob(t.db.kysely, { kind: 'analyze', payload: {}, maxAttempts: 5 }))!;
  await until(async () => (await getJob(t.db, id)) === undefined);
  assert.deepEqual(seen, [1, 2, 3]);
  await r.stop();
});

test('the last failed attempt calls onExhausted once, in a transaction with ctx.fail, and the job is dead', async () => {
  let runs = 0;
  const exhausted: Array<{ id: string; error: string }> = [];
  const r = runner({
    analyze: {
      backoffMs: [10],
      run: async () => {
        runs++;
        throw new Error('analyser crashed');
      },
      onExhausted: async (job, error, ctx) => {
        exhausted.push({ id: job.id, error });
        await t.db.kysely.transaction().execute((trx) => ctx.fail(trx, error));
      },
    },
  });
  const id = (await enqueueJob(t.db.kysely, { kind: 'analyze', payload: {}, maxAttempts: 3 }))!;
  await until(async () => Boolean((await getJob(t.db, id))?.dead_at));
  assert.equal(runs, 3);
  assert.deepEqual(exhausted, [{ id, error: 'analyser crashed' }]);
  await sleep(100);
  assert.equal(runs, 3, 'never run again');
  await r.stop();
});

test('a job whose worker died on its last attempt goes to onExhausted without running again', async () => {
  const id = (await enqueueJob(t.db.kysely, { kind: 'analyze', payload: {}, maxAttempts: 1 }))!;
  // A worker claims it (its only attempt) and dies: the lease simply expires.
  await claimJob(t.db, { owner: 'dead-worker', kinds: ['analyze'], leaseMs: 1 });
  await sleep(20);
  let runs = 0;
  const exhausted: string[] = [];
  const r = runner({
    analyze: {
      run: async () => {
        runs++;
      },
      onExhausted: async (_job, error) => {
        exhausted.push(error);
      },
    },
  });
  await until(async () => Boolean((await getJob(t.db, id))?.dead_at));
  assert.equal(runs, 0);
  assert.equal(exhausted.length, 1);
  await r.stop();
});

test('a failing onExhausted hook leaves the job to be tried again, not dead', async () => {
  let calls = 0;
  const r = runner({
    analyze: {
      backoffMs: [20],
      run: async () => {
        throw new Error('boom');
      },
      onExhausted: async () => {
        calls++;
        if (calls === 1) throw new Error('database down');
      },
    },
  });
  const id = (await enqueueJob(t.db.kysely, { kind: 'analyze', payload: {}, maxAttempts: 1 }))!;
  await until(async () => Boolean((await getJob(t.db, id))?.dead_at));
  assert.equal(calls, 2);
  await r.stop();
});

test('a processor that lost its lease cannot complete: its transaction rolls back', async () => {
  let error: unknown;
  const r = runner({
    analyze: async (job, ctx) => {
      // Another worker takes the job over (as after an expired lease).
      await t.db.kysely.updateTable('jobs').set({ lease_owner: 'thief' }).where('id', '=', job.id).execute();
      try {
        await t.db.kysely.transaction().execute(async (trx) => {
          await createAccountWithUser(trx, { name: 'n', email: 'lost-lease@example.test', passwordHash: 'h' });
          await ctx.complete(trx);
        });
      } catch (e) {
        error = e;
        throw e;
      }
    },
  });
  const id = (await enqueueJob(t.db.kysely, { kind: 'analyze', payload: {} }))!;
  await until(() => error !== undefined);
  await r.stop();
  assert.ok(error instanceof LeaseLostError);
  const row = await getJob(t.db, id);
  assert.equal(row?.lease_owner, 'thief', 'the runner did not touch a job it no longer holds');
  const users = await t.db.kysely.selectFrom('users').select('id').where('email', '=', 'lost-lease@example.test').execute();
  assert.equal(users.length, 0, 'the state change was rolled back');
});

test('the lease is renewed while a long job runs, so nobody else can claim it', async () => {
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  // Renewed every leaseMs / 3 = 200 ms: a slow renewal on a loaded machine still lands in time.
  const r = runner({ analyze: async () => gate }, { leaseMs: 600 });
  const id = (await enqueueJob(t.db.kysely, { kind: 'analyze', payload: {} }))!;
  await until(async () => Boolean((await getJob(t.db, id))?.lease_owner));
  // Twice the lease in all: the job outlives its first lease only by renewals.
  for (let i = 0; i < 6; i++) {
    await sleep(200);
    assert.equal(await claimJob(t.db, { owner: 'other', kinds: ['analyze'], leaseMs: 1000 }), undefined, 'still leased');
  }
  release();
  await until(async () => (await getJob(t.db, id)) === undefined);
  await r.stop();
});

test('stop waits for a job that finishes in time', async () => {
  let finished = false;
  const r = runner({
    analyze: async () => {
      await sleep(150);
      finished = true;
    },
  });
  const id = (await enqueueJob(t.db.kysely, { kind: 'analyze', payload: {} }))!;
  await until(async () => Boolean((await getJob(t.db, id))?.lease_owner));
  await r.stop();
  assert.equal(finished, true);
  assert.equal(await getJob(t.db, id), undefined);
});

test('stop releases the lease of a job that does not finish in time, and aborts its signal', async () => {
  let signal: AbortSignal | undefined;
  const r = runner(
    {
      analyze: async (_job, ctx) => {
        signal = ctx.signal;
        await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve));
        await sleep(50);
      },
    },
    { stopTimeoutMs: 100 },
  );
  const id = (await enqueueJob(t.db.kysely, { kind: 'analyze', payload: {} }))!;
  await until(async () => Boolean((await getJob(t.db, id))?.lease_owner));
  await r.stop();
  assert.equal(signal?.aborted, true);
  const row = await getJob(t.db, id);
  assert.equal(row?.lease_owner, null);
  assert.equal(row?.attempts, 0, 'the interrupted run is not counted');
  const next = await claimJob(t.db, { owner: 'next', kinds: ['analyze'], leaseMs: 1000 });
  assert.equal(next?.id, id, 'another worker takes it at once');
  await sleep(100); // the aborted processor returns; it must not touch the job now held by "next"
  assert.equal((await getJob(t.db, id))?.lease_owner, 'next');
});

test('nudge polls at once instead of waiting for the poll interval', async () => {
  const done: string[] = [];
  const r = runner({ analyze: async (job: ClaimedJob) => void done.push(job.id) }, { pollMs: 60_000 });
  await sleep(50); // the runner is now asleep for a minute
  const id = (await enqueueJob(t.db.kysely, { kind: 'analyze', payload: {} }))!;
  r.nudge();
  // Far sooner than the minute-long poll; the guard only stops a hang.
  await until(() => done.includes(id), 30_000);
  await r.stop();
});

test('no more than `concurrency` jobs run at once, and all of them run', async () => {
  // The first jobs hold until three run side by side, so reaching the limit does not depend on how
  // fast the machine claims jobs; the peak then shows the limit is never exceeded.
  let running = 0;
  let peak = 0;
  let openGate: () => void = () => {};
  const gate = new Promise<void>((resolve) => (openGate = resolve));
  const r = runner(
    {
      analyze: async () => {
        running++;
        peak = Math.max(peak, running);
        if (running === 3) openGate();
        await gate;
        await sleep(20);
        running--;
      },
    },
    { concurrency: 3 },
  );
  for (let i = 0; i < 9; i++) await enqueueJob(t.db.kysely, { kind: 'analyze', payload: i });
  r.nudge();
  try {
    await until(() => peak >= 3, 30_000);
    await until(async () => (await countJobs(t.db)) === 0, 30_000);
  } finally {
    openGate();
    await r.stop();
  }
  assert.equal(peak, 3);
});
