// The audit log: who did what to which part of an account, when, and from which address.
//
// An event is written by the service that makes the change, inside the same transaction, so a
// change that committed always has its event and an event never describes a change that rolled
// back. Events hold labels a person recognises (an email, a key's prefix…last 4, a webhook's
// origin) and small details (names, counts, roles), never a secret: keys, tokens, passwords and
// webhook secrets never reach this module, and recordAudit withholds any text shaped like one
// (a key pasted as a key's name, say) rather than store it.
import type { AuditEvent } from '../adapters/db/schema.ts';
import { auditEventsBefore, countAuditEvents, insertAuditEvent, listAuditEvents } from '../adapters/db/repositories/audit-events.ts';
import type { AuditFilters } from '../adapters/db/repositories/audit-events.ts';
import type { DbExecutor } from '../adapters/db/repositories/executor.ts';
import { newId, nowIso } from '../kernel/ids.ts';
import { KEY_PATTERN } from '../kernel/key-format.ts';
import { TOKEN_RULES } from '../domain/secrets/provider-rules.ts';
import { tokenCandidates } from '../domain/secrets/tokens.ts';

/** Every event the log records, with the words the audit page uses for it. */
export const AUDIT_ACTIONS = {
  'account.created': 'Account created',
  'auth.sign_in': 'Signed in',
  'auth.sign_in_failed': 'Sign-in failed',
  'auth.sign_out': 'Signed out',
  'auth.signed_out_everywhere': 'Signed out everywhere',
  'auth.password_changed': 'Password changed',
  'auth.password_reset_issued': 'Password-reset link issued',
  'auth.password_reset_used': 'Password reset with a link',
  'key.created': 'API key created',
  'key.revoked': 'API key revoked',
  'key.first_used': 'API key used for the first time',
  'key.scopes_narrowed': 'API key scopes narrowed',
  'webhook.created': 'Webhook added',
  'webhook.updated': 'Webhook changed',
  'webhook.enabled': 'Webhook enabled',
  'webhook.disabled': 'Webhook disabled',
  'webhook.deleted': 'Webhook deleted',
  'webhook.test_sent': 'Webhook test event sent',
  'webhook.redelivered': 'Webhook delivery sent again',
  'member.invited': 'Member invited',
  'member.invitation_withdrawn': 'Invitation withdrawn',
  'member.joined': 'Member joined',
  'member.removed': 'Member removed',
  'member.role_changed': 'Role changed',
  'member.resources_transferred': 'Keys and webhooks transferred',
  'log.redacted': 'Stored log redacted',
  'log.deleted': 'Session and its log deleted',
  'retention.changed': 'Retention changed',
  'sso.configured': 'Single sign-on configured',
  'sso.updated': 'Single sign-on changed',
  'sso.removed': 'Single sign-on removed',
  'sso.domain_verified': 'Single sign-on domain verified',
  'auth.sso_sign_in': 'Signed in with single sign-on',
  'auth.sso_sign_in_failed': 'Single sign-on refused',
} as const;
export type AuditAction = keyof typeof AUDIT_ACTIONS;

export function isAuditAction(value: unknown): value is AuditAction {
  return typeof value === 'string' && Object.hasOwn(AUDIT_ACTIONS, value);
}

export type ActorType = 'user' | 'key' | 'operator' | 'anonymous';

export type Actor =
  | { type: 'user'; id: string; label: string }
  | { type: 'key'; id: string; label: string }
  | { type: 'operator' }
  | { type: 'anonymous' };

/** Who acts, and from where (the client address as the HTTP app sees it; null for the CLI). */
export interface AuditContext {
  actor: Actor;
  ip: string | null;
}

export const OPERATOR: AuditContext = { actor: { type: 'operator' }, ip: null };

export type TargetType = 'account' | 'user' | 'key' | 'webhook' | 'invitation' | 'session' | 'delivery' | 'sso_provider';

export interface AuditTarget {
  type: TargetType;
  id: string;
  label?: string | null;
}

export type AuditDetails = Record<string, string | number | boolean | null>;

/** A webhook as the log names it: its origin only (paths of chat webhooks are secrets). */
export function webhookLabel(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'invalid URL';
  }
}

// Shapes of credentials this service issues (an API key, a whsec_ secret) and long random runs
// (a bare token); with them, every provider token the secret detector's table knows (sk_live_…,
// ghp_…, AKIA…, xoxb-…: domain/secrets/provider-rules.ts), wherever it sits in the text.
const OWN_SHAPES = [new RegExp(KEY_PATTERN.source, 'g'), /whsec_[A-Za-z0-9+/=]{20,}/g, /[A-Za-z0-9_+/=-]{40,}/g];

export const WITHHELD = '[withheld: shaped like a secret]';
const WITHHELD_PART = '[withheld]';

