// What `vouch hooks …` does (registered lazily by cli/commands/hooks.ts): install, uninstall,
// status, and the run/flush pair the agent's hook starts. Install and status say whether the
// hook will actually run (readiness.ts) and exactly what to do when it will not.
import { execFile, spawn } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { HOOK_AGENT_IDS, type HookAgentId } from '../../domain/agents.ts';
import { EXIT } from '../exit-codes.ts';
import { HOOK_KINDS, type HookEnv, type HookKind, type HookScope } from './agents.ts';
import { chainedNotify, hasVouchNotify, withoutVouchNotify, withVouchNotify } from './codex-notify.ts';
import { codexHookHash, codexHookKey, codexTrust } from './codex-trust.ts';
import { describeKey, loadCredentials, saveCredentials } from './credentials.ts';
import { flushQueue } from './flush.ts';
import { applyInstall, applyUninstall, asText, hookState, installHook, readBytes, uninstallHook, type InstallState } from './install.ts';
import { chooseLaunch } from './launcher.ts';
import { HookQueue, hooksDir } from './queue.ts';
import { claudeHooksDisabled, codexBlocker, geminiBlocker, type Blocker } from './readiness.ts';
import { readBoundedStdin, runHook, startDetachedFlush } from './run.ts';
import { parseSettings, SettingsError } from './settings-merge.ts';
import { parseToml } from './toml-edit.ts';

export interface ScopeOptions {
  project?: boolean;
  user?: boolean;
  via?: 'hooks' | 'notify';
  /** The guard (pre-tool hook, `vouch guard <agent>`) instead of the upload hook. */
  guard?: boolean;
}

const kindOf = (o: ScopeOptions): HookKind => (o.guard ? 'guard' : 'upload');

function capture(cmd: string, args: string[], cwd?: string): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(cmd, args, { timeout: 3000, windowsHide: true, cwd }, (error, stdout) => resolve(error ? null : stdout.trim() || null));
  });
}

async function projectDir(): Promise<string> {
  return (await capture('git', ['rev-parse', '--show-toplevel'])) ?? process.cwd();
}

async function hookEnv(agent?: HookAgentId): Promise<HookEnv> {
  const home = process.env.HOME ?? homedir();
  // Codex before 0.171 has no SessionEnd: the installed version picks the event.
  const agentVersion = agent === 'codex' ? await capture('codex', ['--version']) : null;
  return { home, projectDir: await projectDir(), codexHome: process.env.CODEX_HOME || undefined, agentVersion };
}

const scopeOf = (o: ScopeOptions): HookScope => (o.project ? 'project' : 'user');
const binPath = () => realpathSync(process.argv[1]);
const codexHome = (env: HookEnv) => env.codexHome ?? join(env.home, '.codex');
const codexConfigFile = (scope: HookScope, env: HookEnv) => (scope === 'user' ? join(codexHome(env), 'config.toml') : join(env.projectDir, '.codex', 'config.toml'));

function fail(error: unknown): number {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`vouch hooks: ${message}\n`);
  return error instanceof SettingsError ? EXIT.INPUT : EXIT.INTERNAL;
}

async function readText(file: string): Promise<string | null> {
  return asText(await readBytes(file), file);
}

