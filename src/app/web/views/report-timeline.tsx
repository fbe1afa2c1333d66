// The report's timeline (kind icons are plain text symbols: no emoji font needed), paged on the server (a 1,000-step session is a few pages, not a
// 30,000-pixel page), with filters by kind and "only entries with findings" as query
// parameters (a GET form: works without JavaScript). Long outputs are collapsed.
import type { Finding, Report, TimelineEntry, TimelineKind } from '../../../domain/model/report.ts';
import { stripAnsi } from '../../../domain/ansi.ts';
import { Pager, Time, formatDuration } from '../components.tsx';

export const TIMELINE_PAGE = 200;

export const KINDS: { kind: TimelineKind; label: string; icon: string }[] = [
  { kind: 'prompt', label: 'Prompts', icon: '»' },
  { kind: 'message', label: 'Messages', icon: '¶' },
  { kind: 'thinking', label: 'Thinking', icon: '…' },
  { kind: 'command', label: 'Commands', icon: '$' },
  { kind: 'file_read', label: 'File reads', icon: '≡' },
  { kind: 'file_write', label: 'File writes', icon: '+' },
  { kind: 'file_edit', label: 'File edits', icon: '✎' },
  { kind: 'tool_call', label: 'Other tools', icon: '⚙' },
  { kind: 'web', label: 'Web', icon: '⊕' },
  { kind: 'subagent', label: 'Subagents', icon: '⇉' },
  { kind: 'system', label: 'System', icon: '·' },
  { kind: 'error', label: 'Errors', icon: '✖' },
];
const ICON = new Map(KINDS.map((k) => [k.kind as string, k]));

export interface TimelineQuery {
  page: number;
  kinds: TimelineKind[];
  flagged: boolean;
}

/** The entries shown for these filters (all pages), in timeline order. */
export function filterTimeline(timeline: TimelineEntry[], q: Pick<TimelineQuery, 'kinds' | 'flagged'>): TimelineEntry[] {
  const kinds = q.kinds.length > 0 ? new Set<string>(q.kinds) : null;
  return timeline.filter((e) => (!kinds || kinds.has(e.kind)) && (!q.flagged || e.finding_ids.length > 0));
}

/** The unfiltered page holding the entry with this index (what a finding's evidence links to). */
export function pageOfEntry(timeline: TimelineEntry[], index: number, pageSize = TIMELINE_PAGE): number {
  const at = timeline.findIndex((e) => e.index === index);
  return Math.floor(Math.max(0, at) / pageSize) + 1;
}

/** The URL of a timeline view (filters kept), ending at the timeline or at one entry. */
export function timelineHref(sessionId: string, q: TimelineQuery, anchor = 'timeline'): string {
  const params = new URLSearchParams();
  for (const k of q.kinds) params.append('kind', k);
  if (q.flagged) params.set('flagged', '1');
  if (q.page > 1) params.set('tl_page', String(q.page));
  const s = params.toString();
  return `/r/${sessionId}${s ? `?${s}` : ''}#${anchor}`;
}

/** The link from a finding's evidence to its timeline entry: unfiltered, on the right page. */
export function entryHref(report: Report, sessionId: string, index: number): string {
  return timelineHref(sessionId, { page: pageOfEntry(report.timeline, index), kinds: [], flagged: false }, `t${index}`);
}

const COLLAPSE_CHARS = 400;
const COLLAPSE_LINES = 8;

function Detail({ text, truncatedFrom }: { text: string; truncatedFrom?: number }) {
  const clean = stripAnsi(text).trimEnd();
  const lines = clean.split('\n').length;
  const note = truncatedFrom ? <p class="small muted">Shortened in the report: {truncatedFrom.toLocaleString('en')} characters in the log.</p> : null;
  if (clean.length <= COLLAPSE_CHARS && lines <= COLLAPSE_LINES) return <div class="detail"><pre>{clean}</pre>{note}</div>;
  return (
    <details class="detail">
      <summary>Show {lines > 1 ? `${lines} lines` : `${clean.length.toLocaleString('en')} characters`}</summary>
      <pre>{clean}</pre>
      {note}
    </details>
  );
}