/** The [start, end) spans of `text` that look like a secret. */
function secretSpans(text: string): [number, number][] {
  const spans: [number, number][] = tokenCandidates(text, TOKEN_RULES).map((c) => [c.start, c.end]);
  for (const re of OWN_SHAPES) {
    for (const m of text.matchAll(re)) {
      // A long run is a token only with letters and digits mixed (not a long word or a path of one kind).
      if (re === OWN_SHAPES[2] && !(/\d/.test(m[0]) && /[A-Za-z]/.test(m[0]))) continue;
      spans.push([m.index, m.index + m[0].length]);
    }
  }
  return spans.sort((a, b) => a[0] - b[0]);
}

/**
 * A text with every part shaped like a secret replaced by "[withheld]" (a key named "deploy
 * sk_live_…" keeps "deploy"); a text that is nothing but a secret becomes WITHHELD.
 */
export function withholdSecrets(text: string): string {
  const spans = secretSpans(text);
  if (spans.length === 0) return text;
  let out = '';
  let at = 0;
  for (const [start, end] of spans) {
    if (end <= at) continue;
    out += text.slice(at, Math.max(at, start)) + (start >= at ? WITHHELD_PART : '');
    at = end;
  }
  out += text.slice(at);
  return out.replace(/\[withheld\](?:\s*\[withheld\])+/g, WITHHELD_PART).trim() === WITHHELD_PART ? WITHHELD : out;
}

function withheld<T>(value: T): T | string {
  return typeof value === 'string' ? withholdSecrets(value) : value;
}

/**
 * Details that are identifiers, never credentials, though they may look like one: an identity
 * provider's subject (Entra ID's is 43 base64url characters) is what an investigation needs.
 */
const IDENTIFIERS = new Set(['subject']);

function safeDetails(details: AuditDetails): AuditDetails {
  return Object.fromEntries(Object.entries(details).map(([k, v]) => [k, IDENTIFIERS.has(k) ? v : withheld(v)]));
}

const safeLabel = (label: string | null | undefined): string | null => (label == null ? null : (withheld(label) as string).slice(0, 300));

/** Appends one event; call it with the transaction that makes the change. */
export async function recordAudit(db: DbExecutor, accountId: string, ctx: AuditContext, action: AuditAction, target?: AuditTarget | null, details: AuditDetails = {}): Promise<void> {
  const actor = ctx.actor;
  await insertAuditEvent(db, {
    id: newId('aud'),
    account_id: accountId,
    occurred_at: nowIso(),
    action,
    actor_type: actor.type,
    actor_id: 'id' in actor ? actor.id : null,
    actor_label: 'label' in actor ? safeLabel(actor.label) : null,
    source_ip: ctx.ip,
    target_type: target?.type ?? null,
    target_id: target?.id ?? null,
    target_label: safeLabel(target?.label),
    details: JSON.stringify(safeDetails(details)),
  });
}

/** An event as the page, the API and the export show it. */
export interface AuditEventView {
  id: string;
  occurred_at: string;
  action: AuditAction;
  actor: { type: ActorType; id: string | null; label: string | null };
  source_ip: string | null;
  target: { type: TargetType; id: string; label: string | null } | null;
  details: AuditDetails;
}

export function toAuditView(e: AuditEvent): AuditEventView {
  return {
    id: e.id,
    occurred_at: e.occurred_at,
    action: e.action as AuditAction,
    actor: { type: e.actor_type as ActorType, id: e.actor_id, label: e.actor_label },
    source_ip: e.source_ip,
    target: e.target_type && e.target_id ? { type: e.target_type as TargetType, id: e.target_id, label: e.target_label } : null,
    details: JSON.parse(e.details) as AuditDetails,
  };
}

export type { AuditFilters };

export async function listAuditPage(db: DbExecutor, accountId: string, q: AuditFilters & { limit: number; page: number }): Promise<{ rows: AuditEventView[]; total: number }> {
  const { limit, page, ...filters } = q;
  const [rows, total] = await Promise.all([
    listAuditEvents(db, accountId, filters, { limit, offset: (page - 1) * limit }),
    countAuditEvents(db, accountId, filters),
  ]);
  return { rows: rows.map(toAuditView), total };
}

const EXPORT_BATCH = 500;

/** Every matching event, newest first, one JSON object per line; read in batches (bounded memory). */
export async function* exportAuditJsonl(db: DbExecutor, accountId: string, filters: AuditFilters): AsyncGenerator<string> {
  let before: string | null = null;
  for (;;) {
    const rows = await auditEventsBefore(db, accountId, filters, before, EXPORT_BATCH);
    if (rows.length === 0) return;
    yield rows.map((r) => JSON.stringify(toAuditView(r))).join('\n') + '\n';
    if (rows.length < EXPORT_BATCH) return;
    before = rows[rows.length - 1].id;
  }
}