export async function install(agent: HookAgentId, o: ScopeOptions): Promise<number> {
  if (o.project && o.user) return (process.stderr.write('vouch hooks: choose --project or --user, not both\n'), EXIT.USAGE);
  if (o.via === 'notify' && agent !== 'codex') return (process.stderr.write('vouch hooks: --via notify is for codex only\n'), EXIT.USAGE);
  if (o.via === 'notify' && o.guard) return (process.stderr.write("vouch hooks: the guard is a hooks.json PreToolUse hook; Codex's notify program runs after a turn, too late to stop a call\n"), EXIT.USAGE);
  const kind = kindOf(o);
  try {
    const root = hooksDir();
    const scope = scopeOf(o);
    const env = await hookEnv(agent);
    const { launch, warning } = await chooseLaunch(scope, { node: process.execPath, bin: binPath() });
    let file: string;
    let changed: boolean;
    if (o.via === 'notify') {
      file = codexConfigFile(scope, env);
      changed = await applyInstall(root, file, scope, 'upload', { edit: (text) => withVouchNotify(text, launch, file) });
    } else {
      ({ file, changed } = await installHook(root, agent, kind, scope, env, launch));
    }
    if (warning) process.stderr.write(`vouch hooks: ${warning}\n`);
    let credentials = 'no VOUCH_API_KEY in this environment: set it (and VOUCH_API_URL) where the agent runs, or install again with it set';
    if (process.env.VOUCH_API_KEY) {
      const apiUrl = process.env.VOUCH_API_URL ?? 'http://localhost:8080';
      const saved = await saveCredentials(root, apiUrl, process.env.VOUCH_API_KEY);
      credentials = `uploads go to ${apiUrl} with key ${describeKey(process.env.VOUCH_API_KEY)} (saved in ${saved}, readable only by you)`;
    }
    const what = o.via === 'notify' ? 'notify program' : kind === 'guard' ? 'guard (pre-tool hook: vouch guard judges every tool call before it runs)' : 'hook';
    const lines = [`${changed ? 'Installed' : 'Already installed'}: ${agent} ${what} in ${file}`];
    if (o.via === 'notify') {
      const chain = chainedNotify((parseToml(await readText(file), file).notify as string[]) ?? []);
      if (chain) lines.push(`your notify program still runs after Vouch's: ${chain.join(' ')}`);
    } else {
      const check = await readinessOf(await hookState(agent, kind, scope, env), env);
      if (check) lines.push(`It will not run yet: ${check.why}.`, `To do: ${check.todo}.`);
    }
    if (scope === 'project' && agent === 'gemini-cli') lines.push('Gemini CLI warns about project-level hooks on start; it runs them only in a trusted folder.');
    if (kind === 'guard') lines.push('Policy: .vouch/guard.toml (project) and ~/.vouch/guard.toml (user); decisions are journaled in ~/.vouch/guard/journal.jsonl.');
    else lines.push(credentials);
    process.stdout.write(lines.join('\n') + '\n');
    return EXIT.CLEAR;
  } catch (error) {
    return fail(error);
  }
}


/** What uninstall did to the file, in words: restored, deleted (Vouch had created it), or edited in place. */
function removedHow(r: { restored?: boolean; deleted?: boolean }): string {
  if (r.deleted) return 'Removed (file deleted: Vouch had created it)';
  return r.restored ? 'Removed (file restored to its original bytes)' : 'Removed';
}
export async function uninstall(agent: HookAgentId, o: ScopeOptions): Promise<number> {
  try {
    const root = hooksDir();
    const scope = scopeOf(o);
    const env = await hookEnv(agent);
    const kind = kindOf(o);
    const results = [await uninstallHook(root, agent, kind, scope, env)];
    if (agent === 'codex' && kind === 'upload') {
      const file = codexConfigFile(scope, env);
      if (hasVouchNotify(await readText(file), file) || o.via === 'notify') {
        const r = await applyUninstall(root, file, 'upload', { edit: (text) => withoutVouchNotify(text, file) });
        results.push({ agent, scope, file, event: 'notify', ...r });
      }
    }
    for (const r of results) process.stdout.write(`${r.changed ? removedHow(r) : 'Not installed'}: ${agent} ${r.event === 'notify' ? 'notify program' : kind === 'guard' ? 'guard' : 'hook'} in ${r.file}\n`);
    return EXIT.CLEAR;
  } catch (error) {
    return fail(error);
  }
}

// ---- status -----------------------------------------------------------------------------------

async function jsonFile(file: string): Promise<Record<string, unknown> | null> {
  try {
    return parseSettings(await readText(file), file);
  } catch {
    return null;
  }
}

const CLAUDE_MANAGED: Partial<Record<NodeJS.Platform, string>> = {
  linux: '/etc/claude-code/managed-settings.json',
  darwin: '/Library/Application Support/ClaudeCode/managed-settings.json',
  win32: 'C:\\Program Files\\ClaudeCode\\managed-settings.json',
};

/** Why an installed hook will not run, or null. */
async function readinessOf(s: InstallState, env: HookEnv): Promise<Blocker | null> {
  return s.installed ? READINESS[s.agent](s, env) : null;
}

