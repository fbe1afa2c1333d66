#!/usr/bin/env node
// The `vouch` executable. It runs the compiled build in dist/ (made by `npm install` through the
// `prepare` script, or `npm run build`): plain JavaScript, no loader hooks, so it starts fast.
// Source maps point stack traces at the TypeScript in src/.
import { existsSync } from 'node:fs';

const entry = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('vouch: the compiled build is missing (dist/); run `npm run build` (npm install does it)\n');
  process.exit(6);
}
process.setSourceMapsEnabled(true);
const { main } = await import(entry.href);
await main(process.argv);
