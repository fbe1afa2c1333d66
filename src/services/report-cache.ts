// Recently served reports, as the JSON text the API sends. A report row is written once, in the
// transaction that completes its session, and never changed (one report per session; deleting
// the session deletes it): the text of report R is the same in every process, forever. So the
// hot read (a CI pipeline polling GET /v1/sessions/{id}/report) still checks the key and the
// session in the database on every request, but asks for the body only when the session's
// report is not the one kept here (session-reads.ts, for a key). That saves reading and shipping tens of KB
// per request — the most expensive part of the read on PostgreSQL.
//
// Bounded by total text length (least recently used dropped first): an lru-cache sized by the
// JSON text's length.
import { LRUCache } from 'lru-cache';

export const REPORT_CACHE_MAX_CHARS = 32 * 1024 * 1024;
/** A giant report would evict everything else: not kept. */
const ENTRY_MAX_CHARS = REPORT_CACHE_MAX_CHARS / 8;

interface Kept {
  reportId: string;
  json: string;
}

const kept = new LRUCache<string, Kept>({ maxSize: REPORT_CACHE_MAX_CHARS, maxEntrySize: ENTRY_MAX_CHARS, sizeCalculation: (k) => Math.max(1, k.json.length) });

/** The report kept for this session, if any (its report id must still match the database's). */
export function keptReport(sessionId: string): Kept | undefined {
  return kept.get(sessionId);
}

/** Text held in all (what the bound applies to). */
export function keptChars(): number {
  return kept.calculatedSize;
}

export function keepReport(sessionId: string, reportId: string, json: string): void {
  if (json.length > ENTRY_MAX_CHARS) return;
  kept.set(sessionId, { reportId, json });
}
