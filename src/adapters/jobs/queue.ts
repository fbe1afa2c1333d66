// The durable job queue: rows of the `jobs` table, claimed with a lease.
//
// A claim sets lease_owner/lease_expires_at and counts an attempt, in one statement. Every
// later change of a claimed job (renew, complete, retry, fail, release) is fenced by the lease
// owner: a worker whose lease expired and was taken over can no longer touch the job, and a
// processor's transaction that completes a job it no longer holds fails (LeaseLostError) and
// rolls back with its state change.
import { Kysely, sql } from 'kysely';
import type { Db } from '../db/database.ts';
import type { DbExecutor } from '../db/repositories/executor.ts';
import { affected } from '../db/repositories/executor.ts';
import type { Job } from '../db/schema.ts';
import { isoAfter, newId, nowIso } from '../../kernel/ids.ts';

const DEFAULT_MAX_ATTEMPTS = 5;

export interface EnqueueOptions {
  kind: string;
  /** Serialised as JSON. */
  payload: unknown;
  /** Not before this time (ISO-8601); default now. */
  runAt?: string;
  /** While a job with this key exists (and is not dead), enqueueing another is a no-op. */
  dedupeKey?: string;
  maxAttempts?: number;
}

export interface ClaimedJob {
  id: string;
  kind: string;
  payload: unknown;
  /** Claims so far, this one included (1 on the first run). */
  attempts: number;
  maxAttempts: number;
  runAt: string;
  /** The owner to pass to completeJob/retryJob/… (unique per claim). */
  leaseOwner: string;
  leaseExpiresAt: string;
  /** Error recorded by the previous attempt, if any. */
  lastError: string | null;
  dedupeKey: string | null;
  createdAt: string;
}

export class LeaseLostError extends Error {
  constructor(readonly jobId: string) {
    super(`lease on job ${jobId} was lost (expired and taken over, or released)`);
    this.name = 'LeaseLostError';
  }
}

/** Adds a job; returns its id, or null when a job with the same dedupe key already exists. */
export async function enqueueJob(db: DbExecutor, opts: EnqueueOptions): Promise<string | null> {
  const id = newId('job');
  const now = nowIso();
  const r = await db
    .insertInto('jobs')
    .values({
      id,
      kind: opts.kind,
      payload: JSON.stringify(opts.payload ?? null),
      run_at: opts.runAt ?? now,
      attempts: 0,
      max_attempts: opts.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
      lease_owner: null,
      lease_expires_at: null,
      last_error: null,
      dedupe_key: opts.dedupeKey ?? null,
      dead_at: null,
      created_at: now,
    })
    .onConflict((oc) => oc.column('dedupe_key').doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0n) > 0 ? id : null;
}

function toClaimed(row: Job): ClaimedJob {
  return {
    id: row.id,
    kind: row.kind,
    payload: JSON.parse(row.payload) as unknown,
    attempts: row.attempts,
    maxAttempts: row.max_attempts,
    runAt: row.run_at,
    leaseOwner: row.lease_owner ?? '',
    leaseExpiresAt: row.lease_expires_at ?? '',
    lastError: row.last_error,
    dedupeKey: row.dedupe_key,
    createdAt: row.created_at,
  };
}

export interface ClaimOptions {
  owner: string;
  kinds: readonly string[];
  leaseMs: number;
  /** The current time in ms (tests); default Date.now(). */
  now?: number;
}

/**
 * Claims the due job that has waited longest, or returns undefined (claimJobs with limit 1).
 */
export async function claimJob(db: Db, opts: ClaimOptions): Promise<ClaimedJob | undefined> {
  return (await claimJobs(db, opts, 1))[0];
}

/**
 * Claims up to `limit` due jobs, longest waiting first, in ONE statement: an UPDATE of the rows
 * picked by a subquery. A runner with several free slots fills them with one round trip
 * instead of one per job. SQLite runs it under its single write lock; PostgreSQL skips rows
 * another claimer has locked (FOR UPDATE SKIP LOCKED), so concurrent claimers never get the
 * same job. The jobs of one claim share its owner (`opts.owner`, unique per claim statement):
 * every fenced change names the job id as well, so a shared owner fences each job alone.
 */
