#!/usr/bin/env node
// The `vouch` executable. The code is TypeScript run through tsx's loader, so a checkout works
// after `npm install` with no build step; the same loader is handed to worker threads.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
await main(process.argv);
