import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { FIXTURE_PASSWORD, serviceFixture } from '../../test/helpers/services.ts';
import type { ServiceFixture } from '../../test/helpers/services.ts';
import { MemberForbiddenError, MemberInputError } from './members.ts';
import type { ActingMember } from './members.ts';

let f: ServiceFixture;
before(async () => (f = await serviceFixture()));
after(() => f.close());

const acting = (userId: string, role: ActingMember['role'] = 'owner'): ActingMember => ({ userId, role, ctx: { actor: { type: 'user', id: userId, label: 'owner' }, ip: null } });

test('an invitation is accepted once, with a password: the new member joins with the invited role', async () => {
  const a = await f.account();
  const inv = await f.services.members.inviteMember(a.accountId, acting(a.userId), 'New.Member@Example.test', 'admin');
  assert.equal(inv.email, 'new.member@example.test');
  assert.equal((await f.services.members.listInvitations(a.accountId)).length, 1);
  assert.equal((await f.services.members.openInvitation(inv.token))?.email, 'new.member@example.test');
  await assert.rejects(f.services.members.acceptInvitation(inv.token, 'short'), MemberInputError);
  const joined = await f.services.members.acceptInvitation(inv.token, FIXTURE_PASSWORD);
  assert.equal(joined?.accountId, a.accountId);
  assert.equal(await f.services.members.acceptInvitation(inv.token, FIXTURE_PASSWORD), null, 'once only');
  const members = await f.services.members.listMembers(a.accountId);
  assert.deepEqual(members.map((m) => m.role).sort(), ['admin', 'owner']);
});

test('roles: only owners change them, and an account keeps at least one owner', async () => {
  const a = await f.account();
  const inv = await f.services.members.inviteMember(a.accountId, acting(a.userId), 'second@example.test', 'member');
  const second = (await f.services.members.acceptInvitation(inv.token, FIXTURE_PASSWORD))!;
  await assert.rejects(f.services.members.changeRole(a.accountId, acting(second.userId, 'member'), a.userId, 'member'), MemberForbiddenError);
  await assert.rejects(f.services.members.changeRole(a.accountId, acting(a.userId), a.userId, 'member'), /at least one owner/);
  const promoted = await f.services.members.changeRole(a.accountId, acting(a.userId), second.userId, 'owner');
  assert.equal(promoted.role, 'owner');
});

test('removing a member ends their access; their keys are revoked unless transferred', async () => {
  const a = await f.account();
  const inv = await f.services.members.inviteMember(a.accountId, acting(a.userId), 'leaver@example.test', 'admin');
  const leaver = (await f.services.members.acceptInvitation(inv.token, FIXTURE_PASSWORD))!;
  await f.services.keys.issueApiKey(a.accountId, 'leaver-key', { actor: { type: 'user', id: leaver.userId, label: leaver.email }, ip: null });
  const plan = await f.services.members.offboardingPlan(a.accountId, leaver.userId);
  assert.deepEqual(plan.keys.map((k) => k.name), ['leaver-key']);
  await assert.rejects(f.services.members.removeMember(a.accountId, acting(a.userId), a.userId), /cannot remove yourself/);
  const removed = await f.services.members.removeMember(a.accountId, acting(a.userId), leaver.userId);
  assert.equal(removed.keysRevoked, 1);
  assert.deepEqual((await f.services.members.listMembers(a.accountId)).map((m) => m.id), [a.userId]);
  assert.equal((await f.services.webAuth.signIn('leaver@example.test', FIXTURE_PASSWORD, 60_000)).kind, 'refused');
});

test('a password-reset link sets a new password once and signs the member in', async () => {
  const a = await f.account();
  const inv = await f.services.members.inviteMember(a.accountId, acting(a.userId), 'forgetful@example.test', 'member');
  const m = (await f.services.members.acceptInvitation(inv.token, FIXTURE_PASSWORD))!;
  const reset = await f.services.members.issuePasswordReset(a.accountId, acting(a.userId), m.userId);
  assert.equal((await f.services.members.openPasswordReset(reset.token))?.email, 'forgetful@example.test');
  const used = await f.services.members.usePasswordReset(reset.token, 'brand new password 1', null, 60_000);
  assert.equal(used?.email, 'forgetful@example.test');
  assert.equal(await f.services.members.usePasswordReset(reset.token, 'another password 22', null, 60_000), null, 'once only');
  assert.equal((await f.services.webAuth.signIn('forgetful@example.test', 'brand new password 1', 60_000)).kind, 'ok');
});
