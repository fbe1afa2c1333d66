// `vouch upload FILE`: sends a log to VOUCH_API_URL with VOUCH_API_KEY (for CI). The file is
// streamed from disk. Every upload carries an Idempotency-Key derived from what is sent (the
// file's bytes, its name, the agent, repo and branch), so a retry — ours, or a later run's for
// the same file — gets the first session back, never a second one, for as long as the server
// remembers the key (VOUCH_IDEMPOTENCY_RETENTION_MS, 24 h by default). While the server is
// unreachable or answers 408/429/5xx it keeps retrying for --retry-for seconds
// (VOUCH_UPLOAD_RETRY_SECONDS, default 120), waiting as long as its Retry-After asks (else 1, 2,
// 4, 8, 15 s…), with a line on stderr per wait. With --wait it polls the report and exits like
// `vouch analyze` (0 Clear, 1 Review, 2 Blocked); problems exit with 3 (usage), 4 (file
// unreadable), 5 (server refused or unreachable).
import { createHash } from 'node:crypto';
import { createReadStream, openAsBlob } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { InvalidArgumentError, Option } from 'commander';
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
  /** Seconds to keep retrying (--retry-for); VOUCH_UPLOAD_RETRY_SECONDS when not given. */
  retryFor?: number;
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

/** Answers worth retrying: the server is busy, restarting, or a dependency of it is down. */
const retryable = (status: number) => status === 408 || status === 429 || status >= 500;

/** The wait after the n-th failed try when the server gives no Retry-After: 1, 2, 4, 8, 15, 15 … s. */
const backoffMs = (n: number) => Math.min(1000 * 2 ** (n - 1), 15_000);

export const DEFAULT_UPLOAD_RETRY_MS = 120_000;

export interface SendOptions {
  agent?: string;
  repo?: string;
  branch?: string;
  /** Makes retries (ours, or a later run's) return the first session; derived from what is sent when not given (uploadKey). */
  idempotencyKey?: string;
  /** The file name the server sees (its extension decides acceptance); the path's by default. */
  filename?: string;
  signal?: AbortSignal;
  /** How long to keep retrying (default 2 min): the last try starts before this has passed. */
  retryForMs?: number;
  /** Told before each wait, e.g. "the server answered 503 …; retrying in 5 s". */
  onWait?: (message: string) => void;
}

/**
 * The Idempotency-Key of an upload: a hash of everything the server compares when it replays
 * a key (the bytes, the file name, agent, repo and branch), so the same upload always sends the
 * same key and a different one never reuses it (which the server would refuse with 422).
 */
export async function uploadKey(file: string, o: Pick<SendOptions, 'agent' | 'repo' | 'branch' | 'filename'>): Promise<string> {
  const hash = createHash('sha256').update(JSON.stringify(['vouch-upload/1', o.filename ?? basename(file), o.agent ?? '', o.repo ?? '', o.branch ?? '']));
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return `vouch-upload-${hash.digest('hex').slice(0, 48)}`;
}

function seconds(ms: number): string {
  const s = Math.ceil(ms / 1000);
  return s >= 120 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${s} s`;
}

/** POSTs one log to /v1/sessions, retrying as described above; resolves with the 202 body. */
export async function sendLog(apiUrl: string, key: string, file: string, o: SendOptions): Promise<{ id: string; report_url: string; status: string }> {
  const idempotencyKey = o.idempotencyKey ?? (await uploadKey(file, o));
  const retryForMs = o.retryForMs ?? DEFAULT_UPLOAD_RETRY_MS;
  const started = Date.now();
  for (let attempt = 1; ; attempt++) {
    const form = new FormData();
    if (o.agent) form.append('agent', o.agent);
    if (o.repo) form.append('repo', o.repo);
    if (o.branch) form.append('branch', o.branch);
    form.append('file', await openAsBlob(file), o.filename ?? basename(file));
    let answer: Answer | null = null;
    let failure = '';
    try {
      answer = await request(`${apiUrl}/v1/sessions`, { method: 'POST', body: form, signal: o.signal, headers: { authorization: `Bearer ${key}`, 'idempotency-key': idempotencyKey } });
    } catch (error) {
      if (!(error instanceof UploadError)) throw error;
      failure = error.message; // unreachable: connection refused, reset, DNS …
    }
    if (answer?.status === 202) return answer.body as { id: string; report_url: string; status: string };
    if (answer && !retryable(answer.status)) throw refusal(answer, 'the upload');
    if (answer) failure = `the server answered ${answer.status} (${problemText(answer)})`;
    let waitMs = answer ? retryAfterMs(answer, backoffMs(attempt)) : backoffMs(attempt);
    const left = retryForMs - (Date.now() - started);
    if (left <= 0 || o.signal?.aborted) {
      throw new UploadError(`${failure}; gave up after ${attempt} ${attempt === 1 ? 'try' : 'tries'} in ${seconds(Date.now() - started)} (retrying for ${seconds(retryForMs)}: --retry-for, VOUCH_UPLOAD_RETRY_SECONDS)`, EXIT.REMOTE);
    }
    waitMs = Math.min(waitMs, left);
    o.onWait?.(`${failure}; retrying in ${seconds(waitMs)} (try ${attempt + 1}, giving up in ${seconds(left)})`);
    await sleep(waitMs);
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
    const { apiUrl, apiKey, uploadRetryMs } = loadClientConfig();
    if (!apiKey) throw new UploadError('VOUCH_API_KEY is not set', EXIT.USAGE);
    await checkFile(file);
    const retryForMs = o.retryFor !== undefined ? o.retryFor * 1000 : uploadRetryMs;
    const session = await sendLog(apiUrl, apiKey, file, { ...o, retryForMs, onWait: (m) => process.stderr.write(`vouch upload: ${m}\n`) });
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

function nonNegativeInt(v: string): number {
  if (!/^\d+$/.test(v)) throw new InvalidArgumentError('a whole number of seconds');
  return Number(v);
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
    .addOption(new Option('--retry-for <seconds>', 'how long to keep retrying while the server is unreachable or asks to wait (default: VOUCH_UPLOAD_RETRY_SECONDS, else 120)').argParser(nonNegativeInt))
    .action(async (file: string, o: UploadOptions) => {
      process.exitCode = await runUpload(file, o);
    });
}
