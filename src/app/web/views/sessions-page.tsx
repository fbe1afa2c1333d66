// The sessions list (the dashboard's home): trust trend per repo, filters, the page of
// sessions with outcome and score at a glance, paging, and the upload form.
import type { WebUser } from '../../types.ts';
import type { SessionViewRow } from '../../../services/sessions.ts';
import type { RepoTrend } from '../../../services/session-overview.ts';
import { AGENT_IDS, agentLabel, isAgentId } from '../../../domain/agents.ts';
import { Layout, CsrfField } from '../page.tsx';
import { EmptyState, Field, Flash, Pager, Score, SelectField, StatusBadge, Table, Time } from '../components.tsx';
import type { FlashKind } from '../components.tsx';
import { Sparkline } from './sparkline.tsx';

/** An agent id as people know it (the registry's label); an id the registry does not know, as it is. */
export function agentName(agent: string): string {
  return isAgentId(agent) ? agentLabel(agent) : agent;
}

export interface ListFilters {
  repo?: string;
  agent?: string;
  outcome?: string;
  status?: 'analyzing' | 'complete' | 'failed';
}

export interface SessionsView {
  user: WebUser;
  filters: ListFilters;
  page: number;
  limit: number;
  total: number;
  rows: SessionViewRow[];
  headlines: Map<string, string>;
  trends: RepoTrend[];
  notice?: { kind: FlashKind; text: string; details?: string[] } | null;
  /** The repo typed in the upload form, kept after an error. */
  uploadRepo?: string;
}

/** The URL of the list with these filters and page (empty filters left out). */
export function listHref(filters: ListFilters, page: number, limit?: number): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(filters)) if (v) params.set(k, v);
  if (limit && limit !== 20) params.set('limit', String(limit));
  if (page > 1) params.set('page', String(page));
  const q = params.toString();
  return q ? `/?${q}` : '/';
}

