import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseAnalysisComplete, verifyServiceSignature, verifyStandardWebhook, WebhookPayloadError } from './index.ts';
import { attemptHeaders, generateWhsecSecret } from '../services/webhooks/signing.ts';
import { serializePayload } from '../services/webhooks/shapes.ts';
import type { EventInput } from '../services/webhooks/shapes.ts';

const input: EventInput = {
  accountId: 'acc_1',
  session: { id: 'ses_1', agent: 'claude-code', repo: null, branch: 'feat/x' },
  report: {
    report_id: 'rep_1', trust_score: 40, outcome: 'Blocked', headline: 'h', reason: 'r', summary: 's',
    findings_count: { critical: 2, warning: 0, info: 1 },
  },
  reportUrl: 'https://v.example/r/1',
};

const NOW = 1_700_000_000_000;

function signed(secret: string, body: string) {
  return attemptHeaders({ deliveryId: 'dlv_1', attemptNo: 1, body, secret, version: 't', nowMs: NOW });
}

test('verifyServiceSignature accepts what the service sends and nothing else', () => {
  const body = serializePayload('A', input);
  const h = signed('s3cret', body);
  assert.equal(verifyServiceSignature('s3cret', body, h['x-service-signature']), true);
  assert.equal(verifyServiceSignature('s3cret', Buffer.from(body), [h['x-service-signature']]), true, 'bytes and array headers');
  assert.equal(verifyServiceSignature('s3cret', body + ' ', h['x-service-signature']), false, 'body changed');
  assert.equal(verifyServiceSignature('other', body, h['x-service-signature']), false, 'wrong secret');
  assert.equal(verifyServiceSignature('s3cret', body, undefined), false);
  assert.equal(verifyServiceSignature('s3cret', body, 'sha256=abc'), false, 'short value');
  assert.equal(verifyServiceSignature('s3cret', body, h['x-service-signature'].replace('sha256=', 'sha1=')), false);
  assert.equal(verifyServiceSignature('', body, h['x-service-signature']), false, 'no secret, no verification');
});

test('verifyStandardWebhook: both key conventions, tolerance, header sources', () => {
  const body = serializePayload('B', input);
  for (const secret of [generateWhsecSecret(), 'plain-secret', 'whsec_not_base64!']) {
    const h = signed(secret, body);
    assert.equal(verifyStandardWebhook(secret, body, h, { now: NOW }), true, secret);
    assert.equal(verifyStandardWebhook(secret, body, new Headers(h), { now: new Date(NOW + 299_000) }), true, 'fetch Headers, within 5 min');
    assert.equal(verifyStandardWebhook(secret, body, h, { now: NOW + 301_000 }), false, 'too old: replay refused');
    assert.equal(verifyStandardWebhook(secret, body, h, { now: NOW - 301_000 }), false, 'from the future');
    assert.equal(verifyStandardWebhook(secret, body, h, { now: NOW + 3_000_000, toleranceSeconds: 3600 }), true);
    assert.equal(verifyStandardWebhook(secret, body.replace('h', 'H'), h, { now: NOW }), false, 'body changed');
    assert.equal(verifyStandardWebhook(secret, body, { ...h, 'webhook-id': 'dlv_2' }, { now: NOW }), false, 'id changed');
  }
  const h = signed('k', body);
  const upper = { 'Webhook-Id': h['webhook-id'], 'Webhook-Timestamp': h['webhook-timestamp'], 'Webhook-Signature': `v1,AAAA ${h['webhook-signature']}` };
  assert.equal(verifyStandardWebhook('k', body, upper, { now: NOW }), true, 'any-case names; one of several signatures matches');
  assert.equal(verifyStandardWebhook('k', body, { ...h, 'webhook-timestamp': '17e8' }, { now: NOW }), false);
  assert.equal(verifyStandardWebhook('k', body, {}, { now: NOW }), false);
});

test('parseAnalysisComplete normalises the three shapes', () => {
  const a = parseAnalysisComplete(JSON.parse(serializePayload('A', input)));
  assert.deepEqual(a, {
    event: 'analysis.complete', shape: 'A', sessionId: 'ses_1', reportId: null, orgId: null, reportUrl: 'https://v.example/r/1',
    trustScore: 40, outcome: null, headline: null, reason: null, summary: null, agent: 'claude-code', repo: null, branch: null,
    findingsCount: { critical: 2, warning: 0, info: 1 },
  });
  const b = parseAnalysisComplete(serializePayload('B', input));
  assert.equal(b.shape, 'B');
  assert.equal(b.orgId, 'acc_1');
  assert.equal(b.outcome, 'Blocked');
  assert.equal(b.branch, 'feat/x');
  assert.equal(b.trustScore, null);
  const c = parseAnalysisComplete(Buffer.from(serializePayload('C', input)));
  assert.equal(c.shape, 'C');
  assert.equal(c.summary, 's');
  assert.equal(c.trustScore, 40);
  assert.equal(parseAnalysisComplete({ ...JSON.parse(serializePayload('C', input)), summary: { text: 's' } }).summary, '{"text":"s"}');
});

test('parseAnalysisComplete refuses anything else with a clear error', () => {
  const a = JSON.parse(serializePayload('A', input));
  const cases: Array<[unknown, RegExp]> = [
    ['not json', /not JSON/],
    [[1, 2], /not a JSON object/],
    [null, /not a JSON object/],
    [{ ...a, event: 'session.deleted' }, /unknown event "session.deleted"/],
    [{ event: 'analysis.complete' }, /none of shape A/],
    [{ ...a, trust_score: '40' }, /"trust_score" must be an integer/],
    [{ ...a, findings_count: { critical: 1, warning: 0 } }, /"info" must be an integer/],
    [{ ...JSON.parse(serializePayload('B', input)), outcome: 'Maybe' }, /Clear, Review or Blocked/],
  ];
  for (const [body, message] of cases) {
    assert.throws(() => parseAnalysisComplete(body), (e: Error) => e instanceof WebhookPayloadError && message.test(e.message), String(message));
  }
});
