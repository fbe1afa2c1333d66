// Lint: the recommended JS and TypeScript rules, and the layer rule of docs/architecture.md.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// ---- layers: imports point down only (docs/architecture.md draws them and lists these rules) ----
//
// A rule is a regular expression on the import specifier as written (relative paths: the layer
// shows as a directory name). It covers static imports, `export … from` and `import()`. There is
// no list of exceptions: a file that needs one is in the wrong place.

/**
 * The layer rules of some files: each says these files must not import specifiers matching
 * `regex` (static imports, `export … from`, and `import()`). `typeImports: 'allowed'` lets
 * `import type` through and `importNames` limits a rule to some names (for what may be *built*,
 * not named); import() cannot be limited to some names, so a dynamic import of a module a rule
 * names is refused whole. All rules of a set of files go into one block: ESLint's flat config
 * replaces, not merges, the options of a rule set twice for a file.
 */
function layer(files, rules, { ignores = [] } = {}) {
  // esquery (the selector language) ends a regex literal at the first '/': spell it \x2F.
  const selectors = rules.map(({ regex, message }) => ({ selector: `ImportExpression[source.value=/${regex.replaceAll('/', '\\x2F')}/]`, message }));
  const patterns = rules.map(({ regex, message, typeImports, importNames }) => ({
    regex, message, ...(typeImports === 'allowed' ? { allowTypeImports: true } : {}), ...(importNames ? { importNames } : {}),
  }));
  return { files, ignores, rules: { 'no-restricted-imports': ['error', { patterns }], 'no-restricted-syntax': ['error', ...selectors] } };
}

const SPECS = ['**/*.spec.ts', '**/*.spec.tsx'];
const CODE = '*.{ts,tsx,mjs}';

/**
 * `dir` imports nothing outside itself: at depth d below it, d + 1 `../` reach src/, and what
 * follows must be `dir/` again (specs may also use the shared test helpers in test/). One block
 * per depth (a glob `*` does not cross `/`).
 */
function selfContained(dir, message, depths = 6) {
  return Array.from({ length: depths }, (_, d) => {
    const files = [`src/${dir}/${'*/'.repeat(d)}${CODE}`];
    const up = `^(\\.\\./){${d + 1}}`;
    return [
      layer(files, [{ regex: `${up}(?!${dir}/)`, message }], { ignores: SPECS }),
      layer(files.map((f) => f.replace(CODE, '*.spec.{ts,tsx}')), [{ regex: `${up}(?!${dir}/|\\.\\./test/)`, message }]),
    ];
  }).flat();
}

/** What builds an adapter (opens a connection, starts threads, makes a client): the composition root's work. */
const ADAPTER_BUILDERS = [
  'openDatabase', 'createLogStore', 'FileLogStore', 'ChunkLogStore', 'S3LogStore', 'createAnalysisPool', 'inProcessAnalyzer',
  'createOutboundClient', 'createJobRunner', 'createSmtpMailer', 'createMetrics',
];

// The directories of src/ an import specifier can name (relative paths show them as `<dir>/`).
const dir = (...names) => `(^|/)(${names.join('|')})/`;
const ROOT_ONLY = 'only the composition root (src/root/) builds adapters and wires the services (docs/architecture.md).';

const LAYERS = [
  ...selfContained('domain', 'src/domain is pure: it imports nothing outside src/domain (docs/architecture.md).'),
  ...selfContained('kernel', 'src/kernel is the shared kernel: it imports nothing outside src/kernel (docs/architecture.md).'),
  layer(['src/adapters/**/*.{ts,tsx,mjs}'], [{ regex: dir('services', 'app', 'worker', 'cli', 'root'),
    message: 'Adapters sit below services, the entry points and the root: they never import them (docs/architecture.md). Pure helpers both need go to src/kernel.' }]),
  layer(['src/services/**/*.{ts,tsx,mjs}'], [
    { regex: dir('app', 'worker', 'cli', 'root'), message: 'Services never import the entry points (app, worker, cli) or the composition root (docs/architecture.md).' },
    // Repositories build nothing: services may import them whole (`import * as repo`).
    { regex: '(^|/)adapters/(?!db/repositories/)', message: `Services use adapters (repositories, ports, errors) but never build one: ${ROOT_ONLY}`, typeImports: 'allowed', importNames: ADAPTER_BUILDERS },
  ]),
  layer(['src/app/**/*.{ts,tsx,mjs}'], [{ regex: dir('adapters', 'worker', 'cli', 'root'),
    message: 'The HTTP app sees services, kernel and domain only (types included: services have their own view and port types); it never imports an adapter, the worker, the CLI or the root (docs/architecture.md).' }]),
  layer(['src/worker/**/*.{ts,tsx,mjs}'], [{ regex: dir('adapters', 'app', 'cli', 'root'),
    message: 'The worker sees services, kernel and domain only (types included); it never imports an adapter, the HTTP app, the CLI or the root (docs/architecture.md).' }]),
  layer(['src/cli/**/*.{ts,tsx,mjs}'], [{ regex: dir('adapters', 'app', 'worker'),
    message: 'The CLI sees services, kernel and domain, and opens the composition root (src/root/) for everything else; it never imports an adapter, the HTTP app or the worker (docs/architecture.md).' }]),
];

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'dist.*/**', 'dist-action/**', 'dist-action.*/**', 'types/**', '.scratch/**', 'data/**', 'coverage/**', '**/*.wasm'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', fetch: 'readonly', AbortController: 'readonly', TextDecoder: 'readonly', TextEncoder: 'readonly', structuredClone: 'readonly', queueMicrotask: 'readonly', setImmediate: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-explicit-any': 'warn',
      'no-control-regex': 'off',
    },
  },
  ...LAYERS,
);