function Trends({ trends, filters }: { trends: RepoTrend[]; filters: ListFilters }) {
  if (trends.length === 0) return null;
  return (
    <section aria-labelledby="trends-h">
      <h2 id="trends-h" class="sr-only">Trust over time per repository</h2>
      <ul class="trends">
        {trends.map((t) => {
          const latest = t.points[t.points.length - 1].score;
          const label = `${t.repo}: trust over the last ${t.points.length} sessions, ${t.points.map((p) => p.score).join(', ')}`;
          return (
            <li key={t.repo}>
              <div>
                <a class="repo" href={listHref({ ...filters, repo: t.repo }, 1)}>{t.repo}</a>
                <div class="small muted">latest <Score value={latest} /></div>
              </div>
              <Sparkline points={t.points} label={label} />
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function Filters({ filters, limit }: { filters: ListFilters; limit: number }) {
  return (
    <form class="filters" method="get" action="/" role="search" aria-label="Filter sessions">
      <Field label="Repository" name="repo" type="text" value={filters.repo ?? ''} placeholder="acme/api" maxLength={200} />
      <SelectField label="Agent" name="agent" value={filters.agent} options={[['', 'Any agent'], ...AGENT_IDS.map((a): [string, string] => [a, agentLabel(a)])]} />
      <SelectField label="Outcome" name="outcome" value={filters.outcome} options={[['', 'Any outcome'], ['Clear', 'Clear'], ['Review', 'Review'], ['Blocked', 'Blocked']]} />
      <SelectField label="Status" name="status" value={filters.status} options={[['', 'Any status'], ['complete', 'Complete'], ['analyzing', 'Analysing'], ['failed', 'Failed']]} />
      {limit !== 20 && <input type="hidden" name="limit" value={String(limit)} />}
      <div class="actions">
        <button type="submit" class="primary">Filter</button>
        <a href="/">Reset</a>
      </div>
    </form>
  );
}

function FindingCounts({ row }: { row: SessionViewRow }) {
  if (row.status !== 'complete') return <span class="muted">–</span>;
  const c = row.findings_critical ?? 0;
  const w = row.findings_warning ?? 0;
  const i = row.findings_info ?? 0;
  return <span title={`${c} critical, ${w} warning, ${i} info`}>{c > 0 && <span class="badge badge-critical">{c} critical</span>} {w > 0 && <span class="badge badge-warning">{w} warning</span>} {c + w === 0 && <span class="muted">{i} info</span>}</span>;
}

function SessionRow({ row, headline }: { row: SessionViewRow; headline?: string }) {
  const title = headline ?? (row.status === 'failed' ? `Analysis failed: ${row.failure_reason ?? ''}` : row.filename);
  return (
    <tr>
      <td class="what" data-label="Session">
        <a href={`/r/${row.id}`}>{title}</a>
        <div class="sub">{row.repo ?? 'no repository'} · {row.filename}</div>
      </td>
      <td data-label="Agent">{row.agent ? agentName(row.agent) : <span class="muted">unknown</span>}</td>
      <td data-label="Outcome"><StatusBadge status={row.status} outcome={row.outcome} /></td>
      <td class="num" data-label="Trust"><Score value={row.status === 'complete' ? row.trust_score : null} /></td>
      <td data-label="Findings"><FindingCounts row={row} /></td>
      <td data-label="Uploaded"><Time iso={row.created_at} /></td>
    </tr>
  );
}

function UploadForm({ user, repo }: { user: WebUser; repo?: string }) {
  return (
    <details class="panel" id="upload" open={repo !== undefined}>
      <summary>Upload a session log</summary>
      <form method="post" action="/sessions" enctype="multipart/form-data">
        <CsrfField token={user.csrfToken} />
        <Field label="Log file" name="file" type="file" accept=".jsonl,.log,.txt" required hint="A .jsonl, .log or .txt session log of Claude Code, Codex CLI or Gemini CLI." />
        <div class="filters">
          <Field label="Repository (optional)" name="repo" type="text" value={repo ?? ''} placeholder="acme/api" maxLength={200} id="up-repo" />
          <SelectField label="Agent" name="agent" options={[['', 'Detect automatically'], ...AGENT_IDS.map((a): [string, string] => [a, agentLabel(a)])]} />
        </div>
        <button type="submit" class="primary">Upload and analyse</button>
      </form>
    </details>
  );
}

export function SessionsPage(v: SessionsView) {
  const pageCount = Math.max(1, Math.ceil(v.total / v.limit));
  const filtered = Object.values(v.filters).some(Boolean);
  const first = (v.page - 1) * v.limit + 1;
  return (
    <Layout title="Sessions" user={v.user} current="sessions">
      <div class="page-head">
        <h1>Sessions</h1>
        <a class="button" href="#upload">Upload a log</a>
      </div>
      {v.notice && (
        <Flash kind={v.notice.kind}>
          {v.notice.text}
          {v.notice.details && v.notice.details.length > 0 && <ul>{v.notice.details.map((d) => <li key={d}>{d}</li>)}</ul>}
        </Flash>
      )}
      <Trends trends={v.trends} filters={v.filters} />
      <Filters filters={v.filters} limit={v.limit} />
      {v.rows.length === 0 ? (
        <EmptyState title={filtered ? 'No session matches these filters' : v.page > 1 ? 'No sessions on this page' : 'No sessions yet'}>
          {filtered || v.page > 1 ? <p><a href="/">Show all sessions</a></p> : <p>Upload a log below, or from CI: <code>vouch upload session.jsonl --repo acme/api</code>.</p>}
        </EmptyState>
      ) : (
        <>
          <p class="muted small">
            {first}–{first + v.rows.length - 1} of {v.total} session{v.total === 1 ? '' : 's'}{filtered ? ' matching the filters' : ''}, newest first
          </p>
          <Table class="sessions" caption="Sessions" head={['Session', 'Agent', 'Outcome', ['Trust', 'num'], 'Findings', 'Uploaded']}>
            {v.rows.map((r) => <SessionRow key={r.id} row={r} headline={v.headlines.get(r.id)} />)}
          </Table>
        </>
      )}
      <Pager page={v.page} pageCount={pageCount} href={(p) => listHref(v.filters, p, v.limit)} label="Pages of sessions" />
      <UploadForm user={v.user} repo={v.uploadRepo} />
    </Layout>
  );
}
