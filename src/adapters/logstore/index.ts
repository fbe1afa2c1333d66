// Builds the log store the configuration names (VOUCH_LOG_STORE, resolved by config.ts: unset,
// each database mode keeps its own, files next to the SQLite database or chunks in PostgreSQL).
// The choice is the configuration's alone: the dialect of the database is not looked at here.
import type { Db } from '../db/database.ts';
import type { LogStoreConfig } from '../../config.ts';
import { FileLogStore } from './file-store.ts';
import { ChunkLogStore } from './pg-store.ts';
import type { S3StoreOptions } from './s3-store.ts';
import type { LogStore } from './types.ts';

export type { LogStore, UploadSink } from './types.ts';
export { LogIntegrityError, LogNotFoundError, LogStoreUnavailableError } from './types.ts';

/**
 * The store the configuration names (config.ts resolved VOUCH_LOG_STORE, its default included).
 * The S3 store is loaded only when chosen: the AWS SDK costs every one-shot command ~0.1 s of
 * start-up otherwise (bench:startup).
 */
export async function createLogStore(db: Db, dataDir: string, choice: LogStoreConfig, s3Extra: Partial<S3StoreOptions> = {}): Promise<LogStore> {
  switch (choice.kind) {
    case 'file':
      return new FileLogStore(db, dataDir);
    case 'database':
      return new ChunkLogStore(db);
    case 's3': {
      const { S3LogStore } = await import('./s3-store.ts');
      return new S3LogStore(db, { ...choice, ...s3Extra });
    }
  }
}
