// What the dashboard's sessions list shows beyond the API's session view: each session's
// headline (so rows are told apart by what happened, not only by repo) and the trust score over
// time per repository (the sparklines). Both read only small, bounded amounts of data.
import type { DbExecutor } from '../adapters/db/repositories/executor.ts';
import { reportPrefixes } from '../adapters/db/repositories/reports.ts';
import { recentScores } from '../adapters/db/repositories/sessions.ts';

/**
 * The report's headline sits near the start of the stored JSON (the report object's key order
 * puts it before the findings and the timeline), so reading a prefix of each body is enough:
 * a listing never parses whole reports, which can be megabytes each.
 */
export const HEADLINE_PREFIX_CHARS = 8192;
const HEADLINE = /"headline":("(?:[^"\\]|\\.)*")/;

/** The headline in the first characters of a report's JSON text, or null if not there. */
export function headlineFromPrefix(prefix: string): string | null {
  const m = HEADLINE.exec(prefix);
  if (!m) return null;
  try {
    const value: unknown = JSON.parse(m[1]);
    return typeof value === 'string' && value.length > 0 ? value : null;
  } catch {
    return null;
  }
}

/** Headlines of these sessions of the account (complete ones only), by session id. */
export async function headlinesOf(db: DbExecutor, accountId: string, sessionIds: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (sessionIds.length === 0) return out;
  for (const r of await reportPrefixes(db, accountId, sessionIds, HEADLINE_PREFIX_CHARS)) {
    const headline = headlineFromPrefix(r.head);
    if (headline) out.set(r.session_id, headline);
  }
  return out;
}

export interface TrustPoint {
  at: string;
  score: number;
}

export interface RepoTrend {
  repo: string;
  /** Oldest first. */
  points: TrustPoint[];
}

export interface TrendOptions {
  /** How many recent complete sessions to look at, over all repos. */
  window?: number;
  repos?: number;
  pointsPerRepo?: number;
}

/** Groups recent scores (newest first) by repo: the most recently active repos first, oldest point first. */
export function groupTrends(rows: { repo: string | null; trust_score: number | null; created_at: string }[], repos: number, points: number): RepoTrend[] {
  const byRepo = new Map<string, TrustPoint[]>();
  for (const r of rows) {
    if (r.repo === null || r.trust_score === null) continue;
    let list = byRepo.get(r.repo);
    if (!list) {
      if (byRepo.size >= repos) continue;
      byRepo.set(r.repo, (list = []));
    }
    if (list.length < points) list.push({ at: r.created_at, score: r.trust_score });
  }
  return [...byRepo].map(([repo, list]) => ({ repo, points: list.reverse() }));
}

/** Trust over time for the account's most recently active repositories. */
export async function trustTrends(db: DbExecutor, accountId: string, opts: TrendOptions = {}): Promise<RepoTrend[]> {
  const rows = await recentScores(db, accountId, opts.window ?? 400);
  return groupTrends(rows, opts.repos ?? 6, opts.pointsPerRepo ?? 30);
}
