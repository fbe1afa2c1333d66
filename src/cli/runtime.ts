// What every server-side command opens the same way: configuration, logger, migrated database,
// log store. Admin commands use it too, so they always talk to the server's database.
import type pino from 'pino';
import { loadConfig } from '../config.ts';
import type { Config } from '../config.ts';
import { openDatabase } from '../adapters/db/database.ts';
import type { Db } from '../adapters/db/database.ts';
import { createLogStore } from '../adapters/logstore/index.ts';
import type { LogStore } from '../adapters/logstore/index.ts';
import { createLogger } from '../app/logger.ts';

export interface Runtime {
  config: Config;
  db: Db;
  logStore: LogStore;
  log: pino.Logger;
}

/** Opens the database and applies pending migrations (safe with several processes starting). */
export async function openRuntime(opts: { logLevel?: string } = {}): Promise<Runtime> {
  const config = loadConfig();
  const log = createLogger(opts.logLevel ?? config.logLevel);
  const db = await openDatabase({ databaseUrl: config.databaseUrl ?? undefined, dataDir: config.dataDir });
  try {
    await db.migrate();
  } catch (error) {
    await db.close();
    throw error;
  }
  return { config, db, logStore: createLogStore(db, config.dataDir), log };
}
