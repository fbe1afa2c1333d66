import { test } from 'node:test';
import assert from 'node:assert/strict';
import { crc32 } from 'node:zlib';
import { detectSecrets } from './detect.ts';
import { checksumHolds } from './tokens.ts';

// Tokens are built here, at run time, from a made-up body: no live-looking value sits in the file.
const BODY = 'Qm7rT2vX9kLp4Wn8Zs3Hy6Bc1Df5Ga';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
function base62(n: number): string {
  let s = '';
  for (; n > 0; n = Math.floor(n / 62)) s = BASE62[n % 62] + s;
  return s.padStart(6, '0');
}
const token = (prefix: string, body = BODY) => `${prefix}${body}${base62(crc32(body))}`;
const values = async (text: string) => (await detectSecrets(text)).map((h) => h.value);

test('the checksum of GitHub and npm tokens: the last six characters are the base-62 CRC-32 of the thirty before them', () => {
  assert.equal(checksumHolds(token('npm_')), true);
  assert.equal(checksumHolds(token('ghp_')), true);
  const wrong = token('npm_').slice(0, -1) + (token('npm_').endsWith('A') ? 'B' : 'A');
  assert.equal(checksumHolds(wrong), false);
  assert.equal(checksumHolds('npm_short'), false);
});

test('a checksummed token glued to the letters after it (an env file missing a line break) is found where its checksum holds', async () => {
  const npm = token('npm_');
  assert.deepEqual(await values(`103:HINDSIGHT_${npm}OPENROUTER_API_KEY\n155:OPENAI_API_KEY\n`), [npm]);
  const gh = token('ghp_');
  // under a name, the labelled value runs to the end of the word: it holds the token, masked whole
  const labelled = await values(`GITHUB_TOKEN=${gh}export PATH=/usr/bin\n`);
  assert.ok(labelled.length === 1 && labelled[0]!.includes(gh), JSON.stringify(labelled.length));
});

test('a token-shaped run glued to letters is not a token when its checksum fails, nor a longer word that starts like one', async () => {
  const npm = token('npm_');
  const broken = npm.slice(0, -6) + 'ABCDEF';
  assert.equal(checksumHolds(broken), false);
  assert.deepEqual(await values(`HINDSIGHT_${broken}OPENROUTER_API_KEY\n`), []);
  assert.deepEqual(await values('see npm_Abcdefghijklmnopqrstuvwxyz0123456789MoreLettersHere for details\n'), []);
});

test('two checksummed tokens glued together are both found, each masked (review of set 64\'s mends)', async () => {
  const npm = token('npm_');
  const gh = token('ghp_', 'Hk4RtY7uI0oP3aS6dF9gJ2kL5zX8cV');
  const found = await values(`${npm}${gh}\n`);
  assert.deepEqual([...found].sort(), [gh, npm].sort());
});
