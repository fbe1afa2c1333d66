import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { serviceFixture } from '../../test/helpers/services.ts';
import type { ServiceFixture } from '../../test/helpers/services.ts';
import { AccountInputError, EmailTakenError, emailProblem } from './accounts.ts';

let f: ServiceFixture;
before(async () => (f = await serviceFixture()));
after(() => f.close());

test('createAccount makes the account, its owner and a first API key that authenticates', async () => {
  const a = await f.services.accounts.createAccount({ email: 'Founder@Example.test', password: 'correct horse battery staple', name: 'Acme' });
  assert.match(a.accountId, /^acc_/);
  assert.match(a.userId, /^usr_/);
  assert.equal(await f.services.accounts.accountName(a.accountId), 'Acme');
  assert.equal(await f.services.accounts.accountExists(a.accountId), true);
  const { hashApiKey } = await import('./keys.ts');
  const owner = await f.services.keys.authenticateKeyHash(hashApiKey(a.apiKey));
  assert.equal(owner?.accountId, a.accountId);
  const members = await f.services.members.listMembers(a.accountId);
  assert.deepEqual(members.map((m) => [m.email, m.role]), [['founder@example.test', 'owner']]);
});

test('an email is one person: a second account with it is refused; bad input is refused before anything is stored', async () => {
  await f.services.accounts.signUpAccount({ email: 'once@example.test', password: 'correct horse battery staple' });
  await assert.rejects(f.services.accounts.signUpAccount({ email: 'ONCE@example.test', password: 'correct horse battery staple' }), EmailTakenError);
  await assert.rejects(f.services.accounts.createAccount({ email: 'not-an-email', password: 'correct horse battery staple' }), AccountInputError);
  await assert.rejects(f.services.accounts.createAccount({ email: 'short@example.test', password: 'short' }), /at least 8/);
  assert.equal(emailProblem('a@b.co'), null);
  assert.equal(await f.services.accounts.accountExists('acc_00000000000000000000000000'), false);
  assert.equal(await f.services.accounts.accountName('acc_00000000000000000000000000'), 'your team');
});
