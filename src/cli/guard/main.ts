// `vouch guard <agent>`: the pre-tool hook. The agent pipes the pending call on stdin; the guard
// answers deny / ask / allow in the agent's own format (domain/guard/payload.ts) and appends the
// decision to the journal. bin/vouch.mjs starts this module directly — no commander, no CLI —
// and everything judging needs (rules, shell parser, transcript parsers) is imported only when
// the call needs it.
//
// It never blocks work by its own fault: an invalid policy, a crash, or a decision that takes
// longer than its budget (VOUCH_GUARD_BUDGET_MS, default 2500) answers allow and says why on
// stderr. Files (VOUCH_GUARD_DIR, default ~/.vouch/guard): sessions/<digest>.json per session
// (transcript offset and context, see domain/guard/session.ts) and journal.jsonl.
// Synchronous file calls: one short-lived process per decision with nothing else to overlap, and
// node:fs/promises would load ~20 more of Node's internal modules (file handles, streams, readline).
import { appendFileSync, closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { HOOK_AGENT_IDS, liveTranscriptFormat, type HookAgentId } from '../../domain/agents.ts';
import type { GuardPolicy } from '../../domain/guard/policy.ts';
import type { GuardSession } from '../../domain/guard/session.ts';
import type { PendingCall } from '../../domain/guard/payload.ts';
import { probeWorktree } from './worktree-probe.ts';

const DEFAULT_BUDGET_MS = 2_500;
/** Transcript bytes absorbed per call at most; the rest waits for the next call. */
const TRANSCRIPT_CHUNK = 4 * 1024 * 1024;
const STDIN_MAX = 8 * 1024 * 1024;

export interface GuardIo {
  env: NodeJS.ProcessEnv;
  stdin: AsyncIterable<Buffer | string>;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  now: () => Date;
}

/** Runs one guard decision; resolves to the exit code. Never rejects. */
export async function runGuard(args: string[], io: GuardIo): Promise<number> {
  const agent = args[0] as HookAgentId;
  if (!HOOK_AGENT_IDS.includes(agent)) {
    io.stderr(`vouch guard: name the agent: vouch guard ${HOOK_AGENT_IDS.join('|')} (allowing the call)\n`);
    return 0;
  }
  const budget = Number(io.env.VOUCH_GUARD_BUDGET_MS) > 0 ? Number(io.env.VOUCH_GUARD_BUDGET_MS) : DEFAULT_BUDGET_MS;
  let timer: NodeJS.Timeout | undefined;
  const overtime = new Promise<'overtime'>((resolve) => {
    timer = setTimeout(() => resolve('overtime'), budget);
  });
  try {
    const outcome = await Promise.race([decideAndAnswer(agent, io), overtime]);
    if (outcome === 'overtime') io.stderr(`vouch guard: no decision within ${budget} ms; allowing the call\n`);
    return 0;
  } catch (e) {
    io.stderr(`vouch guard: internal error, allowing the call: ${e instanceof Error ? e.message : String(e)}\n`);
    return 0;
  } finally {
    clearTimeout(timer);
  }
}

async function decideAndAnswer(agent: HookAgentId, io: GuardIo): Promise<'done'> {
  const raw = await readStdin(io.stdin);
  const { parsePendingCall, formatAnswer } = await import('../../domain/guard/payload.ts');
  let pending: PendingCall;
  try {
    pending = { ...parsePendingCall(agent, JSON.parse(raw)), home: io.env.HOME ?? homedir() };
  } catch (e) {
    io.stderr(`vouch guard: ${e instanceof Error ? e.message : String(e)}; allowing the call\n`);
    return 'done';
  }
  if (!mayNeedJudging(pending)) return 'done';
  const dir = guardDir(io.env);
  const policy = await loadPolicy(pending.cwd, io);
  // the agent's shell inherits the hook's environment: `--config-env` names its variables
  pending = { ...pending, env: io.env };
  if (policy.linkedWorktrees === 'disposable') pending = { ...pending, worktree: probeWorktree(pending.cwd, io.env) };
  const [{ judge }, session] = await Promise.all([import('../../domain/guard/judge.ts'), loadSession(dir, pending)]);
  const stored = JSON.stringify(session);
  await readTranscript(session, pending);
  const verdict = await judge(pending, session, policy);
  const answer = formatAnswer(agent, verdict.decision, verdict.reason);
  io.stdout(answer.stdout);
  // The answer is out first: the journal and the state are bookkeeping the agent need not wait for.
  await Promise.all([
    // Judging reads the state and never changes it: only new transcript lines do.
    JSON.stringify(session) === stored ? undefined : saveSession(dir, pending, session).catch((e) => io.stderr(`vouch guard: could not save the session state: ${String(e)}\n`)),
    verdict.findings.length > 0 || verdict.decision !== 'allow'
      ? appendJournal(dir, {
          at: io.now().toISOString(), agent, session: pending.sessionId, cwd: pending.cwd, tool: pending.toolName, call: verdict.summary,
          decision: verdict.decision, wouldBe: verdict.wouldBe, mode: policy.mode, reason: verdict.reason,
          findings: verdict.findings.map((f) => ({ rule: f.rule, severity: f.severity, action: f.action })),
        }).catch((e) => io.stderr(`vouch guard: could not write the journal: ${String(e)}\n`))
      : undefined,
  ]);
  return 'done';
}

/**
 * Reads, searches and listings change nothing and send nothing: no rule the policy can act on
 * flags them, so they are answered without loading the rules.
 */
function mayNeedJudging(p: PendingCall): boolean {
  const t = p.call.input.type;
  return !(t === 'file_read' || t === 'search' || t === 'web_search');
}

export function guardDir(env: NodeJS.ProcessEnv): string {
  return env.VOUCH_GUARD_DIR ?? join(env.HOME ?? homedir(), '.vouch', 'guard');
}

async function readStdin(stdin: AsyncIterable<Buffer | string>): Promise<string> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of stdin) {
    const b = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += b.length;
    if (size > STDIN_MAX) throw new Error(`the hook input is over ${STDIN_MAX} bytes`);
    parts.push(b);
  }
  return Buffer.concat(parts).toString('utf8');
}

