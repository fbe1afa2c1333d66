// Session facts: session_meta (id, cwd, git, version, originator, source incl. sub-agent spawns,
// model provider), turn_context (model, approval policy, sandbox — one per turn, emitted only on
// change), settings events, and the legacy first line {id, timestamp, instructions, git}.
import { isObj, obj, text, type Obj } from '../shared/values.ts';
import type { Ctx } from './state.ts';
import { emitSystem } from './emit.ts';
import { RUN_START } from '../../model/runs.ts';

// Codex session ids are UUIDs (v4, later v7); anything else (placeholders, trimmed fixtures) is
// not trusted to tell two sessions apart.
const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function sessionMeta(ctx: Ctx, p: Obj): void {
  const git = obj(p.git) ?? {};
  noteMainSession(ctx, p);
  ctx.st.updateMeta(ctx, {
    sessionId: text(p.id) ?? text(p.session_id),
    cwd: text(p.cwd),
    branch: text(git.branch),
    repositoryUrl: text(git.repository_url),
    agentVersion: text(p.cli_version),
    model: text(p.model),
  }, metaFlags(p));
}

/**
 * A rollout holds one session; subagent and forked threads write their own session_meta lines
 * (with a parent or fork id) and are part of it. A second top-level session with another id means
 * another session's rollout was appended to this file: a new run.
 */
function noteMainSession(ctx: Ctx, p: Obj): void {
  const id = text(p.id) ?? text(p.session_id);
  if (id === undefined || !SESSION_ID.test(id)) return;
  const child = text(p.parent_thread_id) !== undefined || text(p.forked_from_id) !== undefined || isObj(p.source);
  if (child) return;
  const main = ctx.st.mainSessionId;
  ctx.st.mainSessionId = id;
  if (main === undefined || main === id) return;
  emitSystem(ctx, RUN_START, `A new Codex session starts here (session ${id}); the time between sessions is not counted.`);
}

function metaFlags(p: Obj): string[] {
  const flags: string[] = [];
  const originator = text(p.originator);
  if (originator !== undefined) flags.push(`originator:${originator}`);
  const provider = text(p.model_provider);
  if (provider !== undefined) flags.push(`model_provider:${provider}`);
  flags.push(...sourceFlags(p.source));
  const parent = text(p.parent_thread_id) ?? text(p.forked_from_id);
  if (parent !== undefined) flags.push(`${p.forked_from_id ? 'forked_from' : 'parent_thread'}:${parent}`);
  return flags;
}

/** `source` is "cli" | "vscode" | "exec" | … or {subagent: "review" | {thread_spawn:{…}} | {other}}. */
function sourceFlags(source: unknown): string[] {
  if (typeof source === 'string') return source ? [`source:${source}`] : [];
  const sub = isObj(source) ? source.subagent : undefined;
  if (sub === undefined) return [];
  const flags = ['source:subagent'];
  if (typeof sub === 'string') flags.push(`subagent:${sub}`);
  const spawn = isObj(sub) ? obj(sub.thread_spawn) : undefined;
  const parent = spawn ? text(spawn.parent_thread_id) : undefined;
  if (parent !== undefined) flags.push(`parent_thread:${parent}`);
  return flags;
}

/** sandbox_policy is {type} (≥0.4x) or {mode} (older); 2026 adds permission_profile {type}. */
function sandboxOf(p: Obj): { sandbox?: string; permissionMode?: string } {
  const policy = p.sandbox_policy;
  const sandbox = typeof policy === 'string' ? policy : isObj(policy) ? (text(policy.type) ?? text(policy.mode)) : undefined;
  const profile = obj(p.permission_profile);
  const permissionMode = profile ? text(profile.type) : undefined;
  return { sandbox, permissionMode };
}

export function turnContext(ctx: Ctx, p: Obj): void {
  ctx.st.flushPending(ctx.sink); // a new model turn: outputs of the previous one are not coming
  const collab = obj(p.collaboration_mode);
  const collabModel = collab ? (text(collab.model) ?? text(obj(collab.settings)?.model)) : undefined;
  ctx.st.updateMeta(ctx, {
    cwd: text(p.cwd),
    model: text(p.model) ?? collabModel,
    approvalPolicy: text(p.approval_policy),
    ...sandboxOf(p),
  });
}

/** session_configured / thread_settings_applied events. */
export function metaFromSettings(ctx: Ctx, p: Obj): void {
  ctx.st.updateMeta(ctx, {
    sessionId: text(p.session_id),
    cwd: text(p.cwd),
    model: text(p.model),
    approvalPolicy: text(p.approval_policy),
    ...sandboxOf(p),
  });
}

/** world_state (2026): the model in use, the local environment's cwd, the approved commands. */
export function worldState(ctx: Ctx, p: Obj): void {
  const state = obj(p.state) ?? {};
  const envs = obj(obj(state.environments)?.environments);
  const local = envs ? obj(envs.local) : undefined;
  ctx.st.updateMeta(ctx, { model: text(state.model), cwd: local ? text(local.cwd) : undefined });
  approvedCommands(ctx, obj(state.permissions)?.approved_command_prefixes);
}

/**
 * The command prefixes the person approved for the session ("always allow"), one per line. They
 * are what the agent may run unasked — and people paste credentials into them
 * (`RAILWAY_TOKEN='…' railway up`) — so they become a system event the rules read.
 */
function approvedCommands(ctx: Ctx, prefixes: unknown): void {
  if (!Array.isArray(prefixes)) return;
  const lines = prefixes
    .map((prefix) => (Array.isArray(prefix) ? prefix.filter((w): w is string => typeof w === 'string').join(' ') : typeof prefix === 'string' ? prefix : ''))
    .filter((line) => line.length > 0);
  const body = lines.join('\n');
  if (body === '' || body === ctx.st.approvedCommands) return;
  ctx.st.approvedCommands = body;
  emitSystem(ctx, 'approved-commands', body);
}

/** Legacy line 1: {id, timestamp, instructions, git}. The instructions reappear as a user message. */
export function isLegacyHead(v: Obj): boolean {
  return typeof v.id === 'string' && v.type === undefined && ('instructions' in v || 'git' in v || typeof v.timestamp === 'string');
}

export function legacyHead(ctx: Ctx, v: Obj): void {
  const git = obj(v.git) ?? {};
  ctx.st.updateMeta(ctx, { sessionId: text(v.id), branch: text(git.branch), repositoryUrl: text(git.repository_url) });
}

