// Small helpers every rule module shares: safe excerpts (masked, clipped), evidence items, a
// one-line description of a tool call, bounded collections.
import type { NormEvent, ToolCallEvent } from '../model/events.ts';
import type { Category } from '../model/report.ts';
import type { EventFacts, RuleMeta } from './types.ts';
import { maskKnown } from '../secrets/mask.ts';

export const EXCERPT_MAX = 300;
/** Length of a command or path quoted inside a finding's detail sentence. */
export const QUOTE_MAX = 120;

/** Collapses whitespace runs so an excerpt reads as one line. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export function clip(text: string, max = EXCERPT_MAX): string {
  return text.length <= max ? text : text.slice(0, Math.max(0, max - 1)) + '…';
}

/**
 * Masks every secret known for this event (plus any extra values a rule remembers), then clips.
 * Masking comes first so a cut can never leave half a secret readable.
 */
export function safe(text: string, facts?: EventFacts | null, max = EXCERPT_MAX, extra: Iterable<string> = []): string {
  const values = [...(facts?.secrets ?? []).map((s) => s.value), ...extra];
  const masked = values.length > 0 ? maskKnown(text, values) : text;
  return clipOneLine(masked, max);
}

/**
 * clip(oneLine(text), max) without collapsing all of a long text: the collapsed head of a prefix
 * is a prefix of the collapsed whole, and once it is max + 2 characters long (no two spaces in a
 * row, so some character at index ≥ max survives the final trim) the result is decided.
 */
function clipOneLine(text: string, max: number): string {
  const prefix = max * 4 + 64;
  if (text.length > prefix) {
    const head = text.slice(0, prefix).replace(/\s+/g, ' ').trimStart();
    if (head.length >= max + 2) return head.slice(0, Math.max(0, max - 1)) + '…';
  }
  return clip(oneLine(text), max);
}

/** A window of `text` around [start, end), for excerpts of long outputs. */
export function around(text: string, start: number, end: number, max = EXCERPT_MAX): string {
  const room = Math.max(0, Math.floor((max - (end - start)) / 2));
  const from = Math.max(0, start - room);
  const to = Math.min(text.length, end + room);
  return (from > 0 ? '…' : '') + text.slice(from, to) + (to < text.length ? '…' : '');
}

/** The line of `text` that holds position `at`, trimmed. */
export function lineAt(text: string, at: number): string {
  const start = text.lastIndexOf('\n', at - 1) + 1;
  const end = text.indexOf('\n', at);
  return text.slice(start, end < 0 ? undefined : end).trim();
}

export interface EvidenceItem {
  index: number;
  excerpt: string;
}

export function evidence(event: NormEvent, text: string, facts?: EventFacts | null, extra: Iterable<string> = []): EvidenceItem {
  return { index: event.index, excerpt: safe(text, facts, EXCERPT_MAX, extra) };
}

/** What a tool call did, in the words a reviewer would use ("Write src/a.ts", the command itself). */
export function describeCall(call: ToolCallEvent): string {
  const i = call.input;
  switch (i.type) {
    case 'command':
      return i.command;
    case 'file_read':
    case 'file_write':
    case 'file_edit':
      return `${call.name} ${i.path}`;
    case 'patch':
      return `${call.name} ${i.files.map((f) => `${f.op} ${f.path}`).join(', ')}`;
    case 'web_fetch':
      return `${call.name} ${i.url}`;
    case 'web_search':
      return `${call.name} ${i.query}`;
    case 'subagent':
      return `${call.name} ${i.description}`;
    case 'mcp':
      return `${call.name} ${jsonSmall(i.args)}`;
    case 'search':
      return `${call.name} ${i.pattern}${i.path ? ' in ' + i.path : ''}`;
    default:
      return `${call.name} ${jsonSmall(i.args)}`;
  }
}

function jsonSmall(value: unknown): string {
  try {
    return clip(JSON.stringify(value) ?? '', EXCERPT_MAX);
  } catch {
    return '';
  }
}

/** Appends while under the cap; returns whether it was kept. */
export function pushCapped<T>(list: T[], item: T, cap: number): boolean {
  if (list.length >= cap) return false;
  list.push(item);
  return true;
}

/** A Set that forgets its oldest entries beyond `cap` (insertion order). */
export function addCapped<T>(set: Set<T>, item: T, cap: number): void {
  set.delete(item);
  set.add(item);
  if (set.size > cap) set.delete(set.values().next().value as T);
}

/** Text matched literally inside a RegExp. */
export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Like addCapped for maps: the oldest key goes first. */
export function setCapped<K, V>(map: Map<K, V>, key: K, value: V, cap: number): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > cap) map.delete(map.keys().next().value as K);
}

export function plural(n: number, word: string, many = word + 's'): string {
  return `${n} ${n === 1 ? word : many}`;
}

/** Counts non-overlapping matches of a global regex. */
export function countMatches(text: string, re: RegExp): number {
  if (!text) return 0;
  const g = re.global ? re : new RegExp(re.source, re.flags + 'g');
  g.lastIndex = 0;
  let n = 0;
  for (let m = g.exec(text); m; m = g.exec(text)) {
    n++;
    if (m[0] === '') g.lastIndex++;
  }
  return n;
}

export { basename } from '../paths.ts';

/** A rule meta whose category is the id's prefix ("destructive/rm-rf" → destructive). */
export function meta(m: Omit<RuleMeta, 'category'>): RuleMeta {
  return { category: m.id.slice(0, m.id.indexOf('/')) as Category, ...m };
}

/** The text with its first letter in capitals (a detail that starts with a quoted phrase). */
export function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** Output a capture shortened (`… +41 lines`, "(ctrl+o to expand)", `... [12 lines truncated]`): what the model saw is more than the log shows. */
export const ELIDED = /(?:…|\.\.\.)\s*\+\d+\s+lines|\(ctrl\s*\+\s*[a-z] to (?:view|expand)|\.\.\.\s*\[\d+ (?:more )?lines? (?:truncated|omitted)/i;