// ---- policy ----------------------------------------------------------------------------------

/** The user's and the project's policy, merged; an invalid file is left out and named on stderr. */
export async function loadPolicy(cwd: string | null, io: Pick<GuardIo, 'env' | 'stderr'>): Promise<GuardPolicy> {
  const { parsePolicy, mergePolicies, PolicyError } = await import('../../domain/guard/policy.ts');
  const files = [join(io.env.HOME ?? homedir(), '.vouch', 'guard.toml')];
  const project = cwd ? await projectPolicyFile(cwd) : null;
  if (project && project !== files[0]) files.push(project);
  const layers = [];
  for (const file of files) {
    const text = readOrNull(file);
    if (text === null) continue;
    try {
      layers.push({ ...parsePolicy(text, file), origin: file === files[0] ? 'user' as const : 'project' as const });
    } catch (e) {
      if (!(e instanceof PolicyError)) throw e;
      // A broken policy must not block work, nor silently weaken the other file: the guard runs
      // on the defaults plus the valid file, and says so.
      io.stderr(`vouch guard: ignoring an invalid policy: ${e.message}\n`);
    }
  }
  return mergePolicies(...layers);
}

/** `.vouch/guard.toml` in the working directory or the nearest parent, up to the repository root. */
async function projectPolicyFile(cwd: string): Promise<string | null> {
  for (let dir = cwd, i = 0; i < 40; i++) {
    const file = join(dir, '.vouch', 'guard.toml');
    if (existsSync(file)) return file;
    if (existsSync(join(dir, '.git'))) return null;
    const up = dirname(dir);
    if (up === dir) return null;
    dir = up;
  }
  return null;
}

function readOrNull(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

// ---- session state ---------------------------------------------------------------------------

function sessionFile(dir: string, p: PendingCall): string | null {
  const key = p.sessionId ?? p.transcriptPath;
  if (!key) return null;
  return join(dir, 'sessions', `${p.agent}-${createHash('sha256').update(key).digest('hex').slice(0, 32)}.json`);
}

async function loadSession(dir: string, p: PendingCall): Promise<GuardSession> {
  const { sessionFromJson, emptySession } = await import('../../domain/guard/session.ts');
  const file = sessionFile(dir, p);
  if (!file) return emptySession();
  const text = readOrNull(file);
  if (text === null) return emptySession();
  try {
    return sessionFromJson(JSON.parse(text));
  } catch {
    return emptySession();
  }
}

async function saveSession(dir: string, p: PendingCall, session: GuardSession): Promise<void> {
  const file = sessionFile(dir, p);
  if (!file) return;
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.tmp-${process.pid}`;
  writeFileSync(tmp, JSON.stringify(session), { mode: 0o600 });
  renameSync(tmp, file);
}

async function appendJournal(dir: string, entry: Record<string, unknown>): Promise<void> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  appendFileSync(join(dir, 'journal.jsonl'), JSON.stringify(entry) + '\n', { mode: 0o600 });
}

// ---- transcript ------------------------------------------------------------------------------

/** The transcript's format when it is a JSON-lines log the guard can read incrementally. */
function transcriptFormat(p: PendingCall) {
  if (!p.transcriptPath) return null;
  return liveTranscriptFormat(p.agent, p.transcriptPath);
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return -1;
  }
}

/** Absorbs the transcript lines written since the last call (complete lines only). */
async function readTranscript(session: GuardSession, p: PendingCall): Promise<void> {
  const format = transcriptFormat(p);
  if (!format || !p.transcriptPath) return;
  const size = sizeOf(p.transcriptPath);
  if (size < 0) return;
  if (session.transcriptPath !== p.transcriptPath || size < session.offset) {
    const { emptySession } = await import('../../domain/guard/session.ts');
    Object.assign(session, emptySession(), { transcriptPath: p.transcriptPath });
  }
  if (size === session.offset) return;
  const length = Math.min(size - session.offset, TRANSCRIPT_CHUNK);
  const fd = openSync(p.transcriptPath, 'r');
  let bytes: Buffer;
  try {
    bytes = Buffer.alloc(length);
    bytes = bytes.subarray(0, readSync(fd, bytes, 0, length, session.offset));
  } finally {
    closeSync(fd);
  }
  const end = bytes.lastIndexOf(0x0a);
  if (end < 0) return;
  const lines = bytes.subarray(0, end).toString('utf8').split('\n');
  session.offset += end + 1;
  const { eventsOfLines } = await import('../../domain/guard/transcript.ts');
  const events = eventsOfLines(format, lines);
  const [{ detectSecrets }, { absorb }, { textsOf }] = await Promise.all([
    import('../../domain/secrets/detect.ts'),
    import('../../domain/guard/session.ts'),
    import('../../domain/event-texts.ts'),
  ]);
  const secrets = [];
  for (const e of events) {
    const hits = [];
    for (const t of textsOf(e)) if (t) hits.push(...(await detectSecrets(t)));
    secrets.push(hits);
  }
  absorb(session, events, secrets);
}
