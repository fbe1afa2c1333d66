// `npm run bench` (first part), or `npm run bench:startup`: wall time of the `vouch` command as a
// user meets it — the compiled build, a fresh process each run. Not a test: it prints figures.
// Each command runs 10 times (after one warm-up run that fills the OS file cache); the median,
// min and max are reported next to the targets of issue 9. A loaded machine shows in
// `node -e 0`, measured the same way as the floor.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const BIN = join(ROOT, 'bin/vouch.mjs');
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

function time(args: string[], env: NodeJS.ProcessEnv = {}): number {
  const started = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (r.status !== 0 && r.status !== 1 && r.status !== 2) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return ms;
}

function measure(name: string, target: number | null, run: (i: number) => number): void {
  run(-1); // warm-up
  const samples = Array.from({ length: RUNS }, (_, i) => run(i)).sort((a, b) => a - b);
  const median = samples[Math.floor((samples.length - 1) / 2)];
  const verdict = target === null ? '' : median <= target ? `  ✓ target ≤ ${target / 1000} s` : `  ✗ target ≤ ${target / 1000} s`;
  console.log(`${name.padEnd(34)} median ${(median / 1000).toFixed(3)} s  (min ${(samples[0] / 1000).toFixed(3)}, max ${(samples.at(-1)! / 1000).toFixed(3)})${verdict}`);
}

const built = spawnSync(process.execPath, [join(ROOT, 'scripts/build.mjs'), '--if-stale'], { stdio: 'inherit' });
if (built.status !== 0) process.exit(1);

const dir = mkdtempSync(join(tmpdir(), 'vouch-startup-'));
try {
  const log = join(dir, 'small.jsonl');
  writeFileSync(log, smallLog());
  console.log(`vouch startup, ${RUNS} runs each (log: ${smallLog().length} bytes)`);
  measure('node -e 0 (floor)', null, () => time(['-e', '0']));
  measure('vouch --version', null, () => time([BIN, '--version']));
  measure('vouch --help', 300, () => time([BIN, '--help']));
  measure('vouch analyze small.jsonl', 500, () => time([BIN, 'analyze', log]));
  measure('vouch analyze --format json', 500, () => time([BIN, 'analyze', log, '--format', 'json']));
  // One data directory: the warm-up run creates and migrates it, as `vouch serve` would have.
  measure('vouch admin create-account', 600, (i) =>
    time([BIN, 'admin', 'create-account', '--email', `lead${i + 2}@acme.test`, '--password', 'a long passphrase'], { VOUCH_DATA_DIR: join(dir, 'data'), DATABASE_URL: '' }),
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
