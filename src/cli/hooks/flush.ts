// Uploads what the hook queued. Runs detached from the agent (`vouch hooks flush`), so nothing
// here can slow a session down: it waits for each entry's quiet period, uploads it with the repo
// and branch of its working directory, and leaves failures queued for the next session end.
// Bounded: each upload has a deadline, and the process ends when the queue holds nothing due.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { basename, extname } from 'node:path';
import { appendFile, mkdir, readdir, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { settleMsFor } from './agents.ts';
import { loadCredentials } from './credentials.ts';
import { gitInfo } from './git-info.ts';
import { HookQueue, type QueueEntry } from './queue.ts';
import { uploadRetryMsOf } from '../../config.ts';
import { sendLog } from '../commands/upload.ts';

export interface FlushOptions {
  root: string;
  env?: NodeJS.ProcessEnv;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** Per-upload deadline (default: the retry time, VOUCH_UPLOAD_RETRY_SECONDS, plus 120 s). */
  uploadTimeoutMs?: number;
}

export interface FlushResult {
  uploaded: Array<{ key: string; session_id: string }>;
  failed: Array<{ key: string; error: string }>;
  /** Entries whose log file no longer exists: removed, never retried. */
  dropped: Array<{ key: string; transcript: string }>;
}

const LOG_MAX_BYTES = 1024 * 1024;
const ACCEPTED = new Set(['.jsonl', '.log', '.txt']);

/** Settle time per agent; VOUCH_HOOK_SETTLE_MS overrides it (tests, impatient users). */
function settleMs(entry: QueueEntry, env: NodeJS.ProcessEnv): number {
  const override = Number(env.VOUCH_HOOK_SETTLE_MS);
  return env.VOUCH_HOOK_SETTLE_MS !== undefined && Number.isFinite(override) && override >= 0 ? override : settleMsFor(entry.agent, entry.event);
}

/** The same file content from the same session is one upload, however often it is retried. */
async function contentKey(entry: QueueEntry): Promise<string> {
  const hash = createHash('sha256').update(`${entry.agent}\0${entry.session_id ?? ''}\0`);
  for await (const chunk of createReadStream(entry.transcript)) hash.update(chunk as Buffer);
  return `vouch-hook-${hash.digest('hex').slice(0, 48)}`;
}

/** Gemini keeps `.json` recordings; the API takes .jsonl/.log/.txt and detects the format itself. */
function uploadName(transcript: string): string {
  const name = basename(transcript);
  return ACCEPTED.has(extname(name).toLowerCase()) ? name : `${name}.txt`;
}

export async function hookLog(root: string, line: string): Promise<void> {
  const file = join(root, 'hook.log');
  const size = (await stat(file).catch(() => null))?.size ?? 0;
  if (size > LOG_MAX_BYTES) await truncate(file, 0).catch(() => {});
  await appendFile(file, `${new Date().toISOString()} ${line}\n`, { mode: 0o600 }).catch(() => {});
}

/**
 * Claude Code 2.1 writes each subagent's transcript beside the session, as
 * `<session>/subagents/agent-<id>.jsonl`; the session file only names them. They are sent with
 * the session as one log (the session's lines, then each subagent's), so the report covers what
 * the subagents did instead of flagging their transcripts as missing.
 */
export async function subagentFiles(entry: QueueEntry): Promise<string[]> {
  if (entry.agent !== 'claude-code' || !entry.transcript.endsWith('.jsonl')) return [];
  const dir = join(entry.transcript.slice(0, -'.jsonl'.length), 'subagents');
  const names = await readdir(dir).catch(() => [] as string[]);
  return names.filter((n) => /^agent-[\w.-]+\.jsonl$/.test(n)).sort().map((n) => join(dir, n));
}

/** The file to upload: the transcript itself, or a temporary one holding it and its subagents. */
async function uploadFile(entry: QueueEntry, root: string): Promise<{ file: string; cleanup: () => Promise<void> }> {
  const parts = await subagentFiles(entry);
  if (parts.length === 0) return { file: entry.transcript, cleanup: async () => {} };
  const dir = join(root, 'tmp');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, `${process.pid}-${basename(entry.transcript)}`);
  await writeFile(file, '', { mode: 0o600 });
  for (const part of [entry.transcript, ...parts]) {
    const bytes = await readFile(part);
    await appendFile(file, bytes.length > 0 && bytes[bytes.length - 1] !== 0x0a ? Buffer.concat([bytes, Buffer.from('\n')]) : bytes);
  }
  return { file, cleanup: () => rm(file, { force: true }) };
}

