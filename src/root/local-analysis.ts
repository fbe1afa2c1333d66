// Part of the composition root: the analyser of a local `vouch analyze` (and the GitHub Action),
// which runs without a database. The CLI gets the worker-thread pool and the V8 settings of an
// analysing process from here, never from the adapter itself.
import { availableParallelism, loadavg } from 'node:os';
import type { Analyzer, AnalysisOptions } from '../adapters/analysis-pool/index.ts';
import type { Report } from '../domain/model/report.ts';

export { tuneForAnalysis } from '../adapters/analysis-pool/v8-flags.ts';

/** What the CLI's batch analysis sees of the pool. */
export type LocalAnalyzer = Analyzer;

/** A worker-thread pool of `size` analysers (loaded on call: other commands never load it). */
export async function createLocalAnalyzer(opts: { size: number; timeoutMs: number }): Promise<LocalAnalyzer> {
  const { createAnalysisPool } = await import('../adapters/analysis-pool/index.ts');
  return createAnalysisPool(opts);
}

/**
 * Logs at least this big are analysed on two threads when a core is free: the second thread costs
 * ~0.2–0.4 s to start (loading the analyser and the shell grammar again) and ~40 MB, which a
 * small log would pay for nothing (docs/performance.md, "Two threads").
 */
export const TWO_THREADS_MIN_BYTES = 16 * 1024 * 1024;

/**
 * One log on this thread, with part of the rules on a second thread when the log is big enough
 * (`bytes`, when known) and a core is free: the second thread repeats the reading and parsing
 * (~35% more CPU time in all), which only pays where that core would otherwise idle; on a busy
 * machine it would take CPU from other work and finish no sooner. `VOUCH_ANALYSIS_THREADS=1`
 * never uses a second thread, `=2` always does (whatever the size or load). The report is the
 * same either way.
 */
export async function analyzeLocalLog(source: AsyncIterable<Uint8Array>, opts: AnalysisOptions, bytes: number | null): Promise<Report> {
  const { analyzeStream } = await import('../domain/analyze.ts');
  if (!twoThreads(bytes)) return analyzeStream(source, opts);
  const [{ startShardThread }, { secondThreadRules }, { RULES }] = await Promise.all([
    import('../adapters/analysis-pool/shard.ts'), import('../domain/shard.ts'), import('../domain/rules/index.ts'),
  ]);
  const shard = startShardThread(opts, secondThreadRules(RULES));
  try {
    return await analyzeStream(source, { ...opts, remote: shard });
  } finally {
    await shard.close();
  }
}

function twoThreads(bytes: number | null): boolean {
  const asked = process.env.VOUCH_ANALYSIS_THREADS;
  if (asked === '1') return false;
  if (asked === '2') return true;
  if (bytes === null || bytes < TWO_THREADS_MIN_BYTES) return false;
  // Free cores: the last minute's load average leaves one core for this thread and more than
  // half of another for the second (on 2 cores: a load under 0.5).
  return availableParallelism() - loadavg()[0] > 1.5;
}
