// Lint: the recommended JS and TypeScript rules, and the layer rule of docs/architecture.md.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// ---- layers: imports point down only (docs/architecture.md draws them) ----
//
// A rule is a regular expression on the import specifier as written (relative paths: the layer
// shows as a directory name). It covers static imports, `export … from` and `import()`.

/** One layer rule: these files must not import specifiers matching `regex`. */
function layer(files, regex, message, ignores = []) {
  // esquery (the selector language) ends a regex literal at the first '/': spell it \x2F.
  const selector = `ImportExpression[source.value=/${regex.replaceAll('/', '\\x2F')}/]`;
  return {
    files,
    ignores,
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex, message }] }],
      'no-restricted-syntax': ['error', { selector, message }],
    },
  };
}

const SPECS = ['**/*.spec.ts', '**/*.spec.tsx'];

/**
 * `dir` imports nothing outside itself: at depth d below it, d + 1 `../` reach src/, and what
 * follows must be `dir/` again (specs may also use the shared test helpers in test/). One block
 * per depth (a glob `*` does not cross `/`).
 */
function selfContained(dir, message, depths = 6) {
  return Array.from({ length: depths }, (_, d) => {
    const files = [`src/${dir}/${'*/'.repeat(d)}*.{ts,tsx,mjs}`];
    const up = `^(\\.\\./){${d + 1}}`;
    return [
      layer(files, `${up}(?!${dir}/)`, message, SPECS),
      layer(files.map((f) => f.replace('*.{ts,tsx,mjs}', '*.spec.{ts,tsx}')), `${up}(?!${dir}/|\\.\\./test/)`, message),
    ];
  }).flat();
}

const LAYERS = [
  ...selfContained('domain', 'src/domain is pure: it imports nothing outside src/domain (docs/architecture.md).'),
  ...selfContained('kernel', 'src/kernel is the shared kernel: it imports nothing outside src/kernel (docs/architecture.md).'),
  layer(['src/adapters/**/*.{ts,tsx,mjs}'], '(^|/)(services|app|worker|cli)/',
    'Adapters sit below services, app, worker and cli: they never import them (docs/architecture.md). Pure helpers both need go to src/kernel.'),
  layer(['src/services/**/*.{ts,tsx,mjs}'], '(^|/)(app|worker|cli)/',
    'Services never import the entry points (app, worker, cli) (docs/architecture.md).'),
  layer(['src/app/routes/**/*.{ts,tsx,mjs}', 'src/app/web/**/*.{ts,tsx,mjs}'], '(^|/)adapters/',
    'Routes and pages see services and their view types only, never adapters or row types (docs/architecture.md).'),
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
