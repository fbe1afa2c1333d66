// Small building blocks shared by every dashboard page. Each renders plain, accessible HTML
// styled by assets/app.css; none needs JavaScript.
import type { ComponentChildren, JSX } from 'preact';

const OUTCOME_CLASS: Record<string, string> = { Clear: 'clear', Review: 'review', Blocked: 'blocked' };

/** The outcome of an analysis (Clear / Review / Blocked) as a coloured badge. */
export function OutcomeBadge({ outcome }: { outcome: string | null }) {
  if (!outcome) return null;
  return <span class={`badge badge-${OUTCOME_CLASS[outcome] ?? 'neutral'}`}>{outcome}</span>;
}

/** A session's state: its outcome once complete, else "analysing" / "failed". */
export function StatusBadge({ status, outcome }: { status: string; outcome: string | null }) {
  if (status === 'complete') return <OutcomeBadge outcome={outcome} />;
  return <span class={`badge badge-${status === 'failed' ? 'failed' : 'analyzing'}`}>{status === 'failed' ? 'Failed' : 'Analysing…'}</span>;
}

export function SeverityBadge({ severity }: { severity: string }) {
  return <span class={`badge badge-${severity}`}>{severity}</span>;
}

/** The band a score falls in (the same thresholds as the outcome, PRODUCT.md §5). */
export function scoreBand(score: number): 'clear' | 'review' | 'blocked' {
  return score < 50 ? 'blocked' : score < 80 ? 'review' : 'clear';
}

export function Score({ value }: { value: number | null }) {
  if (value === null) return <span class="muted">–</span>;
  return <span class={`score score-${scoreBand(value)}`} title="Trust score (0–100)">{value}</span>;
}

/** "2026-11-26 04:41 UTC": the server's rendering, before (or without) the script. */
export function utcText(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** A moment: UTC text and title from the server; time.js rewrites the text into the viewer's zone. */
export function Time({ iso }: { iso: string | null }) {
  if (!iso) return <span class="muted">–</span>;
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return <span>{iso}</span>;
  const utc = d.toISOString();
  return <time datetime={utc} title={`${utc.replace('T', ' ').replace(/\.\d+Z$/, 'Z').replace('Z', ' UTC')}`} data-local="">{utcText(utc)}</time>;
}

/** "850 ms", "12.4 s", "3 min 05 s", "2 h 04 min". */
export function formatDuration(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms) || ms < 0) return '–';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(s < 10 ? 1 : 0)} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${String(Math.round(s % 60)).padStart(2, '0')} s`;
  return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, '0')} min`;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

export type FlashKind = 'info' | 'ok' | 'warn' | 'error';

/** A notice at the top of a page: the result of an action, or a problem with a form. */
export function Flash({ kind = 'info', children }: { kind?: FlashKind; children: ComponentChildren }) {
  return <div class={`flash flash-${kind}`} role={kind === 'error' ? 'alert' : 'status'}>{children}</div>;
}

type InputAttrs = Omit<JSX.InputHTMLAttributes<HTMLInputElement>, 'label'>;

/** A labelled form input with an optional hint and error (linked by aria-describedby). */
export function Field({ label, name, hint, error, id, ...input }: InputAttrs & { label: string; name: string; hint?: string; error?: string | null }) {
  const fieldId = (id as string | undefined) ?? `f-${name}`;
  const describedBy = [hint ? `${fieldId}-hint` : '', error ? `${fieldId}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div class="field">
      <label for={fieldId}>{label}</label>
      <input id={fieldId} name={name} aria-invalid={error ? 'true' : undefined} aria-describedby={describedBy} {...input} />
      {hint && <p class="hint" id={`${fieldId}-hint`}>{hint}</p>}
      {error && <p class="field-error" id={`${fieldId}-error`}>{error}</p>}
    </div>
  );
}

/** A labelled <select>; options as [value, label] pairs, the first usually "any". */
export function SelectField({ label, name, value, options }: { label: string; name: string; value?: string; options: [string, string][] }) {
  return (
    <div class="field">
      <label for={`f-${name}`}>{label}</label>
      <select id={`f-${name}`} name={name}>
        {options.map(([v, text]) => <option key={v} value={v} selected={v === (value ?? '')}>{text}</option>)}
      </select>
    </div>
  );
}

/** A table in a horizontally scrollable frame; `head` are the column titles. */
export function Table({ head, caption, class: cls, children }: { head: (string | [string, string])[]; caption?: string; class?: string; children: ComponentChildren }) {
  return (
    <div class="table-wrap">
      <table class={cls}>
        {caption && <caption class="sr-only">{caption}</caption>}
        <thead>
          <tr>{head.map((h) => (typeof h === 'string' ? <th key={h} scope="col">{h}</th> : <th key={h[0]} scope="col" class={h[1]}>{h[0]}</th>))}</tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ComponentChildren }) {
  return (
    <div class="empty">
      <strong>{title}</strong>
      {children}
    </div>
  );
}

/** The page numbers to show: first, last, and a window around the current one (0 = a gap). */
export function pagerItems(page: number, pageCount: number, around = 2): number[] {
  const out: number[] = [];
  for (let p = 1; p <= pageCount; p++) {
    if (p === 1 || p === pageCount || Math.abs(p - page) <= around) out.push(p);
    else if (out[out.length - 1] !== 0) out.push(0);
  }
  return out;
}

/** Previous / numbered / next links; `href(p)` builds the URL of page p (keeping filters). */
export function Pager({ page, pageCount, href, label = 'Pages' }: { page: number; pageCount: number; href: (p: number) => string; label?: string }) {
  if (pageCount <= 1) return null;
  return (
    <nav class="pager" aria-label={label}>
      {page > 1 ? <a href={href(page - 1)} rel="prev">← Previous</a> : null}
      {pagerItems(page, pageCount).map((p, i) =>
        p === 0 ? <span key={`gap${i}`} class="gap">…</span>
          : p === page ? <span key={p} aria-current="page">{p}</span>
            : <a key={p} href={href(p)}>{p}</a>,
      )}
      {page < pageCount ? <a href={href(page + 1)} rel="next">Next →</a> : null}
    </nav>
  );
}
