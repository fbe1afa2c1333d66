// Delivering a webhook (the `deliver` job's use case): one HTTP attempt per run.
//
//   1. begin (one transaction, fenced by the job lease unless the claim is fresh): settle the job if there is nothing to
//      send; otherwise close attempts a dead worker left open, write the attempt row (started_at)
//      and bump the delivery's attempt_count — committed BEFORE the request is made;
//   2. POST the stored bytes through the SSRF-guarded client (no transaction open meanwhile);
//   3. finish (one transaction): settle the job (complete it, or reschedule the SAME job
//      at now + delay; fenced by the lease), write the attempt's result and mark the
//      delivery delivered, pending or failed (and maybe auto-disable the webhook). A refusal by
//      the SSRF guard is final: the delivery fails without retries.
//
// Every transaction here takes its rows in one order: the delivery, then the job, then the
// attempts. Two of them can overlap on the same delivery — a worker recording an answer it kept
// through an outage (its lease lapsed) and the worker that claimed the job meanwhile — and rows
// taken in two orders deadlock them; PostgreSQL then aborts one, and an aborted recording made
// the delivery go out twice.
//
// Both transactions commit without waiting for PostgreSQL's WAL flush (adapters/db/durability.ts):
// if the database server crashes and loses them, the job runs again and the receiver gets the
// same delivery id once more — the at-least-once promise below, at a fraction of the disk flushes.
//
// Delivery is at-least-once. A worker that dies between 1 and 3 leaves the job leased; when the
// lease expires another worker runs it again, closes the open attempt as "interrupted" and makes
// a new attempt with the SAME delivery id (X-Service-Delivery / webhook-id), so receivers must
// de-duplicate on it. A retry waiting for its run_at is only a row: it survives crashes and is
// sent once, by whichever worker claims it.
//
// A database outage is not a crash. A worker that got the receiver's answer while the database
// was unreachable keeps it and records it once the database is back (holdAnswer), even if its
// lease lapsed meanwhile; the worker that claims the job next finds the attempt still open and
// first waits a grace period (answerGraceMs) for that answer instead of closing the attempt and
// sending again. An attempt that never ran its course (closed as interrupted) does not count
// against the retry budget: only attempts with a result do.
import type { Db } from '../../adapters/db/database.ts';
import { commitWithoutFlushWait } from '../../adapters/db/durability.ts';
import type { DbExecutor } from '../../adapters/db/repositories/executor.ts';
import {
  closeInterruptedAttempts, countAnsweredAttempts, failPendingDelivery, findOpenAttempt, getAttempt, getDeliveryWithTarget,
  lockDelivery, recordAttemptEnd, recordAttemptEndIfOpen, recordAttemptStart, updateDelivery,
} from '../../adapters/db/repositories/webhooks.ts';
import { LeaseLostError, deleteJob, renewLease, rescheduleUnlessHeld } from '../../adapters/jobs/queue.ts';
import type { OutboundClient, OutboundResult } from '../../adapters/outbound/index.ts';
import { classifyFault, isTransactionConflict } from '../../kernel/faults.ts';
import { isoAfter, nowIso } from '../../kernel/ids.ts';
import { packageVersion } from '../../kernel/version.ts';
import type { JobControl, Log, QueuedJob } from '../ports.ts';
import { silentLog } from '../ports.ts';
import { autoDisableIfFailing } from './auto-disable.ts';
import { parseDeliverPayload } from './deliver-job.ts';
import type { DeliverJobPayload } from './deliver-job.ts';
import { retryDelayAfter } from './schedule.ts';
import { attemptHeaders } from './signing.ts';

export interface DeliveryDeps {
  db: Db;
  /** The SSRF-guarded outbound HTTP client (built by the composition root). */
  client: OutboundClient;
  retryDelaysMs: readonly number[];
  /** Lease length of the runner; the begin/finish transactions re-assert the lease with it. */
  leaseMs: number;
  /** For User-Agent: Vouch-Webhooks/<version>. */
  version?: string;
  autoDisableAfterMs?: number;
  log?: Log;
  clock?: { now(): number };
  /** How often a kept answer is offered to the database again during an outage (default 500 ms). */
  heldAnswerRetryMs?: number;
}

interface Attempt {
  attemptId: string;
  attemptNo: number;
  /** Attempts of this series that count against its budget, this one included. */
  budgetUsed: number;
  webhookId: string;
  url: string;
  secret: string | null;
  body: string;
}

type Begin = { send: true; attempt: Attempt } | { send: false; why: string };

