// The report page at report_url (/r/<id>): the verdict first (score gauge, outcome, headline,
// reason), a contents bar, findings by severity with evidence linked to the timeline, the
// paged timeline, files with their edits, commands, stats, downloads and the redact action.
// Everything from the log is text in JSX: escaped by the renderer, ANSI codes stripped.
import { can } from '../../../services/roles.ts';
import type { CommandRecord, Finding, Report, Severity, TimelineEntry } from '../../../domain/model/report.ts';
import { SEVERITIES } from '../../../domain/model/report.ts';
import type { SessionViewRow as Session } from '../../../services/sessions.ts';
import type { WebUser } from '../../types.ts';
import { stripAnsi } from '../../../domain/ansi.ts';
import { CsrfField, Layout } from '../page.tsx';
import { EmptyState, Flash, OutcomeBadge, SeverityBadge, Table, Time, formatBytes, formatDuration, scoreBand } from '../components.tsx';
import type { FlashKind } from '../components.tsx';
import { agentName } from './sessions-page.tsx';
import { TimelineSection, entryHref } from './report-timeline.tsx';
import type { TimelineQuery } from './report-timeline.tsx';

const R = 42;
const CIRCUMFERENCE = 2 * Math.PI * R;

/** The trust score as a ring: the arc is the score's share of 100, in the outcome's colour. */
export function Gauge({ score, outcome }: { score: number; outcome?: string }) {
  const band = outcome ? outcome.toLowerCase() : scoreBand(score);
  const filled = (Math.max(0, Math.min(100, score)) / 100) * CIRCUMFERENCE;
  return (
    <svg class={`gauge gauge-${band}`} width={110} height={110} viewBox="0 0 110 110" role="img" aria-label={`Trust score ${score} of 100`}>
      <circle class="track" cx={55} cy={55} r={R} />
      <circle class="value" cx={55} cy={55} r={R} stroke-dasharray={`${filled.toFixed(1)} ${CIRCUMFERENCE.toFixed(1)}`} transform="rotate(-90 55 55)" />
      <text x={55} y={62} text-anchor="middle">{score}</text>
      <text class="of" x={55} y={80} text-anchor="middle">of 100</text>
    </svg>
  );
}

function Verdict({ report, session }: { report: Report; session: Session }) {
  const agent = report.agent ? agentName(report.agent) : 'Unknown agent';
  return (
    <section class={`verdict verdict-${report.outcome.toLowerCase()}`} aria-label="Verdict">
      <Gauge score={report.trust_score} outcome={report.outcome} />
      <div>
        <OutcomeBadge outcome={report.outcome} />
        <h1>{report.headline}</h1>
        <p class="reason">{report.reason}</p>
        <ul class="meta">
          <li>{session.repo ?? report.repo ?? 'no repository'}{report.branch ? ` @ ${report.branch}` : ''}</li>
          <li>{agent}{report.agent_version ? ` ${report.agent_version}` : ''}{report.models.length > 0 ? ` · ${report.models.join(', ')}` : ''}</li>
          {report.started_at && <li>started <Time iso={report.started_at} /></li>}
          {report.duration_ms !== null && <li>ran {formatDuration(report.duration_ms)}</li>}
          <li>{session.filename} ({formatBytes(Number(session.size_bytes))})</li>
        </ul>
      </div>
    </section>
  );
}

function Contents({ report, sessionId }: { report: Report; sessionId: string }) {
  const c = report.findings_count;
  return (
    <nav class="contents" aria-label="Contents">
      <a href="#findings">Findings ({c.critical + c.warning + c.info})</a>
      <a href="#timeline">Timeline ({report.timeline.length})</a>
      <a href="#files">Files ({report.files.length})</a>
      <a href="#commands">Commands ({report.commands.length})</a>
      <a href="#stats">Stats</a>
      <span class="actions">
        <a href={`/r/${sessionId}/report.json`} download>JSON</a>
        <a href={`/r/${sessionId}/report.sarif`} download>SARIF</a>
      </span>
    </nav>
  );
}

const SEVERITY_TITLE: Record<Severity, string> = { critical: 'Critical', warning: 'Warnings', info: 'Information' };

function FindingCard({ f, report, sessionId }: { f: Finding; report: Report; sessionId: string }) {
  return (
    <li id={`f-${f.id}`} class={`finding finding-${f.severity}`}>
      <h3><SeverityBadge severity={f.severity} /> {f.title} <span class="rule">{f.rule}</span></h3>
      <p>{f.detail}</p>
      {f.evidence.length > 0 && (
        <ul class="evidence" aria-label="Evidence">
          {f.evidence.map((e, i) => (
            <li key={i}>
              {e.timeline_index >= 0 && <a href={entryHref(report, sessionId, e.timeline_index)}>Step {e.timeline_index} in the timeline</a>}
              <code>{stripAnsi(e.excerpt)}</code>
            </li>
          ))}
        </ul>
      )}
      <p><strong>What to do:</strong> {f.remediation}</p>
    </li>
  );
}

