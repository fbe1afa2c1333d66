// `npm run bench:logstore`: one large upload through `vouch serve` (VOUCH_ROLE=api, SQLite) into
// the file store and into the S3 store, rounds interleaved, with the server's RSS sampled from
// /proc. The bucket is s3rver (pure JavaScript) in its own child process on this machine, so the
// S3 figure includes a local S3 server's own disk writes: a lower bound for a real bucket's path.
// Targets (issue 17): the S3 upload adds < 100 MB to the API process's RSS and runs at ≥ 0.8×
// the file store's MB/s. BENCH_UPLOAD_MB (default 1024), BENCH_ROUNDS (default 2). It also prints
// the API process's CPU seconds per GB for each store: the part of the cost that is Vouch's own
// (on this 2-core machine s3rver, the API and the client share the CPU; s3rver writes each part,
// then copies the parts into the object on completion, which a real bucket does not charge us).
// In the same run, a second baseline without Vouch: the same bytes sent from this process straight
// into s3rver, read from the file — as segment objects with the store's part size and queue (the
// store's own layout), as a multipart upload of the same parts (with the time of s3rver's
// CompleteMultipartUpload, which rewrites the whole object), and as one streamed PutObject: what
// s3rver itself takes in on this machine, the ceiling for any S3 store measured here.
// Not a test: it prints a table and exits 1 when a target is missed.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { closeSync, createReadStream, createWriteStream, existsSync, mkdtempSync, openAsBlob, openSync, readFileSync, readSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import net from 'node:net';
import { CompleteMultipartUploadCommand, CreateMultipartUploadCommand, DeleteObjectCommand, PutObjectCommand, UploadPartCommand } from '@aws-sdk/client-s3';
import { openDatabase } from '../src/adapters/db/database.ts';
import { createS3Client, PART_BYTES, QUEUE_SIZE, segmentKey } from '../src/adapters/logstore/s3-store.ts';
import { createAccount } from '../src/services/accounts.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MB = 1024 * 1024;
const UPLOAD_BYTES = Number(process.env.BENCH_UPLOAD_MB ?? 1024) * MB;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const BUCKET = 'vouch-bench';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

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

async function waitUp(proc: ChildProcess, url: string, what: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (proc.exitCode !== null) throw new Error(`${what} exited with ${proc.exitCode}`);
    try {
      await fetch(url);
      return;
    } catch {
      await sleep(100);
    }
  }
  throw new Error(`${what} did not start`);
}

async function startS3(dir: string): Promise<{ proc: ChildProcess; endpoint: string }> {
  const port = await freePort();
  const code = `import S3rver from 's3rver';
const s = new S3rver({ address: '127.0.0.1', port: ${port}, directory: ${JSON.stringify(dir)}, silent: true, configureBuckets: [{ name: '${BUCKET}' }] });
await s.run();`;
  const proc = spawn(process.execPath, ['--input-type=module', '-e', code], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  const endpoint = `http://127.0.0.1:${port}`;
  await waitUp(proc, endpoint, 's3rver');
  return { proc, endpoint };
}

async function startServer(env: Record<string, string>): Promise<{ proc: ChildProcess; base: string }> {
  const port = await freePort();
  const proc = spawn(process.execPath, [join(ROOT, 'bin/vouch.mjs'), 'serve'], {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', VOUCH_ROLE: 'api', VOUCH_LOG_LEVEL: 'warn', VOUCH_MAX_UPLOAD_BYTES: String(2 * UPLOAD_BYTES), AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  await waitUp(proc, `${base}/healthz`, 'vouch serve');
  return { proc, base };
}

async function logFile(): Promise<string> {
  const file = join(tmpdir(), `vouch-bench-upload-${UPLOAD_BYTES / MB}mb.jsonl`);
  if (existsSync(file) && statSync(file).size === UPLOAD_BYTES) return file;
  const out = createWriteStream(file);
  const line = Buffer.from(JSON.stringify({ type: 'assistant', message: { content: [{ type: 'text', text: 'x'.repeat(900) }] } }) + '\n');
  let written = 0;
  while (written < UPLOAD_BYTES) {
    const piece = line.subarray(0, Math.min(line.length, UPLOAD_BYTES - written));
    if (!out.write(piece)) await new Promise<void>((r) => out.once('drain', () => r()));
    written += piece.length;
  }
  await new Promise<void>((r) => out.end(() => r()));
  return file;
}

/** User + system CPU seconds of a process so far (/proc/<pid>/stat, 100 ticks a second). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : 0;
}

interface Round {
  mbps: number;
  growth: number;
  cpuPerGb: number;
  /** s3rver's CPU seconds per GB during the upload (0 for the file store, which does not use it). */
  s3rverCpuPerGb: number;
  /** Raw multipart only: seconds s3rver took to answer CompleteMultipartUpload (it copies every part into the object). */
  completeSeconds?: number;
}

const GB = 1024 * MB;

async function upload(server: { proc: ChildProcess; base: string }, key: string, file: string, s3rverPid: number): Promise<Round> {
  const pid = server.proc.pid as number;
  const s3cpu0 = cpuSeconds(s3rverPid);
  const baseline = rssMb(pid);
  const cpu0 = cpuSeconds(pid);
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 25);
  const form = new FormData();
  form.append('file', await openAsBlob(file), 'big.jsonl');
  const started = performance.now();
  const res = await fetch(`${server.base}/v1/sessions`, { method: 'POST', body: form, headers: { authorization: `Bearer ${key}` } });
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, rssMb(pid));
  if (res.status !== 202) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
  const cpuPerGb = (cpuSeconds(pid) - cpu0) / (UPLOAD_BYTES / GB);
  return { mbps: UPLOAD_BYTES / MB / seconds, growth: peak - baseline, cpuPerGb, s3rverCpuPerGb: (cpuSeconds(s3rverPid) - s3cpu0) / (UPLOAD_BYTES / GB) };
}

