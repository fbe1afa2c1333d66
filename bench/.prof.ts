import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../src/adapters/db/database.ts';
import { insertSession, listSessions } from '../src/adapters/db/repositories/sessions.ts';
import { createAccount } from '../src/services/accounts.ts';
import { newId, nowIso } from '../src/services/ids.ts';
import { authenticateApiKey } from '../src/services/keys.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'prof-'));
const db = await openDatabase({ dataDir, databaseUrl: process.env.PGURL });
await db.migrate();
const { accountId, apiKey } = await createAccount(db, { email: `p${Date.now()}@x.test`, password: 'password123' });
await db.kysely.transaction().execute(async (trx) => {
  for (let i = 0; i < 10000; i++) await insertSession(trx, { id: newId('ses'), account_id: accountId, status: 'analyzing', agent_hint: null, agent: 'codex', repo: `r${i % 20}`, branch: null, filename: 'f', size_bytes: 1, sha256: 'a', created_at: nowIso(Date.now() - 1e7 + i * 1000), completed_at: null, trust_score: null, outcome: null, findings_critical: null, findings_warning: null, findings_info: null, report_id: null, failure_reason: null, idempotency_key: null });
});
async function time(name: string, fn: () => Promise<unknown>) {
  for (let i = 0; i < 20; i++) await fn();
  const t0 = performance.now();
  for (let i = 0; i < 200; i++) await fn();
  console.log(name, ((performance.now() - t0) / 200).toFixed(3), 'ms');
}
await time('auth', () => authenticateApiKey(db.kysely, apiKey));
await time('list', () => listSessions(db.kysely, accountId, {}, { limit: 20, offset: 0 }));
await time('count', () => db.kysely.selectFrom('sessions').where('account_id', '=', accountId).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow());
await time('rows', () => db.kysely.selectFrom('sessions').where('account_id', '=', accountId).selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(20).execute());
await db.close();
