#!/usr/bin/env node
// `npm test`: every tier of the test suite with node's test runner (TypeScript through tsx).
//   unit      src/**/*.spec.ts                (pure domain code, no I/O)
//   cli       test/cli/**/*.test.ts           (the built `vouch` command as a user runs it)
//   sqlite    test/integration/**/*.test.ts   (real HTTP app, embedded SQLite)
//   postgres  test/integration/**/*.test.ts   (the same files on fresh PostgreSQL databases)
//   e2e       test/e2e/**/*.test.ts           (a real Chromium driven by playwright-core)
//   agents    test/agents/**/*.test.ts        (the real Claude Code, Codex and Gemini CLIs, pinned in
//                                              scripts/agents.mjs and installed from the npm registry
//                                              into ~/.cache/vouch-agents, against a local model stand-in)
//   faults    test/faults/**/*.test.ts        (real faults: a throwaway PostgreSQL cluster restarted
//                                             and stopped, Redis stopped, a full tmpfs, slow clients,
//                                             kill -9; needs PostgreSQL's initdb/pg_ctl and redis-server)
//
// First it compiles src/ into dist/ (scripts/build.mjs, ~1 s), so the CLI and browser tiers run
// the current source, never a stale build. Then the tiers run side by side in LANES: each tier
// has its own data directories or databases, and most of their time is spent waiting on I/O
// (servers, PostgreSQL, a browser), so running them concurrently shortens `npm test` even on two
// cores. Each tier's output is printed whole when it ends (no interleaving).
//
// Counts come from each tier's TAP stream: passed, failed (failures + cancelled), skipped (skips +
// todos). The closing line is `tests: N passed, N failed, N skipped`. A skipped test hides what it
// did not check, so with CI=true every skip counts as a failure (e.g. the browser tier without
// Chromium). Exit code non-zero on any failure, or if a tier's runner itself failed.
//
// Each tier also prints its five slowest files (their tests' summed durations) and starts its
// files longest first, by the durations of the last run on this machine.
//
// Select tiers with arguments: `npm test -- unit sqlite`. `--serial` runs the tiers one by one.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildDist } from './build.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const TIERS = {
  unit: { dir: 'src', suffix: ['.spec.ts', '.spec.tsx'], env: {} },
  cli: { dir: 'test/cli', suffix: '.test.ts', env: {} },
  sqlite: { dir: 'test/integration', suffix: '.test.ts', env: { VOUCH_TEST_DB: 'sqlite' } },
  postgres: { dir: 'test/integration', suffix: '.test.ts', env: { VOUCH_TEST_DB: 'postgres' } },
  e2e: { dir: 'test/e2e', suffix: '.test.ts', env: {} },
  // A cold cache installs the three CLIs first (~1 minute on a fast link): a generous per-test limit.
  agents: { dir: 'test/agents', suffix: '.test.ts', env: {}, timeoutMs: 900_000 },
  faults: { dir: 'test/faults', suffix: '.test.ts', env: {} },
};
// Tiers in one lane run one after the other; lanes run at the same time. The CPU-bound tiers
// (unit, cli) share a lane; the database and browser tiers wait on I/O and get their own; the
// real agents follow the browser tier. The fault tier runs alone, after all lanes: its tests
// exercise real-time limits (job leases, the grace an open webhook attempt gets) against the
// outages they cause, and a machine starved by four other tiers stretches every step past the
// limits they are about — once a CI run in twenty-odd (a worker that held a receiver's answer
// through a PostgreSQL outage could not record it within the grace).
const LANES = [['unit', 'cli'], ['sqlite'], ['postgres'], ['e2e', 'agents']];
const ALONE = ['faults'];
const ci = process.env.CI === 'true' || process.env.CI === '1';

function filesOf(dir, suffix) {
  const abs = join(root, dir);
  if (!existsSync(abs)) return [];
  return readdirSync(abs, { recursive: true })
    .map(String)
    .filter((f) => [suffix].flat().some((s) => f.endsWith(s)) && !f.includes('node_modules'))
    .map((f) => relative(root, join(abs, f)))
    .sort();
}

