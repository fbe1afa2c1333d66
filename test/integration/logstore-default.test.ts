// The log store contract on the database mode's own store: files under the data directory with
// SQLite, chunks in the database with PostgreSQL (VOUCH_TEST_DB chooses).
import { readdir, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { createTestDb } from '../helpers/db.ts';
import { createLogStore } from '../../src/adapters/logstore/index.ts';
import { logStoreContract } from './logstore-contract.ts';
import { loadConfig } from '../../src/config.ts';

logStoreContract(async () => {
  const t = await createTestDb();
  // The store the configuration of this mode names when VOUCH_LOG_STORE is unset.
  const { logStore } = loadConfig({ VOUCH_DATA_DIR: t.dataDir, ...(t.databaseUrl ? { DATABASE_URL: t.databaseUrl } : {}) });
  const store = await createLogStore(t.db, t.dataDir, logStore);
  const pg = t.db.dialect === 'postgres';
  return {
    t,
    store,
    async leftovers() {
      if (pg) {
        const rows = await t.db.kysely.selectFrom('log_uploads').select('id').where('session_id', 'is', null).execute();
        const chunks = await t.db.kysely.selectFrom('log_chunks').select('upload_id').where('upload_id', 'not in', t.db.kysely.selectFrom('log_uploads').select('id')).execute();
        return rows.length + chunks.length;
      }
      return (await readdir(join(t.dataDir, 'uploads')).catch(() => [])).length;
    },
    async storedLogCount() {
      if (pg) return (await t.db.kysely.selectFrom('log_uploads').select('id').execute()).length;
      return (await readdir(join(t.dataDir, 'logs')).catch(() => [])).length;
    },
    async ageEverythingExcept(fresh) {
      const old = new Date(Date.now() - 2 * 3600_000);
      if (pg) {
        const freshId = (fresh as unknown as { uploadId: string }).uploadId;
        await t.db.kysely.updateTable('log_uploads').set({ created_at: old.toISOString() }).where('id', '!=', freshId).execute();
        return;
      }
      const freshPath = (fresh as unknown as { tempPath: string }).tempPath;
      for (const dir of ['uploads', 'logs']) {
        for (const name of await readdir(join(t.dataDir, dir))) {
          const path = join(t.dataDir, dir, name);
          if (path !== freshPath) await utimes(path, old, old);
        }
      }
    },
    cleanup: () => t.cleanup(),
  };
});
