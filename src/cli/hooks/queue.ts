// The hook's local queue: one small JSON file per session waiting to be uploaded, under
// $VOUCH_HOOKS_DIR (default ~/.vouch/hooks/queue). A session seen again (Codex fires at every
// turn) replaces its entry, so one quiet period means one upload. Failed uploads stay queued and
// are retried on the next session end; `vouch hooks status` lists them. Entries hold paths and
// names only, never a key or log content.
import { mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { HookAgentId } from '../../domain/agents.ts';

export interface QueueEntry {
  agent: HookAgentId;
  transcript: string;
  cwd: string | null;
  session_id: string | null;
  /** The agent's hook event (`SessionEnd`, `Stop`, or `notify`): a per-turn one waits for quiet. */
  event?: string | null;
  /** When the agent last reported this session (ms since epoch): uploads wait for quiet. */
  updated_at: number;
  attempts: number;
  last_error: string | null;
  last_attempt_at: number | null;
}

/** An entry that failed this often is given up (kept in failed/ for `status`). */
export const MAX_ATTEMPTS = 20;
const LOCK_STALE_MS = 10 * 60_000;

export function hooksDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.VOUCH_HOOKS_DIR ?? join(env.HOME ?? homedir(), '.vouch', 'hooks');
}

export class HookQueue {
  readonly dir: string;
  readonly failedDir: string;

  constructor(root: string) {
    this.dir = join(root, 'queue');
    this.failedDir = join(root, 'failed');
  }

  /** One file per (agent, session): the session id when the agent gives one, else the path. */
  static key(agent: HookAgentId, sessionId: string | null, transcript: string): string {
    const id = sessionId && /^[\w.-]{1,100}$/.test(sessionId) ? sessionId : createHash('sha256').update(transcript).digest('hex').slice(0, 24);
    return `${agent}-${id}`;
  }

  async put(entry: QueueEntry): Promise<string> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const key = HookQueue.key(entry.agent, entry.session_id, entry.transcript);
    const file = join(this.dir, `${key}.json`);
    const tmp = `${file}.${process.pid}.tmp`;
    await writeFile(tmp, JSON.stringify(entry) + '\n', { mode: 0o600 });
    await rename(tmp, file); // atomic: a reader sees the old entry or the new one, never half
    return key;
  }

  async get(key: string): Promise<QueueEntry | null> {
    try {
      return JSON.parse(await readFile(join(this.dir, `${key}.json`), 'utf8')) as QueueEntry;
    } catch {
      return null;
    }
  }

  async keys(): Promise<string[]> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    return names.filter((n) => n.endsWith('.json')).map((n) => n.slice(0, -5)).sort();
  }

  async list(): Promise<Array<{ key: string; entry: QueueEntry }>> {
    const out: Array<{ key: string; entry: QueueEntry }> = [];
    for (const key of await this.keys()) {
      const entry = await this.get(key);
      if (entry) out.push({ key, entry });
    }
    return out;
  }

  async failed(): Promise<Array<{ key: string; entry: QueueEntry }>> {
    const names = await readdir(this.failedDir).catch(() => [] as string[]);
    const out: Array<{ key: string; entry: QueueEntry }> = [];
    for (const n of names.filter((x) => x.endsWith('.json')).sort()) {
      try {
        out.push({ key: n.slice(0, -5), entry: JSON.parse(await readFile(join(this.failedDir, n), 'utf8')) as QueueEntry });
      } catch {
        // unreadable leftovers are ignored
      }
    }
    return out;
  }

  /** Removes the entry only if nobody replaced it meanwhile (a newer turn of the same session). */
  async removeIf(key: string, updatedAt: number): Promise<void> {
    const current = await this.get(key);
    if (current && current.updated_at === updatedAt) await rm(join(this.dir, `${key}.json`), { force: true });
  }

  async recordFailure(key: string, entry: QueueEntry, error: string, now: number): Promise<void> {
    const current = await this.get(key);
    if (!current || current.updated_at !== entry.updated_at) return; // replaced: the new one will be tried
    const next: QueueEntry = { ...current, attempts: current.attempts + 1, last_error: error.slice(0, 300), last_attempt_at: now };
    if (next.attempts >= MAX_ATTEMPTS) {
      await mkdir(this.failedDir, { recursive: true, mode: 0o700 });
      await writeFile(join(this.failedDir, `${key}.json`), JSON.stringify(next) + '\n', { mode: 0o600 });
      await rm(join(this.dir, `${key}.json`), { force: true });
      return;
    }
    await this.put(next);
  }

  /** An exclusive claim on one entry across processes; null when another flusher holds it. */
  async lock(key: string, now: number = Date.now(), retried = false): Promise<(() => Promise<void>) | null> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const path = join(this.dir, `${key}.lock`);
    try {
      const handle = await open(path, 'wx', 0o600);
      await handle.close();
    } catch {
      const info = await stat(path).catch(() => null);
      if (retried || !info || now - info.mtimeMs < LOCK_STALE_MS) return null;
      await rm(path, { force: true }); // a flusher that died long ago
      return this.lock(key, now, true);
    }
    return () => rm(path, { force: true });
  }
}
