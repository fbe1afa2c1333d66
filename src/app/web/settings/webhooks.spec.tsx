// The delivery log explains each attempt in words, whatever its error class.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderToString } from 'preact-render-to-string';
import { describeAttempt, WebhookForm, EMPTY_FORM } from './webhooks.tsx';
import type { WebUser } from '../../types.ts';

const done = { finished_at: '2026-01-01T00:00:00.000Z', error: 'x' };

test('each error class of an attempt is described in words', () => {
  assert.match(describeAttempt({ ...done, status_code: 204, error_class: null }), /^Accepted: the receiver answered HTTP 204/);
  assert.match(describeAttempt({ ...done, status_code: 503, error_class: 'http_status' }), /HTTP 503; only a 2xx answer counts/);
  assert.match(describeAttempt({ ...done, status_code: 302, error_class: 'redirect' }), /never follows redirects/);
  assert.match(describeAttempt({ ...done, status_code: null, error_class: 'timeout' }), /No complete answer in time/);
  assert.match(describeAttempt({ ...done, status_code: null, error_class: 'dns' }), /could not be resolved/);
  assert.match(describeAttempt({ ...done, status_code: null, error_class: 'connect' }), /connection failed/);
  assert.match(describeAttempt({ ...done, status_code: null, error_class: 'tls' }), /TLS handshake failed/);
  assert.match(describeAttempt({ ...done, status_code: null, error_class: 'ssrf_refused' }), /non-public address.*VOUCH_WEBHOOK_ALLOW_CIDRS/);
  assert.match(describeAttempt({ ...done, status_code: null, error_class: 'interrupted' }), /may or may not have received it/);
  assert.match(describeAttempt({ ...done, status_code: null, error_class: 'something-new' }), /network error/);
});

test('an attempt without an end is in progress, not a failure', () => {
  assert.match(describeAttempt({ finished_at: null, status_code: null, error_class: null, error: null }), /^In progress/);
});

test('the webhook form previews every shape and escapes what was typed', () => {
  const user: WebUser = { userId: 'usr_1', accountId: 'acc_1', email: 'a@example.test', csrfToken: 'tok', sessionId: 's', role: 'owner' };
  const event = { accountId: 'acc_1', session: { id: 'ses_1', agent: 'codex', repo: 'acme/x', branch: null }, report: { report_id: 'rep_1', trust_score: 90, outcome: 'Clear', headline: 'h', reason: 'r', summary: 's', findings_count: { critical: 0, warning: 0, info: 0 } }, reportUrl: 'http://x/r/ses_1' };
  const html = renderToString(<WebhookForm user={user} action="/settings/webhooks" values={{ ...EMPTY_FORM, url: '"><script>x</script>' }} errors={{}} editing={false} previewEvent={event} submit="Add" />);
  assert.ok(!html.includes('<script>x'));
  for (const field of ['session_id', 'orgId', 'trustScore']) assert.ok(html.includes(`&quot;${field}&quot;`), field);
  assert.ok(!html.includes('value="keep"'), 'a new webhook has no secret to keep');
});