// How long each file's tests took in the last run on this machine (from scripts/test-timings.mjs),
// kept outside the checkout so every clone on the machine shares it. A tier starts its longest
// files first: with files run two at a time, a long file started last would otherwise run alone
// at the end while the other slot idles. Files never timed count as the longest (they may be).
const DURATIONS_FILE = join(tmpdir(), 'vouch-test-durations.json');

function readDurations() {
  try {
    return JSON.parse(readFileSync(DURATIONS_FILE, 'utf8'));
  } catch {
    return {};
  }
}

function longestFirst(tier, files, durations) {
  const known = (f) => durations[`${tier} ${f}`] ?? Infinity;
  return [...files].sort((a, b) => known(b) - known(a) || a.localeCompare(b));
}

function saveDurations(results) {
  const durations = readDurations();
  for (const r of results) for (const f of r.timings) durations[`${r.name} ${relative(root, f.file)}`] = f.ms;
  try {
    writeFileSync(DURATIONS_FILE, JSON.stringify(durations));
  } catch {
    // Only an ordering hint: a read-only temp directory costs nothing but the order.
  }
}

/** Totals from the summary comments a TAP stream ends with (`# pass 12`, `# skipped 1`, …). */
export function tapCounts(tap) {
  const count = (label) => Number(new RegExp(`^# ${label} (\\d+)$`, 'm').exec(tap)?.[1] ?? 0);
  return { pass: count('pass'), fail: count('fail') + count('cancelled'), skip: count('skipped') + count('todo'), found: /^# tests \d+$/m.test(tap) };
}

/**
 * Each failed test of a TAP stream, with the lines of its YAML block that say why (error,
 * expected/actual, location): printed again at the very end, so that the tail of a long CI log
 * (often all a reader gets) names the failure and its reason, not only the totals.
 */
export function tapFailures(tap) {
  const lines = tap.split('\n');
  const failures = [];
  for (let i = 0; i < lines.length; i++) {
    const head = /^(\s*)not ok \d+ - (.*)$/.exec(lines[i]);
    if (!head) continue;
    const why = [];
    for (let j = i + 1; j < lines.length && !/^\s*\.\.\.$/.test(lines[j]) && why.length < 120; j++) {
      const key = /^(\s*)(error|expected|actual|operator|location|failureType):(.*)$/.exec(lines[j]);
      if (!key) continue;
      why.push(lines[j].trim().slice(0, 500));
      // A block value (`error: |-`, or a list under `expected:`) continues on the lines indented
      // deeper: its text is the reason (an error's message may carry the processes' logs).
      if (!/^\s*([|>][-+]?)?\s*$/.test(key[3])) continue;
      const most = key[2] === 'error' ? 80 : 12;
      for (let k = j + 1, kept = 0; k < lines.length && lines[k].search(/\S/) > key[1].length && kept < most; k++, kept++) {
        why.push(`  ${lines[k].trim().slice(0, 500)}`);
        j = k;
      }
    }
    // A parent reports "N subtests failed": its failing children already say why.
    if (!why.some((w) => /subtests? failed/.test(w))) failures.push({ name: head[2], why });
  }
  return failures;
}

/** Runs one tier: spec output (human) buffered for printing, TAP to a file for the counts. */
function runTier(name, files, env, scratch, timeoutMs = 300_000) {
  const tapFile = join(scratch, `${name}.tap`);
  const timingsFile = join(scratch, `${name}.timings`);
  const started = Date.now();
  return new Promise((resolve) => {
    const args = ['--import', 'tsx', '--test', '--test-concurrency=2', `--test-timeout=${timeoutMs}`];
    args.push('--test-reporter=spec', '--test-reporter-destination=stdout', '--test-reporter=tap', `--test-reporter-destination=${tapFile}`);
    args.push(`--test-reporter=${join(root, 'scripts/test-timings.mjs')}`, `--test-reporter-destination=${timingsFile}`);
    const child = spawn(process.execPath, [...args, ...files], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => out.push(d));
    child.on('close', (code) => {
      const tap = existsSync(tapFile) ? readFileSync(tapFile, 'utf8') : '';
      const c = tapCounts(tap);
      // A runner that died without a summary, or exited non-zero with no failed test, is a failure too.
      const runnerFailed = !c.found || (code !== 0 && c.fail === 0);
      const timings = fileTimings(timingsFile);
      resolve({ name, ...c, fail: c.fail + (runnerFailed ? 1 : 0), code, seconds: Math.round((Date.now() - started) / 1000), output: Buffer.concat(out).toString(), timings, failures: tapFailures(tap) });
    });
  });
}

/** Each file's summed top-level test durations, slowest first. */
function fileTimings(timingsFile) {
  if (!existsSync(timingsFile)) return [];
  return readFileSync(timingsFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line))
    .sort((a, b) => b.ms - a.ms);
}

