// User-role text. Codex stores the person's prompt and also harness-injected context in user
// messages: <environment_context> (cwd, approval policy, sandbox — the only cwd a legacy log has),
// <user_instructions> / "# AGENTS.md instructions" (repository instructions), <turn_aborted>,
// <user_shell_command> (a `!cmd` the person ran), <subagent_notification>, skills… Environment
// context becomes session metadata; the other injections become synthetic prompts.
import type { Ctx } from './state.ts';

const ENV_OPEN = '<environment_context>';
// Lower-cased prefixes of injected (non-human) user text, after leading whitespace.
const INJECTED = [
  '<user_instructions>', '# agents.md instructions', '<instructions>', '<turn_aborted>',
  '<user_shell_command>', '<subagent_notification>', '<tool_context>', '<reasoning_context>',
  '<pinned_notes>', '<context_update>', '<skill>', '<permissions instructions>',
];

function startsWithFold(text: string, from: number, prefix: string): boolean {
  return text.slice(from, from + prefix.length).toLowerCase() === prefix;
}

function firstNonSpace(text: string): number {
  let i = 0;
  while (i < text.length && text.charCodeAt(i) <= 32) i++;
  return i;
}

export function emitUserText(ctx: Ctx, body: string, source: number): void {
  const start = firstNonSpace(body);
  if (start >= body.length) return;
  if (startsWithFold(body, start, ENV_OPEN)) return environmentContext(ctx, body);
  const injected = INJECTED.find((p) => startsWithFold(body, start, p));
  if (injected === '<turn_aborted>') return emitInterrupt(ctx, tag(body, 'reason') ?? 'interrupted', source);
  const t = body.trim();
  if (ctx.st.prompts.isMirror(t, source, ctx.line)) return;
  ctx.sink.emit({ kind: 'prompt', index: -1, line: ctx.line, at: ctx.at, text: body, ...(injected ? { synthetic: true } : {}) });
}

/** One interrupt per aborted turn: the turn_aborted event and the <turn_aborted> marker mirror each other. */
export function emitInterrupt(ctx: Ctx, reason: string, source: number): void {
  if (ctx.st.interrupts.isMirror('', source, ctx.line)) return;
  ctx.sink.emit({ kind: 'interrupt', index: -1, line: ctx.line, at: ctx.at, reason });
}

function tag(body: string, name: string): string | undefined {
  const open = `<${name}>`;
  const i = body.indexOf(open);
  if (i < 0) return undefined;
  const j = body.indexOf(`</${name}>`, i + open.length);
  const v = j < 0 ? undefined : body.slice(i + open.length, j).trim();
  return v || undefined;
}

function environmentContext(ctx: Ctx, body: string): void {
  const head = body.length > 8192 ? body.slice(0, 8192) : body;
  ctx.st.updateMeta(ctx, {
    cwd: tag(head, 'cwd'),
    approvalPolicy: tag(head, 'approval_policy'),
    sandbox: tag(head, 'sandbox_mode'),
  });
}
