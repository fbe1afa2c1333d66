// Runs jobs from the queue: claims up to `concurrency` at a time, keeps their leases alive while
// they run, and settles what the processors leave unsettled.
//
// A processor settles its job itself, in the same transaction as the state change the job
// causes (ctx.complete(trx) / ctx.retry(trx, …) / ctx.fail(trx, …)), so "session complete" and
// "analysis job gone" commit together. The runner handles the rest:
//   - the processor returned without settling: its JobOutcome (default done) is applied;
//   - the processor threw: retry with backoff while attempts remain, else the exhausted path;
//   - exhausted (the last attempt failed, or the worker running it died): the processor's
//     onExhausted hook records the failure (e.g. marks the session failed), then the job is dead.
import type { Db } from '../db/database.ts';
import type { DbExecutor } from '../db/repositories/executor.ts';
import { isoAfter } from '../../kernel/ids.ts';
import { OutageLog, classifyFault } from '../../kernel/faults.ts';
import type { Fault } from '../../kernel/faults.ts';
import { LeaseLostError, claimJobs, completeJob, deferJob, failJob, releaseJob, renewLease, retryJob } from './queue.ts';
import type { ClaimedJob } from './queue.ts';

export type JobOutcome = { type: 'done' } | { type: 'retry'; runAt: string; error: string } | { type: 'dead'; error: string };

export interface JobContext {
  /** Aborted when the lease is lost or the runner stops without waiting for this job. */
  signal: AbortSignal;
  /** Extends the lease now (the runner also does so on a timer); false when it was lost. */
  renewLease(): Promise<boolean>;
  /** Deletes the job inside `trx`. Throws LeaseLostError (rolling `trx` back) if not ours any more. */
  complete(trx: DbExecutor): Promise<void>;
  /** Schedules the job again at `runAt` inside `trx`. Throws LeaseLostError if not ours any more. */
  retry(trx: DbExecutor, runAt: string, error: string): Promise<void>;
  /** Marks the job dead inside `trx`. Throws LeaseLostError if not ours any more. */
  fail(trx: DbExecutor, error: string): Promise<void>;
}

export type ProcessorFn = (job: ClaimedJob, ctx: JobContext) => Promise<JobOutcome | void>;

export interface Processor {
  run: ProcessorFn;
  /**
   * The job failed on its last attempt (or its worker died on it). Record the failure for good,
   * ideally with ctx.fail(trx, error) in the same transaction; the runner marks the job dead
   * afterwards if the hook did not settle it. If the hook throws, it is tried again later.
   */
  onExhausted?: (job: ClaimedJob, error: string, ctx: JobContext) => Promise<void>;
  /** Delays after a thrown error, by attempt (the last one repeats). Default 1 s, 5 s, 30 s, 2 min, 10 min. */
  backoffMs?: readonly number[];
}

export interface JobLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface JobRunnerOptions {
  db: Db;
  /** Identifies this process in lease_owner (e.g. host:pid). */
  owner: string;
  processors: Record<string, Processor | ProcessorFn>;
  concurrency?: number;
  pollMs?: number;
  leaseMs?: number;
  /** How long stop() waits for running jobs before releasing them. */
  stopTimeoutMs?: number;
  log?: JobLogger;
}

export interface JobRunner {
  start(): void;
  /** Stops claiming, waits for running jobs (bounded), releases the leases of those still running. */
  stop(): Promise<void>;
  /** Polls now (call after enqueueing in this process). */
  nudge(): void;
}

export const DEFAULT_BACKOFF_MS: readonly number[] = [1_000, 5_000, 30_000, 120_000, 600_000];
const CLAIM_ERROR_DELAY_MS = 1_000;
/** A job cut short by an outage runs again after this, without spending an attempt. */
export const OUTAGE_RETRY_MS = 5_000;
/** How often handing such a job back is tried while the outage lasts (within its lease). */
const DEFER_TRY_MS = 1_000;

const silentLog: JobLogger = { info() {}, warn() {}, error() {} };

