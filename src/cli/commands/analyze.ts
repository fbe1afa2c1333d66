// `vouch analyze FILE|DIR|- … [--agent ID] [--format text|json|jsonl|html|sarif|markdown] [--fail-on warning|critical]`
// Analyses logs locally (no server, no account). One log: its report, exit 0 Clear, 1 Review,
// 2 Blocked. Several logs or a directory: all of them across all cores (worker threads), a
// progress bar on a terminal, a summary table (or one JSON report per line), and the worst exit
// code of them all.
import { basename, isAbsolute, relative, resolve, sep } from 'node:path';
import { analyzeLocalLog, tuneForAnalysis } from '../../root/local-analysis.ts';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { AGENT_IDS, type AgentId } from '../../domain/model/events.ts';
import type { Report } from '../../domain/model/report.ts';
import { EXIT, exitCodeFor, type FailOn } from '../exit-codes.ts';
import { CliError, openLog } from '../analyze/input.ts';
import type { Analysed } from '../analyze/summary.ts';

export { CliError } from '../analyze/input.ts';

export type Format = 'text' | 'json' | 'jsonl' | 'html' | 'sarif' | 'markdown';

export interface AnalyzeOptions {
  agent?: AgentId;
  format: Format;
  failOn?: FailOn;
  /** SARIF: locations are the log's path relative to this directory (the repository root). */
  repoRoot?: string;
  /** SARIF, one log: the artifact URI exactly as given. */
  sarifArtifactUri?: string;
  /** SARIF: the code-scanning category (`automationDetails.id` vouch/<category>/); default: the paths given. */
  sarifCategory?: string;
  /** Many logs: analyses at once (default: one per core). */
  jobs?: number;
}

export function registerAnalyze(program: Command): void {
  program
    .command('analyze')
    .description('analyse session logs locally; exit code 0 Clear, 1 Review, 2 Blocked (the worst over several logs)')
    .argument('<paths...>', 'log files, directories of logs (.jsonl, .json, .log, searched recursively), or - for standard input')
    .addOption(new Option('--agent <id>', 'agent hint (breaks ties only)').choices([...AGENT_IDS]))
    .addOption(new Option('--format <format>', 'output format (jsonl: one report per line; markdown: a CI / pull-request summary)').choices(['text', 'json', 'jsonl', 'html', 'sarif', 'markdown']).default('text'))
    .addOption(new Option('--fail-on <severity>', 'exit non-zero only for findings of this severity or worse').choices(['warning', 'critical']))
    .option('--repo-root <dir>', 'SARIF: give log locations relative to this repository root (as code scanning expects)')
    .option('--sarif-artifact-uri <uri>', 'SARIF, one log: the artifact URI to report (default: the file name)')
    .option('--sarif-category <name>', 'SARIF: code-scanning category, so uploads of different logs for one commit do not replace each other (default: the paths given)')
    .addOption(new Option('--jobs <n>', 'several logs: analyses at once (default: one per CPU core)').argParser(positiveInt))
    .action(async (paths: string[], opts: AnalyzeOptions) => {
      process.exitCode = await runAnalyzeCommand(paths, opts);
    });
}

function positiveInt(v: string): number {
  const n = Number(v);
  // Commander reports it as a usage error (exit code 3).
  if (!Number.isInteger(n) || n < 1 || n > 256) throw new InvalidArgumentError('a whole number from 1 to 256');
  return n;
}

export async function runAnalyzeCommand(paths: string[], opts: AnalyzeOptions): Promise<number> {
  // V8 flags for an analysing process (see analysis-pool/v8-flags.ts); one log adds the young-generation cap.
  tuneForAnalysis({ youngCap: false });
  try {
    if (paths.length === 1 && !(await isDirectory(paths[0]))) return await runAnalyze(paths[0], opts);
    return await runMany(paths, opts);
  } catch (e) {
    return fail(e);
  }
}

/** One log, analysed on this thread (no worker start-up to pay for). */
export async function runAnalyze(file: string, opts: AnalyzeOptions): Promise<number> {
  try {
    tuneForAnalysis();
    const uri = artifactUri(file, opts);
    const source = await openLog(file);
    // The analyser is loaded there, not at the top: every other vouch command starts without it.
    // A big regular file is analysed on two threads (same report).
    const report = await analyzeLocalLog(source, { agentHint: opts.agent ?? null, filename: file === '-' ? undefined : basename(file) }, source.size ?? null);
    process.stdout.write(await render(report, opts.format, uri, opts.sarifCategory));
    return exitCodeFor(report, opts.failOn);
  } catch (e) {
    return fail(e);
  }
}

