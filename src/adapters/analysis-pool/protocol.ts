// Messages between the pool (main thread) and an analysis worker. The worker pulls the log one
// chunk at a time, so at most one chunk is in flight: memory stays bounded for any file size.
import type { Report } from '../../domain/model/report.ts';
import type { AgentId } from '../../domain/model/events.ts';

export interface AnalysisOptions {
  agentHint?: AgentId | null;
  filename?: string;
}

export type ToWorker =
  | { type: 'start'; id: number; opts: AnalysisOptions }
  | { type: 'chunk'; id: number; data: Uint8Array }
  | { type: 'end'; id: number }
  /** The source failed (e.g. the stored log could not be read). */
  | { type: 'abort'; id: number; message: string };

export type FromWorker =
  /** Sent once, when the analyser is loaded. */
  | { type: 'ready' }
  | { type: 'pull'; id: number }
  | { type: 'done'; id: number; report: Report }
  | { type: 'failed'; id: number; message: string };
