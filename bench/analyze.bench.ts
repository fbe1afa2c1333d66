// `npm run bench`: analyser throughput and memory, as ratios against a baseline measured in the
// same run. Not a test: it prints figures.
//
// Inputs are generated afresh by every run from the corpus (bench/inputs.ts; nothing big is
// committed, and they are deleted at the end): a 200 MB Claude Code log and a 100 MB Codex log
// (corpus files repeated, each repetition varied, with a variation of its own per run). Options: `--mb N` (N MB Claude Code, N/2 MB Codex, for iterating), `--runs N`
// (default 3: median and spread), `--only claude|codex|huge`, `--analysis-flags "--max-semi-space-size=2"`,
// `--prepare` (generate and print the paths, kept), `--single` (also one thread per round), `--code DIR` (the compiled tree to analyse with,
// default dist/, rebuilt first when stale), `--compare DIR` (a second tree in the same rounds), `--source` (src/ under tsx instead). For each input,
// in separate plain-JavaScript child processes (bench/analyze-child.mjs, no loader) so peak RSS
// is the pass's own:
//   baseline  — a tuned pass that only splits lines and JSON.parses them (4 MiB reads, indexOf)
//   analysis  — what `vouch analyze FILE` runs (root/local-analysis analyzeLocalLog: parse, facts,
//               rules, report; on two threads when it decides so) from the compiled build
// The targets of issue 30 (≥ 0.5× the baseline, wall clock; peak RSS ≤ 150 MB) are printed per input.
// `--huge` adds a 1 GB Claude Code log to check that peak RSS stays flat whatever the size.
import { spawnSync } from 'node:child_process';
import { rmSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { generate, generated, MB, RUN } from './inputs.ts';

interface Pass {
  seconds: number;
  /** CPU time of the process (all threads, user + system): what the pass cost on a shared machine. */
  cpuSeconds: number;
  maxRssMb: number;
  loadedRssMb: number;
  count: number;
}

/** `--analysis-flags "…"`: Node/V8 flags for the analysis children only (to try runtime settings). */
const ANALYSIS_FLAGS = (() => {
  const i = process.argv.indexOf('--analysis-flags');
  return i === -1 ? [] : (process.argv[i + 1] ?? '').split(/\s+/).filter(Boolean);
})();

/**
 * `--code DIR`: the compiled tree the analysis children load (default dist/, built first by
 * `npm run bench`); `--source`: load src/ through tsx instead (the loader's memory then counts).
 */
const CODE_DIR = (() => {
  const i = process.argv.indexOf('--code');
  if (i !== -1) return resolve(process.argv[i + 1]);
  return fileURLToPath(new URL(process.argv.includes('--source') ? '../src' : '../dist', import.meta.url));
})();

/**
 * `--compare DIR`: a second compiled tree (e.g. a copy of an older dist/) analysed in every round
 * too, against the same baseline, so that before/after come from the same moments of a shared
 * machine.
 */
const COMPARE_DIR = (() => {
  const i = process.argv.indexOf('--compare');
  return i === -1 ? null : resolve(process.argv[i + 1]);
})();

/** `--single`: also analyse on one thread in every round (VOUCH_ANALYSIS_THREADS=1), for comparison. */
const SINGLE = process.argv.includes('--single');

function measure(mode: string, file: string, code = CODE_DIR, env: NodeJS.ProcessEnv = {}): Pass {
  const childScript = fileURLToPath(new URL('./analyze-child.mjs', import.meta.url));
  const flags = mode === 'analysis' ? [...ANALYSIS_FLAGS, ...(code.endsWith('/src') ? ['--import', 'tsx'] : [])] : [];
  const r = spawnSync(process.execPath, [...flags, childScript, mode, file, code], { encoding: 'utf8', maxBuffer: 16 * MB, env: { ...process.env, ...env } });
  if (r.status !== 0) throw new Error(`${mode} failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as Pass;
}

/** The median and the spread (min–max) of some figures. */
interface Spread {
  median: number;
  min: number;
  max: number;
}

function spread(values: number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)], min: sorted[0], max: sorted[sorted.length - 1] };
}

function fmt(s: Spread, digits: number, unit = ''): string {
  return `${s.median.toFixed(digits)}${unit} (${s.min.toFixed(digits)}–${s.max.toFixed(digits)})`;
}

function option(args: string[], name: string, fallback: number): number {
  const i = args.indexOf(name);
  const v = i === -1 ? NaN : Number(args[i + 1]);
  return Number.isFinite(v) && v > 0 ? v : fallback;
}

/**
 * Per input: one discarded baseline pass (warms the page cache and the disk), then `runs` rounds
 * of baseline + analysis, each pass in its own child process. Ratios are taken per round (the
 * baseline of the same moment), so a machine that gets busier mid-run skews both sides alike.
 */
function bench(label: string, file: string, runs: number): void {
  const size = statSync(file).size / MB;
  measure('baseline', file);
  const rounds = Array.from({ length: runs }, () => {
    const base = measure('baseline', file);
    const full = measure('analysis', file);
    const single = SINGLE ? measure('analysis', file, CODE_DIR, { VOUCH_ANALYSIS_THREADS: '1' }) : null;
    return { base, full, single, other: COMPARE_DIR ? measure('analysis', file, COMPARE_DIR) : null };
  });
  report(label, size, rounds.map((r) => ({ base: r.base, full: r.full })), true);
  if (SINGLE) report('  one thread', size, rounds.map((r) => ({ base: r.base, full: r.single! })));
  if (COMPARE_DIR) report(`  vs ${COMPARE_DIR.split('/').pop()}`, size, rounds.map((r) => ({ base: r.base, full: r.other! })));
}

// Issue 30's targets for `npm run bench`: at least half the reference's throughput (wall clock,
// as a user waits for it), in at most 150 MB.
const TARGET_RATIO = 0.5;
const TARGET_RSS_MB = 150;

function report(label: string, size: number, rounds: { base: Pass; full: Pass }[], verdict = false): void {
  const bRate = spread(rounds.map((r) => size / r.base.seconds));
  const aRate = spread(rounds.map((r) => size / r.full.seconds));
  const ratio = spread(rounds.map((r) => r.base.seconds / r.full.seconds));
  const cpuRatio = spread(rounds.map((r) => r.base.cpuSeconds / r.full.cpuSeconds));
  const aCpuRate = spread(rounds.map((r) => size / r.full.cpuSeconds));
  const bPeak = spread(rounds.map((r) => r.base.maxRssMb));
  const aPeak = spread(rounds.map((r) => r.full.maxRssMb));
  const loaded = spread(rounds.map((r) => r.full.loadedRssMb));
  console.log(
    `${label.padEnd(18)} ${size.toFixed(0).padStart(5)} MB | baseline ${fmt(bRate, 1)} MB/s | analysis ${fmt(aRate, 1)} MB/s | ratio ${fmt(ratio, 3, '×')} | CPU-time ratio ${fmt(cpuRatio, 3, '×')} (analysis ${fmt(aCpuRate, 1)} MB per CPU-s) | peak RSS baseline ${fmt(bPeak, 0)} MB, analysis ${fmt(aPeak, 0)} MB (loaded ${loaded.median.toFixed(0)} MB) | ${rounds[0].full.count} events`,
  );
  if (!verdict) return;
  const ok = (b: boolean) => (b ? 'met' : 'NOT met');
  console.log(`${''.padEnd(18)} target ≥ ${TARGET_RATIO}× (wall): ${ok(ratio.median >= TARGET_RATIO)}; peak RSS ≤ ${TARGET_RSS_MB} MB: ${ok(aPeak.median <= TARGET_RSS_MB)}`);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  // `--mb N`: inputs scaled to N MB (Claude Code) and N/2 MB (Codex) while iterating.
  const claudeMb = option(args, '--mb', 200);
  const codexMb = Math.max(1, Math.round(claudeMb / 2));
  const runs = option(args, '--runs', 3);
  const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : null;
  const inputs: [string, string][] = [];
  if (only !== 'huge' && (!only || only === 'claude')) inputs.push([`claude-code ${claudeMb} MB`, await generate(`claude-${claudeMb}mb.jsonl`, 'claude-code', claudeMb * MB)]);
  if (only !== 'huge' && (!only || only === 'codex')) inputs.push([`codex ${codexMb} MB`, await generate(`codex-${codexMb}mb.jsonl`, 'codex', codexMb * MB)]);
  if (args.includes('--huge') || only === 'huge') inputs.push(['claude-code 1 GB', await generate('claude-1024mb.jsonl', 'claude-code', 1024 * MB)]);
  if (args.includes('--prepare')) {
    for (const [label, file] of inputs) console.log(`${label}: ${file}`);
    return;
  }
  process.on('exit', () => generated.forEach((f) => rmSync(f, { force: true })));
  if (process.argv.indexOf('--code') === -1 && !CODE_DIR.endsWith('/src')) {
    // The default tree is dist/: make sure it is built from the sources as they are now.
    const build = fileURLToPath(new URL('../scripts/build.mjs', import.meta.url));
    const r = spawnSync(process.execPath, [build, '--if-stale', '--quiet'], { stdio: 'inherit' });
    if (r.status !== 0) throw new Error('npm run build failed');
  }
  console.log(`analysis code: ${CODE_DIR}; inputs generated for this run (variation ${RUN.toString(36)}); load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  console.log(`median of ${runs} runs (min–max); ratio = analysis MB/s ÷ baseline MB/s of the same round (wall clock);`);
  console.log('CPU-time ratio = the same with CPU seconds: steadier than wall time when the machine is shared');
  for (const [label, file] of inputs) bench(label, file, runs);
  console.log(`load average at the end: ${loadavg().map((l) => l.toFixed(1)).join(' ')} (${availableParallelism()} cores)`);
}

await main();
