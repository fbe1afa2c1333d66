import { test } from 'node:test';
import assert from 'node:assert/strict';
import { invitationClaimText, invitationText, quotedName, sendInvitationClaimMail, sendInvitationMail, sendResetMail } from './notifications.ts';
import type { Mailer } from './notifications.ts';

const invitation = { to: 'new@example.test', link: 'http://vouch.test/invite/t0k', accountName: 'Acme', invitedBy: 'owner@example.test', expiresAt: '2030-01-01T00:00:00.000Z', hasAccount: false };

test('an invitation is sent with its link; without a mailer nothing is sent ("off")', async () => {
  const sent: { to: string; subject: string; text: string }[] = [];
  const mailer: Mailer = { send: async (m) => void sent.push(m), close: async () => {} };
  assert.equal(await sendInvitationMail(mailer, invitation, () => assert.fail('no error')), 'sent');
  assert.equal(sent.length, 1);
  assert.equal(sent[0].to, 'new@example.test');
  assert.equal(sent[0].subject, 'Invitation to a Vouch account');
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

test('issue 26/5: an account name chosen at sign-up never reaches a subject, and appears in a body quoted on one line, bounded', async () => {
  const lure = 'Security alert: your account is locked\r\nverify at https://evil.example/login now or lose access ' + 'x'.repeat(200);
  const sent: { to: string; subject: string; text: string }[] = [];
  const mailer: Mailer = { send: async (m) => void sent.push(m), close: async () => {} };
  await sendInvitationMail(mailer, { ...invitation, accountName: lure }, () => assert.fail('no error'));
  await sendResetMail(mailer, { to: 'm@example.test', link: 'http://vouch.test/reset/x', accountName: lure, issuedBy: 'o@example.test', expiresAt: '2030-01-01T00:00:00.000Z' }, () => assert.fail('no error'));
  for (const m of sent) {
    assert.doesNotMatch(m.subject, /Security alert|evil/);
    assert.ok(!m.text.includes('\r\nverify'), 'the name cannot start a line of its own');
    assert.ok(m.text.includes(quotedName(lure)));
  }
  assert.ok(quotedName(lure).length <= 82);
  assert.match(quotedName(lure), /^"Security alert: your account is locked verify at/);
});

test('issue 26/6: the email that proves an invitee\'s address carries the link, or says the address has an account', async () => {
  assert.match(invitationClaimText({ to: 'a@example.test', link: 'http://vouch.test/join/abc', expiresAt: 'x' }), /http:\/\/vouch\.test\/join\/abc/);
  const taken = invitationClaimText({ to: 'a@example.test', link: null, expiresAt: 'x' });
  assert.match(taken, /already has a Vouch account/);
  assert.doesNotMatch(taken, /\/join\//);
  const sent: { subject: string }[] = [];
  await sendInvitationClaimMail({ send: async (m) => void sent.push(m), close: async () => {} }, { to: 'a@example.test', link: null, expiresAt: 'x' }, () => {});
  assert.equal(sent[0].subject, 'Confirm your email address for Vouch');
});
