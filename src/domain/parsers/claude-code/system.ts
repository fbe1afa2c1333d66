// `type: "system"` records (and the stream-json final `result`) → what they mean for the timeline.
// Subtypes seen: compact_boundary, microcompact_boundary, api_error, error, local_command,
// stop_hook_summary, turn_duration, informational, session_start, api_refusal,
// model_refusal_fallback; stream-json adds init, hook_response, status… Unknown subtypes are kept
// as plain system events: they are the harness talking, never the agent acting.
import { num, obj, str, type Obj } from '../shared/values.ts';
import { textOf } from './values.ts';

export type SystemOutcome =
  | { kind: 'compaction'; trigger?: string; preTokens?: number }
  | { kind: 'error'; text: string }
  | { kind: 'system'; subtype: string; text: string };

// Hook lists and error chains are short in practice; a hostile record must not make them long.
const MAX_LISTED = 20;

export function systemOutcome(rec: Obj): SystemOutcome {
  const subtype = str(rec.subtype) || 'system';
  switch (subtype) {
    case 'compact_boundary':
      return compaction(obj(rec.compactMetadata) ?? obj(rec.compact_metadata), str(rec.trigger));
    case 'microcompact_boundary':
      return compaction(obj(rec.microcompactMetadata) ?? obj(rec.microcompact_metadata), 'micro');
    case 'api_error':
    case 'error':
      return { kind: 'error', text: apiErrorText(rec) };
    case 'stop_hook_summary':
      return { kind: 'system', subtype, text: hookSummaryText(rec) };
    case 'turn_duration': {
      const ms = num(rec.durationMs);
      return { kind: 'system', subtype, text: ms === undefined ? '' : `turn took ${ms} ms` };
    }
    case 'api_refusal':
    case 'model_refusal_fallback':
      return { kind: 'system', subtype, text: str(rec.apiRefusalExplanation) || contentText(rec) };
    default:
      return { kind: 'system', subtype, text: contentText(rec) };
  }
}

function compaction(meta: Obj | undefined, fallbackTrigger: string | undefined): SystemOutcome {
  const out: Extract<SystemOutcome, { kind: 'compaction' }> = { kind: 'compaction' };
  const trigger = (meta && str(meta.trigger)) || fallbackTrigger;
  if (trigger) out.trigger = trigger;
  const preTokens = meta ? num(meta.preTokens) ?? num(meta.pre_tokens) : undefined;
  if (preTokens !== undefined) out.preTokens = preTokens;
  return out;
}

function contentText(rec: Obj): string {
  return textOf(rec.content) || str(rec.message) || '';
}

/** api_error shapes vary by version: error.message, error.formatted, error.error.error.message… */
export function apiErrorText(rec: Obj): string {
  const parts: string[] = [];
  let err: unknown = rec.error;
  // Walk the nested `error` chain a few levels only: hostile records may nest it arbitrarily deep.
  for (let depth = 0; depth < 4 && err !== undefined && err !== null; depth++) {
    if (typeof err === 'string') {
      parts.push(err);
      break;
    }
    const o = obj(err);
    if (!o) break;
    const message = str(o.message) || str(o.formatted);
    if (message) parts.push(message);
    const status = num(o.status);
    if (status) parts.push(`status ${status}`);
    const type = str(o.type);
    if (type && type !== 'error' && !parts.includes(type)) parts.push(type);
    err = o.error;
  }
  const text = parts.length > 0 ? parts.join(' — ') : contentText(rec) || 'API error';
  const attempt = num(rec.retryAttempt);
  const max = num(rec.maxRetries);
  return attempt && max ? `${text} (retry ${attempt}/${max})` : text;
}

function hookSummaryText(rec: Obj): string {
  const commands = listed(rec.hookInfos, (h) => str(obj(h)?.command));
  const errors = listed(rec.hookErrors, (e) => str(e) ?? str(obj(e)?.message));
  let text = commands.length > 0 ? `hooks: ${commands.join('; ')}` : 'hooks ran';
  if (errors.length > 0) text += `; errors: ${errors.join('; ')}`;
  if (rec.preventedContinuation === true) text += '; prevented continuation';
  return text;
}

function listed(value: unknown, pick: (item: unknown) => string | undefined): string[] {
  if (!Array.isArray(value)) return [];
  const out: string[] = [];
  for (const item of value) {
    if (out.length >= MAX_LISTED) break;
    const s = pick(item);
    if (s) out.push(s);
  }
  return out;
}
