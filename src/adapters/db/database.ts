// Opens the database: SQLite (embedded default, one file under the data directory) or
// PostgreSQL (DATABASE_URL, scale-out mode). Everything above this module sees one Kysely API.
// Each driver is imported when its database is opened (pg alone is some 40 modules): a SQLite
// command never loads pg, a PostgreSQL one never loads the native SQLite binding.
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { LRUCache } from 'lru-cache';
import { CompiledQuery, Kysely, Migrator, PostgresDialect, SelectQueryNode, SqliteDialect, SqliteDriver, sql } from 'kysely';
import type { DatabaseConnection, Driver, QueryResult } from 'kysely';
import type pg from 'pg';
import { buildMigrations } from './migrations/index.ts';
import type { DialectName } from './migrations/types.ts';
import type { Database } from './schema.ts';
import { withFileLock } from './file-lock.ts';

const MIGRATION_LOCK_FILE = 'migrate.lock';

export type { DialectName };

export interface Db {
  kysely: Kysely<Database>;
  dialect: DialectName;
  /** Apply pending migrations; safe when several processes start at once. */
  migrate(opts?: MigrateOptions): Promise<void>;
  close(): Promise<void>;
  /** True when a trivial query succeeds (for /readyz). */
  ping(): Promise<boolean>;
}

export interface OpenDatabaseOptions {
  /** postgres://… or postgresql://… selects PostgreSQL; unset selects SQLite under dataDir. */
  databaseUrl?: string;
  dataDir: string;
  /** PostgreSQL pool size (default 10). */
  poolSize?: number;
  /**
   * Told when a PostgreSQL connection fails outside any query (the server restarted or went
   * away). The process keeps running either way: the statement on that connection fails, the
   * pool drops the connection and opens new ones on demand.
   */
  onConnectionError?: (error: Error) => void;
}

export interface MigrateOptions {
  /** Told every few seconds while another process holds the migration lock (how long so far). */
  onLockWait?: (waitedMs: number) => void;
  /** Gives up waiting for that lock after this (default 120 s), with an error saying so. */
  lockTimeoutMs?: number;
}

const LOCK_WAIT_REPORT_MS = 5_000;
const LOCK_TRY_MS = 200;
const LOCK_TIMEOUT_MS = 120_000;

export const SQLITE_FILENAME = 'vouch.db';
// Any constant works as long as nothing else in the database uses it.
const PG_MIGRATION_LOCK = 7_315_420_113;

/** Prepared statements kept per handle, by SQL text (least recently used dropped beyond this). */
const STATEMENT_CACHE_SIZE = 256;

/**
 * Kysely's SQLite connection prepares every statement again on every execution, which costs
 * more than running the typical indexed lookup. This one keeps prepared statements by SQL text
 * (bounded LRU). Reusing a statement is safe: Kysely hands the single connection to one user
 * at a time (its mutex), every execution here runs to completion synchronously, and SQLite
 * re-prepares a statement by itself when the schema changes underneath it.
 */
class CachingSqliteConnection implements DatabaseConnection {
  readonly #db: BetterSqlite3.Database;
  readonly #statements = new LRUCache<string, BetterSqlite3.Statement>({ max: STATEMENT_CACHE_SIZE });

  constructor(db: BetterSqlite3.Database) {
    this.#db = db;
  }

  #prepare(text: string): BetterSqlite3.Statement {
    let stmt = this.#statements.get(text);
    if (!stmt) {
      stmt = this.#db.prepare(text);
      this.#statements.set(text, stmt);
    }
    return stmt;
  }

  executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const stmt = this.#prepare(compiledQuery.sql);
    const parameters = compiledQuery.parameters as unknown[];
    if (stmt.reader) return Promise.resolve({ rows: rowObjects<R>(stmt, parameters) });
    const { changes, lastInsertRowid } = stmt.run(parameters);
    return Promise.resolve({
      numAffectedRows: changes !== undefined && changes !== null ? BigInt(changes) : undefined,
      insertId: lastInsertRowid !== undefined && lastInsertRowid !== null ? BigInt(lastInsertRowid) : undefined,
      rows: [],
    });
  }

  async *streamQuery<R>(compiledQuery: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    // An open iterator keeps its statement busy: streams get a statement of their own.
    if (!SelectQueryNode.is(compiledQuery.query)) throw new Error('Sqlite driver only supports streaming of select queries');
    const stmt = this.#db.prepare(compiledQuery.sql);
    for (const row of stmt.iterate(compiledQuery.parameters as unknown[])) yield { rows: [row as R] };
  }
}

