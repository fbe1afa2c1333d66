import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { attemptHeaders, generateWhsecSecret, maskSecret, serviceSignature, standardSignature, standardWebhooksKey } from './signing.ts';

const body = '{"event":"analysis.complete","x":"é"}';

test('X-Service-Signature is the hex HMAC keyed with the secret as entered', () => {
  const expected = 'sha256=' + createHmac('sha256', 'whsec_conformance_A').update(Buffer.from(body, 'utf8')).digest('hex');
  assert.equal(serviceSignature('whsec_conformance_A', body), expected);
  // A whsec_ secret that IS valid base64 is still used verbatim for this scheme.
  const whsec = 'whsec_' + Buffer.alloc(24, 7).toString('base64');
  assert.equal(serviceSignature(whsec, body), 'sha256=' + createHmac('sha256', whsec).update(body).digest('hex'));
});

test('Standard Webhooks key: decoded whsec_ bytes, else the UTF-8 bytes', () => {
  const key = Buffer.from('d3b07384d113edec49eaa6238ad5ff00c86e4f3ac0a1b2c3', 'hex');
  assert.deepEqual(standardWebhooksKey('whsec_' + key.toString('base64')), key);
  // Not valid padded base64 after the prefix: used as text (what the conformance suite expects).
  assert.deepEqual(standardWebhooksKey('whsec_conformance_A'), Buffer.from('whsec_conformance_A'));
  assert.deepEqual(standardWebhooksKey('whsec_retry'), Buffer.from('whsec_retry'));
  assert.deepEqual(standardWebhooksKey('whsec_'), Buffer.from('whsec_'));
  assert.deepEqual(standardWebhooksKey('s3cret'), Buffer.from('s3cret'));
});

test('webhook-signature is v1,<base64 HMAC over id.timestamp.body>', () => {
  const key = Buffer.alloc(32, 1);
  const secret = 'whsec_' + key.toString('base64');
  const expected = 'v1,' + createHmac('sha256', key).update(`dlv_1.1700000000.${body}`).digest('base64');
  assert.equal(standardSignature(secret, 'dlv_1', 1700000000, body), expected);
  const plain = 'v1,' + createHmac('sha256', 'plain').update(`dlv_1.1700000000.${body}`).digest('base64');
  assert.equal(standardSignature('plain', 'dlv_1', 1700000000, body), plain);
});

test('attempt headers: always the event/delivery/attempt/agent, signatures only with a secret', () => {
  const unsigned = attemptHeaders({ deliveryId: 'dlv_X', attemptNo: 3, body, secret: null, version: '1.2.3' });
  assert.deepEqual(unsigned, {
    'content-type': 'application/json',
    'user-agent': 'Vouch-Webhooks/1.2.3',
    'x-service-event': 'analysis.complete',
    'x-service-delivery': 'dlv_X',
    'x-service-attempt': '3',
  });
  const signed = attemptHeaders({ deliveryId: 'dlv_X', attemptNo: 1, body, secret: 'k', version: '1.2.3', nowMs: 1_700_000_000_999 });
  assert.equal(signed['webhook-id'], 'dlv_X');
  assert.equal(signed['webhook-timestamp'], '1700000000', 'seconds, rounded down');
  assert.equal(signed['x-service-signature'], serviceSignature('k', body));
  assert.equal(signed['webhook-signature'], standardSignature('k', 'dlv_X', 1700000000, body));
});

test('generated secrets are whsec_ + base64 of 32 random bytes', () => {
  const a = generateWhsecSecret();
  const b = generateWhsecSecret();
  assert.match(a, /^whsec_[A-Za-z0-9+/]{43}=$/);
  assert.notEqual(a, b);
  assert.equal(standardWebhooksKey(a).length, 32);
  assert.throws(() => generateWhsecSecret(8), RangeError);
});

test('secrets are masked', () => {
  assert.equal(maskSecret(null), null);
  assert.equal(maskSecret('whsec_abcdefghijklmnopqrstuvwxyz0123'), 'whsec_…0123');
  assert.equal(maskSecret('short'), '…', 'a short secret shows nothing of itself');
  assert.equal(maskSecret('whsec_retry'), 'whsec_…');
});
