#!/usr/bin/env node
// `npm run build` (also run by `npm install` through `prepare`, and by `npm test` first):
// compiles src/**/*.ts(x) to dist/**/*.js with esbuild, one output file per source file, so that
//  - dynamic `import()`s stay lazy exactly as written (a command loads only what it uses);
//  - dist/ mirrors src/ at the same depth, so `new URL('../../package.json', import.meta.url)` and
//    `createRequire(import.meta.url)` resolve the same files from dist as from src;
//  - nothing needs a loader hook at run time (bin/vouch.mjs and the analysis workers load dist);
//  - packages made of hundreds of tiny modules (kysely) are pre-bundled into dist/vendor/.
// Relative `.ts`/`.tsx` import specifiers are rewritten to `.js`; packages stay external imports.
// Files in src that are not code (assets, .mjs) are copied as they are; tests (*.spec.ts,
// *.testing.ts) and READMEs are left out. Source maps are linked so stack traces name src/ lines.
// A stamp (dist/.build-stamp) records the newest source mtime it was built from: `--if-stale`
// rebuilds only when a source is newer (test/helpers/cli.ts runs it before spawning the CLI).
//
// `--action [--outdir=DIR]` (npm run build:action) builds the GitHub Action instead: src/cli/github-action/entry.ts
// and everything it imports, node_modules included, bundled into ONE file, dist-action/index.mjs,
// with the two WebAssembly files it loads beside it and the licences of the bundled packages —
// so `uses:` runs it with no install. dist-action/ is not committed on main: the release script
// (scripts/release-action.mjs) builds it into the release commit. See docs/integrations.md.
import { build } from 'esbuild';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const srcDir = join(root, 'src');
const outDir = join(root, 'dist');
export const ACTION_DIR = join(root, 'dist-action');

const isTest = (f) => /\.(spec|testing)\.tsx?$/.test(f) || f.endsWith('test-helpers.ts');
const isCode = (f) => /\.tsx?$/.test(f) && !f.endsWith('.d.ts');
// READMEs, and the loader shims that let worker threads run the TypeScript sources under tsx (the
// compiled pool starts dist's worker.js; a shipped copy would import tsx, a dev dependency).
const SHIMS = new Set(['worker-entry.mjs', 'shard-worker-entry.mjs'].map((f) => join('adapters', 'analysis-pool', f)));
const isSkipped = (f) => /(^|\/)README\.md$/.test(f) || SHIMS.has(f);

/** Every file under src, relative to it. */
function sourceFiles() {
  return readdirSync(srcDir, { recursive: true })
    .map(String)
    .filter((f) => statSync(join(srcDir, f)).isFile());
}

/**
 * Packages shipped as hundreds of small ES modules, pre-bundled into one file each under
 * dist/vendor/: kysely's ~290 files cost more to resolve and load than everything else an admin
 * command does. Our imports of them are pointed at the bundle (one instance, still lazy).
 */
const VENDORED = ['kysely'];

/** Marks every import external; relative TypeScript specifiers point at the compiled `.js`. */
const externalImports = {
  name: 'external-imports',
  setup(b) {
    b.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind === 'entry-point') return undefined;
      if (VENDORED.includes(args.path)) {
        const rel = relative(dirname(args.importer), join(srcDir, 'vendor', `${args.path}.js`)).split(sep).join('/');
        return { path: rel.startsWith('.') ? rel : `./${rel}`, external: true };
      }
      const path = args.path.startsWith('.') ? args.path.replace(/\.tsx?$/, '.js') : args.path;
      return { path, external: true };
    });
  },
};

