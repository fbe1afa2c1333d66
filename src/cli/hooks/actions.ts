// What `vouch hooks …` does (registered lazily by cli/commands/hooks.ts): install, uninstall,
// status, and the run/flush pair the agent's hook starts.
import { execFile } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { AGENT_IDS, type AgentId } from '../../domain/model/events.ts';
import { EXIT } from '../exit-codes.ts';
import type { HookEnv, HookScope } from './agents.ts';
import { chooseLaunch } from './launcher.ts';
import { describeKey, loadCredentials, saveCredentials } from './credentials.ts';
import { flushQueue } from './flush.ts';
import { hookState, installHook, uninstallHook } from './install.ts';
import { HookQueue, hooksDir } from './queue.ts';
import { readBoundedStdin, runHook, startDetachedFlush } from './run.ts';
import { SettingsError } from './settings-merge.ts';

export interface ScopeOptions {
  project?: boolean;
  user?: boolean;
}

function projectDir(): Promise<string> {
  return new Promise((resolve) => {
    execFile('git', ['rev-parse', '--show-toplevel'], { timeout: 2000 }, (error, stdout) => resolve(error ? process.cwd() : stdout.trim() || process.cwd()));
  });
}

async function hookEnv(): Promise<HookEnv> {
  return { home: process.env.HOME ?? homedir(), projectDir: await projectDir(), codexHome: process.env.CODEX_HOME };
}

const scopeOf = (o: ScopeOptions): HookScope => (o.project ? 'project' : 'user');
const binPath = () => realpathSync(process.argv[1]);

function fail(error: unknown): number {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`vouch hooks: ${message}\n`);
  return error instanceof SettingsError ? EXIT.INPUT : EXIT.INTERNAL;
}

export async function install(agent: AgentId, o: ScopeOptions): Promise<number> {
  if (o.project && o.user) return (process.stderr.write('vouch hooks: choose --project or --user, not both\n'), EXIT.USAGE);
  try {
    const root = hooksDir();
    const scope = scopeOf(o);
    const { launch, warning } = await chooseLaunch(scope, { node: process.execPath, bin: binPath() });
    const result = await installHook(root, agent, 'upload', scope, await hookEnv(), launch);
    if (warning) process.stderr.write(`vouch hooks: ${warning}\n`);
    let credentials = 'no VOUCH_API_KEY in this environment: set it (and VOUCH_API_URL) where the agent runs, or install again with it set';
    if (process.env.VOUCH_API_KEY) {
      const apiUrl = process.env.VOUCH_API_URL ?? 'http://localhost:8080';
      const file = await saveCredentials(root, apiUrl, process.env.VOUCH_API_KEY);
      credentials = `uploads go to ${apiUrl} with key ${describeKey(process.env.VOUCH_API_KEY)} (saved in ${file}, readable only by you)`;
    }
    process.stdout.write(`${result.changed ? 'Installed' : 'Already installed'}: ${agent} hook in ${result.file}\n${credentials}\n`);
    return EXIT.CLEAR;
  } catch (error) {
    return fail(error);
  }
}

export async function uninstall(agent: AgentId, o: ScopeOptions): Promise<number> {
  try {
    const result = await uninstallHook(hooksDir(), agent, 'upload', scopeOf(o), await hookEnv());
    process.stdout.write(`${result.changed ? 'Removed' : 'Not installed'}: ${agent} hook in ${result.file}\n`);
    return EXIT.CLEAR;
  } catch (error) {
    return fail(error);
  }
}

export async function status(agent: AgentId | undefined, o: { json?: boolean }): Promise<number> {
  const env = await hookEnv();
  const root = hooksDir();
  const agents = agent ? [agent] : [...AGENT_IDS];
  const installs = [];
  for (const a of agents) for (const scope of ['user', 'project'] as const) installs.push(await hookState(a, 'upload', scope, env));
  const queue = new HookQueue(root);
  const pending = (await queue.list()).filter(({ entry }) => agents.includes(entry.agent));
  const failed = (await queue.failed()).filter(({ entry }) => agents.includes(entry.agent));
  const creds = await loadCredentials(root);
  const view = {
    hooks: installs,
    api: creds ? { url: creds.apiUrl, key: describeKey(creds.apiKey), source: creds.source } : null,
    queue: pending.map(({ key, entry }) => ({ key, agent: entry.agent, transcript: entry.transcript, attempts: entry.attempts, last_error: entry.last_error })),
    given_up: failed.map(({ key, entry }) => ({ key, agent: entry.agent, transcript: entry.transcript, attempts: entry.attempts, last_error: entry.last_error })),
  };
  if (o.json) {
    process.stdout.write(JSON.stringify(view) + '\n');
    return EXIT.CLEAR;
  }
  const lines = installs.map((s) => `${s.agent.padEnd(12)} ${s.scope.padEnd(8)} ${s.problem ? `unreadable: ${s.problem}` : s.installed ? 'installed' : 'not installed'}  ${s.file}`);
  lines.push(view.api ? `server: ${view.api.url} (key ${view.api.key}, from ${view.api.source})` : 'server: no API key configured (VOUCH_API_KEY)');
  lines.push(`waiting to upload: ${view.queue.length}${view.queue.map((q) => `\n  ${q.agent} ${q.transcript}${q.attempts ? ` — ${q.attempts} failed attempt(s): ${q.last_error}` : ''}`).join('')}`);
  if (view.given_up.length) lines.push(`given up: ${view.given_up.length}${view.given_up.map((q) => `\n  ${q.agent} ${q.transcript}: ${q.last_error}`).join('')}`);
  process.stdout.write(lines.join('\n') + '\n');
  return EXIT.CLEAR;
}

/** `hooks run`: the payload from Codex notify's argument or from stdin; never fails the agent. */
export async function run(agent: AgentId, payload: string | undefined): Promise<number> {
  const text = payload ?? (await readBoundedStdin(process.stdin));
  await runHook({ agent, root: hooksDir(), payloadText: text, env: process.env, startFlush: () => startDetachedFlush(process.execPath, binPath(), process.env) });
  return 0;
}

export async function flush(): Promise<number> {
  const result = await flushQueue({ root: hooksDir() });
  return result.failed.length > 0 ? EXIT.REMOTE : EXIT.CLEAR;
}
