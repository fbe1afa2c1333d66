// The multi-machine proof (issue 17): two API processes and two worker processes — the built
// `vouch` as an operator runs it — that share nothing but a PostgreSQL database and an S3 bucket
// (s3rver over HTTP); each has its own empty data directory, which must stay empty of logs.
//   1. 200 uploads spread over both APIs → 200 complete reports, each identical to what the
//      embedded analyser says about the same bytes, 0 lost, each webhook delivered exactly once;
//   2. a worker SIGKILLed in the middle of an analysis → its job finishes on the other worker.
// Needs PostgreSQL (VOUCH_TEST_PG_URL, as the PostgreSQL tier): this is the deployment it proves.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import net from 'node:net';
import { BIN } from '../helpers/cli.ts';
import { createPgDatabase } from '../helpers/db.ts';
import { startTestS3 } from '../helpers/s3.ts';
import type { TestS3 } from '../helpers/s3.ts';
import { Receiver, until } from '../integration/webhooks-helpers.ts';
import { openDatabase } from '../../src/adapters/db/database.ts';
import type { Db } from '../../src/adapters/db/database.ts';
import { createAccount } from '../../src/services/accounts.ts';
import { addWebhook } from '../../src/services/webhooks/registry.ts';
import { createSsrfPolicy } from '../../src/adapters/outbound/ssrf.ts';
import { analyzeText } from '../../src/domain/analyze.ts';

const CORPUS = new URL('../../../shared/corpus/', import.meta.url);
const LOGS = [
  'claude-code/cc03-v2.1.38-short-tool-errors.jsonl',
  'claude-code/cc08-v1.0.98-init-command-glob-write.jsonl',
  'codex/cx02-v0.39.0-vscode-shell-update-plan.jsonl',
  'codex/cx03-v0.47.0-apply-patch-shell.jsonl',
  'gemini-cli/gm01-2026-04-jsonl-format-read-write-replace.jsonl',
  'gemini-cli/gm06-2026-04-jsonl-trimmed-shell-command.jsonl',
];
const UPLOADS = 200;
const PARALLEL = 8;

let s3: TestS3;
let pgDb: { url: string; drop(): Promise<void> };
let db: Db;
let receiver: Receiver;
let apiKey: string;
const dirs: string[] = [];
const procs: ChildProcess[] = [];
const apis: string[] = [];
const workers: ChildProcess[] = [];

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

