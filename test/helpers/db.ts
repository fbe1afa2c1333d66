// A fresh, migrated database for one integration test file. VOUCH_TEST_DB=sqlite (default)
// gives a SQLite file in a temp directory; VOUCH_TEST_DB=postgres gives a new database on
// VOUCH_TEST_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres), dropped in cleanup.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase } from '../../src/adapters/db/database.ts';
import type { Db } from '../../src/adapters/db/database.ts';

export interface TestDb {
  db: Db;
  dataDir: string;
  /** The URL the database was opened with (undefined for SQLite): to open a second connection. */
  databaseUrl: string | undefined;
  cleanup(): Promise<void>;
}

export type TestBackend = 'sqlite' | 'postgres';

export function testBackend(): TestBackend {
  const value = process.env.VOUCH_TEST_DB ?? 'sqlite';
  if (value !== 'sqlite' && value !== 'postgres') throw new Error(`VOUCH_TEST_DB must be sqlite or postgres, not ${value}`);
  return value;
}

const adminUrl = () => process.env.VOUCH_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** A new, empty PostgreSQL database (whatever VOUCH_TEST_DB says), and how to drop it. */
export async function createPgDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `vouch_test_${randomBytes(6).toString('hex')}`;
  await adminQuery(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return { url: url.href, drop: () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

export async function createTestDb(opts: { migrate?: boolean } = {}): Promise<TestDb> {
  const dataDir = await mkdtemp(join(tmpdir(), 'vouch-test-'));
  const pgDb = testBackend() === 'postgres' ? await createPgDatabase() : undefined;
  const db = await openDatabase({ databaseUrl: pgDb?.url, dataDir });
  if (opts.migrate !== false) await db.migrate();
  return {
    db,
    dataDir,
    databaseUrl: pgDb?.url,
    async cleanup() {
      await db.close();
      await pgDb?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