/**
 * Attempt results that no retry can change: the SSRF guard refused every address of the host at
 * connect time (its reason is on the attempt: error_class ssrf_refused, error "refused by the
 * SSRF policy: …"). The delivery fails at once instead of running through the retry schedule.
 */
export const PERMANENT_FAILURES: ReadonlySet<string> = new Set(['ssrf_refused']);

/** Fails the transaction unless this worker still holds the job (and extends the lease). */
async function fence(trx: DbExecutor, job: QueuedJob, leaseMs: number): Promise<void> {
  if (!(await renewLease(trx, job.id, job.leaseOwner, leaseMs))) throw new LeaseLostError(job.id);
}

/**
 * A claim made moments ago holds for most of its lease (the claim set it with this process's
 * clock, and the runner renews it while the job runs): no other worker can hold the job yet, so
 * the fence statement is needed only when the claim has aged.
 */
function claimIsFresh(job: QueuedJob, leaseMs: number, now: number): boolean {
  return Date.parse(job.leaseExpiresAt) - now > leaseMs / 2;
}

/**
 * How long an attempt found open is left to the worker that made it before it is closed as
 * interrupted and the delivery sent again: that worker may be alive, holding the receiver's
 * answer through a database outage, and records it within a second of the database's return —
 * on a busy machine (a restarted database, reconnecting pools) several seconds, so 10 s whatever
 * the lease (5 s let a duplicate through under load). A crashed worker's delivery waits this long
 * more.
 */
export function answerGraceMs(_leaseMs: number): number {
  return 10_000;
}

/** The job's last_error while it waits for the answer of an open attempt (see begin). */
function waitingFor(attemptId: string, attemptNo: number): string {
  return `waiting for the result of attempt ${attemptNo} (${attemptId}), made by another run`;
}

async function begin(deps: DeliveryDeps, job: QueuedJob, payload: DeliverJobPayload, ctx: JobControl): Promise<Begin> {
  return deps.db.kysely.transaction().execute(async (trx): Promise<Begin> => {
    // Attempt bookkeeping is redone if lost (the job runs again with the same delivery id).
    await commitWithoutFlushWait(deps.db, trx);
    // A held answer may be recorded by another run right now: wait for it before reading "pending".
    await lockDelivery(trx, payload.delivery_id);
    if (!claimIsFresh(job, deps.leaseMs, (deps.clock ?? Date).now())) await fence(trx, job, deps.leaseMs);
    const target = await getDeliveryWithTarget(trx, payload.delivery_id);
    const now = nowIso();
    if (!target) {
      await ctx.complete(trx);
      return { send: false, why: 'delivery or webhook deleted' };
    }
    const { delivery, webhook } = target;
    if (delivery.status !== 'pending') {
      await ctx.complete(trx);
      return { send: false, why: `delivery already ${delivery.status}` };
    }
    if (webhook.enabled !== 1) {
      await updateDelivery(trx, delivery.id, { status: 'failed', updated_at: now });
      await ctx.complete(trx);
      return { send: false, why: 'webhook disabled' };
    }
    // Only a delivery that already had attempts can have one left open by an earlier run.
    if (delivery.attempt_count > 0) {
      const open = await findOpenAttempt(trx, delivery.id);
      if (open) {
        const marker = waitingFor(open.id, open.attempt_no);
        const grace = answerGraceMs(deps.leaseMs);
        if (job.lastError !== marker) {
          // First sight: its worker may be alive and about to record the answer.
          await ctx.retry(trx, isoAfter(grace), marker);
          return { send: false, why: `attempt ${open.attempt_no} has no result yet; its worker has ${grace} ms to record one` };
        }
        if ((await closeInterruptedAttempts(trx, delivery.id, now)) === 0) {
          // Recorded meanwhile (we waited on its row lock): look again from the start.
          await ctx.retry(trx, now, 'the open attempt got its result meanwhile');
          return { send: false, why: `attempt ${open.attempt_no} got its result meanwhile` };
        }
      }
    }
    const attemptNo = delivery.attempt_count + 1;
    const budgetUsed = (await countAnsweredAttempts(trx, delivery.id, payload.series_start)) + 1;
    const attemptId = await recordAttemptStart(trx, { deliveryId: delivery.id, attemptNo, startedAt: now });
    await updateDelivery(trx, delivery.id, { attempt_count: attemptNo, updated_at: now });
    return { send: true, attempt: { attemptId, attemptNo, budgetUsed, webhookId: webhook.id, url: webhook.url, secret: webhook.secret, body: delivery.body } };
  });
}

