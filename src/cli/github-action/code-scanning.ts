// Uploads the SARIF file to GitHub code scanning through the REST API ("Upload an analysis as SARIF
// data": POST /repos/{owner}/{repo}/code-scanning/sarifs, the SARIF gzip-compressed and base64'd),
// then waits for GitHub to process it, so a rejected file fails the step instead of vanishing.
// A JavaScript action cannot call github/codeql-action/upload-sarif itself; this is the same
// public endpoint any third-party tool uses, with the job's token (`security-events: write`).
import { gzipSync } from 'node:zlib';

/** GitHub refuses uploads over 10 MB gzip-compressed. */
export const MAX_GZIPPED_BYTES = 10 * 1024 * 1024;
const API_VERSION = '2022-11-28';

export class CodeScanningError extends Error {}

export interface UploadTarget {
  /** GITHUB_API_URL: https://api.github.com, or GHES's https://host/api/v3. */
  apiUrl: string;
  /** owner/name */
  repository: string;
  commitSha: string;
  /** refs/heads/…, refs/pull/N/merge, … */
  ref: string;
  token: string;
}

export interface UploadOutcome {
  id: string;
  /** complete, or pending when GitHub had not finished within the wait. */
  status: 'complete' | 'pending';
}

/** Where to upload, from the runner's environment; an error naming what is missing. */
export function uploadTarget(env: NodeJS.ProcessEnv, token: string | null): UploadTarget {
  const missing = ['GITHUB_REPOSITORY', 'GITHUB_SHA', 'GITHUB_REF'].filter((k) => !env[k]);
  if (missing.length > 0) throw new CodeScanningError(`cannot upload to code scanning outside a GitHub Actions job: ${missing.join(', ')} not set (set sarif-upload: false to only write the file)`);
  if (!token) throw new CodeScanningError('cannot upload to code scanning without a token: the github-token input is empty (its default is the job token)');
  return { apiUrl: (env.GITHUB_API_URL || 'https://api.github.com').replace(/\/+$/, ''), repository: env.GITHUB_REPOSITORY!, commitSha: env.GITHUB_SHA!, ref: env.GITHUB_REF!, token };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

async function call(url: string, target: UploadTarget, init: RequestInit = {}): Promise<Answer> {
  const headers = { accept: 'application/vnd.github+json', authorization: `Bearer ${target.token}`, 'x-github-api-version': API_VERSION, 'user-agent': 'vouch-action', ...(init.body ? { 'content-type': 'application/json' } : {}) };
  let res: Response;
  try {
    res = await fetch(url, { ...init, headers });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new CodeScanningError(`cannot reach ${new URL(url).origin}: ${cause?.code ?? cause?.message ?? String(error)}`);
  }
  const text = await res.text();
  let body: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object') body = parsed as Record<string, unknown>;
  } catch {
    body = { message: text.slice(0, 200) };
  }
  return { status: res.status, body };
}

/** What GitHub said, and what to do about it. */
function refusal(a: Answer, repository: string): CodeScanningError {
  const said = `HTTP ${a.status}${typeof a.body.message === 'string' && a.body.message ? `: ${a.body.message}` : ''}`;
  if (a.status === 401 || a.status === 403) {
    return new CodeScanningError(`code scanning refused the upload (${said}); give the job \`permissions: security-events: write\` — on a pull request from a fork the token is read-only, so set sarif-upload: false there`);
  }
  if (a.status === 404) return new CodeScanningError(`code scanning is not available for ${repository} (${said}); it needs a public repository or GitHub Code Security enabled`);
  if (a.status === 413) return new CodeScanningError(`code scanning refused the SARIF as too large (${said})`);
  return new CodeScanningError(`code scanning refused the upload (${said})`);
}

/** POSTs the SARIF (three attempts on network errors, 429 and 5xx), then waits up to `waitSeconds` for processing. */
export async function uploadSarif(sarifJson: string, target: UploadTarget, opts: { waitSeconds?: number; startedAt?: Date } = {}): Promise<UploadOutcome> {
  const gzipped = gzipSync(Buffer.from(sarifJson, 'utf8'));
  if (gzipped.length > MAX_GZIPPED_BYTES) throw new CodeScanningError(`the SARIF is ${gzipped.length} bytes gzip-compressed; code scanning takes at most ${MAX_GZIPPED_BYTES}`);
  const body = JSON.stringify({
    commit_sha: target.commitSha,
    ref: target.ref,
    sarif: gzipped.toString('base64'),
    tool_name: 'Vouch',
    ...(opts.startedAt ? { started_at: opts.startedAt.toISOString().replace(/\.\d{3}Z$/, 'Z') } : {}),
  });
  const base = `${target.apiUrl}/repos/${target.repository}/code-scanning/sarifs`;
  let answer: Answer | undefined;
  for (let attempt = 1; attempt <= 3; attempt++) {
    try {
      answer = await call(base, target, { method: 'POST', body });
    } catch (error) {
      if (attempt === 3) throw error;
      await sleep(1000 * attempt);
      continue;
    }
    if ((answer.status === 429 || answer.status >= 500) && attempt < 3) {
      await sleep(1000 * attempt);
      continue;
    }
    break;
  }
  if (!answer || answer.status !== 202 || typeof answer.body.id !== 'string') throw refusal(answer!, target.repository);
  const id = answer.body.id;
  return { id, status: await waitForProcessing(`${base}/${encodeURIComponent(id)}`, target, opts.waitSeconds ?? 120) };
}

/** Polls the upload's status: complete, or pending at the deadline; throws with GitHub's errors when it failed. */
async function waitForProcessing(url: string, target: UploadTarget, waitSeconds: number): Promise<UploadOutcome['status']> {
  const deadline = Date.now() + waitSeconds * 1000;
  for (let delay = 1000; Date.now() < deadline; delay = Math.min(delay + 1000, 5000)) {
    await sleep(Math.min(delay, Math.max(0, deadline - Date.now())));
    const a = await call(url, target).catch(() => null); // a network blip while polling is not a failed upload
    if (!a || a.status === 404 || a.status === 429 || a.status >= 500) continue; // 404: not registered yet
    if (a.status !== 200) throw refusal(a, target.repository);
    if (a.body.processing_status === 'complete') return 'complete';
    if (a.body.processing_status === 'failed') {
      const errors = Array.isArray(a.body.errors) ? a.body.errors.map(String).join('; ') : 'no reason given';
      throw new CodeScanningError(`code scanning could not process the SARIF: ${errors}`);
    }
  }
  return 'pending';
}
