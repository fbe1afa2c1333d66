// The package version: package.json is its one source. The CLI's --version, the OpenAPI
// document's info.version and the webhooks' User-Agent all read it here. (The analyser's own
// version, recorded in every report, is domain/version.ts: it changes when the rules change.)
import { readFileSync } from 'node:fs';

let cached: string | undefined;

/** Read once; the same relative path from src/kernel/ and dist/kernel/ (the build keeps the depth). */
export function packageVersion(): string {
  cached ??= (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  return cached;
}
