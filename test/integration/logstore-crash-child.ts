// A process for logstore-crash.test.ts: stores, replaces or deletes a log in the S3 store and
// stops dead at the step named by STOP_AT (prints `at <step> <session id>` and waits to be
// SIGKILLed). The store code is the real one; only its final object removal is wrapped, to
// pause between "the transaction committed" and "the old object is deleted".
import { randomBytes } from 'node:crypto';
import { openDatabase } from '../../src/adapters/db/database.ts';
import { createLogStore } from '../../src/adapters/logstore/index.ts';
import type { S3LogStore } from '../../src/adapters/logstore/s3-store.ts';
import { insertSession } from '../../src/adapters/db/repositories/sessions.ts';
import { loadConfig } from '../../src/config.ts';
import { newId, nowIso } from '../../src/kernel/ids.ts';
import { S3_TEST_CREDENTIALS } from '../helpers/s3.ts';

const env = process.env;
const config = loadConfig(env);
const db = await openDatabase({ databaseUrl: config.databaseUrl ?? undefined, dataDir: config.dataDir });
const store = await createLogStore(db, config.dataDir, config.logStore, { credentials: S3_TEST_CREDENTIALS, partSize: 5 * 1024 * 1024 }) as S3LogStore;
const STOP_AT = env.STOP_AT ?? '';
let sessionId = env.SESSION_ID ?? newId('ses');

async function step(name: string): Promise<void> {
  if (name !== STOP_AT) return;
  process.stdout.write(`at ${name} ${sessionId}\n`);
  await new Promise(() => {}); // until SIGKILL
}

// Pause inside the real replace()/delete(), after their transaction and before the object goes.
const remove = store.remove.bind(store);
store.remove = async (rows, from) => {
  await step(env.MODE === 'replace' ? 'replace-committed' : 'delete-marked');
  return remove(rows, from);
};

if (env.MODE === 'upload') {
  const sink = await store.beginUpload();
  await step('begun');
  // 11 MiB: the first 5 MiB part is sent while the rest is still arriving.
  for (let i = 0; i < 11; i++) await sink.write(randomBytes(1024 * 1024));
  await step('writing');
  await sink.finish();
  await step('finished');
  sessionId = newId('ses');
  await db.kysely.transaction().execute(async (trx) => {
    await insertSession(trx, {
      id: sessionId, account_id: env.ACCOUNT_ID!, status: 'analyzing', agent_hint: null, agent: null, repo: null, branch: null,
      filename: 'x.jsonl', size_bytes: sink.size, sha256: sink.sha256Hex(), created_at: nowIso(), completed_at: null,
      trust_score: null, outcome: null, findings_critical: null, findings_warning: null, findings_info: null,
      report_id: null, failure_reason: null, idempotency_key: null,
    });
    await sink.commit(trx, sessionId);
    await step('in-transaction');
  });
  await step('committed');
} else if (env.MODE === 'replace') {
  const sink = await store.beginUpload();
  await sink.write(Buffer.from('redacted\n'));
  await store.replace(sessionId, sink);
} else if (env.MODE === 'delete') {
  await store.delete(sessionId);
}
process.stdout.write(`at end ${sessionId}\n`);
await new Promise(() => {});