/**
 * Second baseline, without Vouch: the same bytes from the file straight into s3rver with the same
 * SDK client settings — as a multipart upload with the store's part size and queue, and as one
 * streamed PutObject. What s3rver itself takes in on this machine bounds what any S3 store can reach here.
 */
async function rawIntoS3rver(endpoint: string, file: string, mode: 'segments' | 'multipart' | 'put', s3rverPid: number): Promise<Round> {
  const client = createS3Client({ bucket: BUCKET, prefix: '', endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
  const key = `raw/${mode}-${Date.now()}`;
  const s3cpu0 = cpuSeconds(s3rverPid);
  const started = performance.now();
  let completeSeconds: number | undefined;
  if (mode === 'multipart') completeSeconds = await rawMultipart(client, file, key);
  else if (mode === 'segments') await rawSegments(client, file, key);
  else await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: createReadStream(file), ContentLength: UPLOAD_BYTES }));
  const seconds = (performance.now() - started) / 1000;
  const s3rverCpuPerGb = (cpuSeconds(s3rverPid) - s3cpu0) / (UPLOAD_BYTES / GB);
  for (let n = 1; n <= (mode === 'segments' ? Math.ceil(UPLOAD_BYTES / PART_BYTES) : 1); n++) {
    await client.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: segmentKey(key, n) })); // keep the disk from filling
  }
  client.destroy();
  return { mbps: UPLOAD_BYTES / MB / seconds, growth: 0, cpuPerGb: 0, s3rverCpuPerGb, completeSeconds };
}

/** Sends the file in parts of the store's size, `QUEUE_SIZE` at once, each read from the file just before. */
async function sendParts(file: string, send: (body: Buffer, partNumber: number) => Promise<unknown>): Promise<void> {
  const fd = openSync(file, 'r');
  const inFlight = new Set<Promise<unknown>>();
  try {
    for (let offset = 0, n = 1; offset < UPLOAD_BYTES; offset += PART_BYTES, n++) {
      const body = Buffer.allocUnsafe(Math.min(PART_BYTES, UPLOAD_BYTES - offset));
      readSync(fd, body, 0, body.length, offset);
      const sending: Promise<unknown> = send(body, n).finally(() => inFlight.delete(sending));
      inFlight.add(sending);
      if (inFlight.size >= QUEUE_SIZE) await Promise.race(inFlight);
    }
    await Promise.all(inFlight);
  } finally {
    closeSync(fd);
  }
}

/** The file as segment objects (the store's layout), with the store's part size and queue. */
async function rawSegments(client: ReturnType<typeof createS3Client>, file: string, key: string): Promise<void> {
  await sendParts(file, (body, n) => client.send(new PutObjectCommand({ Bucket: BUCKET, Key: segmentKey(key, n), Body: body, ContentLength: body.length })));
}

/** The file as a multipart upload with the store's part size and queue; returns the seconds CompleteMultipartUpload took. */
async function rawMultipart(client: ReturnType<typeof createS3Client>, file: string, key: string): Promise<number> {
  const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: BUCKET, Key: key }));
  const parts: { PartNumber: number; ETag?: string }[] = [];
  await sendParts(file, async (body, PartNumber) => {
    const r = await client.send(new UploadPartCommand({ Bucket: BUCKET, Key: key, UploadId, PartNumber, Body: body, ContentLength: body.length }));
    parts.push({ PartNumber, ETag: r.ETag });
  });
  const started = performance.now();
  await client.send(new CompleteMultipartUploadCommand({ Bucket: BUCKET, Key: key, UploadId, MultipartUpload: { Parts: parts.sort((a, b) => a.PartNumber - b.PartNumber) } }));
  return (performance.now() - started) / 1000;
}

