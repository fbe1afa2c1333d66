// A full disk, for real:
//   1. `vouch serve` (embedded SQLite) on a 32 MiB tmpfs that a filler file then fills: /readyz
//      turns 503 (free space below VOUCH_MIN_FREE_DISK_BYTES), an upload is answered 507
//      insufficient_storage with Retry-After and a generic detail (never the internal ENOSPC
//      message, never a 4xx), nothing of it is kept, and the outage is logged at error level
//      once, not per request. With the filler gone: ready again, uploads accepted and analysed.
//      (Mounting needs root or CAP_SYS_ADMIN: where the machine refuses, the test is skipped
//      with the reason, and with CI=true a skip fails the run.)
//   2. SQLite itself out of space (max_page_count, SQLite's own limit: the same SQLITE_FULL as a
//      full disk, after which SQLite has rolled the transaction back by itself): the job that
//      hit it records "database or disk is full", not "cannot rollback - no transaction is
//      active", and is deferred without spending an attempt.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readdirSync, rmSync, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { openDatabase } from '../../src/adapters/db/database.ts';
import { createJobRunner, enqueueJob, getJob } from '../../src/adapters/jobs/index.ts';
import { createAccount } from '../../src/services/accounts.ts';
import { claudeLog } from '../helpers/claude-log.ts';
import { errorLines, startVouch, waitFor } from './harness.ts';
import type { VouchProcess } from './harness.ts';

const MIN_FREE = 8 * 1024 * 1024;
let mountDir = '';
let mounted = false;
let mountRefusal = '';
let serve: VouchProcess | undefined;

before(() => {
  mountDir = mkdtempSync(join(tmpdir(), 'vouch-faults-disk-'));
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=32m', 'tmpfs', mountDir], { encoding: 'utf8' });
  mounted = r.status === 0;
  if (!mounted) mountRefusal = (r.stderr || r.error?.message || `mount exited ${r.status}`).trim();
});

after(async () => {
  await serve?.kill9();
  if (mounted) spawnSync('umount', [mountDir]);
  rmSync(mountDir, { recursive: true, force: true });
});

function fill(path: string, leaveBytes: number): void {
  const chunk = Buffer.alloc(256 * 1024);
  for (;;) {
    const { bavail, bsize } = statfsSync(mountDir);
    if (bavail * bsize <= leaveBytes + chunk.length) break;
    appendFileSync(path, chunk);
  }
}

async function upload(port: number, apiKey: string, body: string): Promise<Response> {
  const form = new FormData();
  form.set('file', new Blob([body]), 'big.jsonl');
  return fetch(`http://127.0.0.1:${port}/v1/sessions`, { method: 'POST', body: form, headers: { authorization: `Bearer ${apiKey}` }, signal: AbortSignal.timeout(60_000) });
}

test('a full disk: /readyz 503, uploads 507 with Retry-After and nothing kept, logged once; all well again once space is back', async (t) => {
  if (!mounted) return t.skip(`cannot mount a tmpfs here: ${mountRefusal}`);
  const db = await openDatabase({ dataDir: mountDir });
  await db.migrate();
  const { apiKey } = await createAccount(db, { email: 'disk@example.test', password: 'correct horse battery staple' });
  await db.close();
  serve = await startVouch('serve', 'serve', { VOUCH_DATA_DIR: mountDir, DATABASE_URL: '', VOUCH_MIN_FREE_DISK_BYTES: String(MIN_FREE), VOUCH_ANALYSIS_POOL_SIZE: '1', VOUCH_JOB_POLL_MS: '200' });
  const port = serve.port!;
  assert.equal((await fetch(`http://127.0.0.1:${port}/readyz`)).status, 200);

  const filler = join(mountDir, 'filler');
  fill(filler, 128 * 1024);
  const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
  assert.equal(ready.status, 503, 'not ready while free space is below the threshold');
  const readyBody = (await ready.json()) as { code: string; free_bytes: number };
  assert.equal(readyBody.code, 'not_ready');
  assert.ok(readyBody.free_bytes < MIN_FREE);

  // A log of ~2 MiB: more than the disk has left.
  const big = claudeLog(Array.from({ length: 400 }, (_, i) => ({ bash: `echo ${i}`, output: 'y'.repeat(5000) })));
  for (let i = 0; i < 3; i++) {
    const r = await upload(port, apiKey, big);
    const body = (await r.json()) as { code: string; detail: string };
    assert.equal(r.status, 507, JSON.stringify(body));
    assert.equal(body.code, 'insufficient_storage');
    assert.equal(r.headers.get('retry-after'), '5');
    assert.doesNotMatch(body.detail, /ENOSPC|no space left|SQLITE|device/i, 'the internal message is not shown');
  }
  assert.deepEqual(readdirSync(join(mountDir, 'uploads')), [], 'no partial upload kept');
  const errors = errorLines(serve.output());
  assert.equal(errors.length, 1, `one error-level line for the outage, not one per request: ${JSON.stringify(errors).slice(0, 3000)}`);
  assert.match(String(errors[0].msg), /out of space/);

  rmSync(filler);
  assert.equal((await fetch(`http://127.0.0.1:${port}/readyz`)).status, 200, 'ready again once space is back');
  const r = await upload(port, apiKey, big);
  assert.equal(r.status, 202);
  const { id } = (await r.json()) as { id: string };
  await waitFor(async () => {
    const report = await fetch(`http://127.0.0.1:${port}/v1/sessions/${id}/report`, { headers: { authorization: `Bearer ${apiKey}` } });
    return report.status === 200;
  }, 'the accepted upload to be analysed', 60_000, 200);
  assert.equal(serve.unexpectedExit, null);
});

test('SQLite out of space inside a job: the job records the real error and is deferred without spending an attempt', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'vouch-faults-sqlite-full-'));
  const db = await openDatabase({ dataDir: dir });
  try {
    await db.migrate();
    const id = await enqueueJob(db.kysely, { kind: 'fill', payload: null, maxAttempts: 3 });
    assert.ok(id);
    const runner = createJobRunner({
      db, owner: 'disk-test', pollMs: 20, leaseMs: 10_000,
      processors: {
        fill: async () => {
          // SQLite's own cap on the file, a few pages above its size: the write below needs far more.
          const pages = (await sql<{ page_count: number }>`pragma page_count`.execute(db.kysely)).rows[0].page_count;
          await sql.raw(`pragma max_page_count = ${pages + 4}`).execute(db.kysely);
          await db.kysely.transaction().execute(async (trx) => {
            await sql`create table if not exists ballast (b blob)`.execute(trx);
            await sql`insert into ballast values (${Buffer.alloc(1024 * 1024)})`.execute(trx);
          });
        },
      },
    });
    runner.start();
    await waitFor(async () => (await getJob(db.kysely, id))?.last_error != null, 'the job to record its failure', 30_000, 20);
    await runner.stop();
    const job = await getJob(db.kysely, id);
    assert.match(String(job?.last_error), /database or disk is full/);
    assert.doesNotMatch(String(job?.last_error), /cannot rollback/);
    assert.equal(job?.attempts, 0, 'the interrupted run did not count as an attempt');
    assert.equal(job?.dead_at, null);
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
