// Migrations: idempotent, and safe when several processes start on one database at once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { openDatabase } from '../../src/adapters/db/database.ts';
import { buildMigrations } from '../../src/adapters/db/migrations/index.ts';
import { createTestDb } from '../helpers/db.ts';

const SELF = fileURLToPath(import.meta.url);

// Child mode: open the database named by the environment and migrate it, then exit.
if (process.env.VOUCH_MIGRATE_CHILD) {
  const db = await openDatabase({ databaseUrl: process.env.VOUCH_CHILD_DB_URL || undefined, dataDir: process.env.VOUCH_CHILD_DATA_DIR as string });
  await db.migrate();
  await db.close();
  process.exit(0);
}

const TABLES = [
  'accounts', 'users', 'api_keys', 'web_sessions', 'sessions', 'reports', 'log_uploads', 'log_chunks',
  'jobs', 'webhooks', 'deliveries', 'delivery_attempts', 'idempotency_keys', 'invitations', 'rate_limits',
];

async function tableNames(t: Awaited<ReturnType<typeof createTestDb>>): Promise<string[]> {
  const tables = await t.db.kysely.introspection.getTables();
  return tables.map((x) => x.name).sort();
}

function runChild(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', SELF], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += String(d)));
    child.on('exit', (code) => resolve({ code, stderr }));
  });
}

test('migrate creates every table and running it again changes nothing', async () => {
  const t = await createTestDb({ migrate: false });
  try {
    await t.db.migrate();
    const first = await tableNames(t);
    for (const table of TABLES) assert.ok(first.includes(table), `table ${table} exists`);
    await t.db.migrate();
    await t.db.migrate();
    assert.deepEqual(await tableNames(t), first);
    const applied = await sql<{ name: string }>`select name from kysely_migration`.execute(t.db.kysely);
    assert.deepEqual(applied.rows.map((r) => r.name), Object.keys(buildMigrations(t.db.dialect)).sort());
    assert.ok(applied.rows.some((r) => r.name === '0004_rate_limits'));
  } finally {
    await t.cleanup();
  }
});

test('several processes migrating the same fresh database at once all succeed', async () => {
  const t = await createTestDb({ migrate: false });
  try {
    const env = { VOUCH_MIGRATE_CHILD: '1', VOUCH_CHILD_DB_URL: t.databaseUrl ?? '', VOUCH_CHILD_DATA_DIR: t.dataDir };
    const results = await Promise.all([1, 2, 3, 4].map(() => runChild(env)));
    for (const r of results) assert.equal(r.code, 0, `a migrating process failed:\n${r.stderr}`);
    const names = await tableNames(t);
    for (const table of TABLES) assert.ok(names.includes(table), `table ${table} exists`);
    const applied = await sql<{ name: string }>`select name from kysely_migration`.execute(t.db.kysely);
    assert.deepEqual(applied.rows.map((r) => r.name).sort(), Object.keys(buildMigrations(t.db.dialect)).sort(), 'each migration was recorded once');
  } finally {
    await t.cleanup();
  }
});

test('ping reports a reachable database, and false once closed', async () => {
  const t = await createTestDb();
  try {
    assert.equal(await t.db.ping(), true);
  } finally {
    await t.cleanup();
  }
  assert.equal(await t.db.ping(), false);
});

test('a DATABASE_URL that is not PostgreSQL is refused', async () => {
  await assert.rejects(openDatabase({ databaseUrl: 'mysql://x@y/z', dataDir: '/nonexistent' }), /postgres/);
});
