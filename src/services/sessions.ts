// Sessions: accepting an upload (session row + stored log + analyze job in one transaction,
// with Idempotency-Key), and the reads of the API. Every read is scoped to one account; an id
// of another account behaves exactly like an id that does not exist.
import { createHash } from 'node:crypto';
import type { Db } from '../adapters/db/database.ts';
import type { DbExecutor } from '../adapters/db/repositories/executor.ts';
import { findIdempotencyKey, insertIdempotencyKey } from '../adapters/db/repositories/idempotency.ts';
import { deleteSession, findSessionReport, getSession, insertSession } from '../adapters/db/repositories/sessions.ts';
import type { SessionListRow } from '../adapters/db/repositories/sessions.ts';
import type { Session } from '../adapters/db/schema.ts';
import { enqueueJob } from '../adapters/jobs/queue.ts';
import type { LogStore, UploadSink } from '../adapters/logstore/index.ts';
import { AGENT_IDS } from '../domain/model/events.ts';
import type { AgentId } from '../domain/model/events.ts';
import { newId, nowIso } from '../kernel/ids.ts';
import { invalidateSessionTotals } from './session-totals.ts';
import { OPERATOR, recordAudit } from './audit.ts';
import type { AuditContext } from './audit.ts';
import { silentLog } from './ports.ts';
import type { Log } from './ports.ts';

export const ANALYZE_JOB = 'analyze';
export const ACCEPTED_EXTENSIONS = ['.jsonl', '.log', '.txt'] as const;
export const REPO_MAX = 200;
export const IDEMPOTENCY_KEY_MAX = 255;

export interface AnalyzeJobPayload {
  sessionId: string;
  accountId: string;
}

// ---- input rules (the HTTP layer maps violations to problem codes) ----

export function hasAcceptedExtension(filename: string): boolean {
  const lower = filename.toLowerCase();
  return ACCEPTED_EXTENSIONS.some((ext) => lower.endsWith(ext) && lower.length > ext.length);
}

export function isAgentId(value: string): value is AgentId {
  return (AGENT_IDS as readonly string[]).includes(value);
}

/** Printable: no control characters (C0, DEL, C1) and no lone surrogates from bad UTF-8. */
function isPrintable(text: string): boolean {
  return !/[\u0000-\u001f\u007f-\u009f\ufffd]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text);
}

/** Null when acceptable, else what is wrong with it. */
export function repoProblem(repo: string): string | null {
  const length = [...repo].length;
  if (length < 1 || length > REPO_MAX) return `must be 1 to ${REPO_MAX} characters (got ${length})`;
  if (!isPrintable(repo) || repo.trim() !== repo) return 'must be printable characters, without leading or trailing spaces';
  return null;
}

export function idempotencyKeyProblem(key: string): string | null {
  if (key.length < 1 || key.length > IDEMPOTENCY_KEY_MAX) return `must be 1 to ${IDEMPOTENCY_KEY_MAX} characters`;
  if (!/^[\x21-\x7e]+$/.test(key)) return 'must be visible ASCII characters';
  return null;
}

// Session ids are "ses_" + a ULID; anything else cannot exist, so there is no need to ask.
const SESSION_ID = /^ses_[0-9A-HJKMNP-TV-Z]{26}$/;
export function isSessionId(id: string): boolean {
  return SESSION_ID.test(id);
}

// ---- the public view of a session ----

/**
 * What the services hand out about a session: the stored columns a session view is made of
 * (lists select only these; a single read may carry more, which callers do not see).
 */
export type SessionViewRow = SessionListRow;

/** The public view of a session (GET /v1/sessions…): derived from the row, never re-declared. */
export interface SessionView extends Omit<SessionViewRow, 'findings_critical' | 'findings_warning' | 'findings_info' | 'log_expired_at'> {
  findings_count: { critical: number; warning: number; info: number } | null;
  report_url: string;
}

export function reportUrl(publicUrl: string, sessionId: string): string {
  return `${publicUrl}/r/${sessionId}`;
}

export function sessionView(row: SessionViewRow, publicUrl: string): SessionView {
  const complete = row.status === 'complete';
  return {
    id: row.id,
    status: row.status,
    agent: row.agent,
    repo: row.repo,
    branch: row.branch,
    filename: row.filename,
    size_bytes: Number(row.size_bytes),
    sha256: row.sha256,
    created_at: row.created_at,
    completed_at: row.completed_at,
    trust_score: complete ? row.trust_score : null,
    outcome: complete ? row.outcome : null,
    findings_count: complete
      ? { critical: row.findings_critical ?? 0, warning: row.findings_warning ?? 0, info: row.findings_info ?? 0 }
      : null,
    report_url: reportUrl(publicUrl, row.id),
    failure_reason: row.status === 'failed' ? row.failure_reason : null,
  };
}

// ---- accepting an upload ----

export interface AcceptUploadInput {
  accountId: string;
  /** The log, fully received; this function commits or aborts it. */
  sink: UploadSink;
  filename: string;
  agentHint: AgentId | null;
  repo: string | null;
  /** The uploader's branch (e.g. from the hook's git HEAD); else the log's, after analysis. */
  branch?: string | null;
  idempotencyKey: string | null;
  maxAttempts: number;
}

export type AcceptUploadResult =
  | { kind: 'created'; session: SessionViewRow }
  /** Same key, same content: the session the first request created. */
  | { kind: 'replayed'; session: SessionViewRow }
  /** Same key, different content: refused, nothing stored. */
  | { kind: 'key_reused' };

/** Signals, inside the transaction, that a concurrent request holds the key: roll back. */
class KeyTaken extends Error {}

