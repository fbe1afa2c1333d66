// Settings → Audit log (owners and admins): every security-relevant event of the account, newest
// first, with filters, paging, and a JSONL export of what the filters select.
import type { WebUser } from '../../types.ts';
import { AUDIT_ACTIONS } from '../../../services/audit.ts';
import type { AuditEventView } from '../../../services/audit.ts';
import type { MemberView } from '../../../services/members.ts';
import { EmptyState, Flash, Pager, SelectField, Table, Time } from '../components.tsx';
import { Layout } from '../page.tsx';
import { SettingsAssets } from './parts.tsx';

export interface AuditFilterValues {
  action?: string;
  actor?: string;
  /** YYYY-MM-DD, inclusive (UTC). */
  from?: string;
  /** YYYY-MM-DD, inclusive (UTC). */
  to?: string;
}

export interface AuditLogProps {
  user: WebUser;
  rows: AuditEventView[];
  members: MemberView[];
  filters: AuditFilterValues;
  page: number;
  pageCount: number;
  total: number;
  errors: string[];
}

/** The query string of these filters (and a page), for links that keep them. */
export function auditQuery(f: AuditFilterValues, page?: number): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(f)) if (v) params.set(k, v);
  if (page && page > 1) params.set('page', String(page));
  const q = params.toString();
  return q ? `?${q}` : '';
}

function Actor({ e }: { e: AuditEventView }) {
  switch (e.actor.type) {
    case 'user':
      return <>{e.actor.label}</>;
    case 'key':
      return <>API key <code>{e.actor.label}</code></>;
    case 'operator':
      return <span class="muted">operator (command line)</span>;
    default:
      return <span class="muted">not signed in</span>;
  }
}

function Details({ details }: { details: AuditEventView['details'] }) {
  const entries = Object.entries(details).filter(([, v]) => v !== null && v !== '');
  if (entries.length === 0) return null;
  return <span class="details">{entries.map(([k, v]) => `${k.replace(/_/g, ' ')}: ${String(v)}`).join(' · ')}</span>;
}

export function AuditLogPage({ user, rows, members, filters, page, pageCount, total, errors }: AuditLogProps) {
  const actions: [string, string][] = [['', 'Any event'], ...Object.entries(AUDIT_ACTIONS).map(([k, v]): [string, string] => [k, v])];
  const actors: [string, string][] = [['', 'Anyone'], ...members.map((m): [string, string] => [m.id, m.email])];
  return (
    <Layout title="Audit log" user={user} current="audit">
      <SettingsAssets />
      <h1>Audit log</h1>
      <p class="lede">
        Who did what in this account, when and from which address: sign-ins, API keys, webhooks, members and roles, redacted or deleted logs.
        Events are written with the change they record and never hold a secret.
      </p>
      {errors.length > 0 && <Flash kind="error">Some filters were not understood and are ignored: {errors.join(' ')}</Flash>}
      <form method="get" action="/settings/audit-log" class="panel filters" aria-label="Filter the audit log">
        <SelectField label="Event" name="action" value={filters.action} options={actions} />
        <SelectField label="Actor" name="actor" value={filters.actor} options={actors} />
        <div class="field"><label for="f-from">From (UTC)</label><input id="f-from" type="date" name="from" value={filters.from ?? ''} /></div>
        <div class="field"><label for="f-to">To (UTC)</label><input id="f-to" type="date" name="to" value={filters.to ?? ''} /></div>
        <p class="actions">
          <button type="submit" class="primary">Filter</button>
          <a href="/settings/audit-log">Clear</a>
          <a class="button" href={`/settings/audit-log/export.jsonl${auditQuery(filters)}`} download>Export JSONL</a>
        </p>
      </form>
      <p class="muted small">{total} event{total === 1 ? '' : 's'}</p>
      {rows.length === 0
        ? <EmptyState title="No events"><p>Nothing matches these filters.</p></EmptyState>
        : (
          <Table head={['When', 'Event', 'Actor', 'Target', 'Address', 'Details']} caption="Audit events" class="audit cards">
            {rows.map((e) => (
              <tr key={e.id} data-action={e.action}>
                <td data-label="When"><Time iso={e.occurred_at} /></td>
                <td data-label="Event">{AUDIT_ACTIONS[e.action] ?? e.action}</td>
                <td data-label="Actor"><Actor e={e} /></td>
                <td data-label="Target">{e.target ? <>{e.target.label ?? e.target.id} <span class="muted small">{e.target.type}</span></> : null}</td>
                <td data-label="Address">{e.source_ip ? <code>{e.source_ip}</code> : <span class="muted">—</span>}</td>
                <td data-label="Details"><Details details={e.details} /></td>
              </tr>
            ))}
          </Table>
        )}
      <Pager page={page} pageCount={pageCount} href={(p) => `/settings/audit-log${auditQuery(filters, p)}`} label="Audit log pages" />
    </Layout>
  );
}
