// Recently served reports, as the JSON text the API sends. A report row is written once, in the
// transaction that completes its session, and never changed (one report per session; deleting
// the session deletes it): the text of report R is the same in every process, forever. So the
// hot read (a CI pipeline polling GET /v1/sessions/{id}/report) still checks the key and the
// session in the database on every request, but asks for the body only when the session's
// report is not the one kept here (session-reads.ts, for a key). That saves reading and shipping tens of KB
// per request — the most expensive part of the read on PostgreSQL.
//
// Bounded by total text length (least recently used dropped first).
export const REPORT_CACHE_MAX_CHARS = 32 * 1024 * 1024;

interface Kept {
  reportId: string;
  json: string;
}

const kept = new Map<string, Kept>();
let chars = 0;

/** The report kept for this session, if any (its report id must still match the database's). */
export function keptReport(sessionId: string): Kept | undefined {
  const hit = kept.get(sessionId);
  if (hit) {
    // Most recently used at the end.
    kept.delete(sessionId);
    kept.set(sessionId, hit);
  }
  return hit;
}

/** Text held in all (what the bound applies to). */
export function keptChars(): number {
  return chars;
}

export function keepReport(sessionId: string, reportId: string, json: string): void {
  if (json.length > REPORT_CACHE_MAX_CHARS / 8) return; // a giant report would evict everything else
  const old = kept.get(sessionId);
  if (old) {
    chars -= old.json.length;
    kept.delete(sessionId);
  }
  kept.set(sessionId, { reportId, json });
  chars += json.length;
  for (const [id, k] of kept) {
    if (chars <= REPORT_CACHE_MAX_CHARS) break;
    kept.delete(id);
    chars -= k.json.length;
  }
}
