// Automatic disabling of a webhook that only fails. Checked each time a delivery ends `failed`:
// if no delivery of the webhook was accepted since its first failure, and that first failure is
// at least `windowMs` old (default 24 h), the webhook is disabled and the reason recorded, so the
// account sees why it stopped (the dashboard shows disabled_reason; enabling clears it).
import type { DbExecutor } from '../../adapters/db/repositories/executor.ts';
import { disableWebhook, firstFailureSince, lastDeliveredAt } from '../../adapters/db/repositories/webhooks.ts';
import { nowIso } from '../../kernel/ids.ts';

export const DEFAULT_AUTO_DISABLE_AFTER_MS = 24 * 3600_000;

export interface AutoDisableOptions {
  windowMs?: number;
  nowMs?: number;
  /** The error of the delivery that just failed, quoted in the reason. */
  lastError?: string | null;
}

function describe(ms: number): string {
  return ms % 3600_000 === 0 ? `${ms / 3600_000} h` : `${Math.round(ms / 1000)} s`;
}

/** Returns true when the webhook was disabled by this call. */
export async function autoDisableIfFailing(trx: DbExecutor, webhookId: string, opts: AutoDisableOptions = {}): Promise<boolean> {
  const windowMs = opts.windowMs ?? DEFAULT_AUTO_DISABLE_AFTER_MS;
  const nowMs = opts.nowMs ?? Date.now();
  const since = await firstFailureSince(trx, webhookId, await lastDeliveredAt(trx, webhookId));
  if (since === null || nowMs - Date.parse(since) < windowMs) return false;
  const last = opts.lastError ? ` Last error: ${opts.lastError.slice(0, 300)}` : '';
  const reason = `Disabled automatically at ${nowIso(nowMs)}: every delivery failed for ${describe(windowMs)} (since ${since}).${last}`;
  return disableWebhook(trx, webhookId, reason);
}
