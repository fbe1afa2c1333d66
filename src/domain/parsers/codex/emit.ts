// Small emitters shared by the rollout, legacy and exec-json handlers.
import type { PatchFile } from '../../model/events.ts';
import { isObj, num, obj, str, text, type Obj } from '../shared/values.ts';
import { partsText } from './values.ts';
import type { Ctx } from './state.ts';

export function emitAssistant(ctx: Ctx, body: string, source: number): void {
  const t = body.trim();
  if (!t || ctx.st.messages.isMirror(t, source, ctx.line)) return;
  const model = ctx.st.model;
  ctx.sink.emit({ kind: 'message', index: -1, line: ctx.line, at: ctx.at, text: body, ...(model ? { model } : {}) });
}

export function emitThinking(ctx: Ctx, body: string, source: number): void {
  const t = body.trim();
  if (!t || ctx.st.thoughts.isMirror(t, source, ctx.line)) return;
  ctx.sink.emit({ kind: 'thinking', index: -1, line: ctx.line, at: ctx.at, text: body });
}

/** One compaction per compaction: `compacted` lines and `context_compacted` events mirror each other. */
export function emitCompaction(ctx: Ctx, summary: string | undefined, source: number): void {
  if (ctx.st.compactions.isMirror('', source, ctx.line)) return;
  ctx.sink.emit({ kind: 'compaction', index: -1, line: ctx.line, at: ctx.at, ...(summary ? { summary } : {}) });
}

export function emitError(ctx: Ctx, message: unknown): void {
  const t = typeof message === 'string' ? message : isObj(message) ? (str(message.message) ?? '') : '';
  ctx.sink.emit({ kind: 'error', index: -1, line: ctx.line, at: ctx.at, text: t || 'error' });
}

// Codex reports warnings through its `error` channel too ("Skill descriptions were shortened to
// fit…", "Model metadata for `x` not found; defaulting to…", deprecations). Those are notices for
// the person, not failures of the run; anything else stays an error (the safe side).
const NOTICE = /\b(?:shortened|truncated to fit|deprecated|will be removed|defaulting to|falling back to|is experimental|under[- ]development|heads up|consider (?:using|upgrading))\b|^(?:warning|note|notice|info)\b/i;
const FAILURE = /\b(?:fatal|panic(?:ked)?|unauthori[sz]ed|forbidden|exceeded|disconnected|refused|timed out|unexpected status|quota|usage limit|crash(?:ed)?)\b/i;

/** A message on the `error` channel that is only a notice (→ system event), or a real error. */
export function isNotice(message: string): boolean {
  const head = message.length > 500 ? message.slice(0, 500) : message;
  return NOTICE.test(head) && !FAILURE.test(head);
}

/** An `error` event or item: a real error, or a notice that only used the error channel. */
export function emitErrorOrNotice(ctx: Ctx, message: unknown): void {
  const t = typeof message === 'string' ? message : isObj(message) ? (str(message.message) ?? '') : '';
  if (t && isNotice(t)) return emitSystem(ctx, 'notice', t);
  emitError(ctx, message);
}

export function emitSystem(ctx: Ctx, subtype: string, body: string | undefined): void {
  ctx.sink.emit({ kind: 'system', index: -1, line: ctx.line, at: ctx.at, subtype, text: body ?? '' });
}

/** Token counts as Codex reports them (input_tokens includes the cached part). */
export interface TokenCounts {
  input: number;
  cached: number;
  output: number;
  cacheWrite: number;
}

export function tokenCounts(u: Obj): TokenCounts {
  return {
    input: num(u.input_tokens) ?? 0,
    cached: num(u.cached_input_tokens) ?? 0,
    output: num(u.output_tokens) ?? 0,
    cacheWrite: num(u.cache_write_input_tokens) ?? 0,
  };
}

/** Token usage: input excludes the cached part (reported as cacheRead) so nothing is counted twice. */
export function emitUsage(ctx: Ctx, c: TokenCounts): void {
  if (c.input <= 0 && c.output <= 0 && c.cached <= 0 && c.cacheWrite <= 0) return;
  const model = ctx.st.model;
  ctx.sink.emit({
    kind: 'usage', index: -1, line: ctx.line, at: ctx.at, ...(model ? { model } : {}),
    input: Math.max(0, c.input - c.cached), output: Math.max(0, c.output),
    cacheRead: Math.max(0, c.cached), cacheWrite: Math.max(0, c.cacheWrite),
  });
}

const OPS = new Set(['add', 'delete', 'update']);

/**
 * File changes of patch_apply_end / FileChange items: a map path → {type, content | unified_diff,
 * move_path} (older builds: {add:{content}} / {update:{unified_diff}}), or exec-json's array
 * [{path, kind}].
 */
export function changesToFiles(changes: unknown): PatchFile[] {
  const files: PatchFile[] = [];
  if (Array.isArray(changes)) {
    for (const c of changes) {
      if (!isObj(c)) continue;
      const path = text(c.path);
      if (path !== undefined) files.push(changeFile(path, c.kind ?? c));
    }
  } else if (isObj(changes)) {
    for (const path of Object.keys(changes)) if (path) files.push(changeFile(path, changes[path]));
  }
  return files;
}

function changeFile(path: string, change: unknown): PatchFile {
  let op = typeof change === 'string' ? change : '';
  let body: Obj = {};
  if (isObj(change)) {
    const tagged = str(change.type) ?? str(change.kind);
    const key = tagged ?? Object.keys(change).find((k) => OPS.has(k)) ?? '';
    op = key;
    body = tagged !== undefined ? change : isObj(change[key]) ? (change[key] as Obj) : {};
  }
  const file: PatchFile = { path, op: OPS.has(op) ? (op as PatchFile['op']) : 'update', removed: '', added: '' };
  const content = str(body.content);
  if (op === 'add' && content !== undefined) file.added = content;
  else if (op === 'delete' && content !== undefined) file.removed = content;
  const diff = str(body.unified_diff);
  if (diff !== undefined) Object.assign(file, diffSides(diff));
  const moveTo = text(body.move_path);
  if (moveTo !== undefined) file.moveTo = moveTo;
  return file;
}

/** Removed and added lines of a unified diff (headers and context dropped). */
export function diffSides(diff: string): { removed: string; added: string } {
  const removed: string[] = [];
  const added: string[] = [];
  for (const line of diff.split('\n')) {
    if (line.startsWith('+++') || line.startsWith('---')) continue;
    if (line[0] === '+') added.push(line.slice(1));
    else if (line[0] === '-') removed.push(line.slice(1));
  }
  return { removed: removed.join('\n'), added: added.join('\n') };
}

/** MCP results: {Ok:{content,isError}} | {Err:"…"} (rollout events) or {content,isError} (items). */
export function mcpResult(result: unknown, error?: unknown): { output: string; isError: boolean } {
  if (isObj(error)) return { output: str(error.message) ?? 'error', isError: true };
  if (!isObj(result)) return { output: typeof result === 'string' ? result : '', isError: false };
  if ('Err' in result) return { output: typeof result.Err === 'string' ? result.Err : 'error', isError: true };
  const ok = isObj(result.Ok) ? result.Ok : result;
  return { output: partsText(ok.content), isError: ok.isError === true || ok.is_error === true };
}

/** Web search results as text lines (title — url — snippet): fetched content can carry injections. */
export function searchResultsText(results: unknown[]): string {
  const lines: string[] = [];
  for (const r of results) {
    const o = obj(r);
    if (o) lines.push([str(o.title), str(o.url), str(o.snippet)].filter(Boolean).join(' — '));
  }
  return lines.join('\n');
}