/** What can keep each agent's installed hook from running: one check per agent with hooks. */
const READINESS: Record<HookAgentId, (s: InstallState, env: HookEnv) => Promise<Blocker | null>> = {
  async 'claude-code'(_s, env) {
    const files = [CLAUDE_MANAGED[process.platform], join(env.home, '.claude', 'settings.json'), join(env.projectDir, '.claude', 'settings.json'), join(env.projectDir, '.claude', 'settings.local.json')].filter((f): f is string => !!f);
    return claudeHooksDisabled(await Promise.all(files.map(async (file) => ({ file, settings: await jsonFile(file) }))));
  },
  async 'gemini-cli'(_s, env) {
    const user = await jsonFile(join(env.home, '.gemini', 'settings.json'));
    const folderTrust = ((user?.security as Record<string, unknown> | undefined)?.folderTrust as Record<string, unknown> | undefined)?.enabled;
    const rulesFile = process.env.GEMINI_CLI_TRUSTED_FOLDERS_PATH || join(env.home, '.gemini', 'trustedFolders.json');
    return geminiBlocker(env.projectDir, folderTrust !== false, await jsonFile(rulesFile), rulesFile);
  },
  // Codex: each of our hooks.json entries must be trusted (user config.toml holds the trust state).
  async codex(s, env) {
    const config = await readText(join(codexHome(env), 'config.toml')).catch(() => null);
    if (s.scope === 'project') {
      const projects = parseToml(config, 'config.toml').projects as Record<string, { trust_level?: unknown }> | undefined;
      if (projects?.[env.projectDir]?.trust_level !== 'trusted') return { why: `Codex does not load ${env.projectDir}/.codex at all: the project is not trusted`, todo: `open codex in ${env.projectDir} and trust the project` };
    }
    const paths = [s.file, (() => { try { return realpathSync(s.file); } catch { return s.file; } })()];
    for (const e of s.entries) {
      const hash = codexHookHash(e.event, { command: String(e.value.command), timeout: typeof e.value.timeout === 'number' ? e.value.timeout : undefined, async: e.value.async === true, statusMessage: typeof e.value.statusMessage === 'string' ? e.value.statusMessage : undefined });
      const states = paths.map((p) => codexTrust(config, codexHookKey(p, e.event, e.group, e.handler), hash).trust);
      const best = states.includes('trusted') ? 'trusted' : states.find((t) => t !== 'untrusted') ?? 'untrusted';
      const blocker = codexBlocker(best);
      if (blocker) return blocker;
    }
    return null;
  },
};

interface ServerCheck {
  url: string;
  key: string;
  source: string;
  reachable: boolean;
  key_valid: boolean | null;
  problem: string | null;
}

async function checkServer(apiUrl: string, apiKey: string): Promise<Pick<ServerCheck, 'reachable' | 'key_valid' | 'problem'>> {
  try {
    const res = await fetch(`${apiUrl}/v1/sessions?limit=1`, { headers: { authorization: `Bearer ${apiKey}` }, signal: AbortSignal.timeout(5000) });
    if (res.status === 401 || res.status === 403) return { reachable: true, key_valid: false, problem: `the server refused the key (HTTP ${res.status})` };
    if (!res.ok) return { reachable: true, key_valid: null, problem: `the server answered HTTP ${res.status}` };
    return { reachable: true, key_valid: true, problem: null };
  } catch (e) {
    return { reachable: false, key_valid: null, problem: `cannot reach ${apiUrl} (${e instanceof Error ? (e.cause as Error | undefined)?.message ?? e.message : String(e)})` };
  }
}

