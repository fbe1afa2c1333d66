#!/usr/bin/env node
// The `vouch` executable. It runs the compiled build in dist/ (made by `npm install` through the
// `prepare` script, or `npm run build`): plain JavaScript, no loader hooks, so it starts fast.
import { existsSync } from 'node:fs';

// `vouch guard <agent>` is an agent's pre-tool hook, run before every tool call: it skips the
// CLI (commander and the command modules) and runs dist/guard.cjs, everything judging one call
// needs in one file (scripts/build.mjs), through V8's code cache (bin/guard-loader.mjs).
// V8 would otherwise compile the shell grammar's WebAssembly (1.3 MB) with its optimising tier on
// background threads — ~0.4 s of CPU the process waits for at exit; the baseline compiler alone
// parses a command line in well under a millisecond.
if (process.argv[2] === 'guard') {
  const { setFlagsFromString } = await import('node:v8');
  setFlagsFromString('--liftoff-only');
  try {
    const { runGuardBundle } = await import('./guard-loader.mjs');
    await runGuardBundle(process.argv.slice(3));
  } catch (error) {
    // A broken install must never block the agent: the guard fails open and says why.
    process.stderr.write(`vouch guard: ${error instanceof Error ? error.message : String(error)}; allowing the call\n`);
    process.exitCode = 0;
  }
  process.exit();
}
const LONG_RUNNING = new Set(['serve', 'worker']);
const entry = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('vouch: the compiled build is missing (dist/); run `npm run build` (npm install does it)\n');
  process.exit(6);
}
// Source maps make stack traces name src/ lines, but Node then reads and parses the map of every
// module it loads: ~15% of a short command's start-up. Only the long-running commands, whose
// stack traces end up in logs, turn them on (NODE_OPTIONS=--enable-source-maps for any other).
if (LONG_RUNNING.has(process.argv[2])) process.setSourceMapsEnabled(true);
const { main } = await import(entry.href);
await main(process.argv);
