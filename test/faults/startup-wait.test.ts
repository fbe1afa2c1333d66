// Where a starting `vouch serve` can wait, bounded and logged: behind another process's
// migration of the same PostgreSQL database (the migration lock). The test holds that lock from
// a connection of its own, the way a process stuck in a migration would.
// Checked: the starting process says every few seconds that it waits for the migration lock,
// comes up as soon as the lock is free, and logs how its start-up time was spent; held past
// VOUCH_DB_STARTUP_TIMEOUT_MS, it exits with an error naming the lock instead of hanging.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { BIN } from '../helpers/cli.ts';
import { PgCluster, freePort, waitFor } from './harness.ts';

const PG_MIGRATION_LOCK = 7_315_420_113; // src/adapters/db/database.ts
let cluster: PgCluster;
let dir: string;

before(async () => {
  cluster = await PgCluster.create();
  dir = mkdtempSync(join(tmpdir(), 'vouch-faults-startup-'));
});

after(() => {
  cluster?.destroy();
  rmSync(dir, { recursive: true, force: true });
});

async function holdMigrationLock(): Promise<{ release(): Promise<void> }> {
  const client = new pg.Client({ connectionString: cluster.url() });
  await client.connect();
  await client.query(`select pg_advisory_lock(${PG_MIGRATION_LOCK})`);
  return { release: async () => { await client.query(`select pg_advisory_unlock(${PG_MIGRATION_LOCK})`); await client.end(); } };
}

function serve(port: number, env: Record<string, string> = {}) {
  const proc = spawn(process.execPath, [BIN, 'serve'], {
    env: { ...process.env, DATABASE_URL: cluster.url(), VOUCH_DATA_DIR: dir, VOUCH_ROLE: 'api', VOUCH_LOG_LEVEL: 'info', PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
  return { proc, output: () => out, exited };
}

test('a start behind another process\'s migration waits for the lock, says so, and comes up when it is free', async () => {
  const lock = await holdMigrationLock();
  const port = await freePort();
  const s = serve(port);
  try {
    await waitFor(() => s.output().includes('waiting for the migration lock'), 'the wait to be logged', 60_000);
    await lock.release();
    await waitFor(async () => fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.ok, () => false), 'serve to answer once the lock is free', 60_000);
    const serving = s.output().split('\n').find((l) => l.includes('"vouch serving"'));
    assert.ok(serving, s.output());
    const startup = (JSON.parse(serving) as { startup_ms: Record<string, number> }).startup_ms;
    assert.deepEqual(Object.keys(startup).sort(), ['app', 'database', 'listen', 'load', 'total']);
    assert.ok(startup.database >= 5_000, `the wait is in the database phase: ${JSON.stringify(startup)}`);
  } finally {
    s.proc.kill('SIGKILL');
    await s.exited;
  }
});

test('a migration lock held past VOUCH_DB_STARTUP_TIMEOUT_MS: the process exits with an error naming it, instead of hanging', async () => {
  const lock = await holdMigrationLock();
  try {
    const s = serve(await freePort(), { VOUCH_DB_STARTUP_TIMEOUT_MS: '3000' });
    let timer: NodeJS.Timeout | undefined;
    const code = await Promise.race([s.exited, new Promise<'hung'>((r) => (timer = setTimeout(() => r('hung'), 60_000)))]);
    clearTimeout(timer);
    if (code === 'hung') s.proc.kill('SIGKILL');
    assert.notEqual(code, 'hung', 'the start gave up');
    assert.notEqual(code, 0);
    assert.match(s.output(), /waiting for the migration lock: another process connected to this database is migrating it/);
  } finally {
    await lock.release();
  }
});