function message(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

function backoff(processor: Processor, attempts: number): number {
  const delays = processor.backoffMs ?? DEFAULT_BACKOFF_MS;
  return delays[Math.min(Math.max(attempts, 1), delays.length) - 1] ?? 1_000;
}

interface Running {
  job: ClaimedJob;
  controller: AbortController;
  done: Promise<void>;
}

export function createJobRunner(opts: JobRunnerOptions): JobRunner {
  return new Runner(opts);
}

class Runner implements JobRunner {
  readonly #db: Db;
  readonly #owner: string;
  readonly #processors: Map<string, Processor>;
  readonly #concurrency: number;
  readonly #pollMs: number;
  readonly #leaseMs: number;
  readonly #stopTimeoutMs: number;
  readonly #log: JobLogger;
  readonly #running = new Map<string, Running>();
  #active = false;
  #loop: Promise<void> | undefined;
  #claimSeq = 0;
  #wake: (() => void) | undefined;
  #nudged = false;
  readonly #outages = new OutageLog();

  constructor(opts: JobRunnerOptions) {
    this.#db = opts.db;
    this.#owner = opts.owner;
    this.#processors = new Map(Object.entries(opts.processors).map(([k, p]) => [k, typeof p === 'function' ? { run: p } : p]));
    this.#concurrency = Math.max(1, opts.concurrency ?? 1);
    this.#pollMs = opts.pollMs ?? 250;
    this.#leaseMs = opts.leaseMs ?? 30_000;
    this.#stopTimeoutMs = opts.stopTimeoutMs ?? 8_000;
    this.#log = opts.log ?? silentLog;
  }

  start(): void {
    if (this.#active) return;
    this.#active = true;
    this.#loop = this.#pollLoop();
  }

  nudge(): void {
    this.#nudged = true;
    this.#wake?.();
  }

  async stop(): Promise<void> {
    if (!this.#active) return;
    this.#active = false;
    this.#wake?.();
    await this.#loop;
    const all = Promise.all([...this.#running.values()].map((r) => r.done));
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), this.#stopTimeoutMs);
    });
    const result = await Promise.race([all.then(() => 'done' as const), timedOut]);
    clearTimeout(timer);
    if (result === 'timeout') await this.#releaseAll();
  }

  // Jobs still running at the deadline go back to the queue for another worker.
  async #releaseAll(): Promise<void> {
    for (const r of [...this.#running.values()]) {
      r.controller.abort(new Error('worker stopping'));
      try {
        await releaseJob(this.#db, r.job.id, r.job.leaseOwner);
        this.#log.warn({ job_id: r.job.id, kind: r.job.kind }, 'job released unfinished at shutdown');
      } catch (error) {
        this.#log.error({ job_id: r.job.id, err: message(error) }, 'could not release job; its lease will expire');
      }
      this.#running.delete(r.job.id);
    }
  }

  async #pollLoop(): Promise<void> {
    while (this.#active) {
      this.#nudged = false;
      let claimed = false;
      if (this.#running.size < this.#concurrency) {
        try {
          claimed = await this.#claimBatch();
        } catch (error) {
          // An outage fails every poll: logged once when it starts, not every second.
          const fault = classifyFault(error);
          if (!fault || this.#outages.note(fault)) this.#log.error({ err: message(error), fault }, 'job claim failed');
          await this.#sleep(CLAIM_ERROR_DELAY_MS);
          continue;
        }
      }
      // A nudge that arrived while claiming means there may be more work: go round again.
      if (!claimed && !this.#nudged) await this.#sleep(this.#pollMs);
    }
  }

  /** Fills every free slot with one claim statement (claimJobs); false when nothing was due. */
  async #claimBatch(): Promise<boolean> {
    const jobs = await claimJobs(this.#db, {
      owner: `${this.#owner}#${++this.#claimSeq}`,
      kinds: [...this.#processors.keys()],
      leaseMs: this.#leaseMs,
    }, this.#concurrency - this.#running.size);
    if (!this.#active) {
      // stop() began while claiming: hand them straight back.
      for (const job of jobs) await releaseJob(this.#db, job.id, job.leaseOwner);
      return false;
    }
    for (const job of jobs) this.#start(job);
    return jobs.length > 0;
  }

  #start(job: ClaimedJob): void {
    const controller = new AbortController();
    const running: Running = { job, controller, done: Promise.resolve() };
    running.done = this.#execute(job, controller).finally(() => {
      this.#running.delete(job.id);
      this.nudge(); // a slot is free
    });
    this.#running.set(job.id, running);
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.#wake = () => {
        this.#wake = undefined;
        done();
      };
    });
  }

  async #execute(job: ClaimedJob, controller: AbortController): Promise<void> {
    const processor = this.#processors.get(job.kind) as Processor;
    const renewal = this.#keepLease(job, controller);
    try {
      if (job.attempts > job.maxAttempts) {
        // The previous holder died during the final attempt: do not run it again.
        await this.#exhausted(processor, job, job.lastError ?? 'the worker running this job stopped before finishing', controller);
      } else {
        await this.#runOnce(processor, job, controller);
      }
    } catch (error) {
      const fault = classifyFault(error);
      if (!fault || this.#outages.note(fault)) this.#log.error({ job_id: job.id, kind: job.kind, err: message(error) }, 'job bookkeeping failed; the lease will expire and the job will run again');
    } finally {
      clearInterval(renewal);
    }
  }

  #keepLease(job: ClaimedJob, controller: AbortController): NodeJS.Timeout {
    return setInterval(() => {
      renewLease(this.#db, job.id, job.leaseOwner, this.#leaseMs).then(
        (ok) => {
          if (!ok && !controller.signal.aborted) {
            this.#log.warn({ job_id: job.id, kind: job.kind }, 'job lease lost');
            controller.abort(new LeaseLostError(job.id));
          }
        },
        (error) => this.#log.warn({ job_id: job.id, err: message(error) }, 'job lease renewal failed'),
      );
    }, Math.max(50, Math.floor(this.#leaseMs / 3)));
  }

  #context(job: ClaimedJob, controller: AbortController, settled: { value: boolean }): JobContext {
    const owner = job.leaseOwner;
    const fenced = async (ok: Promise<boolean>) => {
      if (!(await ok)) throw new LeaseLostError(job.id);
      settled.value = true;
    };
    return {
      signal: controller.signal,
      renewLease: () => renewLease(this.#db, job.id, owner, this.#leaseMs),
      complete: (trx) => fenced(completeJob(trx, job.id, owner)),
      retry: (trx, runAt, error) => fenced(retryJob(trx, job.id, owner, runAt, error)),
      fail: (trx, error) => fenced(failJob(trx, job.id, owner, error)),
    };
  }

  async #runOnce(processor: Processor, job: ClaimedJob, controller: AbortController): Promise<void> {
    const settled = { value: false };
    let outcome: JobOutcome | void;
    try {
      outcome = await processor.run(job, this.#context(job, controller, settled));
    } catch (error) {
      if (error instanceof LeaseLostError) {
        this.#log.warn({ job_id: job.id, kind: job.kind }, 'job lease lost; its transaction was rolled back');
        return;
      }
      await this.#failedAttempt(processor, job, error, controller);
      return;
    }
    if (!settled.value) await this.#apply(job, outcome ?? { type: 'done' });
  }

  async #apply(job: ClaimedJob, outcome: JobOutcome): Promise<void> {
    const kysely = this.#db.kysely;
    if (outcome.type === 'done') await completeJob(kysely, job.id, job.leaseOwner);
    else if (outcome.type === 'retry') await retryJob(kysely, job.id, job.leaseOwner, outcome.runAt, outcome.error);
    else await failJob(kysely, job.id, job.leaseOwner, outcome.error);
  }

  // A thrown error. The processor's transaction (if any) rolled back, so the job is still ours
  // unless the lease was lost, in which case every statement below changes nothing.
  async #failedAttempt(processor: Processor, job: ClaimedJob, thrown: unknown, controller: AbortController): Promise<void> {
    const error = message(thrown);
    const fault = classifyFault(thrown);
    if (fault) {
      await this.#defer(job, error, fault, controller);
      return;
    }
    if (job.attempts < job.maxAttempts) {
      const delay = backoff(processor, job.attempts);
      this.#log.warn({ job_id: job.id, kind: job.kind, attempt: job.attempts, retry_in_ms: delay, err: error }, 'job failed; will retry');
      await retryJob(this.#db.kysely, job.id, job.leaseOwner, isoAfter(delay), error);
      return;
    }
    await this.#exhausted(processor, job, error, controller);
  }

  /**
   * The run was cut short by a dependency's outage (database unreachable, disk full): that says
   * nothing about the job, so it goes back to the queue without spending an attempt, with the
   * real error recorded. The outage may also fail this hand-back: it is tried again every
   * second while the lease lasts; past that the lease expires and the next claim counts.
   */
  async #defer(job: ClaimedJob, error: string, fault: Fault, controller: AbortController): Promise<void> {
    if (this.#outages.note(fault)) this.#log.error({ job_id: job.id, kind: job.kind, err: error, fault }, 'job interrupted by an outage; it runs again without spending an attempt');
    const until = Date.now() + this.#leaseMs;
    while (!controller.signal.aborted) {
      try {
        await deferJob(this.#db.kysely, job.id, job.leaseOwner, isoAfter(OUTAGE_RETRY_MS), error);
        return;
      } catch (deferError) {
        if (Date.now() + DEFER_TRY_MS >= until || !this.#active) throw deferError;
        await new Promise((r) => setTimeout(r, DEFER_TRY_MS));
      }
    }
  }

  async #exhausted(processor: Processor, job: ClaimedJob, error: string, controller: AbortController): Promise<void> {
    this.#log.error({ job_id: job.id, kind: job.kind, attempts: job.attempts, err: error }, 'job exhausted its attempts');
    const settled = { value: false };
    if (processor.onExhausted) {
      try {
        await processor.onExhausted(job, error, this.#context(job, controller, settled));
      } catch (hookError) {
        // The failure is not recorded yet: keep the job and try the hook again later.
        const delay = backoff(processor, Number.MAX_SAFE_INTEGER);
        this.#log.error({ job_id: job.id, kind: job.kind, err: message(hookError) }, 'onExhausted failed; will try again');
        await retryJob(this.#db.kysely, job.id, job.leaseOwner, isoAfter(delay), `${error} (onExhausted: ${message(hookError)})`);
        return;
      }
    }
    if (!settled.value) await failJob(this.#db.kysely, job.id, job.leaseOwner, error);
  }
}
