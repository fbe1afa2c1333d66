// Part of the composition root: the analyser of a local `vouch analyze` (and the GitHub Action),
// which runs without a database. The CLI gets the worker-thread pool and the V8 settings of an
// analysing process from here, never from the adapter itself.
import type { Analyzer } from '../adapters/analysis-pool/index.ts';

export { tuneForAnalysis } from '../adapters/analysis-pool/v8-flags.ts';

/** What the CLI's batch analysis sees of the pool. */
export type LocalAnalyzer = Analyzer;

/** A worker-thread pool of `size` analysers (loaded on call: other commands never load it). */
export async function createLocalAnalyzer(opts: { size: number; timeoutMs: number }): Promise<LocalAnalyzer> {
  const { createAnalysisPool } = await import('../adapters/analysis-pool/index.ts');
  return createAnalysisPool(opts);
}
