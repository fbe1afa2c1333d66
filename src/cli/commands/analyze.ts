// `vouch analyze FILE|- [--agent ID] [--format text|json|html|sarif] [--fail-on warning|critical]`
// Analyses a log locally (no server, no account) and exits 0 Clear, 1 Review, 2 Blocked.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import v8 from 'node:v8';
import { Option, type Command } from 'commander';
import { AGENT_IDS, type AgentId } from '../../domain/model/events.ts';
import type { Report } from '../../domain/model/report.ts';
import { EXIT, exitCodeFor, type FailOn } from '../exit-codes.ts';

export type Format = 'text' | 'json' | 'html' | 'sarif';
// 256 KiB reads keep Buffer memory flat (4 MiB reads let ~100 MB of chunks pile up before GC).
const READ_CHUNK = 256 * 1024;

export class CliError extends Error {
  constructor(message: string, readonly exitCode: number) {
    super(message);
  }
}

export function registerAnalyze(program: Command): void {
  program
    .command('analyze')
    .description('analyse a session log locally; exit code 0 Clear, 1 Review, 2 Blocked')
    .argument('<file>', 'the log file, or - for standard input')
    .addOption(new Option('--agent <id>', 'agent hint (breaks ties only)').choices([...AGENT_IDS]))
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json', 'html', 'sarif']).default('text'))
    .addOption(new Option('--fail-on <severity>', 'exit non-zero only for findings of this severity or worse').choices(['warning', 'critical']))
    .action(async (file: string, opts: { agent?: AgentId; format: Format; failOn?: FailOn }) => {
      process.exitCode = await runAnalyze(file, opts);
    });
}

export async function runAnalyze(file: string, opts: { agent?: AgentId; format: Format; failOn?: FailOn }): Promise<number> {
  try {
    const source = await openInput(file);
    useBaselineWasmCompiler();
    // Loaded here, not at the top: every other vouch command starts without the analyser.
    const { analyzeStream } = await import('../../domain/analyze.ts');
    const report = await analyzeStream(source, { agentHint: opts.agent ?? null, filename: file === '-' ? undefined : basename(file) });
    process.stdout.write(await render(report, opts.format, file));
    return exitCodeFor(report, opts.failOn);
  } catch (e) {
    const code = e instanceof CliError ? e.exitCode : EXIT.INTERNAL;
    process.stderr.write(`vouch analyze: ${e instanceof Error ? e.message : String(e)}\n`);
    return code;
  }
}

/**
 * tree-sitter's WebAssembly is compiled twice by default: quickly (Liftoff), then optimised
 * (TurboFan) on background threads, which a short-lived process waits for at exit — 2-3 s of the
 * 3-4 s a one-file `vouch analyze` took. Liftoff alone parses the shell commands of even a
 * 1.5 MB log faster than waiting for TurboFan. V8 flags are process-wide (worker threads too),
 * so only the CLI sets this; the long-running server keeps the default.
 */
function useBaselineWasmCompiler(): void {
  v8.setFlagsFromString('--liftoff-only');
}

async function render(report: Report, format: Format, file: string): Promise<string> {
  switch (format) {
    case 'json':
      return JSON.stringify(report, null, 2) + '\n';
    case 'html':
      return (await import('../../domain/render/html.ts')).renderReportHtml(report);
    case 'sarif':
      return JSON.stringify((await import('../../domain/render/sarif.ts')).renderSarif(report, file === '-' ? 'stdin' : basename(file)), null, 2) + '\n';
    default:
      return (await import('../../domain/render/text.ts')).renderReportText(report, { color: Boolean(process.stdout.isTTY) && !process.env.NO_COLOR });
  }
}

async function openInput(file: string): Promise<AsyncIterable<Uint8Array>> {
  if (file === '-') return process.stdin;
  let info;
  try {
    info = await stat(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new CliError(code === 'ENOENT' ? `no such file: ${file}` : `cannot read ${file}: ${code ?? e}`, EXIT.INPUT);
  }
  if (info.isDirectory()) throw new CliError(`${file} is a directory; give a log file`, EXIT.INPUT);
  const stream = createReadStream(file, { highWaterMark: READ_CHUNK });
  // Surface open errors (EACCES) as a clear message before analysis starts.
  await new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', (e: NodeJS.ErrnoException) => reject(new CliError(`cannot read ${file}: ${e.code ?? e.message}`, EXIT.INPUT)));
  });
  return stream;
}
