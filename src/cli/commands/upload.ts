// `vouch upload FILE`: sends a log to VOUCH_API_URL with VOUCH_API_KEY (for CI). The file is
// streamed from disk. An Idempotency-Key makes the automatic retries of a failed connection
// safe: the server answers a retry with the first session, never a second one. With --wait it
// polls the report and exits like `vouch analyze` (0 Clear, 1 Review, 2 Blocked); problems
// exit with 3 (usage), 4 (file unreadable), 5 (server refused or unreachable).
import { randomUUID } from 'node:crypto';
import { openAsBlob } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { Option } from 'commander';
import type { Command } from 'commander';
import { AGENT_IDS } from '../../domain/model/events.ts';
import type { Report } from '../../domain/model/report.ts';
import { ConfigError, loadClientConfig } from '../../config.ts';
import { EXIT, outcomeExit } from '../exit-codes.ts';

interface UploadOptions {
  agent?: string;
  repo?: string;
  branch?: string;
  wait?: boolean;
  format: 'text' | 'json';
  timeout: number;
}

export class UploadError extends Error {
  constructor(message: string, readonly exitCode: number) {
    super(message);
  }
}

interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function request(url: string, init: RequestInit): Promise<Answer> {
  let res: Response;
  try {
    res = await fetch(url, init);
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new UploadError(`cannot reach ${new URL(url).origin}: ${cause?.code ?? cause?.message ?? String(error)}`, EXIT.REMOTE);
  }
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text for the error message
  }
  return { status: res.status, headers: res.headers, body };
}

function problemText(a: Answer): string {
  const b = a.body as { detail?: string; code?: string } | string;
  if (typeof b === 'object' && b && typeof b.detail === 'string') return `${b.detail}${b.code ? ` (${b.code})` : ''}`;
  return `HTTP ${a.status}${typeof b === 'string' && b ? `: ${b.slice(0, 200)}` : ''}`;
}

function refusal(a: Answer, what: string): UploadError {
  if (a.status === 401) return new UploadError(`the API key was refused: ${problemText(a)}`, EXIT.REMOTE);
  return new UploadError(`${what} was refused: ${problemText(a)}`, EXIT.REMOTE);
}

const retryAfterMs = (a: Answer, fallback: number) => {
  const s = Number(a.headers.get('retry-after'));
  return Number.isFinite(s) && s > 0 ? Math.min(s, 60) * 1000 : fallback;
};

export interface SendOptions {
  agent?: string;
  repo?: string;
  branch?: string;
  /** Makes retries (ours, or a later run's) return the first session; random when not given. */
  idempotencyKey?: string;
  /** The file name the server sees (its extension decides acceptance); the path's by default. */
  filename?: string;
  signal?: AbortSignal;
}

/** POSTs one log to /v1/sessions with up to three attempts; resolves with the 202 body. */
export async function sendLog(apiUrl: string, key: string, file: string, o: SendOptions): Promise<{ id: string; report_url: string; status: string }> {
  const idempotencyKey = o.idempotencyKey ?? randomUUID();
  for (let attempt = 1; ; attempt++) {
    const form = new FormData();
    if (o.agent) form.append('agent', o.agent);
    if (o.repo) form.append('repo', o.repo);
    if (o.branch) form.append('branch', o.branch);
    form.append('file', await openAsBlob(file), o.filename ?? basename(file));
    let a: Answer;
    try {
      a = await request(`${apiUrl}/v1/sessions`, { method: 'POST', body: form, signal: o.signal, headers: { authorization: `Bearer ${key}`, 'idempotency-key': idempotencyKey } });
    } catch (error) {
      if (attempt >= 3) throw error;
      await sleep(1000 * attempt);
      continue;
    }
    if (a.status === 202) return a.body as { id: string; report_url: string; status: string };
    if ((a.status === 429 || a.status >= 500) && attempt < 3) {
      await sleep(retryAfterMs(a, 1000 * attempt));
      continue;
    }
    throw refusal(a, 'the upload');
  }
}

export async function waitForReport(apiUrl: string, key: string, id: string, timeoutSeconds: number): Promise<Report> {
  const deadline = Date.now() + timeoutSeconds * 1000;
  const url = `${apiUrl}/v1/sessions/${encodeURIComponent(id)}/report`;
  while (Date.now() < deadline) {
    const a = await request(url, { headers: { authorization: `Bearer ${key}` } });
    if (a.status === 200) return a.body as Report;
    if (a.status === 409) throw new UploadError(`the analysis failed: ${problemText(a)}`, EXIT.REMOTE);
    if (a.status !== 202 && a.status !== 429 && a.status < 500) throw refusal(a, 'reading the report');
    await sleep(retryAfterMs(a, 1000));
  }
  throw new UploadError(`no report after ${timeoutSeconds} s; the session is ${id}`, EXIT.REMOTE);
}

async function checkFile(file: string): Promise<void> {
  const info = await stat(file).catch((e: NodeJS.ErrnoException) => {
    throw new UploadError(`cannot read ${file}: ${e.code === 'ENOENT' ? 'no such file' : e.message}`, EXIT.INPUT);
  });
  if (!info.isFile()) throw new UploadError(`${file} is not a regular file`, EXIT.INPUT);
}

export async function runUpload(file: string, o: UploadOptions): Promise<number> {
  try {
    const { apiUrl, apiKey } = loadClientConfig();
    if (!apiKey) throw new UploadError('VOUCH_API_KEY is not set', EXIT.USAGE);
    await checkFile(file);
    const session = await sendLog(apiUrl, apiKey, file, o);
    if (!o.wait) {
      process.stdout.write(o.format === 'json' ? JSON.stringify(session) + '\n' : `Uploaded ${basename(file)}: session ${session.id} (${session.status})\nReport: ${session.report_url}\n`);
      return EXIT.CLEAR;
    }
    const report = await waitForReport(apiUrl, apiKey, session.id, o.timeout);
    process.stdout.write(o.format === 'json' ? JSON.stringify(report) + '\n' : `${(await import('../../domain/render/terminal.ts')).renderReportText(report)}\nReport: ${session.report_url}\n`);
    return outcomeExit(report.outcome);
  } catch (error) {
    const code = error instanceof UploadError ? error.exitCode : error instanceof ConfigError ? EXIT.USAGE : EXIT.INTERNAL;
    process.stderr.write(`vouch upload: ${error instanceof Error ? error.message : String(error)}\n`);
    return code;
  }
}

export function registerUpload(program: Command): void {
  program
    .command('upload')
    .description('upload a session log to VOUCH_API_URL with VOUCH_API_KEY; with --wait exit 0 Clear, 1 Review, 2 Blocked')
    .argument('<file>', 'the log file (.jsonl, .log or .txt)')
    .addOption(new Option('--agent <id>', 'agent hint').choices([...AGENT_IDS]))
    .option('--repo <name>', 'repository name, e.g. acme/api')
    .option('--branch <name>', 'branch name (else the one the log records)')
    .option('--wait', 'wait for the report, print its summary and exit by its outcome')
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
    .addOption(new Option('--timeout <seconds>', 'how long --wait waits').default(600).argParser((v) => Number.parseInt(v, 10)))
    .action(async (file: string, o: UploadOptions) => {
      process.exitCode = await runUpload(file, o);
    });
}
