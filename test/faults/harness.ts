// The fault tier's equipment: real dependencies that the tests start, break and bring back —
// a throwaway PostgreSQL cluster (initdb into a temp folder, its own port; never the shared
// server), a redis-server on its own port, `vouch` processes (the built bin/vouch.mjs, as
// operators run it) — and clients that talk to them over real sockets.
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { BIN } from '../helpers/cli.ts';

const PG_BIN = process.env.VOUCH_FAULTS_PG_BIN ?? '/usr/lib/postgresql/15/bin';

// Ports handed out by this process: a process started now may bind its port only later (it
// waits for its database), and must not find it taken by one started meanwhile.
const handedOut = new Set<number>();

export async function freePort(): Promise<number> {
  for (;;) {
    const port = await unusedPort();
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    return port;
  }
}

async function unusedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
    s.once('error', reject);
  });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until `check` is true; fails naming `what` after `timeoutMs` (a guard against hangs, not a speed check). */
export async function waitFor(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 60_000, everyMs = 100): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() >= deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}

// ---- PostgreSQL ----

/**
 * A PostgreSQL cluster of our own. PostgreSQL refuses to run as root: as root, the cluster
 * belongs to the `postgres` system user and its commands run through runuser.
 */
export class PgCluster {
  readonly dir: string;
  readonly port: number;
  readonly #asUser: string | null;

  private constructor(dir: string, port: number, asUser: string | null) {
    this.dir = dir;
    this.port = port;
    this.#asUser = asUser;
  }

  static async create(): Promise<PgCluster> {
    if (!existsSync(join(PG_BIN, 'initdb'))) throw new Error(`no PostgreSQL binaries in ${PG_BIN} (set VOUCH_FAULTS_PG_BIN)`);
    const dir = mkdtempSync(join(tmpdir(), 'vouch-faults-pg-'));
    const asUser = userInfo().uid === 0 ? 'postgres' : null;
    if (asUser) {
      const id = spawnSync('id', ['-u', asUser], { encoding: 'utf8' });
      const gid = spawnSync('id', ['-g', asUser], { encoding: 'utf8' });
      chownSync(dir, Number(id.stdout.trim()), Number(gid.stdout.trim()));
    }
    const cluster = new PgCluster(dir, await freePort(), asUser);
    cluster.#run('initdb', ['-D', cluster.dataDir, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
    cluster.start();
    return cluster;
  }

  get dataDir(): string {
    return join(this.dir, 'data');
  }

