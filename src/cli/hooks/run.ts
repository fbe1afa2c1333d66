// `vouch hooks run <agent>`: what the agent runs when a session (Codex: a turn) ends. It must
// never block or slow the agent and never print: it reads the payload (bounded in size and
// time), queues the transcript, starts a detached `vouch hooks flush`, and exits 0 whatever
// happens. Problems go to the hook log beside the queue, never to the agent's terminal.
import { spawn } from 'node:child_process';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { HookAgentId } from '../../domain/agents.ts';
import { HookQueue } from './queue.ts';
import { hookLog } from './flush.ts';
import { parsePayloadText, resolvePayload } from './payload.ts';

const STDIN_MAX_BYTES = 1024 * 1024;
const STDIN_WAIT_MS = 3_000;

/** Reads stdin up to a size and time bound; an agent that keeps it open cannot hold us. */
export function readBoundedStdin(stdin: NodeJS.ReadableStream & { isTTY?: boolean }, maxBytes = STDIN_MAX_BYTES, waitMs = STDIN_WAIT_MS): Promise<string> {
  if (stdin.isTTY) return Promise.resolve('');
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = () => {
      clearTimeout(timer);
      stdin.removeAllListeners('data');
      stdin.removeAllListeners('end');
      stdin.pause();
      resolve(Buffer.concat(chunks).toString('utf8'));
    };
    const timer = setTimeout(finish, waitMs);
    stdin.on('data', (c: Buffer) => {
      size += c.length;
      if (size > maxBytes) return finish();
      chunks.push(c);
    });
    stdin.on('end', finish);
    stdin.on('error', finish);
  });
}

export interface RunHookInput {
  agent: HookAgentId;
  root: string;
  /** The stdin payload, or Codex notify's JSON argument. */
  payloadText: string;
  env: NodeJS.ProcessEnv;
  /** Starts the uploader; detached by default. */
  startFlush: () => void;
}

export async function runHook(i: RunHookInput): Promise<void> {
  try {
    const raw = parsePayloadText(i.payloadText);
    const codexSessions = join(i.env.CODEX_HOME ?? join(i.env.HOME ?? homedir(), '.codex'), 'sessions');
    const p = await resolvePayload(i.agent, raw, codexSessions);
    await new HookQueue(i.root).put({
      agent: i.agent, transcript: p.transcript, cwd: p.cwd, session_id: p.sessionId, event: p.event,
      updated_at: Date.now(), attempts: 0, last_error: null, last_attempt_at: null,
    });
  } catch (error) {
    await hookLog(i.root, `${i.agent} hook: ${error instanceof Error ? error.message : String(error)}`);
  }
  // Also when this payload was unusable: earlier failures are retried at every session end.
  try {
    i.startFlush();
  } catch (error) {
    await hookLog(i.root, `could not start the uploader: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Runs `vouch hooks flush` in its own process group, with no stdio tied to the agent. */
export function startDetachedFlush(nodePath: string, binPath: string, env: NodeJS.ProcessEnv): void {
  const child = spawn(nodePath, [binPath, 'hooks', 'flush'], { detached: true, stdio: 'ignore', env, windowsHide: true });
  child.on('error', () => {});
  child.unref();
}
