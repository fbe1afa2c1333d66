// Adds and removes Vouch's hook in an agent's JSON configuration without losing anything else
// the user keeps there. Pure: text in, text out. A file that is not plain JSON (malformed, or
// JSON with comments, which we could not write back faithfully) is refused with a message that
// says what to do; the caller then changes nothing.
import type { HookHandler } from './agents.ts';
import type { AgentId } from '../../domain/model/events.ts';
import { isVouchHookCommand } from './agents.ts';

export class SettingsError extends Error {}

type Json = Record<string, unknown>;

interface HookGroup {
  matcher?: string;
  hooks?: unknown;
  [k: string]: unknown;
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export function parseSettings(text: string | null, file: string): Json {
  if (text === null || text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    const comments = /^\s*\/\/|\/\*/m.test(text) ? ' It seems to contain comments, which Vouch cannot keep when it rewrites the file.' : '';
    throw new SettingsError(`${file} is not valid JSON (${(e as Error).message}).${comments} Fix it, or add the hook by hand; nothing was changed.`);
  }
  if (!isObject(value)) throw new SettingsError(`${file} must hold a JSON object at the top level; nothing was changed.`);
  return value;
}

function eventGroups(settings: Json, event: string, file: string): HookGroup[] | undefined {
  const hooks = settings.hooks;
  if (hooks === undefined) return undefined;
  if (!isObject(hooks)) throw new SettingsError(`${file}: "hooks" must be an object; nothing was changed.`);
  const groups = hooks[event];
  if (groups === undefined) return undefined;
  if (!Array.isArray(groups) || !groups.every(isObject)) throw new SettingsError(`${file}: "hooks.${event}" must be a list of hook groups; nothing was changed.`);
  return groups as HookGroup[];
}

const handlersOf = (g: HookGroup): unknown[] => (Array.isArray(g.hooks) ? g.hooks : []);
const isOurs = (h: unknown, agent: AgentId) => isObject(h) && isVouchHookCommand(h.command, agent);

/** Whether the settings already run Vouch's hook for this agent on this event. */
export function hasVouchHook(settings: Json, event: string, agent: AgentId, file: string): boolean {
  return (eventGroups(settings, event, file) ?? []).some((g) => handlersOf(g).some((h) => isOurs(h, agent)));
}

/** Returns the settings with Vouch's handler present exactly once (an old one is updated in place). */
export function withVouchHook(settings: Json, event: string, agent: AgentId, handler: HookHandler, file: string): Json {
  const groups = eventGroups(settings, event, file) ?? [];
  let placed = false;
  const next = groups.map((g) => {
    if (!handlersOf(g).some((h) => isOurs(h, agent))) return g;
    const handlers = handlersOf(g).flatMap((h) => {
      if (!isOurs(h, agent)) return [h];
      if (placed) return [];
      placed = true;
      return [{ ...(h as Json), ...handler }];
    });
    return { ...g, hooks: handlers };
  });
  if (!placed) next.push({ hooks: [handler] });
  const hooks = isObject(settings.hooks) ? settings.hooks : {};
  return { ...settings, hooks: { ...hooks, [event]: next } };
}

/** Returns the settings without Vouch's handler; groups and keys left empty by that are removed. */
export function withoutVouchHook(settings: Json, event: string, agent: AgentId, file: string): Json {
  const groups = eventGroups(settings, event, file);
  if (!groups) return settings;
  const next = groups
    .map((g) => (handlersOf(g).some((h) => isOurs(h, agent)) ? { ...g, hooks: handlersOf(g).filter((h) => !isOurs(h, agent)) } : g))
    .filter((g) => !(Array.isArray(g.hooks) && g.hooks.length === 0));
  const hooks = { ...(settings.hooks as Json) };
  if (next.length > 0) hooks[event] = next;
  else delete hooks[event];
  const out = { ...settings, hooks };
  if (Object.keys(hooks).length === 0) delete (out as Json).hooks;
  return out;
}

export function serializeSettings(settings: Json): string {
  return JSON.stringify(settings, null, 2) + '\n';
}
