// One pass of `bench/analyze.bench.ts`, in its own process so that its peak RSS is its own.
// Plain JavaScript, so that neither pass runs under a loader (tsx's transpile caches and hooks
// would count in the peak RSS): `node bench/analyze-child.mjs <baseline|analysis> <file> [code]`.
// `code` is the compiled tree to load the analyser from (default: dist/ next to bench/); a path
// ending in `/src` loads the sources instead (run the child with `--import tsx` then).
import { createReadStream, existsSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const MB = 1024 * 1024;
const CHUNK = 4 * MB;

/** The baseline: split lines and JSON.parse each, nothing else (4 MiB reads, indexOf). */
async function baseline(file) {
  const fh = await open(file);
  const buf = Buffer.allocUnsafe(CHUNK);
  let carry = Buffer.alloc(0);
  let records = 0;
  for (;;) {
    const { bytesRead } = await fh.read(buf, 0, CHUNK, null);
    if (bytesRead === 0) break;
    const data = carry.length > 0 ? Buffer.concat([carry, buf.subarray(0, bytesRead)]) : buf.subarray(0, bytesRead);
    let pos = 0;
    for (let nl = data.indexOf(10, pos); nl !== -1; nl = data.indexOf(10, pos)) {
      if (nl > pos) {
        try {
          JSON.parse(data.toString('utf8', pos, nl));
          records++;
        } catch {
          /* counted as nothing */
        }
      }
      pos = nl + 1;
    }
    carry = Buffer.from(data.subarray(pos));
  }
  await fh.close();
  return records;
}

/** The analyser's module from the compiled tree (or the sources). */
async function loadAnalyzer(code) {
  const dir = resolve(code ?? fileURLToPath(new URL('../dist', import.meta.url)));
  const file = dir.endsWith('/src') ? 'domain/analyze.ts' : 'domain/analyze.js';
  return import(pathToFileURL(resolve(dir, file)).href);
}

/**
 * What `vouch analyze FILE` calls: root/local-analysis's analyzeLocalLog (two threads for a big
 * file), or for a tree from before it existed, the analyser itself.
 */
async function loadEntry(code) {
  const dir = resolve(code ?? fileURLToPath(new URL('../dist', import.meta.url)));
  const file = resolve(dir, dir.endsWith('/src') ? 'root/local-analysis.ts' : 'root/local-analysis.js');
  const mod = existsSync(file) ? await import(pathToFileURL(file).href) : {};
  return mod.analyzeLocalLog ?? null;
}

async function tune(code) {
  const dir = resolve(code ?? fileURLToPath(new URL('../dist', import.meta.url)));
  const file = resolve(dir, dir.endsWith('/src') ? 'adapters/analysis-pool/v8-flags.ts' : 'adapters/analysis-pool/v8-flags.js');
  if (existsSync(file)) return (await import(pathToFileURL(file).href)).tuneForAnalysis();
  (await import('node:v8')).setFlagsFromString('--liftoff-only');
}

/**
 * Prints {seconds, cpuSeconds, maxRssMb, loadedRssMb, count}. The analyser's code is loaded (and
 * the shell parser's wasm initialised) before the clock starts: throughput is per MB, and loading
 * is a fixed cost the baseline does not pay either. `loadedRssMb` is the RSS once everything is
 * loaded, so the pass's own growth is maxRssMb − loadedRssMb.
 */
async function main() {
  const [mode, file, code] = process.argv.slice(2);
  let analyze = null;
  if (mode !== 'baseline') {
    // The V8 settings `vouch analyze` applies (unless BENCH_NO_TUNING is set), so the pass
    // measures what the CLI does; trees from before v8-flags.ts existed: the CLI's --liftoff-only.
    if (!process.env.BENCH_NO_TUNING) await tune(code);
    const mod = await loadAnalyzer(code);
    await mod.analyzeStream([]);
    const entry = await loadEntry(code);
    // The second thread's start-up is part of the pass: it is what a user waits for.
    analyze = entry ? (source) => entry(source, {}, statSync(file).size) : mod.analyzeStream;
  }
  const loadedRssMb = process.memoryUsage().rss / MB;
  const t0 = process.hrtime.bigint();
  const cpu0 = process.cpuUsage();
  // Read as `vouch analyze` reads (256 KiB): smaller reads keep Buffer memory flat.
  const count = analyze ? (await analyze(createReadStream(file, { highWaterMark: 256 * 1024 }))).stats.events : await baseline(file);
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const cpu = process.cpuUsage(cpu0);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  process.stdout.write(JSON.stringify({ seconds, cpuSeconds, maxRssMb: process.resourceUsage().maxRSS / 1024, loadedRssMb, count }) + '\n');
}

await main();
