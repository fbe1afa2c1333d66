// The `vouch` executable as users run it: bin/vouch.mjs over the compiled build in dist/.
// Importing this module rebuilds dist/ first if any source is newer than it (scripts/build.mjs
// --if-stale, a few milliseconds when fresh), so a test run directly with `node --test` never
// exercises a stale build. (`npm test` builds once before all tiers anyway.)
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const BIN = fileURLToPath(new URL('../../bin/vouch.mjs', import.meta.url));

const built = spawnSync(process.execPath, [fileURLToPath(new URL('../../scripts/build.mjs', import.meta.url)), '--if-stale', '--quiet'], { encoding: 'utf8' });
if (built.status !== 0) throw new Error(`building dist/ failed: ${built.stderr}`);
