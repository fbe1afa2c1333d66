// Which rules run on the second thread of a two-thread analysis (analyze.ts, "Two threads";
// the adapter that starts the thread is adapters/analysis-pool/shard.ts). Any split gives the
// same report; this one balances the threads' CPU time on the benchmark's logs
// (docs/performance.md). The analysing thread also parses, reads secrets and assembles the
// report, so the second thread takes the rules that cost the most: a rule not named here (a new
// one) runs on the analysing thread.
import type { Rule } from './rules/types.ts';

const SECOND_THREAD = new Set([
  'scope/write-outside-worktree',
  'destructive/rm-outside-worktree',
  'reliability/loop',
  'destructive/force-push',
  'ci/config-edited',
  'destructive/file-overwritten',
]);

/** Catalogue positions of the rules the second thread runs. */
export function secondThreadRules(rules: readonly Rule[]): Set<number> {
  const out = new Set<number>();
  rules.forEach((r, i) => {
    if (r.metas.some((m) => SECOND_THREAD.has(m.id))) out.add(i);
  });
  return out;
}