function requestHash(input: AcceptUploadInput): string {
  const identity = [input.sink.sha256Hex(), input.sink.size, input.filename, input.agentHint, input.repo, ...(input.branch ? [input.branch] : [])];
  return createHash('sha256').update(JSON.stringify(identity)).digest('hex');
}

function newSessionRow(input: AcceptUploadInput, id: string): Session {
  return {
    id,
    account_id: input.accountId,
    status: 'analyzing',
    agent_hint: input.agentHint,
    // The hint until the analysis says which agent wrote the log (so filters see it at once).
    agent: input.agentHint,
    repo: input.repo,
    branch: input.branch ?? null,
    filename: input.filename,
    size_bytes: input.sink.size,
    sha256: input.sink.sha256Hex(),
    created_at: nowIso(),
    completed_at: null,
    trust_score: null,
    outcome: null,
    findings_critical: null,
    findings_warning: null,
    findings_info: null,
    report_id: null,
    failure_reason: null,
    idempotency_key: input.idempotencyKey,
    log_expired_at: null,
  };
}

async function replayOrRefuse(db: Db, input: AcceptUploadInput, hash: string): Promise<AcceptUploadResult | null> {
  const key = input.idempotencyKey;
  if (key === null) return null;
  const first = await findIdempotencyKey(db.kysely, input.accountId, key);
  if (!first) return null;
  if (first.request_hash !== hash) return { kind: 'key_reused' };
  const session = await getSession(db.kysely, input.accountId, first.session_id);
  return session ? { kind: 'replayed', session } : null;
}

/** Session row, stored log and analyze job: all three or none. */
async function createInOneTransaction(db: Db, input: AcceptUploadInput, hash: string): Promise<Session> {
  const row = newSessionRow(input, newId('ses'));
  return db.kysely.transaction().execute(async (trx) => {
    await insertSession(trx, row);
    if (input.idempotencyKey !== null) {
      const fresh = { account_id: input.accountId, key: input.idempotencyKey, request_hash: hash, session_id: row.id, created_at: row.created_at };
      if (!(await insertIdempotencyKey(trx, fresh))) throw new KeyTaken();
    }
    await input.sink.commit(trx, row.id);
    const payload: AnalyzeJobPayload = { sessionId: row.id, accountId: input.accountId };
    await enqueueJob(trx, { kind: ANALYZE_JOB, payload, dedupeKey: `analyze:${row.id}`, maxAttempts: input.maxAttempts });
    return row;
  });
}

export async function acceptUpload(db: Db, input: AcceptUploadInput, log: Log = silentLog): Promise<AcceptUploadResult> {
  const hash = requestHash(input);
  // A failure here (the database went away, the disk is full) must not leave the upload
  // behind, nor be replaced by a failure of the clean-up itself (the sweep retries that).
  const discard = () => input.sink.abort().catch((error: unknown) => log.debug({ err: String(error) }, 'could not discard a refused upload; the sweep removes it'));
  let earlier: AcceptUploadResult | null;
  try {
    earlier = await replayOrRefuse(db, input, hash);
  } catch (error) {
    await discard();
    throw error;
  }
  if (earlier) {
    await input.sink.abort();
    return earlier;
  }
  try {
    const session = await createInOneTransaction(db, input, hash);
    invalidateSessionTotals(input.accountId);
    return { kind: 'created', session };
  } catch (error) {
    await discard();
    // A concurrent request with the same key committed first: answer as a retry would be answered.
    if (error instanceof KeyTaken) return (await replayOrRefuse(db, input, hash)) ?? { kind: 'key_reused' };
    throw error;
  }
}

// ---- reads ----

export async function findSession(db: DbExecutor, accountId: string, id: string): Promise<SessionViewRow | null> {
  if (!isSessionId(id)) return null;
  return (await getSession(db, accountId, id)) ?? null;
}

export type ReportState =
  | { state: 'complete'; json: string }
  | { state: 'analyzing' }
  | { state: 'failed'; reason: string };

/** What a session's status and stored report body say about its report. */
export function reportState(row: { status: string; failure_reason: string | null; body: string | null }): ReportState {
  if (row.status === 'failed') return { state: 'failed', reason: row.failure_reason ?? 'the analysis failed' };
  // complete without a report row cannot happen (one transaction); treat it as still running.
  return row.status === 'complete' && row.body !== null ? { state: 'complete', json: row.body } : { state: 'analyzing' };
}

/** The stored report as JSON text (served as is), or why there is none. Null: no such session. */
export async function findReport(db: DbExecutor, accountId: string, id: string): Promise<ReportState | null> {
  if (!isSessionId(id)) return null;
  const row = await findSessionReport(db, accountId, id);
  return row ? reportState(row) : null;
}

/** Removes the session (its report and idempotency keys cascade) and then its stored log. */
export async function removeSession(db: Db, logStore: LogStore, accountId: string, id: string, audit: AuditContext = OPERATOR, log: Log = silentLog): Promise<boolean> {
  if (!isSessionId(id)) return false;
  const removed = await db.kysely.transaction().execute(async (trx) => {
    const session = await getSession(trx, accountId, id);
    if (!session || !(await deleteSession(trx, accountId, id))) return false;
    await recordAudit(trx, accountId, audit, 'log.deleted', { type: 'session', id, label: session.filename }, { repo: session.repo, size_bytes: session.size_bytes });
    return true;
  });
  if (removed) invalidateSessionTotals(accountId);
  // If this fails the log is an orphan without a session row, which the sweep removes later.
  if (removed) await logStore.delete(id).catch((error: unknown) => log.debug({ session_id: id, err: String(error) }, 'could not delete the stored log of a deleted session; the sweep removes it'));
  return removed;
}
