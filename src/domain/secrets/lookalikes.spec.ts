import { it } from 'node:test';
import assert from 'node:assert/strict';
import { detectSecrets } from './detect.ts';
import { randomString } from './test-helpers.ts';

it('an Infracost key, not the .ico-<hash> of a fingerprinted icon file', async () => {
  const body = randomString(32, undefined, 61);
  assert.deepEqual((await detectSecrets(`INFRACOST_API_KEY=ico-${body}`)).map((h) => h.ruleId), ['token/infracost']);
  assert.deepEqual(await detectSecrets(`<link rel="icon" href="/assets/favicon.ico-${body}.png">`), []);
});
