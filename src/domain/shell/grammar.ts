// Where the bash grammar (WebAssembly) is: in the installed tree-sitter-bash package. The GitHub
// Action's single-file bundle has no node_modules; its build (scripts/build.mjs, buildAction)
// swaps this module for one that finds the grammar shipped beside the bundle.
import { createRequire } from 'node:module';

export function bashGrammarPath(): string {
  return createRequire(import.meta.url).resolve('tree-sitter-bash/tree-sitter-bash.wasm');
}
