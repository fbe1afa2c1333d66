// The GitHub Action's work: analyse the logs named by the `log` input (a path or a glob) locally, or
// upload them to a Vouch server when `api-url` and `api-key` are given; write the step outputs
// (`outcome`, `trust-score`, `report-url`, `sarif-id`), a Markdown job summary people read on the
// run page, and with `sarif` a SARIF file, uploaded to code scanning unless `sarif-upload: false`;
// exit non-zero by `fail-on`. Inputs arrive as INPUT_* environment variables (inputs.ts).
import { createReadStream } from 'node:fs';
import { appendFile, mkdir, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { tuneForAnalysis } from '../../root/local-analysis.ts';
import type { Outcome, Report } from '../../domain/model/report.ts';
import { renderReportMarkdown } from '../../domain/render/markdown.ts';
import { uploadRetryMsOf } from '../../config.ts';
import { sendLog, waitForReport } from '../commands/upload.ts';
import { EXIT } from '../exit-codes.ts';
import { CodeScanningError, uploadTarget, type UploadTarget } from './code-scanning.ts';
import { ActionInputError, readInputs, type ActionInputs } from './inputs.ts';
import { resolveLogs, type LogFile } from './logs.ts';
import { outputLine, plainLine } from './workflow-commands.ts';

export { ActionInputError, readInputs } from './inputs.ts';
export { globToRegExp, resolveLogs } from './logs.ts';

interface Analysed {
  file: LogFile;
  report: Report;
  reportUrl: string | null;
}

async function analyseLocally(file: string, agent: ActionInputs['agent']): Promise<Report> {
  // As `vouch analyze` does: without it a short run waits seconds at exit for V8's background
  // optimisation of the shell parser's WebAssembly (see v8-flags.ts).
  tuneForAnalysis();
  const { analyzeStream } = await import('../../domain/analyze.ts');
  return analyzeStream(createReadStream(file), { agentHint: agent, filename: basename(file) });
}

async function analyseOne(file: LogFile, i: ActionInputs, env: NodeJS.ProcessEnv, log: (line: string) => void): Promise<Analysed> {
  if (!i.apiUrl || !i.apiKey) return { file, report: await analyseLocally(file.path, i.agent), reportUrl: null };
  const branch = env.GITHUB_HEAD_REF || env.GITHUB_REF_NAME || undefined;
  // Retried as `vouch upload` retries (Retry-After, VOUCH_UPLOAD_RETRY_SECONDS), with the same content-derived Idempotency-Key.
  const session = await sendLog(i.apiUrl, i.apiKey, file.path, {
    agent: i.agent ?? undefined, repo: i.repo ?? undefined, branch,
    retryForMs: uploadRetryMsOf(env), onWait: (m) => log(plainLine(`${file.display}: ${m}`)),
  });
  return { file, report: await waitForReport(i.apiUrl, i.apiKey, session.id, 600), reportUrl: session.report_url };
}

const RANK: Record<Outcome, number> = { Clear: 0, Review: 1, Blocked: 2 };

function exitFor(results: Analysed[], failOn: ActionInputs['failOn']): number {
  if (failOn === 'never') return EXIT.CLEAR;
  const critical = results.some((r) => r.report.findings_count.critical > 0);
  const warning = results.some((r) => r.report.findings_count.warning > 0);
  if (critical) return EXIT.BLOCKED;
  if (failOn === 'warning' && warning) return EXIT.REVIEW;
  return EXIT.CLEAR;
}

/** The worst outcome, and among equals the lowest score. */
function worstOf(results: Analysed[]): Analysed {
  return results.reduce((a, b) => (RANK[b.report.outcome] > RANK[a.report.outcome] || (RANK[b.report.outcome] === RANK[a.report.outcome] && b.report.trust_score < a.report.trust_score) ? b : a));
}

/** A log's SARIF artifact URI: its workspace path (code scanning places alerts by repository path), percent-encoded. */
function artifactUri(file: LogFile): string {
  return isAbsolute(file.display) ? pathToFileURL(file.display).href : file.display.split('/').map(encodeURIComponent).join('/');
}

/** Where the SARIF file goes; a directory there is a usage error, found before any work. */
async function sarifPath(i: ActionInputs, workspace: string): Promise<string | null> {
  if (!i.sarif) return null;
  const path = resolve(workspace, i.sarif);
  const existing = await stat(path).catch(() => null);
  if (existing?.isDirectory()) throw new ActionInputError(`sarif must name a file, and ${JSON.stringify(i.sarif)} is a directory (e.g. ${i.sarif.replace(/\/+$/, '')}/vouch.sarif)`);
  return path;
}

export interface ActionResult {
  exitCode: number;
  /** The SARIF to upload to code scanning, and where, when asked for. */
  sarifToUpload: { json: string; target: UploadTarget } | null;
}

/** Where the SARIF would be uploaded: checked before any work, so a job without a token fails at once. */
function codeScanningTarget(i: ActionInputs, env: NodeJS.ProcessEnv): UploadTarget | null {
  if (!i.sarif || !i.sarifUpload) return null;
  try {
    return uploadTarget(env, i.githubToken);
  } catch (error) {
    if (error instanceof CodeScanningError) throw new ActionInputError(error.message);
    throw error;
  }
}

/**
 * Everything but the code-scanning upload (main.ts does that last, so that outputs, summary and
 * SARIF file exist even when the upload fails).
 */
export async function runGithubAction(env: NodeJS.ProcessEnv, log: (line: string) => void): Promise<ActionResult> {
  const inputs = readInputs(env);
  const workspace = resolve(env.GITHUB_WORKSPACE || process.cwd());
  const files = await resolveLogs(inputs.log, workspace);
  const sarifFile = await sarifPath(inputs, workspace);
  const target = codeScanningTarget(inputs, env);
  const results: Analysed[] = [];
  for (const file of files) {
    const r = await analyseOne(file, inputs, env, log);
    results.push(r);
    log(plainLine(`${r.report.outcome} ${r.report.trust_score}/100 ${file.display} — ${r.report.headline}`));
  }
  const worst = worstOf(results);
  if (env.GITHUB_OUTPUT) {
    await appendFile(env.GITHUB_OUTPUT, outputLine('outcome', worst.report.outcome) + outputLine('trust-score', String(worst.report.trust_score)) + outputLine('report-url', worst.reportUrl ?? ''));
  }
  if (env.GITHUB_STEP_SUMMARY) {
    // A job summary holds up to 1 MiB; split the room between the logs.
    const maxChars = Math.floor(900_000 / results.length);
    const sections = results.map((r) => renderReportMarkdown(r.report, { source: r.file.display, reportUrl: r.reportUrl, maxChars }));
    await appendFile(env.GITHUB_STEP_SUMMARY, sections.join('\n---\n\n'));
  }
  let sarifToUpload: ActionResult['sarifToUpload'] = null;
  if (sarifFile) {
    const { renderSarifLog } = await import('../../domain/render/sarif.ts');
    const json = JSON.stringify(renderSarifLog(results.map((r) => ({ report: r.report, artifactUri: artifactUri(r.file) })), { category: inputs.sarifCategory }), null, 2) + '\n';
    await mkdir(dirname(sarifFile), { recursive: true });
    await writeFile(sarifFile, json);
    log(plainLine(`SARIF written to ${sarifFile}`));
    if (target) sarifToUpload = { json, target };
  }
  return { exitCode: exitFor(results, inputs.failOn), sarifToUpload };
}