async function start(args: string[], extra: Record<string, string>): Promise<ChildProcess> {
  const dataDir = await mkdtemp(join(tmpdir(), 'vouch-node-'));
  dirs.push(dataDir);
  const proc = spawn(process.execPath, [BIN, ...args], {
    env: {
      ...process.env, ...s3.env('scale/'), DATABASE_URL: pgDb.url, VOUCH_DATA_DIR: dataDir, VOUCH_LOG_LEVEL: 'warn',
      VOUCH_WEBHOOK_ALLOW_CIDRS: '127.0.0.0/8', VOUCH_JOB_POLL_MS: '50', VOUCH_JOB_LEASE_MS: '3000', VOUCH_ANALYSIS_POOL_SIZE: '1',
      VOUCH_RATE_LIMIT_MAX: '100000', VOUCH_WEBHOOK_RETRY_DELAYS_MS: '500,1000,2000', ...extra,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  procs.push(proc);
  return proc;
}

before(async () => {
  s3 = await startTestS3();
  pgDb = await createPgDatabase();
  db = await openDatabase({ databaseUrl: pgDb.url, dataDir: tmpdir() });
  await db.migrate();
  apiKey = (await createAccount(db, { email: 'scale@example.test', password: 'scale-out password' })).apiKey;
  receiver = await new Receiver().start();
  const accountId = (await db.kysely.selectFrom('accounts').select('id').executeTakeFirstOrThrow()).id;
  await addWebhook(db.kysely, { accountId, url: receiver.url }, { policy: createSsrfPolicy(['127.0.0.0/8']) });
  for (let i = 0; i < 2; i++) {
    const port = await freePort();
    const proc = await start(['serve'], { VOUCH_ROLE: 'api', PORT: String(port), HOST: '127.0.0.1', VOUCH_PUBLIC_URL: `http://127.0.0.1:${port}` });
    const base = `http://127.0.0.1:${port}`;
    await until(async () => {
      if (proc.exitCode !== null) throw new Error(`API ${i} exited (${proc.exitCode})`);
      return fetch(`${base}/readyz`).then((r) => r.ok, () => false);
    }, 60_000, `API ${i} ready`);
    apis.push(base);
  }
  for (let i = 0; i < 2; i++) workers.push(await start(['worker'], {}));
});

after(async () => {
  for (const p of procs) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
  await Promise.all(procs.map((p) => (p.exitCode === null && p.signalCode === null ? once(p, 'exit') : null)));
  await receiver?.close();
  await db?.close();
  await pgDb?.drop();
  await s3?.stop();
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

async function uploadTo(base: string, name: string, content: Buffer): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(content)]), name.split('/')[1]);
  const res = await fetch(`${base}/v1/sessions`, { method: 'POST', body: form, headers: { authorization: `Bearer ${apiKey}` } });
  const body = await res.text();
  assert.equal(res.status, 202, body);
  return (JSON.parse(body) as { id: string }).id;
}

/** The report without what the service adds per session (ids, repo, branch). */
function comparable(report: Record<string, unknown>): Record<string, unknown> {
  const { session_id: _s, report_id: _r, repo: _repo, branch: _b, ...rest } = report;
  return rest;
}

test('two APIs and two workers on PostgreSQL + S3: 200 uploads, 200 reports as the embedded analyser says, each webhook once', async () => {
  const contents = await Promise.all(LOGS.map((l) => readFile(new URL(l, CORPUS))));
  const expected = await Promise.all(LOGS.map(async (l, i) => comparable((await analyzeText(contents[i].toString('utf8'), { filename: l.split('/')[1] })) as unknown as Record<string, unknown>)));
  const uploaded: { id: string; log: number }[] = [];
  let next = 0;
  await Promise.all(Array.from({ length: PARALLEL }, async () => {
    while (next < UPLOADS) {
      const n = next++;
      const log = n % LOGS.length;
      uploaded.push({ id: await uploadTo(apis[n % 2], LOGS[log], contents[log]), log });
    }
  }));
  assert.equal(new Set(uploaded.map((u) => u.id)).size, UPLOADS);

  const complete = async () => Number((await db.kysely.selectFrom('sessions').select((eb) => eb.fn.countAll<number>().as('n')).where('status', '=', 'complete').executeTakeFirstOrThrow()).n);
  await until(async () => (await complete()) === UPLOADS, 300_000, `${UPLOADS} complete sessions`);
  await until(() => new Set(receiver.hits.map((h) => h.headers['x-service-delivery'])).size >= UPLOADS, 120_000, `${UPLOADS} webhooks`);
  await until(async () => (await db.kysely.selectFrom('jobs').select('id').where('dead_at', 'is', null).execute()).length === 0, 60_000, 'no job left');

  for (const [i, u] of uploaded.entries()) {
    const res = await fetch(`${apis[i % 2]}/v1/sessions/${u.id}/report`, { headers: { authorization: `Bearer ${apiKey}` } });
    assert.equal(res.status, 200);
    assert.deepEqual(comparable((await res.json()) as Record<string, unknown>), expected[u.log], `report of ${u.id} (${LOGS[u.log]})`);
  }
  const ids = receiver.hits.map((h) => String(h.headers['x-service-delivery']));
  assert.equal(ids.length, UPLOADS, 'each webhook delivered once (no duplicate request)');
  const sessions = receiver.hits.map((h) => (JSON.parse(h.raw.toString()) as { session_id: string }).session_id); // shape A
  assert.deepEqual([...new Set(sessions)].sort(), uploaded.map((u) => u.id).sort(), 'one webhook per session, for every session');
  assert.equal((await db.kysely.selectFrom('sessions').select('id').where('status', '!=', 'complete').execute()).length, 0, '0 lost or failed');
  // The logs are in the bucket, none on any machine's disk.
  assert.equal((await s3.logKeys('scale/')).length, UPLOADS);
  for (const d of dirs) assert.deepEqual((await readdir(d)).filter((n) => n === 'logs' || n === 'uploads'), [], `no log on the disk of ${d}`);
});

test('a worker SIGKILLed in the middle of an analysis: the other worker finishes the job', async () => {
  // Large enough that its analysis takes a while: 40 MB of a real log repeated.
  const unit = await readFile(new URL(LOGS[2], CORPUS));
  const big = Buffer.concat(Array.from({ length: Math.ceil((40 * 1024 * 1024) / unit.length) }, () => unit));
  const id = await uploadTo(apis[0], 'codex/big.jsonl', big);
  const job = () => db.kysely.selectFrom('jobs').select(['lease_owner', 'attempts']).where('kind', '=', 'analyze').where('payload', 'like', `%${id}%`).executeTakeFirst();
  await until(async () => Boolean((await job())?.lease_owner), 60_000, 'the analyze job claimed');
  const owner = String((await job())?.lease_owner);
  const victim = workers.find((w) => owner.includes(`:${w.pid}:`));
  assert.ok(victim, `a test worker holds the job (${owner})`);
  victim.kill('SIGKILL');
  await once(victim, 'exit');
  const status = async () => (await db.kysely.selectFrom('sessions').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
  assert.equal(await status(), 'analyzing', 'killed before it finished');
  await until(async () => (await status()) === 'complete', 300_000, 'the session completed by the other worker');
  await until(() => receiver.hits.some((h) => h.raw.toString().includes(id)), 60_000, 'its webhook');
  assert.equal(receiver.hits.filter((h) => h.raw.toString().includes(id)).length, 1);
});
