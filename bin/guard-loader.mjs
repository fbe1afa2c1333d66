// Runs `vouch guard` from dist/guard.cjs (one CommonJS file built by scripts/build.mjs) through
// V8's code cache. A guard decision is a fresh process per tool call, and most of its time above a
// bare `node -e 0` went to compiling the same ~500 KB of JavaScript again at every call; Node 20
// caches no compiled ES module code (module.enableCompileCache is 22.1+), but `vm.Script` takes
// and produces V8 code cache for a script. So the bundle is a CommonJS function run through
// `vm.Script`, and after the first decision the code V8 compiled for it (the functions that call
// ran, lazily compiled ones included) is saved under the guard directory; later calls hand it back
// and skip the compile.
//
// The cache is keyed by the bundle's size and modification time and by Node's version and
// architecture (V8 also checks its version and flags, and rejects a mismatch: then the call
// compiles as usual and rewrites the cache). It sits beside the journal, in a directory only the
// user can write (0700): whoever can write there can already change what the user's shell runs.
// VOUCH_GUARD_CODE_CACHE=off runs without it (the cold case, every call).
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';

const BUNDLE = fileURLToPath(new URL('../dist/guard.cjs', import.meta.url));

/** Runs the guard on `args` (`<agent>`); the exit code is left in process.exitCode. */
export async function runGuardBundle(args) {
  let stat;
  try {
    stat = statSync(BUNDLE);
  } catch {
    throw new Error('the compiled build is missing (dist/guard.cjs; run `npm run build`)');
  }
  const source = readFileSync(BUNDLE, 'utf8');
  const cacheFile = codeCacheFile(stat);
  const cachedData = cacheFile ? readOrNull(cacheFile) : undefined;
  // The same wrapper Node gives a CommonJS module, plus the URL the sources read as import.meta.url.
  const script = new Script(`(function (exports, require, module, __filename, __dirname, __vouchModuleUrl) {${source}\n})`, {
    filename: BUNDLE,
    cachedData: cachedData ?? undefined,
  });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(BUNDLE), module, BUNDLE, join(BUNDLE, '..'), new URL('../dist/guard.cjs', import.meta.url).href);
  await module.exports.guardMain(args);
  // After the answer: the agent has it, and the code compiled for this call is all in the cache.
  if (cacheFile && (!cachedData || script.cachedDataRejected)) saveCodeCache(cacheFile, script);
}

function codeCacheFile(stat) {
  const setting = process.env.VOUCH_GUARD_CODE_CACHE;
  if (setting === 'off' || setting === '0') return null;
  const dir = join(process.env.VOUCH_GUARD_DIR ?? join(process.env.HOME ?? homedir(), '.vouch', 'guard'), 'code-cache');
  return join(dir, `guard-${stat.size}-${Math.floor(stat.mtimeMs)}-${process.version}-${process.arch}.bin`);
}

function readOrNull(file) {
  try {
    return readFileSync(file);
  } catch {
    return null;
  }
}

/** Writes the cache aside and renames it in (a concurrent call never reads half); drops older ones. */
function saveCodeCache(file, script) {
  try {
    const dir = join(file, '..');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const tmp = `${file}.tmp-${process.pid}`;
    writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
    renameSync(tmp, file);
    const name = file.slice(dir.length + 1);
    for (const other of readdirSync(dir)) if (other !== name && other.endsWith('.bin')) rmSync(join(dir, other), { force: true });
  } catch {
    // Only a cost: the next call compiles again.
  }
}
