// Commands whose result is still to come, including Codex's unified exec: a call can return
// "Process running with session ID N" (the result's `runningAs`), and the command's end and exit
// code come with a later `write_stdin` that polls that id. Rules that judge a run by its result
// (did the tests pass?) follow it here, so a run that ended in a poll is judged by the poll.
import type { NormEvent, ToolResultEvent } from '../model/events.ts';
import { setCapped } from './util.ts';

const OPEN_MAX = 500;

/** The process a call polls (`write_stdin` with a `session_id` and nothing to type), or null. */
export function pollsProcess(event: NormEvent & { kind: 'tool_call' }): string | null {
  if (event.input.type !== 'other') return null;
  const args = event.input.args as { session_id?: unknown } | null;
  const id = args?.session_id;
  return typeof id === 'number' || (typeof id === 'string' && id !== '') ? String(id) : null;
}

/** Runs waiting for their end, by call id, then by process id while they run on. Bounded. */
export class OpenRuns<T> {
  private readonly open = new Map<string, T>();
  private readonly running = new Map<string, T>();
  /** Calls that poll a running process: call id → process id. */
  private readonly polls = new Map<string, string>();

  start(callId: string, run: T): void {
    setCapped(this.open, callId, run, OPEN_MAX);
  }

  /** A call that polls one of the running processes waits for its result here. */
  onCall(event: NormEvent & { kind: 'tool_call' }): void {
    const polled = pollsProcess(event);
    if (polled !== null && this.running.has(polled)) setCapped(this.polls, event.callId, polled, OPEN_MAX);
  }

  /** The run this result ends, or null (not a run, or still running: its end comes with a later poll). */
  onResult(event: ToolResultEvent): T | null {
    const polled = this.polls.get(event.callId);
    if (polled !== undefined) {
      this.polls.delete(event.callId);
      const run = this.running.get(polled);
      if (run === undefined || event.runningAs !== undefined || (event.exitCode === null && !event.isError)) return null;
      this.running.delete(polled);
      return run;
    }
    const run = this.open.get(event.callId);
    if (run === undefined) return null;
    this.open.delete(event.callId);
    if (event.runningAs !== undefined) {
      setCapped(this.running, event.runningAs, run, OPEN_MAX);
      return null;
    }
    return run;
  }

  /** Every run whose end the log has not shown yet. */
  *pending(): IterableIterator<T> {
    yield* this.open.values();
    yield* this.running.values();
  }
}
