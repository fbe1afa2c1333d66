// The three payload shapes of the `analysis.complete` event (service-spec §6, PRODUCT.md §6).
// Each builder lists its fields explicitly, in the specification's order, so a shape can never
// grow a field by accident; unknown repo/branch are sent as "".
import type { WebhookShape } from '../../adapters/db/schema.ts';
import { EVENT_ANALYSIS_COMPLETE } from './signing.ts';

export type { WebhookShape };

export const SHAPES: readonly WebhookShape[] = ['A', 'B', 'C'];

export interface FindingsCount {
  critical: number;
  warning: number;
  info: number;
}

export interface CompletedSession {
  id: string;
  agent: string | null;
  repo: string | null;
  branch: string | null;
}

export interface CompletedReport {
  report_id: string;
  trust_score: number;
  outcome: string;
  headline: string;
  reason: string;
  summary: string;
  findings_count: FindingsCount;
}

export interface EventInput {
  accountId: string;
  session: CompletedSession;
  report: CompletedReport;
  reportUrl: string;
}

export interface ShapeA {
  event: string;
  session_id: string;
  report_url: string;
  trust_score: number;
  agent: string;
  repo: string;
  findings_count: FindingsCount;
}

export interface ShapeB {
  event: string;
  orgId: string;
  reportId: string;
  outcome: string;
  headline: string;
  reason: string;
  reportUrl: string;
  agent: string;
  branch: string;
}

export interface ShapeC {
  event: string;
  orgId: string;
  reportId: string;
  trustScore: number;
  reportUrl: string;
  summary: string;
  agent: string;
  branch: string;
}

export function isShape(value: unknown): value is WebhookShape {
  return value === 'A' || value === 'B' || value === 'C';
}

function shapeA(e: EventInput): ShapeA {
  const { critical, warning, info } = e.report.findings_count;
  return {
    event: EVENT_ANALYSIS_COMPLETE,
    session_id: e.session.id,
    report_url: e.reportUrl,
    trust_score: e.report.trust_score,
    agent: e.session.agent ?? '',
    repo: e.session.repo ?? '',
    findings_count: { critical, warning, info },
  };
}

function shapeB(e: EventInput): ShapeB {
  return {
    event: EVENT_ANALYSIS_COMPLETE,
    orgId: e.accountId,
    reportId: e.report.report_id,
    outcome: e.report.outcome,
    headline: e.report.headline,
    reason: e.report.reason,
    reportUrl: e.reportUrl,
    agent: e.session.agent ?? '',
    branch: e.session.branch ?? '',
  };
}

function shapeC(e: EventInput): ShapeC {
  return {
    event: EVENT_ANALYSIS_COMPLETE,
    orgId: e.accountId,
    reportId: e.report.report_id,
    trustScore: e.report.trust_score,
    reportUrl: e.reportUrl,
    summary: e.report.summary,
    agent: e.session.agent ?? '',
    branch: e.session.branch ?? '',
  };
}

export function buildPayload(shape: WebhookShape, e: EventInput): ShapeA | ShapeB | ShapeC {
  switch (shape) {
    case 'A':
      return shapeA(e);
    case 'B':
      return shapeB(e);
    case 'C':
      return shapeC(e);
  }
}

/** The exact bytes every attempt of a delivery sends: serialised once, stored, never rebuilt. */
export function serializePayload(shape: WebhookShape, e: EventInput): string {
  return JSON.stringify(buildPayload(shape, e));
}
