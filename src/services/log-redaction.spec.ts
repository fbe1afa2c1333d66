import { test } from 'node:test';
import assert from 'node:assert/strict';
import { countingMasker } from './log-redaction.ts';
import { maskKnown } from '../domain/secrets/mask.ts';

const detect = async (text: string) => [...text.matchAll(/ghp_[A-Za-z0-9]{36}/g)].map((m) => m[0]);
const token = `ghp_${'a1B2'.repeat(9)}`;

test('the counting masker masks detected secrets and counts each distinct one per line', async () => {
  const { masker, count } = countingMasker(detect, maskKnown);
  const out = await masker(`export GH=${token}; echo ${token}`);
  assert.ok(!out.includes(token));
  assert.match(out, /ghp_…/);
  await masker(`again ${token}`);
  assert.equal(count(), 2);
});

test('a line without secrets is returned as is and not counted', async () => {
  const { masker, count } = countingMasker(detect, maskKnown);
  assert.equal(await masker('npm test'), 'npm test');
  assert.equal(count(), 0);
});
