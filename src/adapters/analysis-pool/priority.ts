// The server's analysis threads yield the CPU to its HTTP thread (issue 30: an analysis must not
// push the API's p99 past 1.5× its idle figure). On Linux a thread has its own nice value, and
// setpriority() given a thread id changes that thread alone, so a worker thread lowers itself
// by NICE_STEP: while requests wait for a core the scheduler hands it to them, and the analysis
// runs in the time left over (on an idle machine, at full speed).
// Not to nice 19: the scheduler weighs nice 19 at 15 against 1024 for nice 0, so on a machine
// whose other processes keep the cores busy (a CI runner, a shared host) an analysis got ~1.5 %
// of a core and a 2 MB log waited a minute. At +10 (weight 110) it still yields ~90 % of a
// contended core to the HTTP thread and keeps ~10 % for itself.
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/** How much lower than the process the analysis threads run (nice values; 19 is the floor). */
export const NICE_STEP = 10;
const LOWEST = 19;

/** Lowers the calling thread's CPU priority by NICE_STEP; false where that is not possible. */
export function yieldCpuToOtherThreads(): boolean {
  if (process.platform !== 'linux') return false;
  try {
    // "/proc/thread-self" links to "<pid>/task/<tid>": the calling thread's id.
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isInteger(tid) || tid <= 0) return false;
    setPriority(tid, Math.min(LOWEST, getPriority(tid) + NICE_STEP));
    return true;
  } catch {
    return false;
  }
}
