// The retry schedule of webhook deliveries: one first attempt, then one retry per configured
// delay (default 5 s, 30 s, 5 min → 1 + 3 attempts).

export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [5_000, 30_000, 300_000];

/**
 * Parses VOUCH_WEBHOOK_RETRY_DELAYS_MS ("5000,30000,300000"). Unset or blank → the default; an
 * explicit "none" → no retries. Anything malformed throws so that a typo stops the process.
 */
export function parseRetryDelays(text: string | undefined): number[] {
  if (text === undefined || text.trim() === '') return [...DEFAULT_RETRY_DELAYS_MS];
  if (text.trim().toLowerCase() === 'none') return [];
  return text.split(',').map((part) => {
    const v = part.trim();
    if (!/^\d+$/.test(v) || !Number.isSafeInteger(Number(v))) {
      throw new Error(`VOUCH_WEBHOOK_RETRY_DELAYS_MS: "${part}" is not a whole number of milliseconds`);
    }
    return Number(v);
  });
}

/** Attempts in one series: the first one plus one per retry delay. */
export function attemptsPerSeries(delays: readonly number[]): number {
  return 1 + delays.length;
}

/**
 * After the n-th attempt of a series failed (n starting at 1): the delay before the next one,
 * or null when the series is exhausted and the delivery is `failed`.
 */
export function retryDelayAfter(n: number, delays: readonly number[]): number | null {
  return n >= 1 && n <= delays.length ? delays[n - 1] : null;
}
