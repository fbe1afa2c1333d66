// An embedded `vouch serve` (SQLite) is killed with SIGKILL while it holds a job and while an
// upload is arriving, then started again on the same data directory.
// The lease is 10 minutes (VOUCH_JOB_LEASE_MS) and the webhook timeout as long, so without the
// restart taking its previous self's job back at once, the delivery would not be retried
// within this test's bounded wait (60 s). Checked: the restarted server re-sends the delivery
// that was in flight, with the same delivery id, and it completes; the interrupted upload's
// temp file is removed at start (not after the orphan age); nothing else is lost.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { ServerResponse } from 'node:http';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../src/adapters/db/database.ts';
import { createAccount } from '../../src/services/accounts.ts';
import { addWebhook } from '../../src/services/webhooks/registry.ts';
import { createSsrfPolicy } from '../../src/adapters/outbound/index.ts';
import { claudeLog } from '../helpers/claude-log.ts';
import { startVouch, waitFor } from './harness.ts';
import type { VouchProcess } from './harness.ts';

let dir: string;
const procs: VouchProcess[] = [];
const hits: string[] = [];
const hanging: ServerResponse[] = [];
const receiver = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    hits.push(String(req.headers['x-service-delivery']));
    // The first attempt never gets an answer: its job stays leased by the process we kill.
    if (hits.length === 1) hanging.push(res);
    else res.writeHead(200).end();
  });
});

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'vouch-faults-restart-'));
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
});

after(async () => {
  for (const p of procs) await p.kill9();
  for (const res of hanging) res.destroy();
  receiver.closeAllConnections();
  await new Promise((r) => receiver.close(r));
  rmSync(dir, { recursive: true, force: true });
});

test('kill -9 and restart: the job its previous self held is taken back at once (same delivery id), the interrupted upload\'s temp file removed', async () => {
  const db = await openDatabase({ dataDir: dir });
  await db.migrate();
  const { accountId, apiKey } = await createAccount(db, { email: 'restart@example.test', password: 'correct horse battery staple' });
  const url = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
  await addWebhook(db.kysely, { accountId, url, shape: 'A', secret: 'restart-secret' }, { policy: createSsrfPolicy('127.0.0.0/8') });

  const env = {
    VOUCH_DATA_DIR: dir, DATABASE_URL: '', VOUCH_JOB_LEASE_MS: '600000', VOUCH_WEBHOOK_TIMEOUT_MS: '600000', VOUCH_WEBHOOK_ALLOW_CIDRS: '127.0.0.0/8',
    VOUCH_ANALYSIS_POOL_SIZE: '1', VOUCH_JOB_POLL_MS: '200',
  };
  const first = await startVouch('serve-1', 'serve', env);
  procs.push(first);
  const form = new FormData();
  form.set('file', new Blob([claudeLog([{ prompt: 'hi' }, { say: 'done' }])]), 's.jsonl');
  const r = await fetch(`http://127.0.0.1:${first.port}/v1/sessions`, { method: 'POST', body: form, headers: { authorization: `Bearer ${apiKey}` } });
  assert.equal(r.status, 202);
  await waitFor(() => hits.length === 1, 'the first delivery attempt to reach the receiver', 60_000);
  const held = await db.kysely.selectFrom('jobs').select(['lease_owner', 'lease_expires_at']).where('kind', '=', 'deliver').executeTakeFirstOrThrow();
  assert.match(String(held.lease_owner), new RegExp(`:${first.proc.pid}:`), 'the delivery job is leased by the first process');

  // An upload in progress at the moment of the kill: its temp file stays behind.
  const boundary = 'b0undary';
  const slow = connect(first.port!, '127.0.0.1');
  slow.on('error', () => {});
  slow.write([
    'POST /v1/sessions HTTP/1.1', 'Host: x', `Content-Type: multipart/form-data; boundary=${boundary}`, 'Content-Length: 1000000', `Authorization: Bearer ${apiKey}`, '',
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="p.jsonl"\r\n\r\n${'{"x":1}\n'.repeat(2000)}`,
  ].join('\r\n'));
  await waitFor(() => readdirSync(join(dir, 'uploads')).length === 1, 'the interrupted upload\'s temp file', 30_000);

  await first.kill9();
  slow.destroy();
  const second = await startVouch('serve-2', 'serve', env);
  procs.push(second);
  await waitFor(() => hits.length >= 2, 'the restarted server to re-send the delivery (its lease still had ~10 min to run)', 60_000);
  assert.equal(hits[1], hits[0], 'the same delivery id');
  await waitFor(async () => (await db.kysely.selectFrom('jobs').select('id').where('kind', '=', 'deliver').execute()).length === 0, 'the delivery job to complete', 60_000);
  await waitFor(() => readdirSync(join(dir, 'uploads')).length === 0, 'the interrupted upload\'s temp file to be removed at start', 30_000);
  const sessions = await db.kysely.selectFrom('sessions').select(['status']).execute();
  assert.deepEqual(sessions.map((s) => s.status), ['complete'], 'the accepted session is there, complete; the interrupted one never was');
  await db.close();
  assert.equal(second.unexpectedExit, null);
});