/**
 * A reader statement's rows as objects keyed by column name, as better-sqlite3 would return them.
 * It builds them from the raw row arrays instead: its own objects cost about a third more (a
 * page of 20 sessions: ~160 µs instead of ~235 µs on the bench machine), and pages of rows are
 * the API's hot path. The column names are read on every execution: a migration can change
 * what `select *` returns under a cached statement.
 */
function rowObjects<R>(stmt: BetterSqlite3.Statement, parameters: unknown[]): R[] {
  const rows = stmt.raw(true).all(parameters) as unknown[][];
  if (rows.length === 0) return [];
  const names = stmt.columns().map((c) => c.name);
  const out = new Array<R>(rows.length);
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r];
    const o: Record<string, unknown> = {};
    for (let c = 0; c < names.length; c++) o[names[c]] = row[c];
    out[r] = o as R;
  }
  return out;
}

/**
 * Kysely's SQLite driver opens transactions with a deferred BEGIN. With several processes on
 * one file (serve + worker), a deferred transaction that reads and then writes can fail at once
 * with SQLITE_BUSY instead of waiting; BEGIN IMMEDIATE takes the write lock up front, so the
 * busy timeout applies. Its connection caches prepared statements (above).
 */
class ImmediateSqliteDriver extends SqliteDriver {
  readonly #connection: CachingSqliteConnection;
  readonly #database: BetterSqlite3.Database;
  constructor(database: BetterSqlite3.Database) {
    super({ database });
    this.#database = database;
    this.#connection = new CachingSqliteConnection(database);
  }
  override async acquireConnection(): Promise<DatabaseConnection> {
    // The base class serialises users of the single handle; its connection is replaced by ours.
    await super.acquireConnection();
    return this.#connection;
  }
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
  // SQLite rolls a transaction back by itself after some errors (SQLITE_FULL, SQLITE_IOERR):
  // a ROLLBACK then fails with "cannot rollback - no transaction is active", and Kysely would
  // throw that instead of the error that mattered (the disk is full).
  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    if (!this.#database.inTransaction) return;
    await super.rollbackTransaction(connection);
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  readonly #database: BetterSqlite3.Database;
  constructor(database: BetterSqlite3.Database) {
    super({ database });
    this.#database = database;
  }
  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#database);
  }
}

async function openSqlite(dataDir: string): Promise<Kysely<Database>> {
  const { default: BetterSqlite3 } = await import('better-sqlite3');
  mkdirSync(dataDir, { recursive: true });
  const file = new BetterSqlite3(join(dataDir, SQLITE_FILENAME));
  // busy_timeout first: switching to WAL itself may have to wait for another process.
  file.pragma('busy_timeout = 5000');
  file.pragma('journal_mode = WAL');
  file.pragma('synchronous = NORMAL');
  file.pragma('foreign_keys = ON');
  return new Kysely<Database>({ dialect: new ImmediateSqliteDialect(file) });
}

// int8 (COUNT(*), bigint columns) arrives as a string by default; our values fit in a double.
const INT8_OID = 20;
function pgTypesOf(types: typeof pg.types) {
  return {
    getTypeParser(oid: number, format?: 'text' | 'binary') {
      if (oid === INT8_OID && format !== 'binary') return (value: string) => Number(value);
      return types.getTypeParser(oid, format as 'text');
    },
  };
}

/** Named (server-side prepared) statements kept per PostgreSQL connection, at most. */
const PG_NAMED_STATEMENTS_MAX = 500;
// "cached plan must not change result type": a prepared `select *` after a migration changed
// the table (another process migrated while this one runs).
const PG_FEATURE_NOT_SUPPORTED = '0A000';

type QueryFn = (...args: unknown[]) => unknown;

/**
 * A pg client that runs parameterised SELECTs as named prepared statements: PostgreSQL parses
 * and plans each distinct query text once per connection instead of on every execution (pg
 * sends Parse only the first time a name is used on a connection). Names derive from the text
 * (a hash), so equal texts share one statement. Anything else (writes, DDL, transaction
 * control, cursors) goes through unchanged. A statement that PostgreSQL refuses to reuse after
 * a schema change is run unnamed from then on.
 * (Defined once pg is loaded: the class extends pg's.)
 */
