// The report as one self-contained HTML page: no external assets, no script, everything escaped.
// Timeline filters work without JavaScript (radio inputs + CSS), so the page passes a strict CSP
// (`style-src 'nonce-…'`, no script at all). Used by `vouch analyze --format html` and by the
// service's report page (which passes its CSP nonce).
import type { Finding, Report, Severity, TimelineEntry } from '../model/report.ts';
import { esc } from './escape.ts';
import { formatDuration } from '../report/narrative.ts';

export interface HtmlOptions {
  /** CSP nonce for the inline stylesheet. */
  nonce?: string;
  /** Extra markup placed at the top of <body> (the service's navigation); must be pre-escaped. */
  headerHtml?: string;
  title?: string;
}

const SEVERITIES: Severity[] = ['critical', 'warning', 'info'];
const FILTERS = ['all', 'command', 'file', 'message', 'flagged'] as const;

export function renderReportHtml(report: Report, opts: HtmlOptions = {}): string {
  const nonce = opts.nonce ? ` nonce="${esc(opts.nonce)}"` : '';
  const title = opts.title ?? `Vouch report — ${report.outcome} (${report.trust_score})`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer"><title>${esc(title)}</title>
<style${nonce}>${CSS}</style></head>
<body>${opts.headerHtml ?? ''}<main>
${header(report)}
${findingsSection(report)}
${timelineSection(report)}
${filesSection(report)}
${commandsSection(report)}
${statsSection(report)}
</main></body></html>`;
}

function header(r: Report): string {
  const meta = [
    ['Agent', r.agent ?? 'unknown'],
    ['Models', r.models.join(', ') || '—'],
    ['Repository', r.repo ?? '—'],
    ['Branch', r.branch ?? '—'],
    ['Working directory', r.cwd ?? '—'],
    ['Started', r.started_at ?? '—'],
    ['Duration', r.duration_ms !== null ? formatDuration(r.duration_ms) : '—'],
    ['Format', `${r.format}${r.confidence === 'low' ? ' (lower confidence)' : ''}`],
  ];
  return `<header class="top outcome-${esc(r.outcome.toLowerCase())}">
<div class="score" aria-label="trust score"><span class="num">${esc(r.trust_score)}</span><span class="of">/100</span></div>
<div class="verdict"><p class="outcome">${esc(r.outcome)}</p><h1>${esc(r.headline)}</h1><p class="reason">${esc(r.reason)}</p></div>
</header>
<p class="summary">${esc(r.summary)}</p>
<dl class="meta">${meta.map(([k, v]) => `<div><dt>${esc(k)}</dt><dd>${esc(v)}</dd></div>`).join('')}</dl>`;
}

function findingsSection(r: Report): string {
  if (r.findings.length === 0) return '<section id="findings"><h2>Findings</h2><p class="empty">No findings.</p></section>';
  const groups = SEVERITIES.map((sev) => {
    const list = r.findings.filter((f) => f.severity === sev);
    if (list.length === 0) return '';
    return `<h3 class="sev-${sev}">${esc(sev)} (${list.length})</h3>${list.map(finding).join('')}`;
  }).join('');
  const c = r.findings_count;
  return `<section id="findings"><h2>Findings <small>${c.critical} critical · ${c.warning} warning · ${c.info} info</small></h2>${groups}</section>`;
}

function finding(f: Finding): string {
  const evidence = f.evidence
    .map((e) => `<li>${e.timeline_index >= 0 ? `<a href="#t${esc(e.timeline_index)}">step ${esc(e.timeline_index)}</a> ` : ''}<code>${esc(e.excerpt)}</code></li>`)
    .join('');
  return `<article class="finding sev-${esc(f.severity)}" id="${esc(f.id)}">
<h4><span class="badge">${esc(f.severity)}</span> ${esc(f.title)} <small>${esc(f.rule)}</small></h4>
<p>${esc(f.detail)}</p>${evidence ? `<ul class="evidence">${evidence}</ul>` : ''}
<p class="fix"><strong>What to do:</strong> ${esc(f.remediation)}</p></article>`;
}

function timelineSection(r: Report): string {
  const radios = FILTERS.map((f, i) => `<input type="radio" name="tf" id="tf-${f}"${i === 0 ? ' checked' : ''}><label for="tf-${f}">${f}</label>`).join('');
  const omitted = r.stats.timeline_omitted ? `<p class="note">${esc(r.stats.timeline_omitted)} later steps are not listed (the log is very long).</p>` : '';
  return `<section id="timeline"><h2>Timeline <small>${r.timeline.length} steps</small></h2>
<div class="filters">${radios}
<ol class="tl">${r.timeline.map(step).join('')}</ol></div>${omitted}</section>`;
}

function group(kind: TimelineEntry['kind']): string {
  if (kind === 'command') return 'command';
  if (kind === 'file_read' || kind === 'file_write' || kind === 'file_edit') return 'file';
  if (kind === 'message' || kind === 'prompt' || kind === 'thinking') return 'message';
  return 'other';
}

function step(e: TimelineEntry): string {
  const flagged = e.finding_ids.length > 0 ? ' flagged' : '';
  const links = e.finding_ids.map((id) => `<a class="flag" href="#${esc(id)}">${esc(id)}</a>`).join(' ');
  const status = e.status && e.status !== 'ok' ? `<span class="status st-${esc(e.status)}">${esc(e.status)}</span>` : '';
  const detail = e.detail ? `<details><summary>details${e.detail_length ? ` (${esc(e.detail_length)} characters, truncated)` : ''}</summary><pre>${esc(e.detail)}</pre></details>` : '';
  return `<li id="t${esc(e.index)}" class="k-${group(e.kind)}${flagged}"><span class="idx">${esc(e.index)}</span>
<span class="kind">${esc(e.kind)}</span><span class="actor">${esc(e.actor)}</span>${status} ${links}
<div class="sum">${esc(e.summary)}</div>${detail}</li>`;
}

function filesSection(r: Report): string {
  if (r.files.length === 0) return '';
  const rows = r.files
    .map((f) => `<tr><td><code>${esc(f.path)}</code></td><td>${esc(f.reads)}</td><td>${esc(f.writes)}</td><td>${f.created ? 'created' : ''}${f.deleted ? ' deleted' : ''}</td></tr>`)
    .join('');
  return `<section id="files"><h2>Files touched <small>${r.files.length}</small></h2><table><thead><tr><th>path</th><th>reads</th><th>writes</th><th></th></tr></thead><tbody>${rows}</tbody></table></section>`;
}

function commandsSection(r: Report): string {
  if (r.commands.length === 0) return '';
  const rows = r.commands
    .map((c) => `<tr class="${c.exit_code !== null && c.exit_code !== 0 ? 'failed' : ''}"><td><a href="#t${esc(c.timeline_index)}">${esc(c.timeline_index)}</a></td><td><code>${esc(c.command)}</code></td><td>${esc(c.exit_code ?? '?')}</td></tr>`)
    .join('');
  return `<section id="commands"><h2>Commands <small>${r.commands.length}</small></h2><table><thead><tr><th>step</th><th>command</th><th>exit</th></tr></thead><tbody>${rows}</tbody></table></section>`;
}

function statsSection(r: Report): string {
  const s = r.stats;
  const rows: [string, unknown][] = [
    ['events', s.events], ['prompts', s.prompts], ['tool calls', s.tool_calls], ['commands', s.commands],
    ['failed commands', s.failed_commands], ['files read', s.files_read], ['files written', s.files_written],
    ['input tokens', s.tokens.input], ['output tokens', s.tokens.output], ['cache read tokens', s.tokens.cache_read],
    ['cache write tokens', s.tokens.cache_write], ['subagents', s.subagents], ['compactions', s.compactions],
    ['skipped lines', s.skipped_lines],
  ];
  return `<section id="stats"><h2>Stats</h2><dl class="stats">${rows.map(([k, v]) => `<div><dt>${esc(k)}</dt><dd>${esc(v)}</dd></div>`).join('')}</dl>
<p class="note">Analyser ${esc(r.analyzer_version)}.</p></section>`;
}

const CSS = `
:root{--bg:#fbfbfa;--fg:#1d1d1f;--mut:#6b6b70;--crit:#b3261e;--warn:#9a6700;--info:#3a5ea8;--ok:#1a7f37;--line:#e3e3e0}
*{box-sizing:border-box}body{margin:0;font:15px/1.5 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;background:var(--bg);color:var(--fg)}
main{max-width:1100px;margin:0 auto;padding:24px}
h1{font-size:1.35rem;margin:.1rem 0}h2{margin-top:2rem;border-bottom:1px solid var(--line);padding-bottom:.3rem}h2 small,h4 small{color:var(--mut);font-weight:normal;font-size:.8rem}
.top{display:flex;gap:20px;align-items:center;padding:16px;border-radius:10px;background:#fff;border:1px solid var(--line)}
.score{font-size:2.6rem;font-weight:700;min-width:110px;text-align:center}.score .of{font-size:1rem;color:var(--mut)}
.outcome{margin:0;font-weight:700;text-transform:uppercase;letter-spacing:.05em}
.outcome-blocked .outcome,.outcome-blocked .num{color:var(--crit)}.outcome-review .outcome,.outcome-review .num{color:var(--warn)}.outcome-clear .outcome,.outcome-clear .num{color:var(--ok)}
.reason{margin:.2rem 0 0}.summary{font-size:1rem}
.meta,.stats{display:grid;grid-template-columns:repeat(auto-fill,minmax(220px,1fr));gap:6px 16px}.meta div,.stats div{display:flex;flex-direction:column}
dt{color:var(--mut);font-size:.8rem}dd{margin:0;overflow-wrap:anywhere}
.finding{background:#fff;border:1px solid var(--line);border-left:4px solid var(--info);border-radius:6px;padding:8px 14px;margin:10px 0}
.finding.sev-critical{border-left-color:var(--crit)}.finding.sev-warning{border-left-color:var(--warn)}
.badge{font-size:.7rem;text-transform:uppercase;padding:2px 6px;border-radius:4px;background:var(--line)}
.sev-critical .badge{background:var(--crit);color:#fff}.sev-warning .badge{background:var(--warn);color:#fff}
h3.sev-critical{color:var(--crit)}h3.sev-warning{color:var(--warn)}h3.sev-info{color:var(--info)}
code,pre{font:13px/1.45 ui-monospace,SFMono-Regular,Menlo,monospace;overflow-wrap:anywhere;white-space:pre-wrap}
pre{background:#f3f3f1;padding:8px;border-radius:4px;max-height:420px;overflow:auto}
.evidence{margin:.3rem 0;padding-left:1.2rem}
.filters>input{position:absolute;opacity:0}.filters>label{display:inline-block;padding:3px 10px;margin:0 4px 8px 0;border:1px solid var(--line);border-radius:14px;cursor:pointer;background:#fff}
.filters>input:checked+label{background:var(--fg);color:#fff}
.filters>input:focus-visible+label{outline:2px solid var(--info)}
#tf-command:checked~.tl li:not(.k-command),#tf-file:checked~.tl li:not(.k-file),#tf-message:checked~.tl li:not(.k-message),#tf-flagged:checked~.tl li:not(.flagged){display:none}
.tl{list-style:none;padding:0;margin:0}.tl li{border-bottom:1px solid var(--line);padding:6px 0}.tl li.flagged{background:#fff5f4}
.tl li:target{outline:2px solid var(--info)}
.idx{color:var(--mut);display:inline-block;min-width:3.5em}.kind{font-weight:600;margin-right:8px}.actor{color:var(--mut);margin-right:8px}
.status{font-size:.75rem;padding:1px 6px;border-radius:4px;background:var(--line)}.st-error,.st-denied{background:#fde7e5;color:var(--crit)}
.sum{margin-left:3.5em;overflow-wrap:anywhere}details{margin-left:3.5em}
table{border-collapse:collapse;width:100%}td,th{text-align:left;border-bottom:1px solid var(--line);padding:4px 6px;vertical-align:top}
tr.failed td{color:var(--crit)}.note,.empty{color:var(--mut)}
`;
