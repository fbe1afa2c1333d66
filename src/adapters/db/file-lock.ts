// A cross-process lock on a file, for the one SQLite operation that needs it: migrations.
// Kysely runs SQLite migrations without a transaction (SQLite DDL is not treated as
// transactional), so two processes starting on a fresh data directory could both create the
// same tables. The lock file is created exclusively (O_EXCL) and holds the owner's pid; a lock
// left by a killed process (pid gone, or older than STALE_MS) is taken over.
import { closeSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';

const STALE_MS = 120_000;
const WAIT_MS = 120_000;
const POLL_MS = 50;

const REPORT_MS = 5_000;

export interface FileLockWait {
  /** Told every few seconds while another process holds the lock (how long so far). */
  onLockWait?: (waitedMs: number) => void;
  lockTimeoutMs?: number;
}

export async function withFileLock<T>(path: string, fn: () => Promise<T>, wait: FileLockWait = {}): Promise<T> {
  const started = Date.now();
  const deadline = started + (wait.lockTimeoutMs ?? WAIT_MS);
  let reported = started;
  while (!tryAcquire(path)) {
    if (isStale(path)) {
      rmSync(path, { force: true });
      continue;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for the lock ${path} (held by another process)`);
    if (Date.now() - reported >= REPORT_MS) {
      reported = Date.now();
      wait.onLockWait?.(reported - started);
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  try {
    return await fn();
  } finally {
    rmSync(path, { force: true });
  }
}

function tryAcquire(path: string): boolean {
  try {
    const fd = openSync(path, 'wx');
    writeSync(fd, String(process.pid));
    closeSync(fd);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  }
}

function isStale(path: string): boolean {
  try {
    if (Date.now() - statSync(path).mtimeMs > STALE_MS) return true;
    const pid = Number(readFileSync(path, 'utf8'));
    if (!Number.isInteger(pid) || pid <= 0) return false; // being written right now
    process.kill(pid, 0);
    return false;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    // ESRCH: the owner is gone. ENOENT: released meanwhile (not stale, just retry).
    return code === 'ESRCH';
  }
}