async function runMany(paths: string[], opts: AnalyzeOptions): Promise<number> {
  if (paths.includes('-')) throw new CliError('standard input (-) can only be analysed alone', EXIT.USAGE);
  if (opts.format === 'html') throw new CliError('--format html renders one log; use text, json, jsonl or sarif for several', EXIT.USAGE);
  if (opts.sarifArtifactUri) throw new CliError('--sarif-artifact-uri names one log; use --repo-root for several', EXIT.USAGE);
  const { collectLogs } = await import('../analyze/collect.ts');
  const { files, unreadable } = await collectLogs(paths);
  for (const u of unreadable) process.stderr.write(`vouch analyze: ${u.path}: ${u.reason}\n`);
  if (files.length === 0) throw new CliError(`no logs (.jsonl, .json, .log) found in ${paths.join(', ')}`, EXIT.INPUT);
  const uris = new Map(files.map((f) => [f, artifactUri(f, opts)])); // refuses files outside --repo-root before any work
  const { analyzeMany, worstExitCode } = await import('../analyze/batch.ts');
  const jsonl = (row: Analysed) => process.stdout.write(JSON.stringify('report' in row ? { file: row.file, ...row.report } : { file: row.file, error: row.error }) + '\n');
  const rows = await analyzeMany(files, { agent: opts.agent, failOn: opts.failOn, concurrency: opts.jobs, onResult: opts.format === 'jsonl' ? jsonl : undefined });
  for (const r of rows) if (!('report' in r)) process.stderr.write(`vouch analyze: ${r.file}: ${r.error}\n`);
  process.stdout.write(await renderMany(rows, opts.format, uris, opts.sarifCategory ?? sarifCategoryOf(paths, opts)));
  const worst = worstExitCode(rows, opts.failOn);
  return unreadable.length > 0 ? Math.max(worst, EXIT.INPUT) : worst;
}

async function renderMany(rows: Analysed[], format: Format, uris: Map<string, string>, category: string): Promise<string> {
  const done = rows.filter((r): r is Extract<Analysed, { report: Report }> => 'report' in r);
  switch (format) {
    case 'jsonl':
      return ''; // streamed as each log finished
    case 'json':
      return JSON.stringify(rows.map((r) => ('report' in r ? { file: r.file, ...r.report } : { file: r.file, error: r.error })), null, 2) + '\n';
    case 'markdown': {
      const { renderReportMarkdown } = await import('../../domain/render/markdown.ts');
      // Several summaries share one comment's room (GitHub: 65,536 characters).
      const maxChars = Math.floor(60_000 / Math.max(1, done.length));
      return done.map((r) => renderReportMarkdown(r.report, { source: uris.get(r.file), maxChars })).join('\n---\n\n');
    }
    case 'sarif': {
      const { renderSarifLog } = await import('../../domain/render/sarif.ts');
      return JSON.stringify(renderSarifLog(done.map((r) => ({ report: r.report, artifactUri: uris.get(r.file) })), { category }), null, 2) + '\n';
    }
    default:
      return (await import('../analyze/summary.ts')).summaryTable(rows, { color: colour() });
  }
}

async function render(report: Report, format: Format, uri: string, category: string | undefined): Promise<string> {
  switch (format) {
    case 'json':
      return JSON.stringify(report, null, 2) + '\n';
    case 'jsonl':
      return JSON.stringify(report) + '\n';
    case 'html':
      return (await import('../../domain/render/html.ts')).renderReportHtml(report);
    case 'sarif':
      return JSON.stringify((await import('../../domain/render/sarif.ts')).renderSarif(report, { artifactUri: uri, category }), null, 2) + '\n';
    case 'markdown':
      return (await import('../../domain/render/markdown.ts')).renderReportMarkdown(report, { source: uri });
    default:
      return (await import('../../domain/render/terminal.ts')).renderReportText(report, { color: colour() });
  }
}

/**
 * The SARIF artifact URI of a log: `--sarif-artifact-uri` as given; else its path relative to
 * `--repo-root` (code scanning places alerts by repository path); else its file name.
 * Path segments are percent-encoded (a URI reference may not contain spaces).
 */
export function artifactUri(file: string, opts: Pick<AnalyzeOptions, 'repoRoot' | 'sarifArtifactUri'>): string {
  if (opts.sarifArtifactUri) return opts.sarifArtifactUri;
  if (file === '-') return 'stdin';
  if (!opts.repoRoot) return encodeURIComponent(basename(file));
  const rel = relative(resolve(opts.repoRoot), resolve(file));
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) throw new CliError(`${file} is not inside --repo-root ${opts.repoRoot}`, EXIT.USAGE);
  return rel.split(sep).map(encodeURIComponent).join('/');
}

/**
 * The default SARIF category of several logs: the paths as given (relative to --repo-root when
 * inside it), so the same command on the next commit replaces this analysis and another command
 * (other logs) keeps its own.
 */
export function sarifCategoryOf(paths: string[], opts: Pick<AnalyzeOptions, 'repoRoot'>): string {
  const shown = paths.map((p) => {
    if (!opts.repoRoot) return p;
    const rel = relative(resolve(opts.repoRoot), resolve(p));
    return rel.startsWith('..') || isAbsolute(rel) ? p : rel.split(sep).join('/') || '.';
  });
  return shown.join(',');
}

function fail(e: unknown): number {
  process.stderr.write(`vouch analyze: ${e instanceof Error ? e.message : String(e)}\n`);
  return e instanceof CliError ? e.exitCode : EXIT.INTERNAL;
}

function colour(): boolean {
  return Boolean(process.stdout.isTTY) && !process.env.NO_COLOR;
}

async function isDirectory(path: string): Promise<boolean> {
  if (path === '-') return false;
  const { stat } = await import('node:fs/promises');
  return stat(path).then(
    (s) => s.isDirectory(),
    () => false, // a missing file is reported by the single-log path, with its exit code
  );
}
