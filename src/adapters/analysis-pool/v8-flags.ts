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
import v8 from 'node:v8';

export const ANALYSIS_V8_FLAGS = ['--liftoff-only', '--heap-growing-percent=20'] as const;

/** Applies ANALYSIS_V8_FLAGS to this process (idempotent). Call before the analyser loads. */
export function tuneForAnalysis(): void {
  for (const flag of ANALYSIS_V8_FLAGS) v8.setFlagsFromString(flag);
}
