import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { FIXTURE_PASSWORD, serviceFixture } from '../../test/helpers/services.ts';
import type { ServiceFixture } from '../../test/helpers/services.ts';
import { backoffMs, memberContext } from './web-auth.ts';

let f: ServiceFixture;
before(async () => (f = await serviceFixture()));
after(() => f.close());
const TTL = 3600_000;

test('sign in with the right password gives a web session the cookie resolves to; sign out ends it', async () => {
  const a = await f.account();
  const signed = await f.services.webAuth.signIn(a.email, FIXTURE_PASSWORD, TTL, '203.0.113.1');
  assert.equal(signed.kind, 'ok');
  if (signed.kind !== 'ok') return;
  const session = await f.services.webAuth.resolveWebSession(signed.token);
  assert.equal(session?.accountId, a.accountId);
  assert.equal(session?.role, 'owner');
  await f.services.webAuth.signOut(session!.sessionId);
  assert.equal(await f.services.webAuth.resolveWebSession(signed.token), null);
  assert.equal(await f.services.webAuth.resolveWebSession('not-a-token'), null);
});

test('a wrong password is refused; repeated failures back off', async () => {
  const a = await f.account();
  assert.equal((await f.services.webAuth.signIn(a.email, 'wrong password!', TTL)).kind, 'refused');
  assert.equal((await f.services.webAuth.signIn('nobody@example.test', FIXTURE_PASSWORD, TTL)).kind, 'refused');
  let last = '';
  for (let i = 0; i < 8 && last !== 'backoff'; i++) last = (await f.services.webAuth.signIn(a.email, 'wrong password!', TTL)).kind;
  assert.equal(last, 'backoff');
  assert.ok(backoffMs(10) > backoffMs(5));
});

test('changing the password checks the current one and ends the other sessions', async () => {
  const a = await f.account();
  const one = await f.services.webAuth.startWebSession({ id: a.userId, account_id: a.accountId }, TTL);
  const two = await f.services.webAuth.startWebSession({ id: a.userId, account_id: a.accountId }, TTL);
  const me = (await f.services.webAuth.resolveWebSession(one.token))!;
  assert.equal((await f.services.webAuth.changePassword(me, 'not the password', 'a new password 123', null)).kind, 'wrong_current');
  const changed = await f.services.webAuth.changePassword(me, FIXTURE_PASSWORD, 'a new password 123', null);
  assert.deepEqual(changed, { kind: 'changed', otherSessionsEnded: 1 });
  assert.ok(await f.services.webAuth.resolveWebSession(one.token), 'this session stays');
  assert.equal(await f.services.webAuth.resolveWebSession(two.token), null);
  assert.equal((await f.services.webAuth.signIn(a.email, 'a new password 123', TTL)).kind, 'ok');
  assert.deepEqual(memberContext({ userId: a.userId, email: a.email }, '203.0.113.1').actor, { type: 'user', id: a.userId, label: a.email });
});
