// Analysing an uploaded session (the `analyze` job's use case): stream the stored log through the
// analyser, then in ONE transaction store the report, mark the session complete, queue the
// analysis.complete webhooks (outbox) and settle the job. A crash or timeout throws, so the
// runner retries with backoff; when the attempts run out, giveUp marks the session failed with
// the reason and the job dead, together — never a loop.
import type { Db } from '../adapters/db/database.ts';
import { insertReport } from '../adapters/db/repositories/reports.ts';
import { getSession, markSessionComplete, markSessionFailed } from '../adapters/db/repositories/sessions.ts';
import type { Session } from '../adapters/db/schema.ts';
import { LogNotFoundError } from '../adapters/logstore/index.ts';
import type { LogStore } from '../adapters/logstore/index.ts';
import { AnalysisError } from '../adapters/analysis-pool/index.ts';
import type { Analyzer } from '../adapters/analysis-pool/index.ts';
import type { AgentId } from '../domain/model/events.ts';
import type { Report } from '../domain/model/report.ts';
import { newId, nowIso } from '../kernel/ids.ts';
import type { JobControl, Log, Metrics, QueuedJob } from './ports.ts';
import { silentLog } from './ports.ts';
import { isAgentId, reportUrl } from './sessions.ts';
import type { AnalyzeJobPayload } from './sessions.ts';
import { invalidateSessionTotals } from './session-totals.ts';
import { enqueueAnalysisComplete } from './webhooks/outbox.ts';

export interface AnalysisDeps {
  db: Db;
  logStore: LogStore;
  analyzer: Analyzer;
  publicUrl: string;
  metrics?: Pick<Metrics, 'analysisDuration'>;
  log?: Log;
}

/** Retries after a crash or timeout; the attempt count itself is the job's max_attempts. */
export const ANALYZE_BACKOFF_MS = [1_000, 5_000, 30_000] as const;

/** A failure that no retry can fix: the session fails at once. */
class PermanentFailure extends Error {}

function parsePayload(payload: unknown): AnalyzeJobPayload {
  const p = payload as Partial<AnalyzeJobPayload> | null;
  if (typeof p?.sessionId !== 'string' || typeof p.accountId !== 'string') throw new PermanentFailure('malformed analyze job payload');
  return { sessionId: p.sessionId, accountId: p.accountId };
}

async function analyse(deps: AnalysisDeps, session: Session, signal: AbortSignal): Promise<Report> {
  const started = performance.now();
  const observe = (result: string) => deps.metrics?.analysisDuration.observe({ result }, (performance.now() - started) / 1000);
  try {
    const source = await deps.logStore.open(session.id);
    const hint = session.agent_hint !== null && isAgentId(session.agent_hint) ? (session.agent_hint as AgentId) : null;
    const report = await deps.analyzer.analyze(source, { agentHint: hint, filename: session.filename }, signal);
    observe('complete');
    return report;
  } catch (error) {
    observe(error instanceof AnalysisError ? error.kind : 'error');
    if (error instanceof LogNotFoundError) throw new PermanentFailure('the stored log of this session is missing');
    throw error;
  }
}

/** Report stored, session complete, webhooks queued, job settled: one transaction. */
async function complete(deps: AnalysisDeps, session: Session, analysed: Report, ctx: JobControl): Promise<void> {
  const reportId = newId('rep');
  const report: Report = { ...analysed, session_id: session.id, report_id: reportId, repo: session.repo, branch: session.branch ?? analysed.branch };
  const agent = report.agent ?? session.agent_hint;
  await deps.db.kysely.transaction().execute(async (trx) => {
    const completed = await markSessionComplete(trx, {
      accountId: session.account_id,
      sessionId: session.id,
      reportId,
      agent,
      branch: report.branch,
      trustScore: report.trust_score,
      outcome: report.outcome,
      findings: report.findings_count,
    });
    // Not analysing any more (deleted meanwhile, or finished by another worker): nothing to add.
    if (completed) {
      await insertReport(trx, {
        id: reportId,
        session_id: session.id,
        account_id: session.account_id,
        analyzer_version: report.analyzer_version,
        body: JSON.stringify(report),
        created_at: nowIso(),
      });
      await enqueueAnalysisComplete(trx, {
        accountId: session.account_id,
        session: { id: session.id, agent, repo: session.repo, branch: report.branch },
        report: { ...report, report_id: reportId },
        reportUrl: reportUrl(deps.publicUrl, session.id),
      });
    }
    await ctx.complete(trx);
  });
  invalidateSessionTotals(session.account_id); // status/outcome filters see the result at once
}

/** The session fails with `reason` and the job is dead, together. */
async function failForGood(deps: AnalysisDeps, job: QueuedJob, reason: string, ctx: JobControl): Promise<void> {
  const p = job.payload as Partial<AnalyzeJobPayload> | null;
  await deps.db.kysely.transaction().execute(async (trx) => {
    if (typeof p?.sessionId === 'string' && typeof p.accountId === 'string') {
      await markSessionFailed(trx, { accountId: p.accountId, sessionId: p.sessionId, reason });
    }
    await ctx.fail(trx, reason);
  });
  if (typeof p?.accountId === 'string') invalidateSessionTotals(p.accountId);
  (deps.log ?? silentLog).warn({ session_id: p?.sessionId, job_id: job.id, reason }, 'analysis failed for good');
}

export function analysisService(deps: AnalysisDeps) {
  return {
    backoffMs: ANALYZE_BACKOFF_MS,

    /** Runs one `analyze` job. Throws what a retry may fix (the runner retries, then giveUp). */
    async run(job: QueuedJob, ctx: JobControl): Promise<void> {
      try {
        const payload = parsePayload(job.payload);
        const session = await getSession(deps.db.kysely, payload.accountId, payload.sessionId);
        if (!session || session.status !== 'analyzing') return; // deleted, or already settled: done
        const report = await analyse(deps, session, ctx.signal);
        await complete(deps, session, report, ctx);
        deps.log?.info({ session_id: session.id, job_id: job.id, outcome: report.outcome }, 'analysis complete');
      } catch (error) {
        if (!(error instanceof PermanentFailure)) throw error;
        await failForGood(deps, job, error.message, ctx);
      }
    },

    /** The last attempt failed (or its worker died on it): the session fails for good. */
    async giveUp(job: QueuedJob, error: string, ctx: JobControl): Promise<void> {
      const attempts = Math.min(job.attempts, job.maxAttempts);
      await failForGood(deps, job, `${error} (gave up after ${attempts} attempt${attempts === 1 ? '' : 's'})`, ctx);
    },
  };
}

export type AnalysisService = ReturnType<typeof analysisService>;