  url(database = 'postgres'): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  #run(tool: string, args: string[]): string {
    const cmd = this.#asUser ? 'runuser' : join(PG_BIN, tool);
    const argv = this.#asUser ? ['-u', this.#asUser, '--', join(PG_BIN, tool), ...args] : args;
    const r = spawnSync(cmd, argv, { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${tool} ${args.join(' ')} failed (${r.status}): ${r.stderr}${r.stdout}`);
    return r.stdout;
  }

  #pgCtl(action: string, extra: string[] = []): void {
    const opts = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100`;
    this.#run('pg_ctl', ['-D', this.dataDir, '-l', join(this.dir, 'server.log'), '-o', opts, '-w', ...extra, action]);
  }

  start(): void {
    this.#pgCtl('start');
  }

  /** `pg_ctl restart -m fast`: every connection is terminated, the server comes back at once. */
  restart(): void {
    this.#pgCtl('restart', ['-m', 'fast']);
  }

  stop(): void {
    this.#pgCtl('stop', ['-m', 'fast']);
  }

  /** The end of the server's own log, for failure messages. */
  logTail(chars = 3000): string {
    try {
      return readFileSync(join(this.dir, 'server.log'), 'utf8').slice(-chars);
    } catch (error) {
      return `(no server log: ${String(error)})`;
    }
  }

  destroy(): void {
    try {
      this.#pgCtl('stop', ['-m', 'immediate']);
    } catch {
      // already stopped
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

// ---- Redis ----

export class RedisServer {
  #proc: ChildProcess | null = null;
  private constructor(readonly port: number) {}

  static async create(): Promise<RedisServer> {
    const r = new RedisServer(await freePort());
    await r.start();
    return r;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const proc = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
    this.#proc = proc;
    let out = '';
    proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    await waitFor(() => out.includes('Ready to accept connections') || proc.exitCode !== null, 'redis-server to start', 20_000, 20);
    if (proc.exitCode !== null) throw new Error(`redis-server exited: ${out}`);
  }

  /** SIGSTOP: the server keeps its connections open but answers nothing (a hung Redis). */
  pause(): void {
    this.#proc?.kill('SIGSTOP');
  }

  resume(): void {
    this.#proc?.kill('SIGCONT');
  }

  async stop(): Promise<void> {
    const proc = this.#proc;
    this.#proc = null;
    if (!proc || proc.exitCode !== null) return;
    proc.kill('SIGKILL');
    await new Promise((r) => proc.once('exit', r));
  }
}

// ---- vouch processes ----

export interface VouchProcess {
  name: string;
  proc: ChildProcess;
  port: number | null;
  output(): string;
  /** Set when the process exited without the test asking (kill/stop below). */
  readonly unexpectedExit: { code: number | null; signal: string | null } | null;
  kill9(): Promise<void>;
  stop(): Promise<void>;
  /**
   * What the process is doing right now, for a failure message: its JavaScript stack and active
   * handles from a Node diagnostic report (SIGUSR2). Node writes the report from a signal
   * watcher even while JavaScript is busy, so a process stuck in a loop still answers.
   */
  snapshot(): Promise<string>;
}

// Diagnostic reports of the vouch processes (`--report-on-signal`), one folder per test process.
const REPORTS = mkdtempSync(join(tmpdir(), 'vouch-faults-reports-'));
process.once('exit', () => rmSync(REPORTS, { recursive: true, force: true }));

async function reportOf(proc: ChildProcess): Promise<string> {
  if (proc.exitCode !== null || proc.signalCode !== null || proc.pid === undefined) return '(not running)';
  const before = new Set(readdirSync(REPORTS));
  proc.kill('SIGUSR2');
  for (let i = 0; i < 50; i++) {
    const made = readdirSync(REPORTS).find((f) => !before.has(f) && f.includes(`.${proc.pid}.`));
    if (made) {
      await sleep(200); // written in one go, but let it finish
      try {
        const r = JSON.parse(readFileSync(join(REPORTS, made), 'utf8')) as { javascriptStack?: { message?: string; stack?: string[] }; libuv?: { type: string; is_active?: boolean }[] };
        const handles = new Map<string, number>();
        for (const h of r.libuv ?? []) if (h.is_active) handles.set(h.type, (handles.get(h.type) ?? 0) + 1);
        return `stack: ${r.javascriptStack?.message ?? ''}\n  ${(r.javascriptStack?.stack ?? []).slice(0, 12).join('\n  ')}\nactive handles: ${JSON.stringify(Object.fromEntries(handles))}`;
      } catch (error) {
        return `(unreadable report: ${String(error)})`;
      }
    }
    await sleep(100);
  }
  return '(no report within 5 s)';
}

/**
 * `vouch serve` (port given) or `vouch worker` as a child process, with its output kept. Returns
 * once it is up; `onSpawn` gets it at once (to kill it after the test even if it never comes up).
 */
export async function startVouch(name: string, command: 'serve' | 'worker', env: Record<string, string>, onSpawn?: (p: VouchProcess) => void): Promise<VouchProcess> {
  const port = command === 'serve' ? await freePort() : null;
  const proc = spawn(process.execPath, ['--report-on-signal', '--report-signal=SIGUSR2', `--report-directory=${REPORTS}`, BIN, command], {
    env: { ...process.env, VOUCH_LOG_LEVEL: 'info', ...env, ...(port ? { PORT: String(port), VOUCH_PUBLIC_URL: `http://127.0.0.1:${port}` } : {}) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  let expected = false;
  let unexpected: VouchProcess['unexpectedExit'] = null;
  proc.once('exit', (code, signal) => {
    if (!expected) unexpected = { code, signal };
  });
  const ended = () => proc.exitCode !== null || proc.signalCode !== null;
  const vp: VouchProcess = {
    name, proc, port,
    output: () => out,
    get unexpectedExit() {
      return unexpected;
    },
    async kill9() {
      expected = true;
      if (ended()) return;
      proc.kill('SIGKILL');
      await new Promise((r) => proc.once('exit', r));
    },
    snapshot: () => reportOf(proc),
    async stop() {
      expected = true;
      if (ended()) return;
      proc.kill('SIGTERM');
      const timer = setTimeout(() => proc.kill('SIGKILL'), 30_000);
      await new Promise((r) => proc.once('exit', r));
      clearTimeout(timer);
    },
  };
  onSpawn?.(vp);
  const ready = command === 'serve'
    ? async () => (await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(5000) }).then((r) => r.ok, () => false))
    : () => out.includes('vouch worker running');
  await waitFor(async () => ended() || (await ready()), `${name} to start`, 60_000);
  if (ended()) throw new Error(`${name} exited at start: ${out}`);
  return vp;
}

/** JSON log lines of a process at error level (pino level 50) or above. */
export function errorLines(output: string): { msg?: string; [k: string]: unknown }[] {
  return output.split('\n').filter((l) => l.startsWith('{')).map((l) => {
    try {
      return JSON.parse(l) as { level?: number; msg?: string };
    } catch {
      return {};
    }
  }).filter((l) => (l.level ?? 0) >= 50);
}