export async function status(agent: HookAgentId | undefined, o: { json?: boolean; offline?: boolean }): Promise<number> {
  const root = hooksDir();
  const agents = agent ? [agent] : [...HOOK_AGENT_IDS];
  const hooks = [];
  for (const a of agents) {
    const env = await hookEnv(a);
    for (const scope of ['user', 'project'] as const) {
      for (const kind of HOOK_KINDS) {
        const s = await hookState(a, kind, scope, env);
        const blocker = s.problem ? null : await readinessOf(s, env).catch((e: unknown) => ({ why: `could not check: ${e instanceof Error ? e.message : String(e)}`, todo: 'fix the file named' }));
        hooks.push({ agent: a, kind, scope, via: 'hooks', file: s.file, installed: s.installed, events: s.entries.map((e) => e.event), will_run: s.installed && !blocker, why_not: blocker?.why ?? null, todo: blocker?.todo ?? null, problem: s.problem });
      }
      if (a === 'codex') {
        const file = codexConfigFile(scope, env);
        const text = await readText(file).catch(() => null);
        if (hasVouchNotify(text, file)) hooks.push({ agent: a, kind: 'upload' as HookKind, scope, via: 'notify', file, installed: true, events: ['notify'], will_run: true, why_not: null, todo: null, problem: null });
      }
    }
  }
  const queue = new HookQueue(root);
  const pending = (await queue.list()).filter(({ entry }) => agents.includes(entry.agent));
  const failed = (await queue.failed()).filter(({ entry }) => agents.includes(entry.agent));
  const creds = await loadCredentials(root);
  const api: ServerCheck | null = creds
    ? { url: creds.apiUrl, key: describeKey(creds.apiKey), source: creds.source, ...(o.offline ? { reachable: false, key_valid: null, problem: 'not checked (--offline)' } : await checkServer(creds.apiUrl, creds.apiKey)) }
    : null;
  const view = {
    hooks,
    api,
    queue: pending.map(({ key, entry }) => ({ key, agent: entry.agent, transcript: entry.transcript, attempts: entry.attempts, last_error: entry.last_error })),
    given_up: failed.map(({ key, entry }) => ({ key, agent: entry.agent, transcript: entry.transcript, attempts: entry.attempts, last_error: entry.last_error })),
  };
  if (o.json) {
    process.stdout.write(JSON.stringify(view) + '\n');
    return EXIT.CLEAR;
  }
  const lines = hooks.map((h) => {
    const state = h.problem ? `unreadable: ${h.problem}` : !h.installed ? 'not installed' : h.will_run ? `installed (${h.events.join(', ')})` : `installed but will not run: ${h.why_not}\n${' '.repeat(22)}to do: ${h.todo}`;
    return `${h.agent.padEnd(12)} ${h.kind.padEnd(7)} ${h.scope.padEnd(8)} ${state}  ${h.file}`;
  });
  if (!api) lines.push('server: no API key configured (VOUCH_API_KEY)');
  else lines.push(`server: ${api.url} (key ${api.key}, from ${api.source}): ${api.problem ?? 'reachable, key accepted'}`);
  lines.push(`waiting to upload: ${view.queue.length}${view.queue.map((q) => `\n  ${q.agent} ${q.transcript}${q.attempts ? ` — ${q.attempts} failed attempt(s): ${q.last_error}` : ''}`).join('')}`);
  if (view.given_up.length) lines.push(`given up: ${view.given_up.length}${view.given_up.map((q) => `\n  ${q.agent} ${q.transcript}: ${q.last_error}`).join('')}`);
  process.stdout.write(lines.join('\n') + '\n');
  return EXIT.CLEAR;
}

// ---- run / flush --------------------------------------------------------------------------------

/** Starts the notify program ours chains to, with Codex's JSON argument, detached; never fails the agent. */
function startChained(argv: string[], payload: string): void {
  try {
    const child = spawn(argv[0], [...argv.slice(1), payload], { detached: true, stdio: 'ignore', windowsHide: true });
    child.on('error', () => {});
    child.unref();
  } catch {
    // their program is theirs to fix; the upload does not depend on it
  }
}

/** `hooks run`: the payload from Codex notify's argument or from stdin; never fails the agent. */
export async function run(agent: HookAgentId, payload: string | undefined, o: { then?: string } = {}): Promise<number> {
  const text = payload ?? (await readBoundedStdin(process.stdin));
  await runHook({ agent, root: hooksDir(), payloadText: text, env: process.env, startFlush: () => startDetachedFlush(process.execPath, binPath(), process.env) });
  if (o.then && payload !== undefined) {
    const chain = chainedNotify(['--then', o.then]);
    if (chain && chain.length > 0) startChained(chain, payload);
  }
  return 0;
}

export async function flush(): Promise<number> {
  const result = await flushQueue({ root: hooksDir() });
  return result.failed.length > 0 ? EXIT.REMOTE : EXIT.CLEAR;
}