async function buildVendored(outdir) {
  await build({
    entryPoints: Object.fromEntries(VENDORED.map((name) => [name, fileURLToPath(import.meta.resolve(name))])),
    outdir: join(outdir, 'vendor'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.18',
    logLevel: 'warning',
  });
}

/**
 * dist/guard.cjs: `vouch guard` and everything judging one call needs, in one minified CommonJS
 * file, which bin/guard-loader.mjs runs through `vm.Script` with V8's code cache (Node 20 caches
 * no ES module code). The lazy imports stay lazy: esbuild wraps each module it bundles in an
 * initialiser run at first use, and V8 compiles a function only when it first runs. web-tree-sitter
 * stays outside (required when a command line needs the grammar); `import.meta.url` is the
 * bundle's URL, passed in by the loader.
 */
async function buildGuardBundle(outdir) {
  await build({
    entryPoints: [join(srcDir, 'cli', 'guard', 'entry.ts')],
    outfile: join(outdir, 'guard.cjs'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20.18',
    minify: true, // less to read, and to parse when the code cache is missing or stale
    external: ['web-tree-sitter'],
    supported: { 'dynamic-import': false }, // import('web-tree-sitter') → require(): a vm.Script has no module loader
    define: { 'import.meta.url': '__vouchModuleUrl' },
    logLevel: 'warning',
  });
}

/** The newest modification time among the sources (and this script): what the stamp records. */
export function newestSourceMtime() {
  let newest = statSync(fileURLToPath(import.meta.url)).mtimeMs;
  for (const f of sourceFiles()) newest = Math.max(newest, statSync(join(srcDir, f)).mtimeMs);
  return newest;
}

/** Replaces `dir` by the finished build in `next` with two renames: a reader never sees half a build. */
function swapIn(next, dir) {
  const old = `${dir}.old-${process.pid}`;
  if (existsSync(dir)) renameSync(dir, old);
  renameSync(next, dir);
  rmSync(old, { recursive: true, force: true });
}

export async function buildDist({ quiet = false } = {}) {
  const started = performance.now();
  const files = sourceFiles().filter((f) => !isTest(f) && !isSkipped(f));
  const code = files.filter(isCode);
  const assets = files.filter((f) => !isCode(f));
  const stamp = newestSourceMtime();
  // Built aside and swapped in, so that a process running from dist/ never sees half a build.
  const next = `${outDir}.next-${process.pid}`;
  rmSync(next, { recursive: true, force: true });
  await build({
    entryPoints: code.map((f) => join(srcDir, f)),
    outdir: next,
    outbase: srcDir,
    bundle: true, // needed for the plugin to see imports; every import is external, so one file in, one out
    plugins: [externalImports],
    platform: 'node',
    format: 'esm',
    target: 'node20.18',
    sourcemap: 'linked',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    logLevel: 'warning',
  });
  await buildVendored(next);
  await buildGuardBundle(next);
  for (const f of assets) {
    mkdirSync(dirname(join(next, f)), { recursive: true });
    cpSync(join(srcDir, f), join(next, f));
  }
  writeFileSync(join(next, '.build-stamp'), String(stamp));
  swapIn(next, outDir);
  if (!quiet) {
    const ms = Math.round(performance.now() - started);
    process.stderr.write(`vouch build: ${code.length} modules, ${assets.length} assets → ${relative(root, outDir)}/ in ${ms} ms\n`);
  }
}

/** True when dist/ was built from the sources as they are now. */
export function isFresh() {
  try {
    return Number(readFileSync(join(outDir, '.build-stamp'), 'utf8')) >= newestSourceMtime();
  } catch {
    return false;
  }
}

/** The bundle finds the bash grammar beside itself (see src/domain/shell/grammar.ts). */
const grammarBesideBundle = {
  name: 'grammar-beside-bundle',
  setup(b) {
    b.onResolve({ filter: /\/grammar\.ts$/ }, (args) => (args.importer.endsWith(join('domain', 'shell', 'parse.ts')) ? { path: 'grammar', namespace: 'vouch-action' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'vouch-action' }, () => ({
      contents: "import { fileURLToPath } from 'node:url';\nexport function bashGrammarPath() { return fileURLToPath(new URL('./tree-sitter-bash.wasm', import.meta.url)); }\n",
      loader: 'js',
    }));
  },
};

/** The package a bundled input belongs to (`node_modules/@scope/name/…` → its directory), or null for our own. */
function packageDirOf(input) {
  const m = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
  return m ? join(root, m[1]) : null;
}

/** Every bundled package's name, version and licence text, for dist-action/THIRD-PARTY-LICENSES.txt. */
function licenceNotices(inputs) {
  const dirs = new Set([...inputs.map(packageDirOf).filter(Boolean), join(root, 'node_modules', 'tree-sitter-bash')]);
  const notices = [...dirs].sort().map((dir) => {
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const file = readdirSync(dir).find((f) => /^(licen[cs]e|copying)(\.|$)/i.test(f));
    const text = file ? readFileSync(join(dir, file), 'utf8').trim() : `Licence: ${pkg.license ?? 'not stated'} (no licence file in the package)`;
    return `${pkg.name}@${pkg.version} (${pkg.license ?? 'unknown'})\n\n${text}\n`;
  });
  return `Packages bundled into index.mjs (and the WebAssembly files beside it):\n\n${notices.join(`\n${'-'.repeat(72)}\n\n`)}`;
}

/** The GitHub Action: one ESM file plus the WebAssembly it loads. Built aside and swapped in, like dist/. */
export async function buildAction({ outdir = ACTION_DIR, quiet = false } = {}) {
  const started = performance.now();
  const next = `${outdir}.next-${process.pid}`;
  rmSync(next, { recursive: true, force: true });
  const result = await build({
    entryPoints: [join(srcDir, 'cli', 'github-action', 'entry.ts')],
    outfile: join(next, 'index.mjs'),
    bundle: true,
    plugins: [grammarBesideBundle],
    platform: 'node',
    format: 'esm',
    target: 'node20.18',
    minify: true, // a quarter of the size: less for the runner to read and parse at every start
    legalComments: 'none', // the licences are in THIRD-PARTY-LICENSES.txt, whole
    metafile: true,
    // CommonJS packages bundled into an ES module still call require() for Node's built-ins.
    banner: { js: "import { createRequire as __vouchRequire } from 'node:module'; const require = __vouchRequire(import.meta.url);" },
    logLevel: 'warning',
  });
  cpSync(fileURLToPath(import.meta.resolve('web-tree-sitter/tree-sitter.wasm')), join(next, 'tree-sitter.wasm'));
  cpSync(join(root, 'node_modules', 'tree-sitter-bash', 'tree-sitter-bash.wasm'), join(next, 'tree-sitter-bash.wasm'));
  writeFileSync(join(next, 'THIRD-PARTY-LICENSES.txt'), licenceNotices(Object.keys(result.metafile.inputs)));
  swapIn(next, outdir);
  if (!quiet) {
    const ms = Math.round(performance.now() - started);
    const kb = Math.round(statSync(join(outdir, 'index.mjs')).size / 1024);
    process.stderr.write(`vouch build: GitHub Action → ${relative(root, outdir)}/index.mjs (${kb} KiB) in ${ms} ms\n`);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const quiet = process.argv.includes('--quiet');
  const outdir = process.argv.find((a) => a.startsWith('--outdir='))?.slice('--outdir='.length);
  if (process.argv.includes('--action')) await buildAction({ quiet, ...(outdir ? { outdir: resolve(outdir) } : {}) });
  // --if-stale: do nothing when dist/ is up to date (tests call this before spawning the CLI).
  else if (!(process.argv.includes('--if-stale') && isFresh())) await buildDist({ quiet });
}