function preparingClientOf(Client: typeof pg.Client, onConnectionError: (error: Error) => void): typeof pg.Client {
  return class PreparingClient extends Client {
    readonly #names = new Map<string, string | null>();

    constructor(config?: string | pg.ClientConfig) {
      super(config);
      // pg emits 'error' on a client whose connection dies, even while it is checked out and
      // running a query (which fails with the same error). The pool listens only while the
      // client is idle: without this listener a server restart kills the process. The pool
      // drops the dead client on release (it is no longer queryable).
      this.on('error', onConnectionError);
      const plain = (this.query as QueryFn).bind(this);
      this.query = ((...args: unknown[]) => {
        const [text, values] = args;
        if (args.length !== 2 || typeof text !== 'string' || !Array.isArray(values) || !/^\s*select\b/i.test(text)) return plain(...args);
        const name = this.#nameFor(text);
        if (name === null) return plain(text, values);
        return (plain({ name, text, values }) as Promise<unknown>).catch((error: unknown) => {
          if ((error as { code?: string }).code !== PG_FEATURE_NOT_SUPPORTED) throw error;
          this.#names.set(text, null);
          return plain(text, values);
        });
      }) as typeof this.query;
    }

    #nameFor(text: string): string | null {
      const known = this.#names.get(text);
      if (known !== undefined) return known;
      if (this.#names.size >= PG_NAMED_STATEMENTS_MAX) return null;
      const name = `vouch_${createHash('sha1').update(text).digest('hex')}`;
      this.#names.set(text, name);
      return name;
    }
  };
}

/** How long a statement waits for a new PostgreSQL connection before failing (503 upstream). */
const PG_CONNECT_TIMEOUT_MS = 5_000;

async function openPostgres(url: string, poolSize: number, onConnectionError: (error: Error) => void): Promise<Kysely<Database>> {
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    types: pgTypesOf(pg.types) as pg.CustomTypesConfig,
    Client: preparingClientOf(pg.Client, onConnectionError),
    // A server that accepts TCP but never answers (a partition) must fail statements, not hang them.
    connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS,
    keepAlive: true,
  });
  // An idle client losing its connection is reported by the client's own listener (above); the
  // pool replaces it and the next query reports any lasting problem.
  pool.on('error', () => {});
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}

async function runMigrator(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  const migrations = buildMigrations(dialect);
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
}

async function migrate(kysely: Kysely<Database>, dialect: DialectName, dataDir: string, opts: MigrateOptions = {}): Promise<void> {
  if (dialect === 'sqlite') {
    // Kysely runs SQLite migrations outside any transaction: a lock file makes processes that
    // start together on a fresh data directory take turns.
    await withFileLock(join(dataDir, MIGRATION_LOCK_FILE), () => runMigrator(kysely as Kysely<unknown>, dialect), opts);
    return;
  }
  // One session-level advisory lock around the whole run, including the creation of the
  // migrator's own bookkeeping tables, which Kysely does outside its lock. Tried, not waited
  // for in the server: a start behind another process's migration is bounded and says so.
  await kysely.connection().execute(async (conn) => {
    const started = Date.now();
    let reported = started;
    for (;;) {
      const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_lock(${sql.lit(PG_MIGRATION_LOCK)}) as locked`.execute(conn);
      if (rows[0]?.locked) break;
      const waited = Date.now() - started;
      if (waited > (opts.lockTimeoutMs ?? LOCK_TIMEOUT_MS)) throw new Error(`gave up after ${waited} ms waiting for the migration lock: another process connected to this database is migrating it (or stuck doing so)`);
      if (Date.now() - reported >= LOCK_WAIT_REPORT_MS) {
        reported = Date.now();
        opts.onLockWait?.(waited);
      }
      await new Promise((r) => setTimeout(r, LOCK_TRY_MS));
    }
    try {
      await runMigrator(conn as Kysely<unknown>, dialect);
    } finally {
      await sql`select pg_advisory_unlock(${sql.lit(PG_MIGRATION_LOCK)})`.execute(conn);
    }
  });
}

export function dialectOf(databaseUrl: string | undefined): DialectName {
  if (!databaseUrl) return 'sqlite';
  if (/^postgres(ql)?:\/\//i.test(databaseUrl)) return 'postgres';
  throw new Error('DATABASE_URL must be a postgres:// or postgresql:// URL (unset it for the embedded SQLite database)');
}

export async function openDatabase(opts: OpenDatabaseOptions): Promise<Db> {
  const dialect = dialectOf(opts.databaseUrl);
  const kysely = dialect === 'postgres'
    ? await openPostgres(opts.databaseUrl as string, opts.poolSize ?? 10, opts.onConnectionError ?? (() => {}))
    : await openSqlite(opts.dataDir);
  let closed = false;
  return {
    kysely,
    dialect,
    migrate: (m?: MigrateOptions) => migrate(kysely, dialect, opts.dataDir, m),
    async close() {
      if (closed) return;
      closed = true;
      await kysely.destroy();
    },
    async ping() {
      try {
        await sql`select 1`.execute(kysely);
        return true;
      } catch {
        return false;
      }
    },
  };
}
