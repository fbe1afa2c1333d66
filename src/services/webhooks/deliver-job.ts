// The `deliver` job: its kind, its payload schema, and how it is enqueued. One job per delivery
// series; retries are the same job rescheduled (run_at = now + delay), so a pending retry is a
// row in the database and survives crashes and restarts, and any worker can send it.
import { enqueueJob } from '../../adapters/jobs/queue.ts';
import type { DbExecutor } from '../../adapters/db/repositories/executor.ts';

export const DELIVER_JOB_KIND = 'deliver';

/**
 * Claims a deliver job may take. Our own accounting (the delivery's attempts) decides when a
 * series ends; this only bounds a job that keeps crashing its worker before it can record
 * anything, so it is generous.
 */
export const DELIVER_JOB_MAX_CLAIMS = 50;

export interface DeliverJobPayload {
  delivery_id: string;
  /**
   * The attempt number that starts this series: 1 for the first series, attempt_count + 1 for
   * a redelivery. The retry budget counts attempts from here.
   */
  series_start: number;
}

export function parseDeliverPayload(value: unknown): DeliverJobPayload {
  const v = value as Partial<DeliverJobPayload> | null;
  if (!v || typeof v !== 'object' || typeof v.delivery_id !== 'string' || !v.delivery_id) {
    throw new Error(`deliver job payload must be {delivery_id, series_start}: ${JSON.stringify(value)}`);
  }
  const start = v.series_start === undefined ? 1 : v.series_start;
  if (!Number.isInteger(start) || start < 1) throw new Error(`deliver job payload: bad series_start ${JSON.stringify(v.series_start)}`);
  return { delivery_id: v.delivery_id, series_start: start };
}

/**
 * Enqueues the job of one delivery series. The dedupe key makes it impossible for two series of
 * the same delivery to run at once; returns false when one is already queued.
 */
export async function enqueueDeliverJob(trx: DbExecutor, payload: DeliverJobPayload): Promise<boolean> {
  const id = await enqueueJob(trx, {
    kind: DELIVER_JOB_KIND,
    payload,
    dedupeKey: `deliver:${payload.delivery_id}`,
    maxAttempts: DELIVER_JOB_MAX_CLAIMS,
  });
  return id !== null;
}