function Findings({ report, sessionId }: { report: Report; sessionId: string }) {
  const c = report.findings_count;
  return (
    <section id="findings" aria-labelledby="findings-h">
      <h2 id="findings-h">Findings <span class="muted small">{c.critical} critical · {c.warning} warning · {c.info} info</span></h2>
      {report.findings.length === 0 && <EmptyState title="No findings">Nothing in this session needed a second look.</EmptyState>}
      {SEVERITIES.map((sev) => {
        const list = report.findings.filter((f) => f.severity === sev);
        if (list.length === 0) return null;
        return (
          <div key={sev}>
            <h3>{SEVERITY_TITLE[sev]} ({list.length})</h3>
            <ul class="findings">{list.map((f) => <FindingCard key={f.id} f={f} report={report} sessionId={sessionId} />)}</ul>
          </div>
        );
      })}
    </section>
  );
}

/** Lines of an edit's detail marked as removed (-), added (+) or context, for a diff view. */
export function diffLines(entry: TimelineEntry): { mark: '+' | '-' | ' '; text: string }[] {
  const body = stripAnsi((entry.detail ?? '').split('\n--- output')[0]);
  const out: { mark: '+' | '-' | ' '; text: string }[] = [];
  let mode: '+' | '-' | ' ' = entry.kind === 'file_write' ? '+' : ' ';
  for (const line of body.split('\n')) {
    if (entry.kind === 'file_edit' && line.startsWith('- ')) {
      mode = '-';
      out.push({ mark: '-', text: line.slice(2) });
    } else if (entry.kind === 'file_edit' && line.startsWith('+ ')) {
      mode = '+';
      out.push({ mark: '+', text: line.slice(2) });
    } else if (line.startsWith('*** ')) {
      mode = '+';
      out.push({ mark: ' ', text: line });
    } else {
      out.push({ mark: mode, text: line });
    }
  }
  return out;
}

function Diff({ entry }: { entry: TimelineEntry }) {
  return (
    <pre class="diff">
      {diffLines(entry).map((l, i) => <span key={i} class={l.mark === '+' ? 'add' : l.mark === '-' ? 'del' : undefined}>{`${l.mark} ${l.text}\n`}</span>)}
    </pre>
  );
}

const EDITS_PER_FILE = 5;

