// The GitHub Action's work (action.yml runs `vouch github-action`): analyse the logs named by
// the `log` input (a path or a glob) locally, or upload them to a Vouch server when `api-url`
// and `api-key` are given; write the step outputs (`outcome`, `trust-score`, `report-url`), a
// Markdown job summary people read on the run page, and optionally a SARIF file for code
// scanning; exit non-zero by `fail-on`. Inputs arrive as INPUT_* environment variables, as
// GitHub passes them to actions; nothing here talks to GitHub itself.
import { appendFile, readdir, writeFile } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { basename, join, relative, sep } from 'node:path';
import type { Outcome, Report } from '../../domain/model/report.ts';
import { renderReportMarkdown } from '../../domain/render/markdown.ts';
import { sendLog, waitForReport } from '../commands/upload.ts';
import { EXIT } from '../exit-codes.ts';

export interface ActionInputs {
  log: string;
  repo: string | null;
  failOn: 'critical' | 'warning' | 'never';
  apiUrl: string | null;
  apiKey: string | null;
  sarif: string | null;
  agent: string | null;
}

export class ActionInputError extends Error {}

export function readInputs(env: NodeJS.ProcessEnv): ActionInputs {
  const input = (name: string) => (env[`INPUT_${name.toUpperCase()}`] ?? '').trim() || null;
  const log = input('log');
  if (!log) throw new ActionInputError('the `log` input is required (a path or a glob such as `logs/**/*.jsonl`)');
  const failOn = input('fail-on') ?? 'critical';
  if (failOn !== 'critical' && failOn !== 'warning' && failOn !== 'never') throw new ActionInputError(`fail-on must be critical, warning or never (got ${JSON.stringify(failOn)})`);
  const apiUrl = input('api-url');
  const apiKey = input('api-key');
  if (Boolean(apiUrl) !== Boolean(apiKey)) throw new ActionInputError('give both api-url and api-key to upload, or neither to analyse locally');
  return { log, repo: input('repo') ?? env.GITHUB_REPOSITORY ?? null, failOn, apiUrl: apiUrl?.replace(/\/+$/, '') ?? null, apiKey, sarif: input('sarif'), agent: input('agent') };
}

/** `*` and `?` within a path segment, `**` across segments; the rest literal. */
export function globToRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*' && glob[i + 1] === '*') {
      const slash = glob[i + 2] === '/';
      re += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

async function walk(dir: string, out: string[], limit: number): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    if (out.length >= limit) return;
    if (entry.name === 'node_modules' || entry.name === '.git') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) await walk(path, out, limit);
    else if (entry.isFile()) out.push(path);
  }
}

/** The files a `log` input names, relative to the workspace, sorted. */
export async function resolveLogs(pattern: string, workspace: string): Promise<string[]> {
  if (!/[*?]/.test(pattern)) return [pattern];
  const base = pattern.slice(0, pattern.search(/[*?]/)).replace(/[^/]*$/, '') || '.';
  const files: string[] = [];
  await walk(join(workspace, base), files, 10_000);
  const re = globToRegExp(pattern.replace(/^\.\//, ''));
  return files.map((f) => relative(workspace, f).split(sep).join('/')).filter((f) => re.test(f)).sort();
}

interface Analysed {
  file: string;
  report: Report;
  reportUrl: string | null;
}

async function analyseLocally(file: string, agent: string | null): Promise<Report> {
  const { analyzeStream } = await import('../../domain/analyze.ts');
  return analyzeStream(createReadStream(file), { agentHint: (agent as Report['agent']) ?? null, filename: basename(file) });
}

async function analyseOne(file: string, i: ActionInputs, env: NodeJS.ProcessEnv): Promise<Analysed> {
  if (!i.apiUrl || !i.apiKey) return { file, report: await analyseLocally(file, i.agent), reportUrl: null };
  const branch = env.GITHUB_HEAD_REF || env.GITHUB_REF_NAME || undefined;
  const session = await sendLog(i.apiUrl, i.apiKey, file, { agent: i.agent ?? undefined, repo: i.repo ?? undefined, branch });
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

/** GitHub's multiline output syntax, with a delimiter the value cannot contain. */
function outputLine(name: string, value: string): string {
  if (!value.includes('\n')) return `${name}=${value}\n`;
  const delimiter = `vouch_${Math.random().toString(36).slice(2)}`;
  return `${name}<<${delimiter}\n${value}\n${delimiter}\n`;
}

export async function runGithubAction(env: NodeJS.ProcessEnv, log: (line: string) => void): Promise<number> {
  const inputs = readInputs(env);
  const workspace = env.GITHUB_WORKSPACE ?? process.cwd();
  const files = await resolveLogs(inputs.log, workspace);
  if (files.length === 0) throw new ActionInputError(`no file matches ${JSON.stringify(inputs.log)}`);
  const results: Analysed[] = [];
  for (const file of files) {
    const r = await analyseOne(join(workspace, file), inputs, env);
    results.push({ ...r, file });
    log(`${file}: ${r.report.outcome} ${r.report.trust_score}/100 — ${r.report.headline}`);
  }
  const worst = results.reduce((a, b) => (RANK[b.report.outcome] > RANK[a.report.outcome] || (RANK[b.report.outcome] === RANK[a.report.outcome] && b.report.trust_score < a.report.trust_score) ? b : a));
  if (env.GITHUB_OUTPUT) {
    await appendFile(env.GITHUB_OUTPUT, outputLine('outcome', worst.report.outcome) + outputLine('trust-score', String(worst.report.trust_score)) + outputLine('report-url', worst.reportUrl ?? ''));
  }
  if (env.GITHUB_STEP_SUMMARY) {
    // A job summary holds up to 1 MiB; split the room between the logs.
    const maxChars = Math.floor(900_000 / results.length);
    const sections = results.map((r) => renderReportMarkdown(r.report, { source: r.file, reportUrl: r.reportUrl, maxChars }));
    await appendFile(env.GITHUB_STEP_SUMMARY, sections.join('\n---\n\n'));
  }
  if (inputs.sarif) {
    const { renderSarifLog } = await import('../../domain/render/sarif.ts');
    // The logs' paths in the workspace are their repository paths: code scanning places alerts there.
    const sarif = renderSarifLog(results.map((r) => ({ report: r.report, artifactUri: r.file })));
    await writeFile(join(workspace, inputs.sarif), JSON.stringify(sarif, null, 2) + '\n');
  }
  return exitFor(results, inputs.failOn);
}