async function uploadEntry(entry: QueueEntry, o: FlushOptions, env: NodeJS.ProcessEnv): Promise<string> {
  const creds = await loadCredentials(o.root, env);
  if (!creds) throw new Error('no API key: set VOUCH_API_KEY or run `vouch hooks install` with it set');
  const { repo, branch } = entry.cwd ? await gitInfo(entry.cwd) : { repo: null, branch: null };
  const { file, cleanup } = await uploadFile(entry, o.root);
  try {
    const retryForMs = uploadRetryMsOf(env);
    const session = await sendLog(creds.apiUrl, creds.apiKey, file, {
      agent: entry.agent,
      repo: repo ?? undefined,
      branch: branch ?? undefined,
      idempotencyKey: await contentKey({ ...entry, transcript: file }),
      filename: uploadName(entry.transcript),
      signal: AbortSignal.timeout(o.uploadTimeoutMs ?? retryForMs + 120_000),
      retryForMs,
      onWait: (m) => void hookLog(o.root, `upload of ${entry.agent} ${basename(entry.transcript)}: ${m}`),
    });
    return session.id;
  } finally {
    await cleanup();
  }
}

/** A queued log whose file is gone (Gemini deletes empty recordings) will never upload: drop it. */
async function vanished(entry: QueueEntry): Promise<boolean> {
  return (await stat(entry.transcript).catch((e: NodeJS.ErrnoException) => (e.code === 'ENOENT' || e.code === 'ENOTDIR' ? null : true))) === null;
}

export async function flushQueue(o: FlushOptions): Promise<FlushResult> {
  const env = o.env ?? process.env;
  const now = o.now ?? Date.now;
  const sleep = o.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const queue = new HookQueue(o.root);
  const result: FlushResult = { uploaded: [], failed: [], dropped: [] };
  const done = new Set<string>();
  for (;;) {
    const pending = (await queue.list()).filter(({ key }) => !done.has(key));
    if (pending.length === 0) return result;
    const due = pending.filter(({ entry }) => now() - entry.updated_at >= settleMs(entry, env));
    if (due.length === 0) {
      const wait = Math.min(...pending.map(({ entry }) => settleMs(entry, env) - (now() - entry.updated_at)));
      await sleep(Math.max(50, Math.min(wait, 5 * 60_000)));
      continue;
    }
    for (const { key, entry } of due) {
      done.add(key);
      const unlock = await queue.lock(key);
      if (!unlock) continue; // another flusher has it
      try {
        const current = await queue.get(key);
        if (!current || current.updated_at !== entry.updated_at) continue; // replaced by a newer turn
        if (await vanished(current)) {
          await queue.removeIf(key, current.updated_at);
          result.dropped.push({ key, transcript: current.transcript });
          await hookLog(o.root, `dropped ${current.agent} ${current.transcript}: the file no longer exists`);
          continue;
        }
        const id = await uploadEntry(current, o, env);
        await queue.removeIf(key, current.updated_at);
        result.uploaded.push({ key, session_id: id });
        await hookLog(o.root, `uploaded ${current.agent} ${basename(current.transcript)} as ${id}`);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        await queue.recordFailure(key, entry, message, now());
        result.failed.push({ key, error: message });
        await hookLog(o.root, `upload of ${entry.agent} ${basename(entry.transcript)} failed: ${message}`);
      } finally {
        await unlock();
      }
    }
  }
}
