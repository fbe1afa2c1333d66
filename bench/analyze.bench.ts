// `npm run bench`: analyser throughput and memory, as ratios against a baseline measured in the
// same run. Not a test: it prints figures.
//
// Inputs are generated at run time from the corpus (nothing big is committed): a 200 MB Claude
// Code log and a 100 MB Codex log (corpus files repeated). For each input, in separate child
// processes so peak RSS is the pass's own:
//   baseline  — a tuned pass that only splits lines and JSON.parses them (4 MiB reads, indexOf)
//   analysis  — the full `analyzeStream` (parse, facts, rules, report)
// `--huge` adds a 1 GB Claude Code log to check that peak RSS stays flat whatever the size.
import { spawnSync } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';

const CORPUS = fileURLToPath(new URL('../../shared/corpus/', import.meta.url));
const OUT = join(tmpdir(), 'vouch-bench');
const MB = 1024 * 1024;
const CHUNK = 4 * MB;

/**
 * One copy of the corpus per repetition, with its ids rewritten so that each copy reads as a
 * distinct session (the parsers deduplicate records they have already seen: a plain repetition
 * would measure the dedupe path, not the analysis). UUIDs get the repetition in their last group;
 * tool-use / message / call / request ids get a suffix.
 */
const UUID = /\b([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-)[0-9a-f]{4}([0-9a-f]{8})\b/gi;
const PREFIXED_ID = /\b((?:toolu|srvtoolu|msg|call|req|fc|rs|resp)_[A-Za-z0-9]{6,})/g;

function repetition(text: string, rep: number): string {
  if (rep === 0) return text;
  const hex = (rep % 0x10000).toString(16).padStart(4, '0');
  return text.replace(UUID, `$1${hex}$2`).replace(PREFIXED_ID, `$1r${rep}`);
}

async function generate(name: string, dir: string, bytes: number): Promise<string> {
  const file = join(OUT, name);
  if (existsSync(file) && statSync(file).size >= bytes) return file;
  mkdirSync(OUT, { recursive: true });
  const parts = readdirSync(join(CORPUS, dir)).filter((f) => f.endsWith('.jsonl')).sort().map((f) => readFileSync(join(CORPUS, dir, f), 'utf8'));
  const out = createWriteStream(file);
  let written = 0;
  for (let rep = 0; written < bytes; rep++) {
    for (const p of parts) {
      const text = repetition(p, rep);
      const data = text.endsWith('\n') ? text : text + '\n';
      if (!out.write(data)) await new Promise<void>((r) => out.once('drain', () => r()));
      written += Buffer.byteLength(data);
      if (written >= bytes) break;
    }
  }
  await new Promise<void>((r) => out.end(() => r()));
  return file;
}

/** The baseline: split lines and JSON.parse each, nothing else. */
async function baseline(file: string): Promise<number> {
  const fh = await open(file);
  const buf = Buffer.allocUnsafe(CHUNK);
  let carry: Buffer = Buffer.alloc(0);
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

async function analysis(file: string, analyzeStream: AnalyzeStream): Promise<number> {
  // Read as `vouch analyze` reads (256 KiB): smaller reads keep Buffer memory flat.
  const report = await analyzeStream(createReadStream(file, { highWaterMark: 256 * 1024 }));
  return report.stats.events;
}

type AnalyzeStream = (typeof import('../src/domain/analyze.ts'))['analyzeStream'];

/**
 * Child mode: run one pass and print {seconds, maxRssMb, loadedRssMb, count}. The analyser's
 * code is loaded (and the shell parser's wasm initialised) before the clock starts: throughput is
 * per MB, and loading is a fixed cost the baseline does not pay either. `loadedRssMb` is the RSS
 * once everything is loaded, so the pass's own growth is maxRssMb − loadedRssMb.
 */
async function child(mode: string, file: string): Promise<void> {
  let analyze: AnalyzeStream | null = null;
  if (mode !== 'baseline') {
    const mod = await import('../src/domain/analyze.ts');
    await mod.analyzeStream([]);
    analyze = mod.analyzeStream;
  }
  const loadedRssMb = process.memoryUsage().rss / MB;
  const t0 = process.hrtime.bigint();
  const count = analyze ? await analysis(file, analyze) : await baseline(file);
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  process.stdout.write(JSON.stringify({ seconds, maxRssMb: process.resourceUsage().maxRSS / 1024, loadedRssMb, count }) + '\n');
}

interface Pass {
  seconds: number;
  maxRssMb: number;
  loadedRssMb: number;
  count: number;
}

function measure(mode: string, file: string): Pass {
  const self = fileURLToPath(import.meta.url);
  const r = spawnSync(process.execPath, ['--import', 'tsx', self, '--child', mode, file], { encoding: 'utf8', maxBuffer: 16 * MB });
  if (r.status !== 0) throw new Error(`${mode} failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as Pass;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] === '--child') return child(args[1], args[2]);
  const inputs: [string, string][] = [
    ['claude-code 200 MB', await generate('claude-200mb-v2.jsonl', 'claude-code', 200 * MB)],
    ['codex 100 MB', await generate('codex-100mb-v2.jsonl', 'codex', 100 * MB)],
  ];
  if (args.includes('--huge')) inputs.push(['claude-code 1 GB', await generate('claude-1gb-v2.jsonl', 'claude-code', 1024 * MB)]);
  if (args.includes('--prepare')) return;
  console.log('input                 size   baseline MB/s  analysis MB/s  ratio   peak RSS (baseline / analysis)  analysis RSS: loaded → peak (+growth)');
  for (const [label, file] of inputs) {
    const size = statSync(file).size / MB;
    const base = measure('baseline', file);
    const full = measure('analysis', file);
    const bRate = size / base.seconds;
    const aRate = size / full.seconds;
    console.log(
      `${label.padEnd(20)} ${size.toFixed(0).padStart(5)}  ${bRate.toFixed(1).padStart(13)}  ${aRate.toFixed(1).padStart(13)}  ${(aRate / bRate).toFixed(3).padStart(5)}×  ${`${base.maxRssMb.toFixed(0)} MB / ${full.maxRssMb.toFixed(0)} MB`.padEnd(31)}  ${full.loadedRssMb.toFixed(0)} → ${full.maxRssMb.toFixed(0)} MB (+${(full.maxRssMb - full.loadedRssMb).toFixed(0)} MB), ${full.count} events`,
    );
  }
  console.log('target: analysis ≥ 0.25× baseline (stretch 0.33×), analysis peak RSS ≤ 150 MB at any size');
}

await main();
