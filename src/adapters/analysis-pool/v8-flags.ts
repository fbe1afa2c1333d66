// V8 settings for a process whose job is analysing logs (`vouch analyze`, one log or many).
// V8 flags are process-wide (worker threads included), so only such a process sets them; the
// long-running server keeps V8's defaults. Measured on a 200 MB Claude Code log (docs/performance.md):
//  - `--liftoff-only`: tree-sitter's WebAssembly stays on the baseline compiler. The optimising
//    tier (TurboFan, on background threads) cost more CPU than it saved on every input measured,
//    ~40 MB of peak RSS, and 2-3 s at the exit of a short run (a short-lived process waits for
//    the background compilation: it was most of a one-file `vouch analyze`).
//  - `--heap-growing-percent=20`: the old generation may grow 1.2× past the live heap between
//    full collections instead of V8's default (up to 2× and more): the analyser's live set is
//    ~35 MB and bounded, but the default let ~40 MB of garbage pile up on top of it (peak RSS
//    202 → 148 MB for ~10% more CPU time).
//  - a young generation of 2 × 4 MB semi-spaces instead of V8's 2 × 16 MB (issue 30): the
//    analyser's per-event garbage dies young either way, and the 24 MB more of new space were
//    most of what kept a 200 MB log's peak RSS above 150 MB (163 → 134–137 MB, same CPU time).
//    `--max-semi-space-size` only counts when the process starts (V8 sizes the heap then), but the
//    growth factor is read each time the new space grows (it doubles: 1, 2, 4, 8, 16, 32 MB): it
//    is set to 1 (no more growth) once the new space has reached 2 × 4 MB. Each growth needs as
//    many bytes to survive as the space holds, so the check between slices of the log comes first.
import v8 from 'node:v8';

export const ANALYSIS_V8_FLAGS = ['--liftoff-only', '--heap-growing-percent=20'] as const;

/** New space (both semi-spaces) at which its growth stops. */
const YOUNG_CAP_BYTES = 8 * 1024 * 1024;
const YOUNG_CHECK_MS = 10;
let capping = false;

/**
 * Applies ANALYSIS_V8_FLAGS to this process (idempotent), and the young-generation cap unless
 * `youngCap` is false: the cap is process-wide too, so a process whose analyses run on pool
 * threads (several logs) leaves it off, lest their new spaces stop at whatever size they had.
 * Call before the analyser loads.
 */
export function tuneForAnalysis(opts: { youngCap?: boolean } = {}): void {
  for (const flag of ANALYSIS_V8_FLAGS) v8.setFlagsFromString(flag);
  if (opts.youngCap !== false) capYoungGeneration();
}

/** Stops the new space's growth once it has reached YOUNG_CAP_BYTES (checked between slices of the log). */
function capYoungGeneration(): void {
  if (capping) return;
  capping = true;
  const timer = setInterval(() => {
    const young = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
    if (young && young.space_size < YOUNG_CAP_BYTES) return;
    // A V8 without a space of that name keeps its own sizing (a cap at its first size would cost CPU).
    if (young) v8.setFlagsFromString('--semi-space-growth-factor=1');
    clearInterval(timer);
  }, YOUNG_CHECK_MS);
  timer.unref();
}
