// Picks the log store the configuration names (VOUCH_LOG_STORE); by default each database mode
// keeps its own: files next to the SQLite database, chunks in PostgreSQL (no local disk).
import type { Db } from '../db/database.ts';
import type { LogStoreConfig } from '../../config.ts';
import { FileLogStore } from './file-store.ts';
import { ChunkLogStore } from './pg-store.ts';
import { S3LogStore } from './s3-store.ts';
import type { S3StoreOptions } from './s3-store.ts';
import type { LogStore } from './types.ts';

export type { LogStore, UploadSink } from './types.ts';
export { LogIntegrityError, LogNotFoundError, LogStoreUnavailableError } from './types.ts';

export function createLogStore(db: Db, dataDir: string, choice: LogStoreConfig = { kind: 'default' }, s3Extra: Partial<S3StoreOptions> = {}): LogStore {
  switch (choice.kind) {
    case 'file':
      return new FileLogStore(db, dataDir);
    case 'database':
      return new ChunkLogStore(db);
    case 's3':
      return new S3LogStore(db, { ...choice, ...s3Extra });
    case 'default':
      return db.dialect === 'postgres' ? new ChunkLogStore(db) : new FileLogStore(db, dataDir);
  }
}