function attemptEnd(result: OutboundResult) {
  return {
    finishedAt: nowIso(),
    statusCode: result.statusCode,
    latencyMs: result.latencyMs,
    errorClass: result.errorClass,
    error: result.error,
    responseExcerpt: result.responseExcerpt,
  };
}

type Settlement = { status: 'delivered' } | { status: 'retry'; delay: number } | { status: 'failed'; permanent: boolean };

/** What an attempt's result means for the delivery: decided before any write. */
function settle(deps: DeliveryDeps, payload: DeliverJobPayload, a: Attempt, result: OutboundResult): Settlement {
  if (result.ok) return { status: 'delivered' };
  // Abandoned by this worker (shutdown, lost lease): it did not run its course, so it neither
  // spends the budget nor waits a retry delay; the next worker sends it again.
  if (result.errorClass === 'interrupted') return { status: 'retry', delay: 0 };
  // A target the SSRF policy refuses will be refused again: retrying only delays the verdict.
  const permanent = PERMANENT_FAILURES.has(result.errorClass ?? '');
  const delay = permanent ? null : retryDelayAfter(a.budgetUsed, deps.retryDelaysMs);
  return delay === null ? { status: 'failed', permanent } : { status: 'retry', delay };
}

/** How the job is settled after an attempt: fenced by the lease, or (a held answer) by the attempt being still open. */
type SettleJob = (trx: DbExecutor, outcome: Settlement, error: string) => Promise<void>;

/** The attempt was closed (as interrupted) before its held result could be recorded. */
class AttemptClosedError extends Error {}

/** Settles the delivery and the job after an attempt; returns what happened, for the log. */
async function finish(deps: DeliveryDeps, payload: DeliverJobPayload, a: Attempt, result: OutboundResult, settleJob: SettleJob, onlyIfOpen: boolean): Promise<string> {
  const outcome = settle(deps, payload, a, result);
  return deps.db.kysely.transaction().execute(async (trx) => {
    await commitWithoutFlushWait(deps.db, trx);
    // The delivery, the job, the attempt: the order every transaction here takes them in.
    await lockDelivery(trx, payload.delivery_id);
    await settleJob(trx, outcome, `attempt ${a.attemptNo}: ${result.error}`);
    if (!(await recordAttemptEndIfOpen(trx, a.attemptId, attemptEnd(result), { onlyIfOpen }))) throw new AttemptClosedError();
    const now = nowIso();
    if (outcome.status === 'retry') {
      await updateDelivery(trx, payload.delivery_id, { updated_at: now });
      return `retry in ${outcome.delay} ms`;
    }
    await updateDelivery(trx, payload.delivery_id, { status: outcome.status, updated_at: now });
    if (outcome.status === 'delivered') return 'delivered';
    const disabled = await autoDisableIfFailing(trx, a.webhookId, { windowMs: deps.autoDisableAfterMs, lastError: result.error });
    const why = outcome.permanent ? `failed without retries (${result.error})` : 'failed';
    return disabled ? `${why}; webhook disabled automatically` : why;
  });
}

async function deliver(deps: DeliveryDeps, job: QueuedJob, ctx: JobControl): Promise<void> {
  const log = deps.log ?? silentLog;
  let payload: DeliverJobPayload;
  try {
    payload = parseDeliverPayload(job.payload);
  } catch (err) {
    // A malformed payload will not get better with retries.
    await deps.db.kysely.transaction().execute((trx) => ctx.fail(trx, (err as Error).message));
    return;
  }
  const started = await begin(deps, job, payload, ctx);
  if (!started.send) {
    log.info({ delivery_id: payload.delivery_id, job_id: job.id }, `webhook delivery skipped: ${started.why}`);
    return;
  }
  const a = started.attempt;
  const headers = attemptHeaders({ deliveryId: payload.delivery_id, attemptNo: a.attemptNo, body: a.body, secret: a.secret, version: deps.version ?? packageVersion() });
  const result = await deps.client.post(a.url, headers, a.body, ctx.signal);
  const fields = { delivery_id: payload.delivery_id, webhook_id: a.webhookId, attempt: a.attemptNo, status: result.statusCode, latency_ms: result.latencyMs, error_class: result.errorClass };
  const fenced: SettleJob = (trx, outcome, error) => (outcome.status === 'retry' ? ctx.retry(trx, isoAfter(outcome.delay), error) : ctx.complete(trx));
  try {
    const outcome = await finish(deps, payload, a, result, fenced, false);
    log[result.ok ? 'info' : 'warn'](fields, `webhook attempt: ${outcome}`);
  } catch (err) {
    if (err instanceof LeaseLostError || classifyFault(err) || isTransactionConflict(err)) {
      // The database failed us (or the lease lapsed while it did, or it rolled the settlement
      // back for a conflict): the answer is real, keep it.
      const why = isTransactionConflict(err) ? 'the database rolled its record back for a conflict' : 'while the database is unreachable';
      const outcome = await holdAnswer(deps, job, payload, a, result, ctx, fields, why);
      log[result.ok ? 'info' : 'warn'](fields, `webhook attempt: ${outcome}`);
      return;
    }
    // The job is no longer ours (shutdown, lost lease) or the database failed: keep this
    // attempt's result anyway. The job runs again (lease expiry or the runner's backoff) and
    // makes the next attempt — at-least-once, with the same delivery id.
    await recordAttemptEnd(deps.db.kysely, a.attemptId, attemptEnd(result)).catch((secondary: unknown) =>
      log.debug({ ...fields, err: String(secondary) }, 'could not record the attempt\'s result either; the next attempt closes it as interrupted'));
    throw err;
  }
}

