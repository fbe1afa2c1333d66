#!/usr/bin/env node
// The `vouch` executable. It runs the compiled build in dist/ (made by `npm install` through the
// `prepare` script, or `npm run build`): plain JavaScript, no loader hooks, so it starts fast.
// Source maps point stack traces at the TypeScript in src/.
process.setSourceMapsEnabled(true);
let main;
try {
  ({ main } = await import('../dist/cli/main.js'));
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes('dist/cli/main.js')) throw error;
  process.stderr.write('vouch: the compiled build is missing (dist/); run `npm run build` (npm install does it)\n');
  process.exit(6);
}
await main(process.argv);
