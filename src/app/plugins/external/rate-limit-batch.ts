// Rate-limit counting against a shared counter (the rate_limits table) without a database
// write on every request. A process keeps, per key, the window's count as last read from the
// shared counter plus the hits it has answered since, and answers from that while it is safe:
//   - the last read is younger than `syncMs`, and
//   - the count after this hit stays within half of the limit.
// Every other hit (a key seen for the first time, a stale read, or any hit in the upper half of
// the limit) adds everything not yet counted to the shared counter and answers with what it
// returns — so the hits that decide a refusal are always counted exactly, across processes. A
// timer also adds pending hits every `syncMs`, so other processes see them even when this one
// goes quiet. What a process has not yet added is at most half a limit, for at most `syncMs`.

export interface SharedCount {
  /** Hits in the current window, the added ones included. */
  hits: number;
  /** When the current window ends (epoch ms). */
  resetAtMs: number;
}

/** Adds `add` hits to the key's shared counter (a new window when the stored one has ended). */
export type AddHits = (key: string, add: number, windowMs: number) => Promise<SharedCount>;

interface KeyState {
  /** The shared count as last returned (this process's added hits included). */
  known: number;
  /** Hits answered here and not yet added to the shared counter. */
  pending: number;
  resetAtMs: number;
  windowMs: number;
  readAtMs: number;
}

export interface BatchedCounterOptions {
  add: AddHits;
  /** How long a read of the shared counter may be answered from (default 100 ms). */
  syncMs?: number;
  /** How often pending hits are added in the background (default `syncMs`; 0: only by flush()). */
  flushIntervalMs?: number;
  /** Called when a background add fails (its hits stay pending and are retried). */
  onError?: (err: Error) => void;
  now?: () => number;
}

const KEYS_MAX = 100_000;

export class BatchedCounter {
  readonly #add: AddHits;
  readonly #syncMs: number;
  readonly #flushIntervalMs: number;
  readonly #onError: (err: Error) => void;
  readonly #now: () => number;
  readonly #keys = new Map<string, KeyState>();
  #timer: NodeJS.Timeout | undefined;

  constructor(opts: BatchedCounterOptions) {
    this.#add = opts.add;
    this.#syncMs = opts.syncMs ?? 100;
    this.#flushIntervalMs = opts.flushIntervalMs ?? this.#syncMs;
    this.#onError = opts.onError ?? (() => undefined);
    this.#now = opts.now ?? Date.now;
  }

  /** Counts one hit of `key` against a limit of `max` per `windowMs`. */
  async hit(key: string, windowMs: number, max: number): Promise<SharedCount> {
    const now = this.#now();
    const s = this.#live(key, now);
    if (s && now - s.readAtMs < this.#syncMs && s.known + s.pending + 1 <= max / 2) {
      s.pending += 1;
      this.#schedule();
      return { hits: s.known + s.pending, resetAtMs: s.resetAtMs };
    }
    const add = (s?.pending ?? 0) + 1;
    if (s) s.pending = 0;
    try {
      const r = await this.#add(key, add, windowMs);
      this.#learn(key, r, windowMs, now);
      return r;
    } catch (err) {
      // This hit is let through by the caller; the others stay pending for the next add.
      if (s && this.#keys.get(key) === s) s.pending += add - 1;
      throw err;
    }
  }

  /** The key's current count as this process knows it, without counting a hit (undefined: ask the store). */
  peek(key: string): SharedCount | undefined {
    const now = this.#now();
    const s = this.#live(key, now);
    if (!s || now - s.readAtMs >= this.#syncMs) return undefined;
    return { hits: s.known + s.pending, resetAtMs: s.resetAtMs };
  }

  /** Adds every pending hit now (the timer's work; also on close). */
  async flush(): Promise<void> {
    const now = this.#now();
    const work: Promise<void>[] = [];
    for (const [key, s] of this.#keys) {
      if (now >= s.resetAtMs) {
        // A pending hit of an ended window no longer counts against anything.
        this.#keys.delete(key);
        continue;
      }
      if (s.pending === 0) continue;
      const add = s.pending;
      s.pending = 0;
      work.push(this.#add(key, add, s.windowMs).then(
        (r) => this.#learn(key, r, s.windowMs, now),
        (err: Error) => {
          if (this.#keys.get(key) === s) s.pending += add;
          this.#onError(err);
        },
      ));
    }
    await Promise.all(work);
  }

  /** Stops the timer and adds what is pending. */
  async close(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.flush();
  }

  #live(key: string, now: number): KeyState | undefined {
    const s = this.#keys.get(key);
    if (s && now >= s.resetAtMs) {
      this.#keys.delete(key);
      return undefined;
    }
    return s;
  }

  #learn(key: string, r: SharedCount, windowMs: number, readAtMs: number): void {
    const s = this.#keys.get(key);
    if (!s || r.resetAtMs > s.resetAtMs) {
      // A new window (or a first read): what is pending belonged to the old one, if any.
      if (!s && this.#keys.size >= KEYS_MAX) this.#keys.clear();
      this.#keys.set(key, { known: r.hits, pending: 0, resetAtMs: r.resetAtMs, windowMs, readAtMs });
      return;
    }
    if (r.resetAtMs < s.resetAtMs) return; // an answer about a window already left behind
    // Adds may answer out of order; within one window the count only grows.
    s.known = Math.max(s.known, r.hits);
    s.readAtMs = Math.max(s.readAtMs, readAtMs);
  }

  #schedule(): void {
    if (this.#timer || this.#flushIntervalMs === 0) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.flush().then(() => {
        if ([...this.#keys.values()].some((s) => s.pending > 0)) this.#schedule();
      });
    }, this.#flushIntervalMs);
    this.#timer.unref();
  }
}
