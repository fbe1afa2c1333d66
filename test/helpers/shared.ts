// Where the shared material (corpus, conformance fixtures) lives: beside the checkout, as
// `../shared`, on every developer machine and in CI.
import { fileURLToPath } from 'node:url';

export const SHARED = fileURLToPath(new URL('../../../shared/', import.meta.url));
export const CORPUS_DIR = SHARED + 'corpus/';
export const FIXTURES_DIR = SHARED + 'conformance/fixtures/';
