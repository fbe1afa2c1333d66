// What every server-side command opens the same way: configuration, migrated database, log
// store, and for the long-running commands a logger. Admin commands use it too, so they always
// talk to the server's database.
import type pino from 'pino';
import { loadConfig } from '../config.ts';
import type { Config } from '../config.ts';
import { openDatabase } from '../adapters/db/database.ts';
import type { Db } from '../adapters/db/database.ts';
import { createLogStore } from '../adapters/logstore/index.ts';
import { classifyFault } from '../kernel/faults.ts';
import type { LogStore } from '../adapters/logstore/index.ts';

/** What the one-shot commands (admin, migrate) need: they print JSON and log nothing. */
export interface Store {
  config: Config;
  db: Db;
  logStore: LogStore;
}

export interface Runtime extends Store {
  log: pino.Logger;
}

export interface OpenStoreOptions {
  /** Told about each failed attempt to reach the database at start, and the wait before the next. */
  onWait?: (error: unknown, retryInMs: number) => void;
  /** Told when an open connection to the database fails later (PostgreSQL restarted). */
  onConnectionError?: (error: Error) => void;
}

const STARTUP_RETRY_MS = [250, 500, 1_000, 2_000];

/**
 * Applies pending migrations, waiting for a database that is not reachable yet (starting
 * together with the service, restarting) up to VOUCH_DB_STARTUP_TIMEOUT_MS instead of exiting:
 * a process started during an outage comes up when the database does. Other errors (bad
 * credentials, a failed migration) fail at once.
 */
async function migrateWhenReachable(db: Db, config: Config, opts: OpenStoreOptions): Promise<void> {
  const deadline = Date.now() + config.databaseStartupTimeoutMs;
  for (let attempt = 0; ; attempt++) {
    try {
      await db.migrate();
      return;
    } catch (error) {
      const wait = STARTUP_RETRY_MS[Math.min(attempt, STARTUP_RETRY_MS.length - 1)];
      if (classifyFault(error)?.kind !== 'unavailable' || Date.now() + wait > deadline) throw error;
      opts.onWait?.(error, wait);
      await new Promise((r) => setTimeout(r, wait));
    }
  }
}

/** Opens the database and applies pending migrations (safe with several processes starting). */
export async function openStore(config: Config = loadConfig(), opts: OpenStoreOptions = {}): Promise<Store> {
  const db = await openDatabase({ databaseUrl: config.databaseUrl ?? undefined, dataDir: config.dataDir, onConnectionError: opts.onConnectionError });
  try {
    await migrateWhenReachable(db, config, opts);
  } catch (error) {
    await db.close();
    throw error;
  }
  return { config, db, logStore: createLogStore(db, config.dataDir, config.logStore) };
}

/** The store plus the process logger (pino and its ~30 modules, so only serve and worker). */
export async function openRuntime(): Promise<Runtime> {
  const config = loadConfig();
  const { createLogger } = await import('../app/logger.ts');
  const log = createLogger(config.logLevel);
  const { OutageLog } = await import('../kernel/faults.ts');
  const outages = new OutageLog();
  const store = await openStore(config, {
    onWait: (error, retryInMs) => log.warn({ err: String(error), retry_in_ms: retryInMs }, 'database not reachable yet; waiting'),
    // The failing statement reports the outage (once, error level); this only notes the connection.
    onConnectionError: (error) => {
      if (outages.note({ kind: 'unavailable', dependency: 'database' })) log.warn({ err: error.message }, 'database connection lost; the pool reconnects on demand');
    },
  });
  return { ...store, log };
}
