// The job queue's statements: claim (exclusive, in order, due only, leased), lease expiry,
// renew/complete/retry/fail/release fenced by the lease owner, dedupe keys.
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '../../src/adapters/db/database.ts';
import type { Db } from '../../src/adapters/db/database.ts';
import {
  claimJob, claimJobs, completeJob, countJobs, enqueueJob, failJob, getJob, releaseJob, renewLease, retryJob,
} from '../../src/adapters/jobs/queue.ts';
import { isoAfter, nowIso } from '../../src/kernel/ids.ts';
import { createTestDb } from '../helpers/db.ts';
import type { TestDb } from '../helpers/db.ts';

const SELF = fileURLToPath(import.meta.url);

// Child mode: claim and complete jobs as fast as possible until none is left; print the ids.
if (process.env.VOUCH_CLAIM_CHILD) {
  const db = await openDatabase({ databaseUrl: process.env.VOUCH_CHILD_DB_URL || undefined, dataDir: process.env.VOUCH_CHILD_DATA_DIR as string });
  const loops = Number(process.env.VOUCH_CHILD_LOOPS ?? '1');
  const claimed: string[] = [];
  // Start together: say ready, wait for the parent's go (one line on stdin).
  await db.ping();
  process.stdout.write('ready\n');
  await new Promise((resolve) => process.stdin.once('data', resolve));
  await Promise.all(
    Array.from({ length: loops }, async (_, loop) => {
      const batch = Number(process.env.VOUCH_CHILD_BATCH ?? '1');
      for (let round = 0; ; round++) {
        const jobs = await claimJobs(db, { owner: `child-${process.pid}-${loop}-${round}`, kinds: ['race'], leaseMs: 60_000 }, batch);
        if (jobs.length === 0) return;
        for (const job of jobs) {
          claimed.push(job.id);
          await db.kysely.transaction().execute(async (trx) => {
            if (!(await completeJob(trx, job.id, job.leaseOwner))) throw new Error(`lost ${job.id}`);
          });
        }
      }
    }),
  );
  await db.close();
  process.stdout.write(JSON.stringify(claimed) + '\n');
  process.exit(0);
}

let t: TestDb;
before(async () => {
  t = await createTestDb();
});
after(async () => {
  await t.cleanup();
});
beforeEach(async () => {
  await t.db.kysely.deleteFrom('jobs').execute();
});

const claim = (db: Db, owner: string, now?: number, leaseMs = 30_000, kinds = ['analyze', 'deliver']) => claimJob(db, { owner, kinds, leaseMs, now });

test('a claimed job carries its payload and first attempt, and is not claimed twice while leased', async () => {
  const id = await enqueueJob(t.db.kysely, { kind: 'analyze', payload: { session_id: 'ses_1', n: [1, 2] }, maxAttempts: 3 });
  assert.ok(id?.startsWith('job_'));
  const job = await claim(t.db, 'w1');
  assert.equal(job?.id, id);
  assert.deepEqual(job?.payload, { session_id: 'ses_1', n: [1, 2] });
  assert.equal(job?.attempts, 1);
  assert.equal(job?.maxAttempts, 3);
  assert.equal(job?.leaseOwner, 'w1');
  assert.equal(await claim(t.db, 'w2'), undefined);
});

test('jobs are claimed in run_at order, only when due, and only of the requested kinds', async () => {
  const t0 = Date.now();
  const later = await enqueueJob(t.db.kysely, { kind: 'analyze', payload: 1, runAt: nowIso(t0 + 10_000) });
  const first = await enqueueJob(t.db.kysely, { kind: 'analyze', payload: 2, runAt: nowIso(t0 - 2000) });
  const second = await enqueueJob(t.db.kysely, { kind: 'analyze', payload: 3, runAt: nowIso(t0 - 1000) });
  const other = await enqueueJob(t.db.kysely, { kind: 'deliver', payload: 4, runAt: nowIso(t0 - 5000) });
  assert.equal((await claim(t.db, 'w', t0, 30_000, ['analyze']))?.id, first);
  assert.equal((await claim(t.db, 'w', t0, 30_000, ['analyze']))?.id, second);
  assert.equal(await claim(t.db, 'w', t0, 30_000, ['analyze']), undefined, 'the later job is not due');
  assert.equal((await claim(t.db, 'w', t0 + 10_001, 30_000, ['analyze']))?.id, later);
  assert.equal((await claim(t.db, 'w', t0, 30_000, ['deliver']))?.id, other);
  assert.equal(await claimJob(t.db, { owner: 'w', kinds: [], leaseMs: 1000 }), undefined);
});

