// `npm run bench` (first part), or `npm run bench:startup`: wall time of the `vouch` command as a
// user meets it — bin/vouch.mjs running the compiled build, a fresh process each run. Not a
// test: it prints figures.
//
// The machine is shared and noisy, so every figure comes with its floor measured in the same
// run: `node -e 0`. The commands are interleaved round by round (floor, then each command once,
// then again), so a burst of load hits them all alike. For each command: the median wall time
// of BENCH_RUNS rounds (default 10, after one warm-up round that fills the OS file cache), the
// spread (min–max), and the ratio of its median to the floor's median.
//
// On Linux it also prints the CPU time of each command (user + system, children's times from
// /proc/self/stat, 10 ms ticks): other processes on the machine disturb it far less than wall time.
//
// It also times the GitHub Action's bundle (dist-action/index.mjs, built here) analysing the same
// log as the runner would start it.
//
// `--baseline DIR` also runs another checkout's build (e.g. `git worktree add /tmp/base main`
// and `npm run build` there) in the same rounds: before/after figures under the same load.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const RUNS = Number(process.env.BENCH_RUNS ?? 10);

// A realistic 1.3 KB Claude Code log: a prompt, a shell command (loads the shell parser), a
// result and a claim.
function smallLog(): string {
  const base = { sessionId: 's', cwd: '/home/dev/app', version: '2.0.14', gitBranch: 'main' };
  const rows = [
    { ...base, type: 'user', uuid: 'u1', timestamp: '2025-01-01T10:00:00.000Z', message: { role: 'user', content: 'Run the tests, clean the build directory, and tell me whether everything passes.' } },
    { ...base, type: 'assistant', uuid: 'a1', timestamp: '2025-01-01T10:00:01.000Z', message: { id: 'm1', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'tool_use', id: 'toolu_01', name: 'Bash', input: { command: 'rm -rf build && npm test 2>&1 | tail -n 20' } }], usage: { input_tokens: 1200, output_tokens: 40 } } },
    { ...base, type: 'user', uuid: 'u2', timestamp: '2025-01-01T10:00:09.000Z', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: 'tests: 48 passed, 0 failed' }] } },
    { ...base, type: 'assistant', uuid: 'a2', timestamp: '2025-01-01T10:00:10.000Z', message: { id: 'm2', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'All 48 tests pass and the build directory is clean.' }], usage: { input_tokens: 1300, output_tokens: 20 } } },
  ];
  return rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
}

/** CPU milliseconds used by the children this process has waited for (Linux), else null. */
function childrenCpuMs(): number | null {
  try {
    // Fields after the command name: cutime and cstime are the 14th and 15th (clock ticks, 100/s).
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return null;
  }
}

interface Sample {
  wall: number;
  cpu: number | null;
}

/** One run; exit codes 0-2 are verdicts, anything else is a broken command. */
function time(args: string[], env: NodeJS.ProcessEnv = {}): Sample {
  const cpuBefore = childrenCpuMs();
  const started = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  const wall = Number(process.hrtime.bigint() - started) / 1e6;
  const cpuAfter = childrenCpuMs();
  if (r.status !== 0 && r.status !== 1 && r.status !== 2) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return { wall, cpu: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore };
}

interface Case {
  name: string;
  /** Target wall time in ms on this machine (issue 9), when there is one. */
  target: number | null;
  run: (round: number) => Sample;
}

