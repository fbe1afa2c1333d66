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
  'password_resets', 'audit_events', 'sign_in_throttle',
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

test('0005_team_accounts on existing data: founders become owners, other users admins, keys and webhooks get no creator', async () => {
  const { Migrator } = await import('kysely');
  const t = await createTestDb({ migrate: false });
  try {
    const all = buildMigrations(t.db.dialect);
    const before = Object.fromEntries(Object.entries(all).filter(([name]) => name < '0005'));
    await new Migrator({ db: t.db.kysely, provider: { getMigrations: async () => before } }).migrateToLatest();
    const now = new Date().toISOString();
    await sql`insert into accounts (id, name, created_at) values ('acc_01AAAAAAAAAAAAAAAAAAAAAAAA', 'old', ${now})`.execute(t.db.kysely);
    for (const [id, email] of [['usr_01AAAAAAAAAAAAAAAAAAAAAAA1', 'founder@x.test'], ['usr_01AAAAAAAAAAAAAAAAAAAAAAA2', 'second@x.test']]) {
      await sql`insert into users (id, account_id, email, password_hash, created_at) values (${id}, 'acc_01AAAAAAAAAAAAAAAAAAAAAAAA', ${email}, 'h', ${now})`.execute(t.db.kysely);
    }
    await sql`insert into api_keys (id, account_id, name, prefix, last4, hash, created_at) values ('key_01AAAAAAAAAAAAAAAAAAAAAAAA', 'acc_01AAAAAAAAAAAAAAAAAAAAAAAA', 'k', 'vk_ab', 'wxyz', 'hash', ${now})`.execute(t.db.kysely);
    await sql`insert into webhooks (id, account_id, url, shape, created_at) values ('wh_01AAAAAAAAAAAAAAAAAAAAAAAA', 'acc_01AAAAAAAAAAAAAAAAAAAAAAAA', 'https://example.com/', 'A', ${now})`.execute(t.db.kysely);
    await t.db.migrate();
    const users = await t.db.kysely.selectFrom('users').select(['email', 'role']).orderBy('id').execute();
    assert.deepEqual(users, [{ email: 'founder@x.test', role: 'owner' }, { email: 'second@x.test', role: 'admin' }]);
    const key = await t.db.kysely.selectFrom('api_keys').select(['created_by', 'created_by_email']).executeTakeFirstOrThrow();
    assert.deepEqual(key, { created_by: null, created_by_email: null });
    const hook = await t.db.kysely.selectFrom('webhooks').select(['created_by', 'created_by_email']).executeTakeFirstOrThrow();
    assert.deepEqual(hook, { created_by: null, created_by_email: null });
    for (const table of ['audit_events', 'password_resets', 'sign_in_throttle']) assert.ok((await tableNames(t)).includes(table));
  } finally {
    await t.cleanup();
  }
});

test('0008_access_ends on existing keys: each gets what its creator\'s role allows (the operator\'s: everything)', async () => {
  const { Migrator } = await import('kysely');
  const t = await createTestDb({ migrate: false });
  try {
    const all = buildMigrations(t.db.dialect);
    const before = Object.fromEntries(Object.entries(all).filter(([name]) => name < '0008'));
    await new Migrator({ db: t.db.kysely, provider: { getMigrations: async () => before } }).migrateToLatest();
    const now = new Date().toISOString();
    const acc = 'acc_01AAAAAAAAAAAAAAAAAAAAAAAA';
    await sql`insert into accounts (id, name, created_at) values (${acc}, 'old', ${now})`.execute(t.db.kysely);
    const users: [string, string][] = [['usr_01AAAAAAAAAAAAAAAAAAAAAAA1', 'owner'], ['usr_01AAAAAAAAAAAAAAAAAAAAAAA2', 'admin'], ['usr_01AAAAAAAAAAAAAAAAAAAAAAA3', 'member']];
    for (const [id, role] of users) {
      await sql`insert into users (id, account_id, email, password_hash, created_at, role) values (${id}, ${acc}, ${`${role}@x.test`}, 'h', ${now}, ${role})`.execute(t.db.kysely);
    }
    const keys: [string, string | null][] = [['key_1', users[0][0]], ['key_2', users[1][0]], ['key_3', users[2][0]], ['key_4', null], ['key_5', 'usr_gone']];
    for (const [id, creator] of keys) {
      await sql`insert into api_keys (id, account_id, name, prefix, last4, hash, created_at, created_by) values (${id}, ${acc}, 'k', 'vk_ab', 'wxyz', ${`hash-${id}`}, ${now}, ${creator})`.execute(t.db.kysely);
    }
    await t.db.migrate();
    const scopes = await t.db.kysely.selectFrom('api_keys').select(['id', 'scopes']).orderBy('id').execute();
    const every = 'sessions:read sessions:write sessions:delete logs:redact audit:read';
    assert.deepEqual(scopes, [
      { id: 'key_1', scopes: every }, { id: 'key_2', scopes: every }, { id: 'key_3', scopes: 'sessions:read sessions:write' },
      { id: 'key_4', scopes: every }, { id: 'key_5', scopes: '' },
    ]);
  } finally {
    await t.cleanup();
  }
});