export async function claimJobs(db: Db, opts: ClaimOptions, limit: number): Promise<ClaimedJob[]> {
  if (opts.kinds.length === 0 || limit < 1) return [];
  const nowMs = opts.now ?? Date.now();
  const now = nowIso(nowMs);
  let pick = db.kysely
    .selectFrom('jobs')
    .select('id')
    .where('dead_at', 'is', null)
    .where('run_at', '<=', now)
    .where((eb) => eb.or([eb('lease_expires_at', 'is', null), eb('lease_expires_at', '<', now)]))
    .where('kind', 'in', [...opts.kinds])
    .orderBy('run_at')
    .orderBy('id')
    .limit(limit);
  if (db.dialect === 'postgres') pick = pick.forUpdate().skipLocked();
  const rows = await db.kysely
    .updateTable('jobs')
    .set((eb) => ({
      lease_owner: opts.owner,
      lease_expires_at: isoAfter(opts.leaseMs, nowMs),
      attempts: eb('attempts', '+', 1),
    }))
    .where('id', 'in', pick)
    .returningAll()
    .execute();
  // RETURNING gives no order: run them in the order they waited.
  rows.sort((x, y) => (x.run_at === y.run_at ? (x.id < y.id ? -1 : 1) : x.run_at < y.run_at ? -1 : 1));
  return rows.map(toClaimed);
}

/** Extends the lease; false when it is no longer ours. */
export async function renewLease(db: Db | DbExecutor, jobId: string, owner: string, leaseMs: number): Promise<boolean> {
  const r = await executor(db)
    .updateTable('jobs')
    .set({ lease_expires_at: isoAfter(leaseMs) })
    .where('id', '=', jobId)
    .where('lease_owner', '=', owner)
    .executeTakeFirst();
  return affected(r) > 0;
}

/** Done: deletes the job. False when the lease was lost (then nothing changed). */
export async function completeJob(trx: DbExecutor, jobId: string, owner: string): Promise<boolean> {
  const r = await trx.deleteFrom('jobs').where('id', '=', jobId).where('lease_owner', '=', owner).executeTakeFirst();
  return affected(r) > 0;
}

/** Runs again at `runAt`; the attempt stays counted. False when the lease was lost. */
export async function retryJob(trx: DbExecutor, jobId: string, owner: string, runAt: string, error: string): Promise<boolean> {
  const r = await trx
    .updateTable('jobs')
    .set({ lease_owner: null, lease_expires_at: null, run_at: runAt, last_error: error })
    .where('id', '=', jobId)
    .where('lease_owner', '=', owner)
    .executeTakeFirst();
  return affected(r) > 0;
}

/**
 * Deletes the job whoever holds it: for a worker that kept an attempt's answer through a
 * database outage (its lease lapsed meanwhile) and records it once the database is back, in the
 * transaction that proves the attempt was still its own to settle.
 */
export async function deleteJob(trx: DbExecutor, jobId: string): Promise<boolean> {
  return affected(await trx.deleteFrom('jobs').where('id', '=', jobId).executeTakeFirst()) > 0;
}

/**
 * Runs the job again at `runAt` unless another claim holds a live lease on it (then that claim
 * runs it now): the held-answer counterpart of retryJob. False when left alone or gone.
 */
export async function rescheduleUnlessHeld(trx: DbExecutor, jobId: string, ownOwner: string, runAt: string, error: string, nowMs = Date.now()): Promise<boolean> {
  const now = nowIso(nowMs);
  const r = await trx
    .updateTable('jobs')
    .set({ lease_owner: null, lease_expires_at: null, run_at: runAt, last_error: error })
    .where('id', '=', jobId)
    .where((eb) => eb.or([eb('lease_owner', 'is', null), eb('lease_owner', '=', ownOwner), eb('lease_expires_at', '<', now)]))
    .executeTakeFirst();
  return affected(r) > 0;
}

/**
 * Gives up for good: the job is kept (dead_at, last_error) for inspection and never claimed
 * again; its dedupe key is freed so the same work can be queued anew. False when the lease was lost.
 */
export async function failJob(trx: DbExecutor, jobId: string, owner: string, error: string): Promise<boolean> {
  const r = await trx
    .updateTable('jobs')
    .set({ lease_owner: null, lease_expires_at: null, dead_at: nowIso(), last_error: error, dedupe_key: null })
    .where('id', '=', jobId)
    .where('lease_owner', '=', owner)
    .executeTakeFirst();
  return affected(r) > 0;
}