function report(r) {
  process.stdout.write(`\n=== ${r.name} (${r.seconds} s) ===\n${r.output}`);
  process.stdout.write(`--- ${r.name}: ${r.pass} passed, ${r.fail} failed, ${r.skip} skipped\n`);
  if (r.timings.length > 0) process.stdout.write(`--- ${r.name}, slowest files: ${r.timings.slice(0, 5).map((f) => `${relative(root, f.file)} ${(f.ms / 1000).toFixed(1)} s`).join(', ')}\n`);
}

async function main() {
  const args = process.argv.slice(2);
  const wanted = args.filter((a) => a in TIERS);
  const unknown = args.filter((a) => !(a in TIERS) && a !== '--serial');
  if (unknown.length > 0) {
    console.error(`unknown tier(s): ${unknown.join(', ')}; tiers are ${Object.keys(TIERS).join(', ')}`);
    process.exit(2);
  }
  const selected = new Set(wanted.length > 0 ? wanted : Object.keys(TIERS));
  const serial = args.includes('--serial');
  const lanes = serial ? [[...selected]] : LANES.map((lane) => lane.filter((t) => selected.has(t))).filter((l) => l.length > 0);
  const alone = serial ? [] : ALONE.filter((t) => selected.has(t));

  await buildDist({ quiet: true });
  const scratch = mkdtempSync(join(tmpdir(), 'vouch-test-'));
  const results = [];
  const started = Date.now();
  const durations = readDurations();
  const runLane = async (lane) => {
    for (const name of lane) {
      const { dir, suffix, env, timeoutMs } = TIERS[name];
      const files = longestFirst(name, filesOf(dir, suffix), durations);
      if (files.length === 0) continue;
      console.log(`… ${name}: ${files.length} files`);
      const r = await runTier(name, files, env, scratch, timeoutMs);
      report(r);
      results.push(r);
    }
  };
  try {
    await Promise.all(lanes.map(runLane));
    await runLane(alone);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  saveDurations(results);
  const sum = (k) => results.reduce((s, r) => s + r[k], 0);
  const pass = sum('pass');
  const skip = sum('skip');
  const fail = sum('fail') + (ci ? skip : 0);
  const order = Object.keys(TIERS);
  results.sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name));
  for (const r of results) {
    for (const f of r.failures) console.log(`\nFAILED (${r.name}): ${f.name}\n${f.why.map((w) => `  ${w}`).join('\n')}`);
  }
  console.log('\n' + results.map((r) => `${r.name}: ${r.pass} passed, ${r.fail} failed, ${r.skip} skipped (${r.seconds} s)`).join('\n'));
  if (ci && skip > 0) console.log(`CI=true: the ${skip} skipped test(s) count as failures`);
  console.log(`wall time ${Math.round((Date.now() - started) / 1000)} s`);
  console.log(`tests: ${pass} passed, ${fail} failed, ${skip} skipped`);
  process.exit(fail > 0 ? 1 : 0);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
