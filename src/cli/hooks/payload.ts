// What the agent hands its hook when a session or turn ends, reduced to what the upload needs.
// Claude Code, Gemini CLI and Codex hooks send JSON on stdin (`transcript_path`, `cwd`,
// `session_id`); Codex's older `notify` program gets one JSON argument with `thread-id` and no
// path, so the rollout file is looked up by that id. Anything else is refused with a reason.
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { HookAgentId } from '../../domain/agents.ts';

export interface HookPayload {
  transcript: string;
  cwd: string | null;
  sessionId: string | null;
  /** `hook_event_name`, or `notify` for Codex's notify program (which fires after every turn). */
  event: string | null;
}

export class PayloadError extends Error {}

const str = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 && v.length < 4096 ? v : null);

export function parsePayloadText(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new PayloadError('the hook input is not JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new PayloadError('the hook input is not a JSON object');
  return value as Record<string, unknown>;
}

/** Codex keeps rollouts as sessions/YYYY/MM/DD/rollout-<time>-<thread id>.jsonl: newest days first. */
export async function findCodexRollout(sessionsDir: string, threadId: string, maxDays = 7): Promise<string | null> {
  if (!/^[\w-]{8,100}$/.test(threadId)) return null;
  const days: string[] = [];
  for (const y of (await readdir(sessionsDir).catch(() => [])).sort().reverse()) {
    for (const m of (await readdir(join(sessionsDir, y)).catch(() => [])).sort().reverse()) {
      for (const d of (await readdir(join(sessionsDir, y, m)).catch(() => [])).sort().reverse()) {
        days.push(join(sessionsDir, y, m, d));
        if (days.length >= maxDays) break;
      }
      if (days.length >= maxDays) break;
    }
    if (days.length >= maxDays) break;
  }
  for (const day of days) {
    const hit = (await readdir(day).catch(() => [])).find((f) => f.startsWith('rollout-') && f.endsWith(`${threadId}.jsonl`));
    if (hit) return join(day, hit);
  }
  return null;
}

export async function resolvePayload(agent: HookAgentId, raw: Record<string, unknown>, codexSessionsDir: string): Promise<HookPayload> {
  const cwd = str(raw.cwd);
  let transcript = str(raw.transcript_path);
  const sessionId = str(raw.session_id) ?? str(raw['thread-id']) ?? str(raw.thread_id);
  if (!transcript && agent === 'codex' && sessionId) transcript = await findCodexRollout(codexSessionsDir, sessionId);
  if (!transcript) throw new PayloadError('the hook input names no transcript file');
  const info = await stat(transcript).catch(() => null);
  if (!info?.isFile()) throw new PayloadError(`the transcript ${transcript} is not a readable file`);
  const event = str(raw.hook_event_name) ?? (raw.type === 'agent-turn-complete' ? 'notify' : null);
  return { transcript, cwd, sessionId, event };
}