/**
 * Hands a claimed job back unfinished (shutdown) so another worker takes it at once. The
 * interrupted run does not count as an attempt.
 */
export async function releaseJob(db: Db | DbExecutor, jobId: string, owner: string): Promise<boolean> {
  const r = await executor(db)
    .updateTable('jobs')
    .set({ lease_owner: null, lease_expires_at: null, attempts: sql<number>`case when attempts > 0 then attempts - 1 else 0 end` })
    .where('id', '=', jobId)
    .where('lease_owner', '=', owner)
    .executeTakeFirst();
  return affected(r) > 0;
}

/**
 * Runs the job again at `runAt` without counting the interrupted run as an attempt, recording
 * why: for runs cut short by an outage of a dependency (database, storage), which say nothing
 * about the job itself. False when the lease was lost.
 */
export async function deferJob(db: Db | DbExecutor, jobId: string, owner: string, runAt: string, error: string): Promise<boolean> {
  const r = await executor(db)
    .updateTable('jobs')
    .set({
      lease_owner: null, lease_expires_at: null, run_at: runAt, last_error: error,
      attempts: sql<number>`case when attempts > 0 then attempts - 1 else 0 end`,
    })
    .where('id', '=', jobId)
    .where('lease_owner', '=', owner)
    .executeTakeFirst();
  return affected(r) > 0;
}

/**
 * Makes the leases of these jobs expire now, so that they can be claimed at once instead of
 * when their lease runs out (their holder is known to be dead). The claimed attempt stays
 * counted, as for any lease that expired. Returns how many jobs were still leased.
 */
export async function expireLeases(db: Db | DbExecutor, jobIds: readonly string[], nowMs = Date.now()): Promise<number> {
  if (jobIds.length === 0) return 0;
  const now = nowIso(nowMs);
  const r = await executor(db)
    .updateTable('jobs')
    .set({ lease_expires_at: now })
    .where('id', 'in', [...jobIds])
    .where('lease_expires_at', '>', now)
    .executeTakeFirst();
  return affected(r);
}

/** Jobs whose lease has not expired yet, with their owner (to find those of dead processes). */
export async function activeLeases(db: Db | DbExecutor, nowMs = Date.now()): Promise<{ id: string; owner: string }[]> {
  const rows = await executor(db)
    .selectFrom('jobs')
    .select(['id', 'lease_owner'])
    .where('dead_at', 'is', null)
    .where('lease_owner', 'is not', null)
    .where('lease_expires_at', '>', nowIso(nowMs))
    .execute();
  return rows.map((r) => ({ id: r.id, owner: r.lease_owner ?? '' }));
}

export async function getJob(db: Db | DbExecutor, jobId: string): Promise<Job | undefined> {
  return executor(db).selectFrom('jobs').selectAll().where('id', '=', jobId).executeTakeFirst();
}

/** Live (not dead) jobs, optionally of one kind: for metrics and tests. */
export async function countJobs(db: Db | DbExecutor, opts: { kind?: string; dead?: boolean } = {}): Promise<number> {
  let q = executor(db).selectFrom('jobs').where('dead_at', opts.dead ? 'is not' : 'is', null);
  if (opts.kind !== undefined) q = q.where('kind', '=', opts.kind);
  const row = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface KindStat {
  kind: string;
  /** Live jobs (waiting or running). */
  depth: number;
  /** run_at of the oldest live job due at `now`, or null when none is due. */
  oldestDue: string | null;
}

/** Depth and oldest due job per kind, in one grouped query (read by the metrics on scrape). */
export async function queueStatsByKind(db: Db | DbExecutor, now: string): Promise<KindStat[]> {
  const rows = await executor(db)
    .selectFrom('jobs')
    .select(['kind', sql<number>`count(*)`.as('depth')])
    .select(sql<string | null>`min(case when run_at <= ${now} then run_at end)`.as('oldest_due'))
    .where('dead_at', 'is', null)
    .groupBy('kind')
    .execute();
  return rows.map((r) => ({ kind: r.kind, depth: Number(r.depth), oldestDue: r.oldest_due }));
}

function executor(db: Db | DbExecutor): DbExecutor {
  return db instanceof Kysely ? db : db.kysely;
}
