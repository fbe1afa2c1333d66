// The server's analysis threads yield the CPU to its HTTP thread (issue 30: an analysis must not
// push the API's p99 past 1.5× its idle figure). On Linux a thread has its own nice value, and
// setpriority() given a thread id changes that thread alone, so a worker thread lowers itself
// to the lowest priority: while requests wait for a core the scheduler hands it to them, and the
// analysis runs in the time left over (on an idle machine, at full speed).
import { readlinkSync } from 'node:fs';
import { constants, setPriority } from 'node:os';

/** Lowers the calling thread to the lowest CPU priority; false where that is not possible. */
export function yieldCpuToOtherThreads(): boolean {
  if (process.platform !== 'linux') return false;
  try {
    // "/proc/thread-self" links to "<pid>/task/<tid>": the calling thread's id.
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isInteger(tid) || tid <= 0) return false;
    setPriority(tid, constants.priority.PRIORITY_LOW); // nice 19, the lowest
    return true;
  } catch {
    return false;
  }
}
