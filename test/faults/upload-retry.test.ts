// `vouch upload` against a server whose database goes away: a `vouch serve` (VOUCH_ROLE=api) on a
// PostgreSQL cluster of the test's own, stopped while the CLI uploads. The server answers 503
// with `Retry-After: 5` meanwhile.
// Checked: the CLI keeps retrying as the server asks (a line on stderr per wait, each waiting the
// 5 s it was told) past the three tries it used to stop at, and succeeds once the database is
// back; the same file uploaded again (a retry whose first answer was lost) is the same session,
// not a second one, because the Idempotency-Key is derived from what is sent; the same file with
// another repo is a new upload (a new session, not 422).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../src/adapters/db/database.ts';
import type { Db } from '../../src/adapters/db/database.ts';
import { createAccount } from '../../src/services/accounts.ts';
import { BIN } from '../helpers/cli.ts';
import { claudeLog } from '../helpers/claude-log.ts';
import { PgCluster, startVouch, waitFor } from './harness.ts';
import type { VouchProcess } from './harness.ts';

let pg: PgCluster;
let db: Db;
let dir: string;
let api: VouchProcess;
let apiKey = '';
let accountId = '';

before(async () => {
  pg = await PgCluster.create();
  dir = mkdtempSync(join(tmpdir(), 'vouch-faults-upload-'));
  db = await openDatabase({ databaseUrl: pg.url(), dataDir: dir });
  await db.migrate();
  ({ apiKey, accountId } = await createAccount(db, { email: 'upload-retry@example.test', password: 'correct horse battery staple' }));
  api = await startVouch('api', 'serve', { DATABASE_URL: pg.url(), VOUCH_DATA_DIR: join(dir, 'data'), VOUCH_ROLE: 'api', VOUCH_RATE_LIMIT_MAX: '100000' });
});

after(async () => {
  await api?.kill9();
  await db?.close();
  pg?.destroy();
  rmSync(dir, { recursive: true, force: true });
});

interface Upload {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `vouch upload FILE --format json` as a child process; `stderr()` shows its output so far. */
function upload(file: string, args: string[] = []): { done: Promise<Upload>; stderr: () => string; exited: () => boolean } {
  const proc = spawn(process.execPath, [BIN, 'upload', file, '--format', 'json', ...args], {
    env: { ...process.env, VOUCH_API_URL: `http://127.0.0.1:${api.port}`, VOUCH_API_KEY: apiKey },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  proc.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  proc.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<Upload>((resolve) => proc.once('close', (code) => resolve({ code, stdout, stderr })));
  return { done, stderr: () => stderr, exited: () => proc.exitCode !== null || proc.signalCode !== null };
}

function logFile(name: string, prompt: string): string {
  const file = join(dir, name);
  writeFileSync(file, claudeLog([{ prompt }, { bash: 'npm test', output: 'ok' }, { say: 'Done.' }]));
  return file;
}

const sessionCount = async () => (await db.kysely.selectFrom('sessions').select('id').where('account_id', '=', accountId).execute()).length;

test('an upload during a database outage keeps retrying as the server asks (Retry-After) and succeeds when it is back', async () => {
  const file = logFile('outage.jsonl', 'fix the flaky test');
  pg.stop();
  const run = upload(file);
  const waits = () => run.stderr().split('\n').filter((l) => l.includes('retrying in')).length;
  try {
    // More waits than the three tries the CLI used to give up after.
    await waitFor(() => waits() >= 4 || run.exited(), 'four waits of the CLI', 120_000);
  } finally {
    pg.start();
  }
  const r = await run.done;
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stderr.trim().split('\n');
  assert.ok(lines.length >= 4, r.stderr);
  for (const line of lines) assert.match(line, /^vouch upload: the server answered 503 .*; retrying in 5 s \(try \d+, giving up in /, 'each wait is the Retry-After the server sent');
  const session = JSON.parse(r.stdout) as { id: string };
  assert.match(session.id, /^ses_/);
});

test('the same file uploaded again is the same session (content-derived Idempotency-Key); with another repo it is a new one', async () => {
  const file = logFile('twice.jsonl', 'rename the config loader');
  const before = await sessionCount();
  const first = await upload(file).done;
  const again = await upload(file).done;
  assert.equal(first.code, 0, first.stderr);
  assert.equal(again.code, 0, again.stderr);
  assert.equal((JSON.parse(again.stdout) as { id: string }).id, (JSON.parse(first.stdout) as { id: string }).id, 'a retry of the same upload answers the first session');
  assert.equal(await sessionCount(), before + 1);
  const otherRepo = await upload(file, ['--repo', 'acme/other']).done;
  assert.equal(otherRepo.code, 0, otherRepo.stderr);
  assert.notEqual((JSON.parse(otherRepo.stdout) as { id: string }).id, (JSON.parse(first.stdout) as { id: string }).id);
  assert.equal(await sessionCount(), before + 2);
});