test('an expired lease makes the job claimable again, and fences out the old owner', async () => {
  const id = await enqueueJob(t.db.kysely, { kind: 'analyze', payload: null });
  const t0 = Date.now();
  const a = await claim(t.db, 'old', t0, 1000);
  assert.equal(a?.id, id);
  assert.equal(await claim(t.db, 'new', t0 + 500, 1000), undefined, 'lease still valid');
  const b = await claim(t.db, 'new', t0 + 1500, 1000);
  assert.equal(b?.id, id, 'taken over after expiry');
  assert.equal(b?.attempts, 2);
  assert.equal(await renewLease(t.db, id!, 'old', 1000), false);
  assert.equal(await completeJob(t.db.kysely, id!, 'old'), false);
  assert.equal(await retryJob(t.db.kysely, id!, 'old', nowIso(), 'x'), false);
  assert.equal(await failJob(t.db.kysely, id!, 'old', 'x'), false);
  assert.equal(await releaseJob(t.db, id!, 'old'), false);
  assert.equal((await getJob(t.db, id!))?.lease_owner, 'new');
  assert.equal(await renewLease(t.db, id!, 'new', 60_000), true);
  assert.equal(await completeJob(t.db.kysely, id!, 'new'), true);
  assert.equal(await getJob(t.db, id!), undefined);
});

test('retry releases the lease, keeps the attempt count and waits for run_at', async () => {
  const id = (await enqueueJob(t.db.kysely, { kind: 'deliver', payload: null }))!;
  const t0 = Date.now();
  const job = (await claim(t.db, 'w', t0))!;
  assert.equal(await retryJob(t.db.kysely, id, job.leaseOwner, isoAfter(5000, t0), 'HTTP 500'), true);
  const row = await getJob(t.db, id);
  assert.equal(row?.lease_owner, null);
  assert.equal(row?.attempts, 1);
  assert.equal(row?.last_error, 'HTTP 500');
  assert.equal(await claim(t.db, 'w', t0 + 4000), undefined);
  const again = await claim(t.db, 'w', t0 + 5001);
  assert.equal(again?.attempts, 2);
  assert.equal(again?.lastError, 'HTTP 500');
});

test('a dead job is kept, never claimed, and frees its dedupe key', async () => {
  const id = (await enqueueJob(t.db.kysely, { kind: 'analyze', payload: null, dedupeKey: 'analyze:ses_1' }))!;
  assert.equal(await enqueueJob(t.db.kysely, { kind: 'analyze', payload: null, dedupeKey: 'analyze:ses_1' }), null, 'deduplicated');
  const job = (await claim(t.db, 'w'))!;
  assert.equal(await failJob(t.db.kysely, id, job.leaseOwner, 'parser crashed'), true);
  const row = await getJob(t.db, id);
  assert.ok(row?.dead_at);
  assert.equal(row?.last_error, 'parser crashed');
  assert.equal(await claim(t.db, 'w', Date.now() + 3600_000), undefined);
  assert.equal(await countJobs(t.db, { dead: true }), 1);
  assert.equal(await countJobs(t.db), 0);
  assert.ok(await enqueueJob(t.db.kysely, { kind: 'analyze', payload: null, dedupeKey: 'analyze:ses_1' }), 'key free again');
});

test('release hands the job back at once without counting the attempt', async () => {
  const id = (await enqueueJob(t.db.kysely, { kind: 'analyze', payload: null }))!;
  const job = (await claim(t.db, 'w'))!;
  assert.equal(await releaseJob(t.db, id, job.leaseOwner), true);
  const again = await claim(t.db, 'w2');
  assert.equal(again?.id, id);
  assert.equal(again?.attempts, 1);
});

test('an enqueue inside a rolled-back transaction leaves no job', async () => {
  await assert.rejects(
    t.db.kysely.transaction().execute(async (trx) => {
      await enqueueJob(trx, { kind: 'analyze', payload: null });
      throw new Error('rollback');
    }),
  );
  assert.equal(await countJobs(t.db), 0);
});

