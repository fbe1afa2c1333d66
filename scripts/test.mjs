#!/usr/bin/env node
// `npm test`: every tier of the test suite, in order, each with node's test runner via tsx.
//   1. unit       src/**/*.spec.ts(x)             (pure domain code, no I/O)
//   1b. cli       test/cli/**/*.test.ts           (the vouch command as a user runs it)
//   2. sqlite     test/integration/**/*.test.ts   (real HTTP app, embedded SQLite)
//   3. postgres   test/integration/**/*.test.ts   (the same files on a fresh PostgreSQL database)
//   4. e2e        test/e2e/**/*.test.ts           (a real Chromium driven by playwright-core)
// Prints one closing line "tests: N passed, N failed" over all tiers; exits non-zero on any failure.
// Select tiers with arguments: `npm test -- unit sqlite`.
import { spawn } from 'node:child_process';
import { readdirSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const TIERS = {
  unit: { dir: 'src', suffix: ['.spec.ts', '.spec.tsx'], env: {} },
  cli: { dir: 'test/cli', suffix: '.test.ts', env: {} },
  sqlite: { dir: 'test/integration', suffix: '.test.ts', env: { VOUCH_TEST_DB: 'sqlite' } },
  postgres: { dir: 'test/integration', suffix: '.test.ts', env: { VOUCH_TEST_DB: 'postgres' } },
  e2e: { dir: 'test/e2e', suffix: '.test.ts', env: {} },
};

function filesOf(dir, suffix) {
  const abs = join(root, dir);
  if (!existsSync(abs)) return [];
  return readdirSync(abs, { recursive: true })
    .map(String)
    .filter((f) => [suffix].flat().some((s) => f.endsWith(s)) && !f.includes('node_modules'))
    .map((f) => relative(root, join(abs, f)))
    .sort();
}

function runTier(name, files, env) {
  return new Promise((resolve) => {
    console.log(`\n=== ${name}: ${files.length} files ===`);
    const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-timeout=300000', ...files], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let tail = '';
    child.stdout.on('data', (d) => {
      process.stdout.write(d);
      tail = (tail + d).slice(-4000);
    });
    child.on('close', (code) => {
      const count = (label) => Number(new RegExp(`^# ${label} (\\d+)$`, 'm').exec(tail)?.[1] ?? 0);
      resolve({ name, pass: count('pass'), fail: count('fail') + (code !== 0 && count('fail') === 0 ? 1 : 0), code });
    });
  });
}

const wanted = process.argv.slice(2).filter((a) => a in TIERS);
const tiers = wanted.length > 0 ? wanted : Object.keys(TIERS);
const results = [];
for (const name of tiers) {
  const { dir, suffix, env } = TIERS[name];
  const files = filesOf(dir, suffix);
  if (files.length === 0) continue;
  results.push(await runTier(name, files, env));
}
const pass = results.reduce((s, r) => s + r.pass, 0);
const fail = results.reduce((s, r) => s + r.fail, 0);
console.log('\n' + results.map((r) => `${r.name}: ${r.pass} passed, ${r.fail} failed`).join('\n'));
console.log(`tests: ${pass} passed, ${fail} failed`);
process.exit(fail > 0 || results.some((r) => r.code !== 0) ? 1 : 0);
