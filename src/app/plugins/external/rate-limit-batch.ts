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
// A key has one add in flight at a time, and the hits in it still count in what this process
// answers, so the count a client sees never goes down within a window.

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
  /** Hits answered here and not yet sent to the shared counter. */
  pending: number;
  /** Hits sent in the add that has not answered yet. */
  inflight: number;
  /** That add, while it runs: one add at a time per key, so answers come back in order. */
  busy: Promise<void> | null;
  resetAtMs: number;
  windowMs: number;
  readAtMs: number;
}

/** What this process knows the count to be: the shared count plus its own hits not yet in it. */
function estimate(s: KeyState): number {
  return s.known + s.inflight + s.pending;
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
    for (;;) {
      const now = this.#now();
      const s = this.#live(key, now);
      if (s && now - s.readAtMs < this.#syncMs && estimate(s) + 1 <= max / 2) {
        s.pending += 1;
        this.#schedule();
        return { hits: estimate(s), resetAtMs: s.resetAtMs };
      }
      if (!s?.busy) return this.#addNow(key, s, windowMs, 1);
      // Wait for the add in flight, then decide again (the count it brings may change the answer).
      await s.busy;
    }
  }

  /** Adds every pending hit now (the timer's work; also on close). Failures go to onError. */
  async flush(): Promise<void> {
    const now = this.#now();
    const work: Promise<void>[] = [];
    for (const [key, s] of this.#keys) {
      if (now >= s.resetAtMs) {
        // A pending hit of an ended window no longer counts against anything.
        this.#keys.delete(key);
        continue;
      }
      if (s.pending > 0 || s.busy) work.push(this.#flushKey(key, s));
    }
    await Promise.all(work);
  }

  async #flushKey(key: string, s: KeyState): Promise<void> {
    while (s.busy) await s.busy;
    if (s.pending === 0 || this.#keys.get(key) !== s) return;
    await this.#addNow(key, s, s.windowMs, 0).catch((err: Error) => this.#onError(err));
  }

  /**
   * Sends the key's pending hits plus `extra` new ones to the shared counter and learns the count
   * it answers. On failure the pending hits stay pending (the `extra` ones are the caller's).
   */
  async #addNow(key: string, s: KeyState | undefined, windowMs: number, extra: number): Promise<SharedCount> {
    const add = (s?.pending ?? 0) + extra;
    const readAtMs = this.#now();
    let done = () => {};
    if (s) {
      s.pending = 0;
      s.inflight += add;
      s.busy = new Promise<void>((resolve) => (done = resolve));
    }
    try {
      const r = await this.#add(key, add, windowMs);
      if (s) s.inflight -= add;
      this.#learn(key, r, windowMs, readAtMs);
      return r;
    } catch (err) {
      if (s) {
        s.inflight -= add;
        if (this.#keys.get(key) === s) s.pending += add - extra;
      }
      throw err;
    } finally {
      if (s) {
        s.busy = null;
        done();
      }
    }
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
      this.#keys.set(key, { known: r.hits, pending: 0, inflight: 0, busy: null, resetAtMs: r.resetAtMs, windowMs, readAtMs });
      return;
    }
    if (r.resetAtMs < s.resetAtMs) return; // an answer about a window already left behind
    // A first-hit add of another request may answer late; within one window the count only grows.
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