interface Claimer {
  ready: Promise<void>;
  go(): void;
  result: Promise<string[]>;
}

function startClaimer(loops: number, batch = 1): Claimer {
  const env = {
    ...process.env, VOUCH_CLAIM_CHILD: '1', VOUCH_CHILD_DB_URL: t.databaseUrl ?? '', VOUCH_CHILD_DATA_DIR: t.dataDir,
    VOUCH_CHILD_LOOPS: String(loops), VOUCH_CHILD_BATCH: String(batch),
  };
  const child = spawn(process.execPath, ['--import', 'tsx', SELF], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  child.stdout.on('data', (d) => {
    out += String(d);
    if (out.startsWith('ready\n')) markReady();
  });
  child.stderr.on('data', (d) => (err += String(d)));
  const result = new Promise<string[]>((resolve, reject) => {
    child.on('exit', (code) => {
      markReady();
      if (code === 0) resolve(JSON.parse(out.slice('ready\n'.length)) as string[]);
      else reject(new Error(`claimer exited ${code}: ${err}`));
    });
  });
  return { ready, result, go: () => child.stdin.end('go\n') };
}

async function raceClaimers(batch: number): Promise<void> {
  const ids = new Set<string>();
  await t.db.kysely.transaction().execute(async (trx) => {
    for (let i = 0; i < 400; i++) ids.add((await enqueueJob(trx, { kind: 'race', payload: i }))!);
  });
  // Two processes, each with several concurrent claim loops (concurrent connections on PostgreSQL).
  const loops = t.db.dialect === 'postgres' ? 4 : 1;
  const claimers = [startClaimer(loops, batch), startClaimer(loops, batch)];
  await Promise.all(claimers.map((c) => c.ready));
  for (const c of claimers) c.go();
  const [a, b] = await Promise.all(claimers.map((c) => c.result));
  const all = [...a, ...b];
  assert.equal(new Set(all).size, all.length, 'no job was claimed twice');
  assert.equal(all.length, ids.size, 'every job was claimed');
  assert.ok(a.length > 0 && b.length > 0, `both processes got work (${a.length}/${b.length})`);
  assert.equal(await countJobs(t.db, { kind: 'race' }), 0);
}

test('concurrent claimers in two processes never get the same job', () => raceClaimers(1));

test('concurrent batch claimers (up to 7 jobs a statement) in two processes never get the same job', () => raceClaimers(7));

test('a batch claim takes the longest-waiting due jobs, up to the limit, each fenced on its own', async () => {
  const t0 = Date.now();
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) ids.push((await enqueueJob(t.db.kysely, { kind: 'deliver', payload: i, runAt: nowIso(t0 - 5000 + i) }))!);
  const notDue = await enqueueJob(t.db.kysely, { kind: 'deliver', payload: 'later', runAt: nowIso(t0 + 60_000) });
  const first = await claimJobs(t.db, { owner: 'batch-1', kinds: ['deliver'], leaseMs: 30_000, now: t0 }, 3);
  assert.deepEqual(first.map((j) => j.id), ids.slice(0, 3), 'the three oldest, in order');
  assert.ok(first.every((j) => j.attempts === 1 && j.leaseOwner === 'batch-1'));
  const rest = await claimJobs(t.db, { owner: 'batch-2', kinds: ['deliver'], leaseMs: 30_000, now: t0 }, 10);
  assert.deepEqual(rest.map((j) => j.id), ids.slice(3), 'only the due, unleased ones');
  assert.ok(!rest.some((j) => j.id === notDue));
  assert.deepEqual(await claimJobs(t.db, { owner: 'batch-3', kinds: ['deliver'], leaseMs: 30_000, now: t0 }, 10), []);
  // Completing one job of a batch leaves the others leased.
  assert.equal(await completeJob(t.db.kysely, first[0].id, 'batch-1'), true);
  assert.equal(await completeJob(t.db.kysely, first[0].id, 'batch-1'), false);
  assert.equal((await getJob(t.db, first[1].id))?.lease_owner, 'batch-1');
  assert.deepEqual(await claimJobs(t.db, { owner: 'w', kinds: ['deliver'], leaseMs: 1000 }, 0), [], 'a limit of 0 claims nothing');
});
