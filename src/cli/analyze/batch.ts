// `vouch analyze` over many logs in one process: every log goes through the analysis worker pool
// (one worker thread per core), the same pool the server uses, so one huge or hostile log can
// neither stall the others nor take the process down (it fails alone, with its reason).
import { availableParallelism } from 'node:os';
import { basename } from 'node:path';
import type { LocalAnalyzer } from '../../root/local-analysis.ts';
import type { AgentId } from '../../domain/model/events.ts';
import { EXIT, exitCodeFor, type FailOn } from '../exit-codes.ts';
import { createProgress } from './progress.ts';
import type { Analysed } from './summary.ts';
import { CliError, openLog } from './input.ts';

export interface BatchOptions {
  agent?: AgentId;
  failOn?: FailOn;
  /** Analyses running at once; default one per core. */
  concurrency?: number;
  /** Per log; a log past it fails (the others go on). */
  timeoutMs?: number;
  /** Called as each log finishes, in completion order (jsonl streams its lines from here). */
  onResult?: (row: Analysed) => void;
}

export async function analyzeMany(files: string[], opts: BatchOptions = {}): Promise<Analysed[]> {
  const { createLocalAnalyzer } = await import('../../root/local-analysis.ts');
  const size = Math.max(1, Math.min(files.length, opts.concurrency ?? availableParallelism()));
  const pool = await createLocalAnalyzer({ size, timeoutMs: opts.timeoutMs ?? 300_000 });
  const progress = createProgress(files.length);
  try {
    // The pool queues what exceeds its size; all logs are handed over at once.
    return await Promise.all(
      files.map(async (file) => {
        const row = await analyzeOne(pool, file, opts);
        progress.tick(file);
        opts.onResult?.(row);
        return row;
      }),
    );
  } finally {
    progress.done();
    await pool.close();
  }
}

async function analyzeOne(pool: LocalAnalyzer, file: string, opts: BatchOptions): Promise<Analysed> {
  try {
    const source = await openLog(file);
    const report = await pool.analyze(source, { agentHint: opts.agent ?? null, filename: basename(file) });
    return { file, report };
  } catch (e) {
    return { file, error: e instanceof Error ? e.message : String(e), exitCode: e instanceof CliError ? e.exitCode : EXIT.INTERNAL };
  }
}

/** The worst exit code over all logs: a failed log (4, 6) outranks Blocked (2), Review (1), Clear (0). */
export function worstExitCode(rows: Analysed[], failOn?: FailOn): number {
  return rows.reduce<number>((worst, r) => Math.max(worst, 'report' in r ? exitCodeFor(r.report, failOn) : r.exitCode), EXIT.CLEAR);
}
