import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { openDatabase } from '../src/adapters/db/database.ts';
import { insertSession } from '../src/adapters/db/repositories/sessions.ts';
import { createAccount } from '../src/services/accounts.ts';
import { newId, nowIso } from '../src/services/ids.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'prof-'));
const db = await openDatabase({ dataDir });
await db.migrate();
const { accountId, apiKey } = await createAccount(db, { email: `p${Date.now()}@x.test`, password: 'password123' });
await db.kysely.transaction().execute(async (trx) => {
  for (let i = 0; i < 10000; i++) await insertSession(trx, { id: newId('ses'), account_id: accountId, status: 'analyzing', agent_hint: null, agent: 'codex', repo: `r${i % 20}`, branch: null, filename: 'f', size_bytes: 1, sha256: 'a', created_at: nowIso(Date.now() - 1e7 + i * 1000), completed_at: null, trust_score: null, outcome: null, findings_critical: null, findings_warning: null, findings_info: null, report_id: null, failure_reason: null, idempotency_key: null });
});
await db.close();
const proc = spawn(process.execPath, ['--cpu-prof', '--cpu-prof-dir=/tmp/prof', 'bin/vouch.mjs', 'serve'], { env: { ...process.env, VOUCH_DATA_DIR: dataDir, PORT: '8931', VOUCH_ROLE: 'api', VOUCH_LOG_LEVEL: 'warn', VOUCH_RATE_LIMIT_MAX: '100000000' }, stdio: 'inherit' });
await new Promise((r) => setTimeout(r, 4000));
const path = process.env.PROF_PATH ?? '/v1/sessions';
const r = await autocannon({ url: `http://127.0.0.1:8931${path}`, connections: 50, duration: 8, headers: { authorization: `Bearer ${apiKey}` } });
console.log(path, r.requests.average, r.latency.p99, r.non2xx);
proc.kill('SIGTERM');
await new Promise((res) => proc.once('exit', res));