async function main(): Promise<void> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true'; // the raw baseline's client, in this process
  const work = mkdtempSync(join(tmpdir(), 'vouch-bench-logstore-'));
  const children: ChildProcess[] = [];
  try {
    const file = await logFile();
    const s3 = await startS3(join(work, 's3'));
    children.push(s3.proc);
    const stores: Record<string, Record<string, string>> = {
      file: { VOUCH_LOG_STORE: 'file' },
      s3: { VOUCH_LOG_STORE: `s3://${BUCKET}/bench`, VOUCH_S3_ENDPOINT: s3.endpoint, VOUCH_S3_FORCE_PATH_STYLE: 'true', AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' },
    };
    const results: Record<string, Round[]> = { file: [], s3: [], rawSegments: [], rawMultipart: [], rawPut: [] };
    const s3rverPid = s3.proc.pid as number;
    for (const [name, env] of Object.entries(stores)) {
      const dataDir = join(work, name);
      const db = await openDatabase({ dataDir });
      await db.migrate();
      const { apiKey } = await createAccount(db, { email: `bench-${name}@example.test`, password: 'bench password' });
      await db.close();
      Object.assign(env, { VOUCH_DATA_DIR: dataDir, KEY: apiKey });
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, env] of Object.entries(stores)) {
        const server = await startServer(env);
        children.push(server.proc);
        await upload(server, env.KEY, file, s3rverPid).then((r) => results[name].push(r));
        server.proc.kill('SIGTERM');
        await new Promise((r) => server.proc.once('exit', r));
        rmSync(join(env.VOUCH_DATA_DIR, 'logs'), { recursive: true, force: true }); // keep the disk from filling
      }
      results.rawSegments.push(await rawIntoS3rver(s3.endpoint, file, 'segments', s3rverPid));
      results.rawMultipart.push(await rawIntoS3rver(s3.endpoint, file, 'multipart', s3rverPid));
      results.rawPut.push(await rawIntoS3rver(s3.endpoint, file, 'put', s3rverPid));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const fileMbps = median(results.file.map((r) => r.mbps));
    const s3Mbps = median(results.s3.map((r) => r.mbps));
    const s3Growth = Math.max(...results.s3.map((r) => r.growth));
    const ratio = s3Mbps / fileMbps;
    console.log(`upload ${UPLOAD_BYTES / MB} MB, ${ROUNDS} rounds interleaved, median:`);
    console.log(`  file store  ${fileMbps.toFixed(1)} MB/s, RSS growth max ${Math.max(...results.file.map((r) => r.growth)).toFixed(0)} MB  (rounds: ${results.file.map((r) => r.mbps.toFixed(1)).join(', ')})`);
    console.log(`  S3 store    ${s3Mbps.toFixed(1)} MB/s, RSS growth max ${s3Growth.toFixed(0)} MB  (rounds: ${results.s3.map((r) => r.mbps.toFixed(1)).join(', ')})`);
    const cpuFile = median(results.file.map((r) => r.cpuPerGb));
    const cpuS3 = median(results.s3.map((r) => r.cpuPerGb));
    console.log(`  API process CPU per GB: file ${cpuFile.toFixed(1)} s, S3 ${cpuS3.toFixed(1)} s (S3/file ${(cpuS3 / cpuFile).toFixed(2)}×)`);
    const s3rverCpu = (rs: Round[]) => median(rs.map((r) => r.s3rverCpuPerGb)).toFixed(1);
    console.log(`  s3rver CPU per GB: through the S3 store ${s3rverCpu(results.s3)} s`);
    for (const [name, label] of [['rawSegments', `raw segments as the store writes them, ${PART_BYTES / MB} MiB × ${QUEUE_SIZE}`], ['rawMultipart', `raw multipart, ${PART_BYTES / MB} MiB × ${QUEUE_SIZE}`], ['rawPut', 'raw PutObject stream']] as const) {
      const mbps = median(results[name].map((r) => r.mbps));
      const complete = name === 'rawMultipart' ? `, of which CompleteMultipartUpload ${results[name].map((r) => r.completeSeconds?.toFixed(1)).join(', ')} s` : '';
      console.log(`  baseline without Vouch, same bytes into s3rver (${label}): ${mbps.toFixed(1)} MB/s = ${(mbps / fileMbps).toFixed(2)}× file, S3 store ${(s3Mbps / mbps).toFixed(2)}× of it, s3rver CPU ${s3rverCpu(results[name])} s/GB (rounds: ${results[name].map((r) => r.mbps.toFixed(1)).join(', ')}${complete})`);
    }
    console.log(`  ratio S3/file ${ratio.toFixed(2)}× (target ≥ 0.8×) · S3 RSS growth ${s3Growth.toFixed(0)} MB (target < 100 MB)`);
    if (ratio < 0.8 || s3Growth >= 100) process.exitCode = 1;
  } finally {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