function Files({ report, sessionId }: { report: Report; sessionId: string }) {
  const edits = report.timeline.filter((e) => (e.kind === 'file_edit' || e.kind === 'file_write') && e.detail);
  return (
    <section id="files" aria-labelledby="files-h">
      <h2 id="files-h">Files touched</h2>
      {report.files.length === 0 ? <EmptyState title="No files touched" /> : (
        <ul class="files">
          {report.files.map((f) => {
            const mine = edits.filter((e) => e.summary.includes(f.path));
            return (
              <li key={f.path} class="panel">
                <div class="file-head">
                  <code class="path">{f.path}</code>
                  <span class="muted small">
                    {f.reads} read{f.reads === 1 ? '' : 's'} · {f.writes} write{f.writes === 1 ? '' : 's'}
                    {f.created && ' · created'}{f.deleted && ' · deleted'}
                  </span>
                </div>
                {mine.slice(0, EDITS_PER_FILE).map((e) => (
                  <details key={e.index}>
                    <summary><a href={entryHref(report, sessionId, e.index)}>#{e.index}</a> {stripAnsi(e.summary)}</summary>
                    <Diff entry={e} />
                  </details>
                ))}
                {mine.length > EDITS_PER_FILE && <p class="small muted">and {mine.length - EDITS_PER_FILE} more edits in the timeline</p>}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

function ExitCode({ c }: { c: CommandRecord }) {
  if (c.exit_code === null) return <span class="muted">–</span>;
  return <span class={c.exit_code === 0 ? 'exit-ok' : 'exit-fail'}>{c.exit_code}</span>;
}

function Commands({ report, sessionId }: { report: Report; sessionId: string }) {
  return (
    <section id="commands" aria-labelledby="commands-h">
      <h2 id="commands-h">Commands</h2>
      {report.commands.length === 0 ? <EmptyState title="No commands run" /> : (
        <Table caption="Commands" head={['Step', 'Command', ['Exit', 'num']]}>
          {report.commands.map((c) => (
            <tr key={c.timeline_index}>
              <td><a href={entryHref(report, sessionId, c.timeline_index)}>#{c.timeline_index}</a></td>
              <td><code class="path">{stripAnsi(c.command)}</code></td>
              <td class="num"><ExitCode c={c} /></td>
            </tr>
          ))}
        </Table>
      )}
    </section>
  );
}

function Stats({ report }: { report: Report }) {
  const s = report.stats;
  const n = (v: number | undefined) => (v ?? 0).toLocaleString('en');
  const items: [string, string][] = [
    ['Duration', formatDuration(report.duration_ms)],
    ['Events', n(s.events)],
    ['Prompts', n(s.prompts)],
    ['Tool calls', n(s.tool_calls)],
    ['Commands', `${n(s.commands)} (${n(s.failed_commands)} failed)`],
    ['Files read / written', `${n(s.files_read)} / ${n(s.files_written)}`],
    ['Input tokens', n(s.tokens.input)],
    ['Output tokens', n(s.tokens.output)],
    ['Cache read / write', `${n(s.tokens.cache_read)} / ${n(s.tokens.cache_write)}`],
    ['Subagents', n(s.subagents)],
    ['Compactions', n(s.compactions)],
    ['Unreadable lines', n(s.skipped_lines)],
  ];
  return (
    <section id="stats" aria-labelledby="stats-h">
      <h2 id="stats-h">Stats</h2>
      <dl class="stats">{items.map(([k, v]) => <div key={k}><dt>{k}</dt><dd>{v}</dd></div>)}</dl>
      <p class="muted small">Analysed by Vouch {report.analyzer_version} · format {report.format} ({report.confidence} confidence){s.lines !== undefined ? ` · ${n(s.lines)} lines` : ''}</p>
    </section>
  );
}

function Redact({ user, sessionId, expiredAt }: { user: WebUser; sessionId: string; expiredAt: string | null }) {
  if (expiredAt) {
    return (
      <section id="redact" aria-labelledby="redact-h">
        <h2 id="redact-h">Stored log</h2>
        <p>The stored log was deleted by this account's retention setting on <Time iso={expiredAt} />. This report was kept.</p>
      </section>
    );
  }
  return (
    <section id="redact" aria-labelledby="redact-h">
      <h2 id="redact-h">Stored log</h2>
      <p>
        <a href={`/r/${sessionId}/log`}>Download the stored log</a> <span class="muted small">(every detected secret masked)</span>
      </p>
      {!can(user.role, 'logs.redact_delete')
        ? <p class="muted small">Owners and admins can redact the stored log.</p>
        : (
      <details class="panel danger-zone">
        <summary>Redact the stored log…</summary>
        <p>Rewrites the stored log with every secret the analysis detected masked, as in this report. The original bytes are gone afterwards: this cannot be undone.</p>
        <form method="post" action={`/r/${sessionId}/redact`}>
          <CsrfField token={user.csrfToken} />
          <label class="check"><input type="checkbox" name="confirm" value="yes" required /> I understand that the original log cannot be recovered</label>
          <p><button type="submit" class="danger">Redact the stored log</button></p>
        </form>
      </details>
        )}
    </section>
  );
}

export interface ReportView {
  user: WebUser;
  session: Session;
  report: Report;
  q: TimelineQuery;
  notice?: { kind: FlashKind; text: string } | null;
}

export function ReportPage({ user, session, report, q, notice }: ReportView) {
  return (
    <Layout title={`${report.outcome} ${report.trust_score} · ${report.headline}`} user={user} current="sessions">
      {notice && <Flash kind={notice.kind}>{notice.text}</Flash>}
      <Verdict report={report} session={session} />
      <p class="summary">{report.summary}</p>
      <Contents report={report} sessionId={session.id} />
      <Findings report={report} sessionId={session.id} />
      <TimelineSection report={report} sessionId={session.id} q={q} />
      <Files report={report} sessionId={session.id} />
      <Commands report={report} sessionId={session.id} />
      <Stats report={report} />
      <Redact user={user} sessionId={session.id} expiredAt={session.log_expired_at} />
    </Layout>
  );
}

export function ProgressPage({ user, session }: { user: WebUser; session: Session }) {
  return (
    <Layout title="Analysing" user={user} current="sessions" refreshSeconds={2}>
      <Flash kind="info">
        <strong>Analysing…</strong> The log <strong>{session.filename}</strong> is being analysed. This page refreshes itself every few seconds.
      </Flash>
      <p class="muted">Session {session.id} · uploaded <Time iso={session.created_at} /></p>
    </Layout>
  );
}

export function FailedPage({ user, session, reason }: { user: WebUser; session: Session; reason: string }) {
  return (
    <Layout title="Analysis failed" user={user} current="sessions">
      <h1>The analysis failed</h1>
      <Flash kind="error">The log <strong>{session.filename}</strong> could not be analysed: {reason}</Flash>
      <p class="muted">Session {session.id} · uploaded <Time iso={session.created_at} /></p>
      <p><a href="/">Back to the sessions</a></p>
    </Layout>
  );
}

export function ReportNotFound({ user }: { user: WebUser }) {
  return (
    <Layout title="Not found" user={user}>
      <h1>Not found</h1>
      <p>There is no report with this id in your account.</p>
      <p><a href="/">Back to the sessions</a></p>
    </Layout>
  );
}
