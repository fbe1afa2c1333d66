// Whether Codex will run a hook it found in a hooks.json. Codex runs a user or project hook only
// after the user trusted it (the "Hooks need review" prompt, or `/hooks`), and records that in
// config.toml as
//   [hooks.state."<abs hooks.json>:<event label>:<group index>:<handler index>"]
//   trusted_hash = "sha256:<hex>"
// (enabled = false turns a hook off). The hash is over the hook's normalised identity, so a
// changed command, timeout or position makes it untrusted again. We compute it the way Codex
// does (codex-rs hooks discovery: command_hook_hash / version_for_toml): the TOML value
// { event_name, matcher?, hooks = [{ type = "command", command, timeout, async, statusMessage? }] }
// turned into JSON with every object's keys sorted, serialised compactly, then SHA-256.
// `codex exec --dangerously-bypass-hook-trust` runs untrusted hooks anyway.
import { createHash } from 'node:crypto';
import { parseToml } from './toml-edit.ts';

export type CodexTrust = 'trusted' | 'untrusted' | 'modified' | 'disabled';

/** Codex's label for an event in state keys: PascalCase → snake_case (`SessionEnd` → `session_end`). */
export function codexEventLabel(event: string): string {
  return event.replace(/(?<!^)([A-Z])/g, '_$1').toLowerCase();
}

export function codexHookKey(hooksJson: string, event: string, group: number, handler: number): string {
  return `${hooksJson}:${codexEventLabel(event)}:${group}:${handler}`;
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, canonical((value as Record<string, unknown>)[k])]));
  }
  return value;
}

export interface CodexCommandHook {
  command: string;
  /** Seconds; Codex's default is 600 (SessionEnd: clamped to 1–3). */
  timeout?: number;
  async?: boolean;
  statusMessage?: string;
}

export function codexHookHash(event: string, hook: CodexCommandHook, matcher?: string): string {
  const timeout = event === 'SessionEnd' ? Math.min(3, Math.max(1, hook.timeout ?? 1)) : Math.max(1, hook.timeout ?? 600);
  const handler: Record<string, unknown> = { type: 'command', command: hook.command, timeout, async: hook.async ?? false };
  if (hook.statusMessage !== undefined) handler.statusMessage = hook.statusMessage;
  const identity: Record<string, unknown> = { event_name: codexEventLabel(event), hooks: [handler] };
  if (matcher !== undefined) identity.matcher = matcher;
  return `sha256:${createHash('sha256').update(JSON.stringify(canonical(identity))).digest('hex')}`;
}

/** The trust state of one hook, from config.toml's text (null: no config.toml). */
export function codexTrust(configToml: string | null, key: string, currentHash: string): { trust: CodexTrust; trustedHash: string | null } {
  const config = parseToml(configToml, 'config.toml');
  const hooks = config.hooks as { state?: Record<string, { trusted_hash?: unknown; enabled?: unknown }> } | undefined;
  const state = hooks?.state?.[key];
  if (state?.enabled === false) return { trust: 'disabled', trustedHash: null };
  const trusted = typeof state?.trusted_hash === 'string' ? state.trusted_hash : null;
  if (trusted === null) return { trust: 'untrusted', trustedHash: null };
  return { trust: trusted === currentHash ? 'trusted' : 'modified', trustedHash: trusted };
}

export const CODEX_TRUST_HELP =
  'Codex runs it only after you trust it: open codex and choose "Trust all and continue" (or review it with /hooks); for `codex exec`, trust it first or pass --dangerously-bypass-hook-trust';