const isStopping = (signal: AbortSignal) => signal.aborted && !(signal.reason instanceof LeaseLostError);

/**
 * Records an attempt's result that could not be written when it came (the database was
 * unreachable): tried again every heldAnswerRetryMs until the database takes it, without the
 * lease (it lapses during an outage) but only while the attempt is still open — which begin()
 * leaves it for answerGraceMs after the next claim. Gives up only when the worker stops, or
 * when another run closed the attempt meanwhile (then the delivery is sent again).
 */
async function holdAnswer(deps: DeliveryDeps, job: QueuedJob, payload: DeliverJobPayload, a: Attempt, result: OutboundResult, ctx: JobControl, fields: object, why: string): Promise<string> {
  const log = deps.log ?? silentLog;
  const every = deps.heldAnswerRetryMs ?? 500;
  log.warn(fields, `webhook attempt answered ${why}; keeping the result until it is back`);
  const unfenced: SettleJob = async (trx, outcome, error) => {
    if (outcome.status === 'retry') await rescheduleUnlessHeld(trx, job.id, job.leaseOwner, isoAfter(outcome.delay), error);
    else await deleteJob(trx, job.id);
  };
  for (;;) {
    if (isStopping(ctx.signal)) {
      log.warn(fields, 'worker stopping with an unrecorded webhook result; the attempt will be closed as interrupted and sent again');
      throw new Error('worker stopping with an unrecorded webhook result');
    }
    await new Promise((r) => setTimeout(r, every));
    try {
      return `${await finish(deps, payload, a, result, unfenced, true)} (recorded after the database came back)`;
    } catch (err) {
      if (err instanceof AttemptClosedError) {
        const row = await getAttempt(deps.db.kysely, a.attemptId);
        // A commit whose acknowledgement was lost in the outage looks the same: then it is ours.
        if (!row) return 'result discarded: the delivery no longer exists';
        if (row.error_class !== 'interrupted') return 'result already recorded';
        return 'result discarded: the attempt was closed as interrupted meanwhile, the delivery is sent again';
      }
      // An outage goes on, or a concurrent run's transaction won a conflict: offer it again.
      if (!classifyFault(err) && !isTransactionConflict(err)) throw err;
    }
  }
}

/**
 * The job has run out of claims (its workers kept dying on it): give the delivery up as failed,
 * with the open attempt closed, so it does not stay "pending" for ever.
 */
async function giveUp(deps: DeliveryDeps, job: QueuedJob, error: string, ctx: JobControl): Promise<void> {
  const id = (job.payload as Partial<DeliverJobPayload> | null)?.delivery_id;
  await deps.db.kysely.transaction().execute(async (trx) => {
    const now = nowIso();
    // Delivery, job, attempts: the order every transaction here takes them in.
    if (typeof id === 'string') await lockDelivery(trx, id);
    await ctx.fail(trx, error);
    if (typeof id === 'string') {
      await closeInterruptedAttempts(trx, id, now);
      await failPendingDelivery(trx, id, now);
    }
  });
}

export function deliveryService(deps: DeliveryDeps) {
  return {
    /** One attempt of the delivery a `deliver` job names (begin, POST, finish). */
    run: (job: QueuedJob, ctx: JobControl) => deliver(deps, job, ctx),
    /** The job ran out of claims: the delivery fails, its open attempt closed. */
    giveUp: (job: QueuedJob, error: string, ctx: JobControl) => giveUp(deps, job, error, ctx),
    /** Closes the outbound connection pool (on shutdown, after the runner stopped). */
    close: () => deps.client.close(),
  };
}

export type DeliveryService = ReturnType<typeof deliveryService>;
