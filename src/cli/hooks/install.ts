// Installs, removes and inspects Vouch's hook in an agent's configuration file. The file is
// merged, never replaced: other settings and other hooks stay as they were; the first change
// keeps a copy of the original beside it (`<file>.vouch-backup`); writes are atomic. A file we
// cannot read faithfully is refused before anything is written.
import { copyFile, mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { isDeepStrictEqual } from 'node:util';
import { dirname } from 'node:path';
import type { AgentId } from '../../domain/model/events.ts';
import { HOOK_AGENTS, type HookEnv, type HookScope } from './agents.ts';
import { hasVouchHook, parseSettings, serializeSettings, withoutVouchHook, withVouchHook } from './settings-merge.ts';

export interface HookChange {
  agent: AgentId;
  scope: HookScope;
  file: string;
  changed: boolean;
}

async function readIfExists(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

async function writeAtomically(file: string, text: string, existed: boolean): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const mode = existed ? (await stat(file)).mode & 0o777 : 0o600;
  if (existed) await copyFile(file, `${file}.vouch-backup`).catch(() => {});
  const tmp = `${file}.vouch-tmp-${process.pid}`;
  await writeFile(tmp, text, { mode });
  await rename(tmp, file);
}

async function change(agent: AgentId, scope: HookScope, env: HookEnv, edit: (settings: Record<string, unknown>, file: string) => Record<string, unknown>): Promise<HookChange> {
  const file = HOOK_AGENTS[agent].settingsFile(scope, env);
  const text = await readIfExists(file);
  const before = parseSettings(text, file);
  const after = edit(before, file);
  if (isDeepStrictEqual(before, after) && text !== null) return { agent, scope, file, changed: false };
  if (text === null && Object.keys(after).length === 0) return { agent, scope, file, changed: false };
  await writeAtomically(file, serializeSettings(after), text !== null);
  return { agent, scope, file, changed: true };
}

export function installHook(agent: AgentId, scope: HookScope, env: HookEnv, command: string): Promise<HookChange> {
  const spec = HOOK_AGENTS[agent];
  return change(agent, scope, env, (s, file) => withVouchHook(s, spec.event, agent, spec.handler(command), file));
}

export function uninstallHook(agent: AgentId, scope: HookScope, env: HookEnv): Promise<HookChange> {
  const spec = HOOK_AGENTS[agent];
  return change(agent, scope, env, (s, file) => withoutVouchHook(s, spec.event, agent, file));
}

export interface InstallState {
  agent: AgentId;
  scope: HookScope;
  file: string;
  installed: boolean;
  /** Why the file could not be read, if it could not. */
  problem: string | null;
}

export async function hookState(agent: AgentId, scope: HookScope, env: HookEnv): Promise<InstallState> {
  const spec = HOOK_AGENTS[agent];
  const file = spec.settingsFile(scope, env);
  try {
    const settings = parseSettings(await readIfExists(file), file);
    return { agent, scope, file, installed: hasVouchHook(settings, spec.event, agent, file), problem: null };
  } catch (e) {
    return { agent, scope, file, installed: false, problem: e instanceof Error ? e.message : String(e) };
  }
}
