#!/usr/bin/env node
// The `vouch` executable. It runs the compiled build in dist/ (made by `npm install` through the
// `prepare` script, or `npm run build`): plain JavaScript, no loader hooks, so it starts fast.
import { existsSync } from 'node:fs';

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