function casesFor(label: string, root: string, scratch: string, log: string): Case[] {
  const bin = join(root, 'bin/vouch.mjs');
  const data = join(scratch, `data-${label}`);
  const tag = label ? ` [${label}]` : '';
  return [
    { name: `vouch --version${tag}`, target: null, run: () => time([bin, '--version']) },
    { name: `vouch --help${tag}`, target: 300, run: () => time([bin, '--help']) },
    { name: `vouch analyze small.jsonl${tag}`, target: 500, run: () => time([bin, 'analyze', log]) },
    { name: `vouch analyze --format json${tag}`, target: 500, run: () => time([bin, 'analyze', log, '--format', 'json']) },
    // One data directory per build: the warm-up round creates and migrates it, as `vouch serve`
    // would have; every round then creates one more account.
    {
      name: `vouch admin create-account${tag}`,
      target: 600,
      run: (i) => time([bin, 'admin', 'create-account', '--email', `lead${i + 2}@acme.test`, '--password', 'a long passphrase'], { VOUCH_DATA_DIR: data, DATABASE_URL: '' }),
    },
  ];
}

/** The GitHub Action as the runner starts it: its bundle, inputs as INPUT_*, the workspace as working directory. */
function actionCase(scratch: string, log: string): Case {
  const outdir = join(scratch, 'dist-action');
  const built = spawnSync(process.execPath, [join(ROOT, 'scripts/build.mjs'), '--action', '--quiet', `--outdir=${outdir}`], { stdio: 'inherit' });
  if (built.status !== 0) process.exit(1);
  const env = { GITHUB_WORKSPACE: scratch, INPUT_LOG: log, 'INPUT_FAIL-ON': 'never' };
  return { name: 'GitHub Action bundle, small.jsonl', target: null, run: () => time([join(outdir, 'index.mjs')], env) };
}

function build(root: string): void {
  const built = spawnSync(process.execPath, [join(root, 'scripts/build.mjs'), '--if-stale'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) process.exit(1);
}

const median = (xs: number[]) => xs[Math.floor((xs.length - 1) / 2)];
const s = (ms: number) => (ms / 1000).toFixed(3);

function main(): void {
  const at = process.argv.indexOf('--baseline');
  const baseline = at > 0 ? resolve(process.argv[at + 1]) : null;
  build(ROOT);
  if (baseline) build(baseline);
  const scratch = mkdtempSync(join(tmpdir(), 'vouch-startup-'));
  try {
    const log = join(scratch, 'small.jsonl');
    writeFileSync(log, smallLog());
    const cases: Case[] = [
      { name: 'node -e 0 (floor)', target: null, run: () => time(['-e', '0']) },
      ...(baseline ? casesFor('baseline', baseline, scratch, log) : []),
      ...casesFor(baseline ? 'this' : '', ROOT, scratch, log),
      actionCase(scratch, log),
    ];
    const samples = cases.map(() => [] as Sample[]);
    for (let round = -1; round < RUNS; round++) {
      cases.forEach((c, k) => {
        const sample = c.run(round);
        if (round >= 0) samples[k].push(sample); // round -1 warms the file cache and the data dirs
      });
    }
    const sorted = (k: number, key: keyof Sample) => samples[k].map((x) => x[key] ?? NaN).sort((a, b) => a - b);
    const floorWall = median(sorted(0, 'wall'));
    const floorCpu = median(sorted(0, 'cpu'));
    console.log(`vouch start-up: ${RUNS} interleaved rounds (log: ${smallLog().length} bytes)`);
    console.log(`${''.padEnd(46)} wall: median (min–max), ÷ floor     CPU user+sys: median (min–max), ÷ floor`);
    cases.forEach((c, k) => {
      const wall = sorted(k, 'wall');
      const cpu = sorted(k, 'cpu');
      const m = median(wall);
      const verdict = c.target === null ? '' : `  ${m <= c.target ? '✓' : '✗'} target ≤ ${c.target / 1000} s`;
      const cpuText = Number.isNaN(cpu[0]) ? '' : `   ${s(median(cpu))} s (${s(cpu[0])}–${s(cpu.at(-1)!)}) ${(median(cpu) / floorCpu).toFixed(2)}×`;
      console.log(`${c.name.padEnd(46)} ${s(m)} s (${s(wall[0])}–${s(wall.at(-1)!)}) ${(m / floorWall).toFixed(2)}×${cpuText}${verdict}`);
    });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

main();