function Entry({ e, findings }: { e: TimelineEntry; findings: Map<string, Finding> }) {
  const k = ICON.get(e.kind);
  const flagged = e.finding_ids.length > 0;
  return (
    <li id={`t${e.index}`} class={`entry${flagged ? ' flagged' : ''}`}>
      <span class="icon" role="img" aria-label={k?.label ?? e.kind} title={k?.label ?? e.kind}>{k?.icon ?? '•'}</span>
      <div>
        <div class="head">
          <a class="idx" href={`#t${e.index}`} aria-label={`Step ${e.index}`}>#{e.index}</a>
          <span class="summary">{stripAnsi(e.summary)}</span>
        </div>
        <div class="facts">
          {e.at && <Time iso={e.at} />}
          {e.duration_ms !== null && <span>took {formatDuration(e.duration_ms)}</span>}
          {e.tool && <span>{e.tool}</span>}
          <span>{e.actor}</span>
          {e.status && e.status !== 'ok' && <span class={`status-${e.status}`}>{e.status}</span>}
          {e.line !== undefined && <span>log line {e.line}</span>}
          {e.finding_ids.map((id) => {
            const f = findings.get(id);
            return <a key={id} href={`#f-${id}`} class={`badge badge-${f?.severity ?? 'neutral'}`}>{f?.title ?? id}</a>;
          })}
        </div>
      </div>
      {e.detail && <Detail text={e.detail} truncatedFrom={e.detail_length} />}
    </li>
  );
}

function TimelineFilters({ sessionId, q, present }: { sessionId: string; q: TimelineQuery; present: Set<string> }) {
  return (
    <form class="filters" method="get" action={`/r/${sessionId}#timeline`} aria-label="Filter the timeline">
      <fieldset class="kinds">
        <legend>Kinds</legend>
        {KINDS.filter((k) => present.has(k.kind)).map((k) => (
          <label key={k.kind} class="check">
            <input type="checkbox" name="kind" value={k.kind} checked={q.kinds.includes(k.kind)} /> {k.icon} {k.label}
          </label>
        ))}
      </fieldset>
      <label class="check">
        <input type="checkbox" name="flagged" value="1" checked={q.flagged} /> Only entries with findings
      </label>
      <div class="actions">
        <button type="submit" class="primary">Show</button>
        <a href={`/r/${sessionId}#timeline`}>All entries</a>
      </div>
    </form>
  );
}

export function TimelineSection({ report, sessionId, q }: { report: Report; sessionId: string; q: TimelineQuery }) {
  const shown = filterTimeline(report.timeline, q);
  const pageCount = Math.max(1, Math.ceil(shown.length / TIMELINE_PAGE));
  const page = Math.min(q.page, pageCount);
  const slice = shown.slice((page - 1) * TIMELINE_PAGE, page * TIMELINE_PAGE);
  const findings = new Map(report.findings.map((f) => [f.id, f]));
  const present = new Set(report.timeline.map((e) => e.kind as string));
  const omitted = report.stats.timeline_omitted ?? 0;
  const first = (page - 1) * TIMELINE_PAGE + 1;
  return (
    <section id="timeline" aria-labelledby="timeline-h">
      <h2 id="timeline-h">Timeline</h2>
      <TimelineFilters sessionId={sessionId} q={q} present={present} />
      <p class="muted small">
        {shown.length === 0 ? 'No entry matches these filters.' : `Entries ${first}–${first + slice.length - 1} of ${shown.length}`}
        {shown.length !== report.timeline.length && ` (of ${report.timeline.length} in all)`}
        {omitted > 0 && `; ${omitted.toLocaleString('en')} routine entries were left out of the report`}
      </p>
      <ol class="timeline">
        {slice.map((e) => <Entry key={e.index} e={e} findings={findings} />)}
      </ol>
      <Pager page={page} pageCount={pageCount} href={(p) => timelineHref(sessionId, { ...q, page: p })} label="Pages of the timeline" />
    </section>
  );
}
