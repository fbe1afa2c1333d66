// On start, an embedded (SQLite) process takes back at once the jobs that a dead process of
// this machine held, instead of waiting out their leases (VOUCH_JOB_LEASE_MS, 30 s): after a
// crash or `kill -9` and a restart, analyses and webhooks resume immediately. It also removes
// the temp files of uploads those processes were receiving (their names carry the pid).
// Why this is safe only for SQLite: the database is a file on this machine, so every process
// that can hold a lease on it runs here, and "host:pid" in lease_owner names it exactly; a pid
// that no longer exists cannot be working on anything. (A pid reused by an unrelated process
// only means we wait for the lease, as before.) With PostgreSQL, holders may run on other
// machines, or in containers that share a host name: their leases are left to expire.
import type { Db } from '../adapters/db/database.ts';
import { activeLeases, expireLeases } from '../adapters/jobs/queue.ts';
import { FileLogStore } from '../adapters/logstore/file-store.ts';
import type { LogStore } from '../adapters/logstore/index.ts';

/** The pid in a lease owner `<host>:<pid>:<runner>#<claim>` written by a process on `host`, or null. */
export function leaseHolderPid(owner: string, host: string): number | null {
  if (!owner.startsWith(`${host}:`)) return null;
  const pid = Number(owner.slice(host.length + 1).split(':')[0]);
  return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
}

export function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, owned by someone else.
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/** Expires the leases held by dead processes of this host; returns how many jobs were freed. */
export async function reclaimLeasesOfDeadProcesses(db: Db, host: string, alive: (pid: number) => boolean = processExists): Promise<number> {
  if (db.dialect !== 'sqlite') return 0;
  const dead = (await activeLeases(db)).filter((l) => {
    const pid = leaseHolderPid(l.owner, host);
    return pid !== null && pid !== process.pid && !alive(pid);
  });
  return expireLeases(db, dead.map((l) => l.id));
}

/** Removes the temp uploads that dead processes were receiving (SQLite mode's file store). */
export async function removeUploadsOfDeadProcesses(logStore: LogStore, alive: (pid: number) => boolean = processExists): Promise<number> {
  return logStore instanceof FileLogStore ? logStore.removeTempsOfGoneWriters((pid) => !alive(pid)) : 0;
}
