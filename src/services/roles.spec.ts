import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ACTIONS, can, canRemove, invitableRoles, isRole, rolesAllowed } from './roles.ts';
import type { Action } from './roles.ts';

test('owners may do everything', () => {
  for (const action of Object.keys(ACTIONS) as Action[]) assert.ok(can('owner', action), action);
});

test('admins manage what the account connects to, but not roles, ownership or reset links', () => {
  for (const action of ['members.invite', 'members.remove', 'keys.manage', 'webhooks.manage', 'logs.redact_delete', 'retention.manage', 'audit.read'] as Action[]) assert.ok(can('admin', action), action);
  for (const action of ['members.roles', 'members.reset_password'] as Action[]) assert.ok(!can('admin', action), action);
});

test('members read and upload sessions and manage only themselves', () => {
  const allowed = (Object.keys(ACTIONS) as Action[]).filter((a) => can('member', a));
  assert.deepEqual(allowed.sort(), ['account.self', 'members.read', 'sessions.read', 'sessions.upload']);
  assert.deepEqual(rolesAllowed('keys.manage'), ['owner', 'admin']);
});

test('removal: admins remove members only, owners anyone, members no one', () => {
  assert.ok(canRemove('admin', 'member'));
  assert.ok(!canRemove('admin', 'admin'));
  assert.ok(!canRemove('admin', 'owner'));
  assert.ok(canRemove('owner', 'owner'));
  assert.ok(!canRemove('member', 'member'));
});

test('invitations: owners invite members and admins, admins members, members nobody', () => {
  assert.deepEqual(invitableRoles('owner'), ['member', 'admin']);
  assert.deepEqual(invitableRoles('admin'), ['member']);
  assert.deepEqual(invitableRoles('member'), []);
  assert.ok(isRole('admin'));
  assert.ok(!isRole('root'));
});
