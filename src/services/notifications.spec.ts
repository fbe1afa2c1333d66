import { test } from 'node:test';
import assert from 'node:assert/strict';
import { invitationText, sendInvitationMail, sendResetMail } from './notifications.ts';
import type { Mailer } from './notifications.ts';

const invitation = { to: 'new@example.test', link: 'http://vouch.test/invite/t0k', accountName: 'Acme', invitedBy: 'owner@example.test', expiresAt: '2030-01-01T00:00:00.000Z', hasAccount: false };

test('an invitation is sent with its link; without a mailer nothing is sent ("off")', async () => {
  const sent: { to: string; subject: string; text: string }[] = [];
  const mailer: Mailer = { send: async (m) => void sent.push(m), close: async () => {} };
  assert.equal(await sendInvitationMail(mailer, invitation, () => assert.fail('no error')), 'sent');
  assert.equal(sent.length, 1);
  assert.equal(sent[0].to, 'new@example.test');
  assert.equal(sent[0].subject, 'Join Acme on Vouch');
  assert.ok(sent[0].text.includes(invitation.link));
  assert.equal(await sendInvitationMail(null, invitation, () => assert.fail('no error')), 'off');
});

test('an address that has an account is told so, and gets no link to use', () => {
  const text = invitationText({ ...invitation, hasAccount: true });
  assert.ok(!text.includes(invitation.link));
  assert.match(text, /already has a Vouch account/);
});

test('a failed send is reported to the caller and answered "failed", never thrown', async () => {
  const errors: unknown[] = [];
  const mailer: Mailer = { send: async () => { throw new Error('SMTP refused'); }, close: async () => {} };
  const reset = { to: 'm@example.test', link: 'http://vouch.test/reset/x', accountName: 'Acme', issuedBy: 'owner@example.test', expiresAt: '2030-01-01T00:00:00.000Z' };
  assert.equal(await sendResetMail(mailer, reset, (e) => errors.push(e)), 'failed');
  assert.equal(errors.length, 1);
  assert.match(String(errors[0]), /SMTP refused/);
});
