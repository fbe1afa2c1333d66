import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WebhookConflictError, WebhookNotFoundError, WebhookValidationError } from './errors.ts';

test('the webhook errors say what callers show, and are told apart by class', () => {
  const invalid = new WebhookValidationError('the URL must use http or https');
  assert.equal(invalid.reason, 'the URL must use http or https');
  assert.equal(invalid.message, invalid.reason);
  assert.equal(invalid.name, 'WebhookValidationError');
  const missing = new WebhookNotFoundError('delivery', 'dlv_1');
  assert.equal(missing.message, 'no delivery dlv_1 in this account');
  assert.equal(missing.name, 'WebhookNotFoundError');
  const conflict = new WebhookConflictError('the delivery is still pending');
  assert.equal(conflict.name, 'WebhookConflictError');
  for (const e of [invalid, missing, conflict]) assert.ok(e instanceof Error);
  assert.ok(!(missing instanceof WebhookValidationError));
});
