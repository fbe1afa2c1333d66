// What every server-side command opens the same way: configuration, migrated database, log
// store, and for the long-running commands a logger. Admin commands use it too, so they always
// talk to the server's database.
import type pino from 'pino';
import { loadConfig } from '../config.ts';
import type { Config } from '../config.ts';
import { openDatabase } from '../adapters/db/database.ts';
import type { Db } from '../adapters/db/database.ts';
import { createLogStore } from '../adapters/logstore/index.ts';
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

/** Opens the database and applies pending migrations (safe with several processes starting). */
export async function openStore(config: Config = loadConfig()): Promise<Store> {
  const db = await openDatabase({ databaseUrl: config.databaseUrl ?? undefined, dataDir: config.dataDir });
  try {
    await db.migrate();
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
  return { ...(await openStore(config)), log };
}
