// Picks the log store of the database's mode: files next to the SQLite database, chunks in
// PostgreSQL (no local disk in scale-out mode).
import type { Db } from '../db/database.ts';
import { FileLogStore } from './file-store.ts';
import { ChunkLogStore } from './pg-store.ts';
import type { LogStore } from './types.ts';

export type { LogStore, UploadSink } from './types.ts';
export { LogNotFoundError } from './types.ts';

export function createLogStore(db: Db, dataDir: string): LogStore {
  return db.dialect === 'postgres' ? new ChunkLogStore(db) : new FileLogStore(db, dataDir);
}
