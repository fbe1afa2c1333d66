// The `analyze` job processor: the payload goes to the analysis service (services/analysis.ts),
// which analyses the stored log and, in one transaction, stores the report, marks the session,
// queues the webhooks and settles the job — or fails the session for good.
import type { AnalysisService, JobHandler } from '../services/index.ts';

export function analyzeProcessor(analysis: AnalysisService): JobHandler {
  return {
    run: (job, ctx) => analysis.run(job, ctx),
    onExhausted: (job, error, ctx) => analysis.giveUp(job, error, ctx),
    backoffMs: analysis.backoffMs,
  };
}
